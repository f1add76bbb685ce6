package seating

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestRefusalsAreCodes_Issue24 (doc.go): every refusal of a new game or
// an invitation is an *Error whose code is in Codes, with its parameters,
// and its Error() carries no English sentence (the organiser's door words
// it: organise's TestEveryRefusalInWords_Issue24 walks Codes). Generated:
// each refusal reached through Create and Invite, every game, with ids
// and addresses carrying quotes, Cyrillic, CJK and a bad verb.
func TestRefusalsAreCodes_Issue24(t *testing.T) {
	odd := []string{`o"q`, "пётр", "棋士", "%!d"}
	seen := map[string]bool{}
	for _, game := range []string{"fromage", "dicebrewing", "heavenale", "brewcrafters"} {
		for i, v := range odd {
			h := newHost()
			two := []Invitee{{Address: "a@x.test"}, {Address: "b@x.test"}}
			if _, err := Create(h, NewGame{ID: "taken", Game: game, Invite: two, Organiser: "o@x.test"}); err != nil {
				t.Fatalf("%s: %v", game, err)
			}
			cases := []struct {
				code string
				run  func() error
			}{
				{"no_kind", func() error { _, err := Create(h, NewGame{Game: game + v}); return err }},
				{"invitees", func() error {
					_, err := Create(h, NewGame{Game: game, Players: 2, Invite: append(two, Invitee{Address: "c@x.test"})})
					return err
				}},
				{"game_id", func() error { _, err := Create(h, NewGame{ID: "G" + v, Game: game}); return err }},
				{"exists", func() error { _, err := Create(h, NewGame{ID: "taken", Game: game}); return err }},
				{"bad_address", func() error {
					_, err := Create(h, NewGame{ID: fmt.Sprintf("g%d", i), Game: game, Players: 2, Invite: []Invitee{{Address: v}}})
					return err
				}},
				{"in_game", func() error { return Invite(h, h.games["taken"], Invitee{Address: "A@x.test"}) }},
				{"full", func() error { return Invite(h, h.games["taken"], Invitee{Address: "z" + v + "@x.test"}) }},
			}
			for _, c := range cases {
				err := c.run()
				var e *Error
				if !errors.As(err, &e) || e.Code != c.code {
					t.Errorf("%s/%s: got %v, want the refusal %s", game, c.code, err, c.code)
					continue
				}
				if !slices.Contains(Codes, e.Code) {
					t.Errorf("%s: code %s is not in Codes", game, e.Code)
				}
				if len(e.Params) == 0 || strings.Contains(err.Error(), " is ") || strings.Contains(err.Error(), "referee:") {
					t.Errorf("%s/%s: %q: no parameters, or a sentence", game, c.code, err.Error())
				}
				seen[e.Code] = true
			}
		}
	}
	for _, c := range Codes {
		if !seen[c] {
			t.Errorf("code %s of Codes is never generated here", c)
		}
	}
}
