package records

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/pbem-referee/referee/store"
)

// LoadGame reads and decodes a game's record.
func LoadGame(tx *store.Tx, id string) (*Game, error) {
	raw, err := tx.Game(id)
	if err != nil {
		return nil, err
	}
	return DecodeGame(id, raw)
}

// DecodeGame decodes the stored bytes of game id's record.
func DecodeGame(id string, raw []byte) (*Game, error) {
	var g Game
	if err := json.Unmarshal(raw, &g); err != nil {
		return nil, fmt.Errorf("game %s: %w", id, err)
	}
	return &g, nil
}

// EachGameHead calls fn for every game in id order, decoded without its
// table (Game.Table is nil): the lists and counts that read every game
// need the seats and the status, not the state of play, which is most of
// a record.
func EachGameHead(tx *store.Tx, fn func(g *Game) error) error {
	return tx.Games(func(id string, raw []byte) error {
		var h struct {
			*Game
			Table skipJSON `json:"table"`
		}
		h.Game = &Game{}
		if err := json.Unmarshal(raw, &h); err != nil {
			return fmt.Errorf("game %s: %w", id, err)
		}
		return fn(h.Game)
	})
}

// skipJSON decodes any JSON value into nothing.
type skipJSON struct{}

func (skipJSON) UnmarshalJSON([]byte) error { return nil }

// SaveGame stores a game's record (the store keeps it as a delta against
// the game's last snapshot: store/writepath.go) and what the game indexes
// know of it (store/gameindex.go; written only when that changed).
func SaveGame(tx *store.Tx, g *Game) error {
	raw, err := EncodeGame(g)
	if err != nil {
		return err
	}
	if err := tx.PutGame(g.ID, raw); err != nil {
		return err
	}
	return tx.IndexGame(g.ID, IndexOf(g))
}

// IndexOf is what the store's game indexes hold of a game: its status,
// organiser and seats' addresses (the lists by player, by state and by
// organiser, and the counts by state, read them instead of every record).
func IndexOf(g *Game) store.GameIndex {
	ix := store.GameIndex{Game: g.Game, Status: g.Status, Organiser: g.Organiser, Open: g.Open, Players: g.Players, Seats: len(g.Seats),
		Joinable: Joinable(g)}
	for _, s := range g.Seats {
		if s.Address != "" {
			ix.Addresses = append(ix.Addresses, strings.ToLower(s.Address))
		}
	}
	return ix
}

// Joinable says a player may JOIN the game: forming, open, a seat free
// (the store's games.joinable, which a seat's LIST pages through).
func Joinable(g *Game) bool { return g.Status == StatusForming && g.Open && len(g.Seats) < g.Players }

// EnsureGameIndex builds the game indexes of a store whose games were
// saved before them (schema <= 5) or before games.joinable, once, in one
// transaction (from nothing: what an older build left is dropped first).
func EnsureGameIndex(db *store.DB) error {
	built := false
	if err := db.View(func(tx *store.Tx) error { built = tx.GameIndexBuilt(); return nil }); err != nil || built {
		return err
	}
	return db.Update(func(tx *store.Tx) error {
		if err := tx.ForgetGameIndex(); err != nil {
			return err
		}
		err := EachGameHead(tx, func(g *Game) error { return tx.IndexGame(g.ID, IndexOf(g)) })
		if err != nil {
			return err
		}
		return tx.SetGameIndexBuilt()
	})
}

// EncodeGame is the JSON of a game's record. The table, most of the
// record, is already compact JSON (engine.Table.MarshalJSON, or the
// stored record's own bytes): it is appended as it is, last, rather than
// scanned and compacted once more by encoding/json (issue 13.5).
func EncodeGame(g *Game) ([]byte, error) {
	table := g.Table
	g.Table = nil
	raw, err := json.Marshal(g)
	g.Table = table
	if err != nil || len(table) == 0 {
		return raw, err
	}
	out := make([]byte, 0, len(raw)+len(`,"table":`)+len(table))
	out = append(out, raw[:len(raw)-1]...)
	out = append(out, `,"table":`...)
	out = append(out, table...)
	return append(out, '}'), nil
}

// LoadPlayer reads and decodes the record of a registered player.
func LoadPlayer(tx *store.Tx, addr string) (*Player, error) {
	raw, err := tx.Player(addr)
	if err != nil {
		return nil, err
	}
	var p Player
	if err := json.Unmarshal(raw, &p); err != nil {
		return nil, err
	}
	return &p, nil
}

// Players are the players a unit of work decoded, each with the bytes it
// was decoded from (issue 24: a START of 5,000 games decoded each
// entrant's record three times, for the seat, the reply address and the
// tag of the round mail). Load compares the stored record with the bytes
// kept each time (store.Tx.PlayerIs: no copy) and reads and decodes it
// only when they differ: what it returns is what
// LoadPlayer returns, whatever changed the record in between
// (TestPlayersLoadAsStored_Issue24). The zero value is ready.
type Players struct{ seen map[string]*playerSeen }

type playerSeen struct {
	raw []byte
	p   Player
}

// Load is LoadPlayer, decoding a record only when its bytes changed since
// the last Load of addr. The player returned is the caller's own copy.
func (ps *Players) Load(tx *store.Tx, addr string) (*Player, error) {
	s := ps.seen[addr]
	if s == nil || !tx.PlayerIs(addr, s.raw) {
		raw, err := tx.Player(addr)
		if err != nil {
			return nil, err
		}
		s = &playerSeen{raw: raw}
		if err := json.Unmarshal(raw, &s.p); err != nil {
			return nil, err
		}
		if ps.seen == nil {
			ps.seen = map[string]*playerSeen{}
		}
		ps.seen[addr] = s
	}
	p := s.p
	p.Observing = slices.Clone(p.Observing)
	return &p, nil
}

// SavePlayer stores a player's record.
func SavePlayer(tx *store.Tx, p *Player) error {
	raw, err := json.Marshal(p)
	if err != nil {
		return err
	}
	return tx.PutPlayer(p.Address, raw)
}

// AppendEntry appends an entry to a game's log (EncodeEntry) and returns
// its sequence number.
func AppendEntry(tx *store.Tx, g *Game, e Entry) (uint64, error) {
	raw, err := EncodeEntry(&e)
	if err != nil {
		return 0, err
	}
	return tx.AppendLog(g.ID, raw)
}

// Entries reads a game's log from seq from.
func Entries(tx *store.Tx, game string, from uint64) ([]Entry, error) {
	return EntriesBefore(tx, game, from, 0)
}

// Organiser is what the core keeps about an organiser's address (the
// store's organisers bucket): the language of their last mail and when
// it came (issue 22).
type Organiser struct {
	Lang string    `json:"lang"`
	At   time.Time `json:"at"`
}

// LoadOrganiser reads an organiser's record; ok is false when there is
// none or it does not decode.
func LoadOrganiser(tx *store.Tx, addr string) (rec Organiser, ok bool) {
	raw, ok := tx.Organiser(addr)
	if !ok || json.Unmarshal(raw, &rec) != nil {
		return Organiser{}, false
	}
	return rec, true
}

// SaveOrganiser stores an organiser's record.
func SaveOrganiser(tx *store.Tx, addr string, rec Organiser) error {
	raw, err := json.Marshal(rec)
	if err != nil {
		return err
	}
	return tx.PutOrganiser(addr, raw)
}
