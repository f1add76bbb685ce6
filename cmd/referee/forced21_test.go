package main

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/enginetest"
)

// forcedCase is a position where a seat's whole turn, written one command
// per line, includes a line that names a forced choice (a decision with a
// single legal option, which the game takes itself: HA-10.1, DB-10.1,
// engine/doc.go "the agreement rule").
type forcedCase struct {
	state  []byte
	seat   int
	lines  []string
	forced int // index of the line that names the forced option
}

// findForced plays random one-mail-turn games of game (as the issue 21
// self-play does) and returns one position per forced command word (the
// kind of forced choice: SCORE, HOME, SELL, PRIV, REROLL ...), at most max
// kinds, searching at most games games.
func findForced(t *testing.T, game string, players, games, max int) map[string]forcedCase {
	t.Helper()
	g, err := engine.Lookup(game)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]forcedCase{}
	rng := rand.New(rand.NewPCG(21, uint64(len(game))))
	seats := []string{"ann", "bob", "cat", "dan", "eve"}[:players]
	for n := 0; n < games && len(out) < max; n++ {
		tb, _, _, err := engine.NewTable(g, engine.Config{Seats: seats, Seed: fmt.Sprint("forced21/", n)})
		if err != nil {
			t.Fatal(err)
		}
		for k := 0; tb.State.Result() == nil && k < 3000; k++ {
			d := tb.Waiting()[0]
			lines, err := enginetest.TurnLines(tb.State, d, engine.RandomBot{}, rng)
			if err != nil {
				t.Fatal(err)
			}
			snap, err := json.Marshal(tb.State)
			if err != nil {
				t.Fatal(err)
			}
			rep := enginetest.Submit(t, tb, d.Seat, strings.Join(lines, "\n"))
			for i, r := range rep.Results {
				if r.Status != engine.OutcomeAgreed || i >= len(lines) {
					continue
				}
				kind := engine.FirstWord(lines[i])
				if _, seen := out[kind]; !seen && len(out) < max {
					out[kind] = forcedCase{state: snap, seat: d.Seat, lines: lines, forced: i}
				}
				break
			}
		}
	}
	return out
}

// playJSON runs "referee play GAME --state STATE --json" with one message
// of seat and returns its orders.
func playJSON(t *testing.T, game string, c forcedCase, lines []string) jsonMessage {
	t.Helper()
	path := filepath.Join(t.TempDir(), "state.json")
	if err := os.WriteFile(path, c.state, 0o600); err != nil {
		t.Fatal(err)
	}
	names := []string{"ann", "bob", "cat", "dan", "eve"}
	var script strings.Builder
	for _, l := range lines {
		fmt.Fprintf(&script, "%s: %s\n", names[c.seat], l)
	}
	out, errs, code := runCLI(t, script.String(), "play", game, "--state", path, "--json")
	if code != 0 {
		t.Fatalf("referee play %s --state (%d): %s", game, code, errs)
	}
	var v struct {
		Messages []jsonMessage `json:"messages"`
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil || len(v.Messages) != 1 {
		t.Fatalf("play --json: %v %s", err, out)
	}
	return v.Messages[0]
}

func statusList(m jsonMessage) string {
	var s []string
	for _, o := range m.Orders {
		s = append(s, o.Status)
	}
	return strings.Join(s, ",")
}

// Issue 21: every kind of forced choice that one-mail turns meet, of each
// game, through the command line (referee play --state --json), with the
// player's line agreeing (the line is "agreed", nothing refused or
// dropped), absent (the game takes the option itself: a step of How
// "auto", the other lines applied) and differing (the line naming the
// forced command with another argument: the message is refused with that
// line's own reason, never dropped).
func TestForcedChoicesThroughPlay(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	for _, gc := range []struct {
		game, rule     string
		players, games int
		want           int // forced kinds that must be found
	}{
		{"heavenale", "HA-10.1", 3, 12, 3},
		{"dicebrewing", "DB-10.1", 3, 12, 1},
	} {
		cases := findForced(t, gc.game, gc.players, gc.games, 6)
		if len(cases) < gc.want {
			t.Fatalf("%s: only %d kinds of forced choice found (%v), want %d", gc.game, len(cases), cases, gc.want)
		}
		for kind, c := range cases {
			t.Run(gc.rule+"/"+gc.game+"/"+kind, func(t *testing.T) {
				n := len(c.lines)
				// Agreeing: the line names the forced option.
				m := playJSON(t, gc.game, c, c.lines)
				if m.Rejected || m.Orders[c.forced].Status != engine.OutcomeAgreed {
					t.Fatalf("agree %q: %s", c.lines, statusList(m))
				}
				for _, o := range m.Orders {
					if o.Status != engine.OutcomeApplied && o.Status != engine.OutcomeAgreed {
						t.Fatalf("agree %q: %s", c.lines, statusList(m))
					}
				}
				// Absent: the game takes the option itself.
				absent := append(append([]string(nil), c.lines[:c.forced]...), c.lines[c.forced+1:]...)
				if len(absent) > 0 {
					m = playJSON(t, gc.game, c, absent)
					auto := false
					for _, st := range m.Steps {
						auto = auto || st.How == engine.HowAuto
					}
					if m.Rejected || !auto || strings.Count(statusList(m), engine.OutcomeApplied) != n-1 {
						t.Fatalf("absent %q: %s, auto step %v", absent, statusList(m), auto)
					}
				}
				// Differing: the forced command with another argument.
				// (Dice Brewing: REROLL naming a die the mail picked
				// before, as in engine/dicebrewing TestForcedRerollAgreeDifferAbsent.)
				f := strings.Fields(c.lines[c.forced])
				arg := "ZZ9"
				if gc.game == "dicebrewing" && c.forced > 0 {
					prev := strings.Fields(c.lines[0])
					arg = prev[len(prev)-1]
				}
				if len(f) > 1 {
					f[len(f)-1] = arg
				} else {
					f = append(f, arg)
				}
				differ := append([]string(nil), c.lines...)
				differ[c.forced] = strings.Join(f, " ")
				m = playJSON(t, gc.game, c, differ)
				o := m.Orders[c.forced]
				if !m.Rejected || o.Status != engine.OutcomeRejected || len(o.Errors) == 0 || o.Errors[0].Code == "" {
					t.Fatalf("differ %q: %s %v", differ, statusList(m), o.Errors)
				}
				if strings.Contains(statusList(m), engine.OutcomeDropped) {
					t.Fatalf("differ %q: a line dropped: %s", differ, statusList(m))
				}
			})
		}
	}
}
