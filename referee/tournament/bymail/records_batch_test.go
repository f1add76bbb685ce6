package bymail

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/referee/tournament"
)

// TestMatchGainingItsGameIsAMatchRecord (issues 24, 25): a unit of work
// that only gives matches their games (a round opening in batches) writes
// each of those matches as its match record, not the whole record (which
// every batch of a 5,000-game START rewrote, 10 MB each), and the next
// unit reads the games opened (else every batch would open the same
// matches again). A match record that gained a game the whole record does
// not name is read only at its table with its seats: one that names other
// seats or another table is stale and left out. Generated: fields of 6 to
// 13, batches of 1 to 4 games.
func TestMatchGainingItsGameIsAMatchRecord(t *testing.T) {
	for _, n := range []int{6, 7, 10, 13} {
		for _, batch := range []int{1, 2, 4} {
			t.Run(fmt.Sprintf("%d/%d", n, batch), func(t *testing.T) {
				w := newWorld(t, false, time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC))
				w.unit(func(d *desk) error {
					tr, err := toyCup(t, n)
					if err != nil {
						return err
					}
					return d.saveTour(tr)
				})
				whole := w.h.rec.tours["cup"]
				opened := 0
				for {
					var gave []string
					w.unit(func(d *desk) error {
						tr, err := d.load("cup")
						if err != nil {
							return err
						}
						for k := range tr.Rounds[0].Matches {
							m := &tr.Rounds[0].Matches[k]
							if m.State == tournament.MatchBye || m.GameID != "" || len(gave) == batch {
								continue
							}
							m.GameID = fmt.Sprintf("cupr1t%d", m.Table)
							w.h.rec.byGame[m.GameID] = "cup"
							gave = append(gave, m.GameID)
						}
						if len(gave) == 0 {
							return nil
						}
						return d.saveTour(tr)
					})
					if len(gave) == 0 {
						break
					}
					opened += len(gave)
					if got := len(w.h.rec.matches["cup"]); string(w.h.rec.tours["cup"]) != string(whole) || got != opened {
						t.Fatalf("%d games given: the whole record rewritten %v, %d match records",
							opened, string(w.h.rec.tours["cup"]) != string(whole), got)
					}
					if opened > n {
						t.Fatalf("%d games given to %d entrants' matches: the games given are not read back", opened, n)
					}
					tr := w.load("cup")
					for _, id := range gave {
						found := false
						for _, m := range tr.Rounds[0].Matches {
							found = found || m.GameID == id
						}
						if !found {
							t.Fatalf("game %s given in a unit of work is not in the record read next", id)
						}
					}
				}
				if want := n / 2; opened != want {
					t.Fatalf("%d games opened, want %d", opened, want)
				}
				// Stale: the first match's record moved to another table,
				// the second's given other seats; the whole record's match
				// (no game) is read, not them.
				tr := w.load("cup")
				ms := w.h.rec.matches["cup"]
				for k, change := range []func(m *tournament.Match){
					func(m *tournament.Match) { m.Table += 100 },
					func(m *tournament.Match) { m.Seats = append([]int{m.Seats[1], m.Seats[0]}, m.Seats[2:]...) },
				} {
					m := tr.Rounds[0].Matches[k]
					m.Seats = slices.Clone(m.Seats)
					change(&m)
					raw, err := json.Marshal(&m)
					if err != nil {
						t.Fatal(err)
					}
					ms[[2]int{0, k}] = raw
				}
				stale := w.load("cup")
				for k := range 2 {
					if g := stale.Rounds[0].Matches[k].GameID; g != "" {
						t.Fatalf("match %d: a stale match record read (game %s)", k, g)
					}
				}
				if g := stale.Rounds[0].Matches[2].GameID; g == "" && n >= 6 {
					t.Fatal("match 3's own record not read")
				}
			})
		}
	}
}

// toyCup is a running Swiss tournament "cup" of the toy game with n
// entrants (p<i>@x.test) and its round 1 drawn, no game opened yet.
func toyCup(t *testing.T, n int) (*tournament.Tournament, error) {
	t.Helper()
	s := tournament.Settings{Game: "toy", Format: tournament.Swiss, Table: 2, NumRounds: 3}
	if err := tournament.Defaults(&s, engine.Info{Name: "toy", MinPlayers: 2, MaxPlayers: 2}); err != nil {
		t.Fatal(err)
	}
	tr := &tournament.Tournament{ID: "cup", Organiser: "org@x.test", Settings: s, Seed: "s", Status: tournament.StatusRunning}
	for i := range n {
		tr.Entrants = append(tr.Entrants, tournament.Entrant{ID: i, Address: fmt.Sprintf("p%d@x.test", i), Name: fmt.Sprintf("P%d", i)})
	}
	rd, err := tr.NextRound()
	if err != nil {
		return nil, err
	}
	tr.Rounds = append(tr.Rounds, rd)
	return tr, nil
}
