package bymail

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/pbem-referee/referee/referee/tournament"
)

// TestDrawOutsideTheLock (issue 24): a round drawn on a snapshot
// (Predraw) is the round the unit of work opens while the record is the
// one it was drawn from, and is drawn again once the record changed in
// between (a late entry, a result, a bye asked); the draw on the snapshot
// is the draw the unit of work makes. For Swiss and tables, round 1 and
// a later round.
func TestDrawOutsideTheLock(t *testing.T) {
	for _, format := range []string{tournament.Swiss, tournament.Tables} {
		for _, later := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/later=%v", format, later), func(t *testing.T) {
				tr := &tournament.Tournament{ID: "cup", Seed: "seed", Status: tournament.StatusSignup,
					Settings: tournament.Settings{Format: format, Table: 2, NumRounds: 3, Points: []float64{1, 0}, MinTable: 2}}
				if format == tournament.Tables {
					tr.Table, tr.MinTable, tr.Points = 3, 2, []float64{2, 1, 0}
				}
				for i := 0; i < 11; i++ {
					tr.Entrants = append(tr.Entrants, tournament.Entrant{ID: i, Address: fmt.Sprintf("p%d@x", i), Name: fmt.Sprintf("P%d", i)})
				}
				if later {
					tr.Status = tournament.StatusRunning
					rd, err := tr.NextRound()
					if err != nil {
						t.Fatal(err)
					}
					for k := range rd.Matches {
						m := &rd.Matches[k]
						if m.State == tournament.MatchBye {
							continue
						}
						m.GameID, m.State, m.Rank = fmt.Sprintf("g%d", k), tournament.MatchDone, make([]int, len(m.Seats))
						for i := range m.Rank {
							m.Rank[i] = i + 1
						}
					}
					tr.Rounds = append(tr.Rounds, rd)
				}
				h := newTestHost(t, time.Date(2026, 9, 16, 18, 0, 0, 0, time.UTC))
				raw, err := json.Marshal(tr)
				if err != nil {
					t.Fatal(err)
				}
				h.rec.tours["cup"] = raw
				pre := Predraw(h.rec, "cup")
				if pre == nil || pre.err != nil {
					t.Fatalf("no round drawn on the snapshot: %+v", pre)
				}
				// The same draw as the unit of work's.
				want, err := tr.NextRound()
				if err != nil {
					t.Fatal(err)
				}
				if a, b := fmt.Sprint(pre.round.Matches), fmt.Sprint(want.Matches); a != b {
					t.Fatalf("the snapshot's draw differs:\n%s\n%s", a, b)
				}
				// Used while the record is unchanged: a mark in it shows.
				pre.round.Matches = append([]tournament.Match(nil), pre.round.Matches...)
				pre.round.Matches[0].Table = 99
				h.pre = pre
				d := newDesk(h)
				got, err := d.draw(tr)
				if err != nil || got.Matches[0].Table != 99 {
					t.Fatalf("the round drawn outside the lock was not used: %v %+v", err, got.Matches[0])
				}
				// The record changed: drawn again.
				tr.Entrants = append(tr.Entrants, tournament.Entrant{ID: 11, Address: "late@x", Name: "Late", Joined: len(tr.Rounds) + 1})
				if later {
					tr.Entrants[11].Joined = 2
				}
				got, err = d.draw(tr)
				if err != nil || got.Matches[0].Table == 99 {
					t.Fatalf("a changed record used the old draw: %v %+v", err, got.Matches[0])
				}
				// Nothing due: no draw.
				tr.Status = tournament.StatusOver
				raw, _ = json.Marshal(tr)
				h.rec.tours["cup"] = raw
				if Predraw(h.rec, "cup") != nil {
					t.Fatal("a round drawn for a tournament that is over")
				}
			})
		}
	}
}
