package records

import (
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/referee/outcome"
	"github.com/pbem-referee/referee/store"
)

// Seat authentication is here, in one place (issue 25): a mail's seat tag
// (the core's seatRequest), a webhook's bearer token (SeatForSecret) and
// an organiser's tag (the core's orgRequest) are each checked by one
// function of this file, every secret compared in constant time (issue 23).

// Why AuthSeat found no seat.
var (
	ErrNotSeatToken = errors.New("referee: not a seat token of this game")
	ErrTokenRevoked = errors.New("referee: the token is no longer valid")
)

// AuthSeat is the one seat authentication: the secret is a seat token (of
// game, unless game is ""), the token names a game and an address, the
// address holds a seat of the game (load reads it: the unit of work's
// copy, or the store's record), and the seat's current secret is the one
// given (compared in constant time). ErrNotSeatToken for an unknown
// secret, another game's or one that is not a seat's; ErrTokenRevoked,
// with the game and the seat (-1 if the address left), when the seat's
// secret changed; any other error is the store's or load's.
func AuthSeat(tx *store.Tx, game, secret string, load func(id string) (*Game, error)) (*Game, int, error) {
	tok, err := tx.Token(secret)
	if errors.Is(err, store.ErrNotFound) || (err == nil && (outcome.Kind(tok.Kind) != outcome.KindSeat || (game != "" && tok.Game != game))) {
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

// AuthOrganiser is the organiser an organiser's tag authenticates: the
// secret is a configured organiser's (configured: address -> secret;
// compared in constant time, issue 23), else an organiser token of the
// store's; and the mail's sender is that organiser's address (in any
// case), authenticated (verified). ok is false otherwise; org is then
// the organiser the secret named, if any.
func AuthOrganiser(tx *store.Tx, configured map[string]string, secret, from string, verified bool) (org string, ok bool) {
	for addr, s := range configured {
		if s != "" && subtle.ConstantTimeCompare([]byte(s), []byte(secret)) == 1 {
			org = addr
		}
	}
	if org == "" {
		if tok, err := tx.Token(secret); err == nil && outcome.Kind(tok.Kind) == outcome.KindOrg {
			org = tok.Address
		}
	}
	return org, org != "" && strings.EqualFold(org, from) && verified
}

// StateToken reads a game's state token (its move count) from its record
// without decoding the state; false before the game starts.
func StateToken(tx *store.Tx, game string) (int, bool, error) {
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

// OrganiserSecret is the secret of an organiser's address (its tag's):
// the configured one (configured: address -> secret), else that of an
// organiser token of the address (as written); "" when it has none.
func OrganiserSecret(tx *store.Tx, configured map[string]string, addr string) string {
	if s := configured[addr]; s != "" {
		return s
	}
	var secret string
	tx.TokensOf(string(outcome.KindOrg), func(s string, t store.Token) error {
		if t.Address == addr {
			secret = s
		}
		return nil
	})
	return secret
}

// OrganiserSecrets is every organiser's secret (address -> secret): the
// organiser tokens', then the configured ones over them.
func OrganiserSecrets(tx *store.Tx, configured map[string]string) (map[string]string, error) {
	out := map[string]string{}
	err := tx.TokensOf(string(outcome.KindOrg), func(secret string, t store.Token) error {
		out[t.Address] = secret
		return nil
	})
	for a, s := range configured {
		if s != "" {
			out[a] = s
		}
	}
	return out, err
}
