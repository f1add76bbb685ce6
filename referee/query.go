package referee

import (
	"errors"
	"fmt"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/referee/records"
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
	ErrNotSeatToken = records.ErrNotSeatToken
	ErrTokenRevoked = records.ErrTokenRevoked
)

// SeatAuth is the seat a secret authenticates.
type SeatAuth struct {
	Game    string
	Seat    int
	Address string // the seat's registered address, as written
}

// SeatForSecret finds the seat of a game that a seat secret authenticates
// (records.AuthSeat, the rule of a mail's seat tag too):
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
