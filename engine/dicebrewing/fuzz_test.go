package dicebrewing

import (
	"bytes"
	"testing"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/dicebrewing/position"
)

// seedCommands are the commands of §10.3 and more, for the fuzzers' corpus.
var seedCommands = []string{
	"STORE K5 G4", "STORE ALL", "STORE ALL>=4", "STORE ALL >=4", "AUTOSTORE 4", "AUTOSTORE 5 B", "AUTOSTORE OFF",
	"PLACE MH1 SEED, MH1+ B4", "PLACE SS1 B3 REROLL Y2 G1", "PLACE SS2 B4 SWAP K2@S", "PLACE MH3 Y3 THEN",
	"PLACE SS1 B3 REROLL Y2 G1, MH3 Y4", "PLACE DS3 B1", "PASS", "END", "DONE", "NOBUY", "PICK Y2", "REROLL",
	"REROLL Y1 K1@S", "PLAY TAKE bob:K5@S", "PLAY BLOCKB bob:MH", "PLAY BLOCKR R12", "PLAY SHIELD Y5@S",
	"PLAY PLUS K4@S", "PLAY REROLL bob:G6@S", "PLAY REROLL P2:Y3@MH3", "TOKENS NONE", "TOKENS NONE GAME", "TOKENS ASK",
	"BUY HONEY WITH B6", "BUY REROLL", "BREW R24 IMPROVE SMALT", "BREW R23 GET B", "BREW R05 GET TAKE",
	"BREW R01 USE Y6 G5", "BREW R24 IMPROVE B5 USE Y5 Y3 K5 K4 G4", "GET K", "GET TAKE SHIELD",
	"place mh1 seed, mh1+ yel4+@a", "BREW R24 IMPROVE SMALT B5", "PLACE", "BUY", "ann:Y5", "PLACE XX1 Y3",
}

// FuzzParseCommand checks the command parser: it never panics, every
// refusal is a *RuleError, and an accepted line has a canonical text that
// parses back to itself. Applying the move to a game position either works
// (and the invariants hold) or is refused without changing the position.
func FuzzParseCommand(f *testing.F) {
	for _, c := range seedCommands {
		f.Add(c)
	}
	st, _, err := Game.NewState(engine.Config{Seats: []string{"ann", "bob", "cat"}, Seed: "fuzz",
		Options: map[string]string{position.OptFirst: "1", position.OptUnlucky: "true"}})
	if err != nil {
		f.Fatal(err)
	}
	base := st.(*state)
	f.Fuzz(func(t *testing.T, line string) {
		m, err := base.Parse(0, line)
		if err != nil {
			if _, ok := engine.AsRuleError(err); !ok {
				t.Fatalf("%q: not a rule error: %v", line, err)
			}
			return
		}
		canon := m.String()
		m2, err := base.Parse(0, canon)
		if err != nil {
			t.Fatalf("%q: canonical %q does not parse: %v", line, canon, err)
		}
		if m2.String() != canon {
			t.Fatalf("%q: canonical %q is not stable (%q)", line, canon, m2.String())
		}
		for seat := 0; seat < 2; seat++ {
			s := base.clone()
			before := mustMarshal(t, s)
			mv, err := s.Parse(seat, line)
			if err != nil {
				continue
			}
			if _, err := s.Apply(seat, mv); err != nil {
				if _, ok := engine.AsRuleError(err); !ok {
					t.Fatalf("%q: Apply error is not a rule error: %v", line, err)
				}
				if !bytes.Equal(before, mustMarshal(t, s)) {
					t.Fatalf("%q: a refused move changed the state", line)
				}
				continue
			}
			if err := s.Check(); err != nil {
				t.Fatalf("%q by seat %d: invariant: %v", line, seat, err)
			}
		}
	})
}

// FuzzRouteScript checks that routing any message never panics and marks
// every order either Now or with a slot, or refuses it.
func FuzzRouteScript(f *testing.F) {
	f.Add("STORE K5 G4\nPLACE MH1 SEED, MH1+ B3\nPLACE MH3 Y3\nPLACE HP1 SEED ELSE PASS\nPASS")
	f.Add("BUY SMALT WITH B4 | BUY FRUIT\nBUY REROLL\nTOKENS NONE ROUND\nBREW R24 IMPROVE SMALT | BREW R13 | PASS")
	f.Add("PLAY PLUS Y2@A\nDONE\nPLACE MH1 SEED\nPLAY TAKE bob:K5@S\nPLACE MH3 Y3")
	st, _, err := Game.NewState(engine.Config{Seats: []string{"ann", "bob"}, Seed: "fuzz-route"})
	if err != nil {
		f.Fatal(err)
	}
	s := st.(*state)
	f.Fuzz(func(t *testing.T, text string) {
		orders := engine.ParseScript(text)
		errs := s.Route(0, orders)
		for i, o := range orders {
			if errs != nil && errs[i] != nil {
				if _, ok := engine.AsRuleError(errs[i]); !ok {
					t.Fatalf("%q: route error is not a rule error", o.Text)
				}
				continue
			}
			if !o.Now && o.Slot == "" {
				t.Fatalf("%q: neither Now nor a slot", o.Text)
			}
		}
	})
}
