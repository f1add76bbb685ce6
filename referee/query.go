package referee

import (
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/store"
)

// The queries: what the edges, the wiring and the tools ask the core about
// its records (issue 13.2). The core alone decodes games, seats and log
// entries; each query is one read transaction (it never blocks writers),
// except the two that write records of their own (UseReplayToken,
// QueueReply).

// Why SeatForSecret found no seat.
var (
	ErrNoGame       = errors.New("referee: no such game")
	ErrNotSeatToken = errors.New("referee: not a seat token of this game")
	ErrTokenRevoked = errors.New("referee: the token is no longer valid")
)

// SeatAuth is the seat a secret authenticates.
type SeatAuth struct {
	Game    string
	Seat    int
	Address string // the seat's registered address, as written
}

// SeatForSecret finds the seat of a game that a seat secret authenticates:
// ErrNoGame, ErrNotSeatToken (unknown secret, another game's, not a seat's)
// or ErrTokenRevoked (the seat's secret changed, or the address left the
// game); any other error is the store's.
func (r queries) SeatForSecret(game, secret string) (SeatAuth, error) {
	var a SeatAuth
	err := r.db.View(func(tx *store.Tx) error {
		if !tx.HasGame(game) {
			return ErrNoGame
		}
		g, seat, err := authSeat(tx, game, secret, func(id string) (*Game, error) { return loadGame(tx, id) })
		if err != nil {
			return err
		}
		a = SeatAuth{Game: g.ID, Seat: seat, Address: g.Seats[seat].Address}
		return nil
	})
	return a, err
}

// authSeat is the one seat authentication of the core, for a mail's tag
// (seatRequest) and a webhook's bearer token (SeatForSecret) alike: the
// secret is a seat token (of game, unless game is ""), the token names a
// game and an address, the address holds a seat of the game (load reads
// it), and the seat's current secret is the one given (compared in
// constant time). ErrNotSeatToken for an unknown secret or another
// game's; ErrTokenRevoked, with the game and the seat (-1 if the address
// left), when the seat's secret changed; any other error is the store's.
func authSeat(tx *store.Tx, game, secret string, load func(id string) (*Game, error)) (*Game, int, error) {
	tok, err := tx.Token(secret)
	if errors.Is(err, store.ErrNotFound) || (err == nil && (RequestKind(tok.Kind) != KindSeat || (game != "" && tok.Game != game))) {
		return nil, -1, ErrNotSeatToken
	}
	if err != nil {
		return nil, -1, err
	}
	g, err := load(tok.Game)
	if err != nil {
		return nil, -1, err
	}
	seat := g.SeatOfAddress(tok.Address)
	if seat < 0 || subtle.ConstantTimeCompare([]byte(g.Seats[seat].Secret), []byte(secret)) != 1 {
		return g, seat, ErrTokenRevoked
	}
	return g, seat, nil
}

// StateToken returns a game's state token (its move count) without
// decoding the state; false before the game starts.
func (r queries) StateToken(game string) (int, bool, error) {
	var tok int
	var ok bool
	err := r.db.View(func(tx *store.Tx) error {
		var err error
		tok, ok, err = stateToken(tx, game)
		return err
	})
	return tok, ok, err
}

// stateToken reads a game's state token from its record without decoding
// the state; false before the game starts.
func stateToken(tx *store.Tx, game string) (int, bool, error) {
	raw, err := tx.Game(game)
	if err != nil {
		return 0, false, err
	}
	var g struct {
		Table *struct {
			State json.RawMessage `json:"state"`
		} `json:"table"`
	}
	if err := json.Unmarshal(raw, &g); err != nil {
		return 0, false, fmt.Errorf("game %s: %w", game, err)
	}
	if g.Table == nil {
		return 0, false, nil
	}
	h, err := engine.PeekHeader(g.Table.State)
	if err != nil {
		return 0, false, err
	}
	return h.Moves, true, nil
}

// Table returns a game's engine table as the referee would load it (with
// the game's ruleset), read-only: a copy nobody else holds. It is an error
// before the game starts.
func (r queries) Table(game string) (*engine.Table, error) {
	var tb *engine.Table
	err := r.db.View(func(tx *store.Tx) error {
		g, err := loadGame(tx, game)
		if err != nil {
			return err
		}
		if len(g.Table) == 0 {
			return fmt.Errorf("game %s has not started", game)
		}
		var rs []byte
		if g.RulesetSHA != "" {
			if rs, err = tx.Ruleset(g.RulesetSHA); err != nil {
				return err
			}
		}
		tb, err = engine.LoadTable(g.Table, rs)
		return err
	})
	return tb, err
}

// EachGame calls fn with a copy of every game record, in id order, in one
// read transaction; an error from fn stops the walk and is returned.
func (r queries) EachGame(fn func(*Game) error) error {
	return r.db.View(func(tx *store.Tx) error {
		return tx.GameIDs(func(id string) error {
			g, err := loadGame(tx, id)
			if err != nil {
				return err
			}
			return fn(g)
		})
	})
}

// Entries returns a game's whole log.
func (r queries) Entries(game string) ([]Entry, error) {
	var out []Entry
	err := r.db.View(func(tx *store.Tx) error {
		var err error
		out, err = entries(tx, game, 1)
		return err
	})
	return out, err
}
