package referee

import (
	"encoding/json"
	"fmt"
	"strconv"
	"testing"
	"time"

	"github.com/pbem-referee/referee/referee/tournament"
	"github.com/pbem-referee/referee/store"
)

// TestTournamentRatingHistoryStored (issue 24): each rated game's ratings
// are stored with its match when the game ends (Match.Ratings), the
// adjudicated ones too, and the player page's rating history reads them.
// Against recomputation: entrants who play nowhere else have, after each
// round, the rating a replay of the tournament's rated games gives, in a
// Swiss event (Glicko-2) and one of tables of three (Weng-Lin), their
// games finished by the bots at the deadline.
func TestTournamentRatingHistoryStored(t *testing.T) {
	for _, c := range []struct {
		name, settings string
		n              int
	}{{"swiss", "format=swiss", 10}, {"tables", "format=tables table=3", 9}} {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t)
			h.org("NEW TOURNAMENT cup game=toy rounds=3 deadline=24h late=adjudicate public " + c.settings)
			enterAll(h, "cup", c.n)
			h.org("START cup")
			h.mails()
			for i := 0; i < 6 && h.tour("cup").Status == tournament.StatusRunning; i++ {
				h.clock.Advance(25 * time.Hour)
				h.tick()
				h.mails()
			}
			tr := h.tour("cup")
			if tr.Status != tournament.StatusOver {
				t.Fatalf("tournament %s after %d rounds", tr.Status, len(tr.Rounds))
			}
			// The recomputation: every rated match in order, everyone a
			// newcomer at the start.
			ratings := make([]tournament.Rating, len(tr.Entrants))
			for i := range ratings {
				ratings[i] = tournament.NewRating(tr.Game, strconv.Itoa(i))
			}
			want := make([][]string, len(tr.Entrants))
			rated, adjudicated := 0, 0
			for _, rd := range tr.Rounds {
				for _, m := range rd.Matches {
					if !tournament.Rated(m) {
						continue
					}
					rated++
					if m.State == tournament.MatchAdjudicated {
						adjudicated++
					}
					if len(m.Ratings) != len(m.Seats) {
						t.Fatalf("round %d game %s: no ratings stored (%v)", rd.N, m.GameID, m.Ratings)
					}
					rs := make([]tournament.Rating, len(m.Seats))
					for i, x := range m.Seats {
						rs[i] = ratings[x]
					}
					rs, _ = tournament.RateMatch(rs, m)
					for i, x := range m.Seats {
						ratings[x] = rs[i]
						if got, w := m.Ratings[i], tournament.RatingValue(rs[i], tr.Table); fmt.Sprintf("%.6f", got) != fmt.Sprintf("%.6f", w) {
							t.Errorf("round %d game %s seat %d: stored %v, recomputed %v", rd.N, m.GameID, i+1, got, w)
						}
					}
				}
				for e := range tr.Entrants {
					want[e] = append(want[e], fmt.Sprintf("%.0f", tournament.RatingValue(ratings[e], tr.Table)))
				}
			}
			if rated == 0 || adjudicated == 0 {
				t.Fatalf("%d rated games, %d adjudicated: the walk rated nothing", rated, adjudicated)
			}
			for e := range tr.Entrants {
				p, err := h.r.PlayerPage(tr.ID+"-"+tr.Key, e+1)
				if err != nil {
					t.Fatal(err)
				}
				if len(p.History) != len(want[e]) {
					t.Fatalf("entrant %d: %d steps, want %d", e, len(p.History), len(want[e]))
				}
				for i, s := range p.History {
					if s.Rating != want[e][i] || s.Round != i+1 {
						t.Errorf("entrant %d round %d: history %+v, recomputed %s", e, i+1, s, want[e][i])
					}
				}
			}
			// Read, not recomputed: a stored value changed shows.
			for k, m := range tr.Rounds[0].Matches {
				if len(m.Ratings) > 0 {
					tr.Rounds[0].Matches[k].Ratings[0] = 1234
					raw, err := json.Marshal(tr)
					if err != nil {
						t.Fatal(err)
					}
					if err := h.r.db.Update(func(tx *store.Tx) error { return tx.PutTournament(tr.ID, raw) }); err != nil {
						t.Fatal(err)
					}
					p, err := h.r.PlayerPage(tr.ID+"-"+tr.Key, m.Seats[0]+1)
					if err != nil {
						t.Fatal(err)
					}
					if p.History[0].Rating != "1234" {
						t.Fatalf("the history does not read the stored ratings: %+v", p.History)
					}
					break
				}
			}
		})
	}
}
