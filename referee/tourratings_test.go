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
// adjudicated ones too, and the player page's rating history reads them;
// so are the ratings the players came to it with (Match.RatingsBefore),
// two entrants arriving rated from games elsewhere: their place's
// history starts at that rating, and each person's page shows them before
// every rated game, their first one's too.
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
			// Two entrants come with a rating from games elsewhere
			// (issue 24: the page shows it before their first game here).
			arrived := map[int]tournament.Rating{}
			for e := range 2 {
				r := tournament.NewRating("toy", fmt.Sprintf("p%d@p.test", e))
				opp := tournament.NewRating("toy", "x@p.test")
				for range 3 + e {
					rs := tournament.RateGame([]tournament.Rating{r, opp}, []int{1, 2})
					r = rs[0]
				}
				r.Tables = r.Duels // rated at both table sizes
				rs := tournament.RateGame([]tournament.Rating{r, opp, opp}, []int{1, 2, 3})
				r = rs[0]
				arrived[e] = r
				raw, err := json.Marshal(r)
				if err != nil {
					t.Fatal(err)
				}
				if err := h.r.db.Update(func(tx *store.Tx) error { return tx.PutRating("toy", r.Address, raw) }); err != nil {
					t.Fatal(err)
				}
			}
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
				if r, ok := arrived[i]; ok {
					ratings[i] = r
				}
			}
			// befores[e] are e's ratings before each rated game, written
			// as a person's page writes them.
			befores := make([][]string, len(tr.Entrants))
			// want[e] starts with the rating e arrived with (Round 0: a
			// newcomer's, or the one from games elsewhere).
			want := make([][]string, len(tr.Entrants))
			for e := range want {
				want[e] = []string{fmt.Sprintf("%.0f", tournament.RatingValue(ratings[e], tr.Table))}
			}
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
						w := tournament.RatingValue(ratings[x], tr.Table)
						if len(m.RatingsBefore) != len(m.Seats) || fmt.Sprintf("%.6f", m.RatingsBefore[i]) != fmt.Sprintf("%.6f", w) {
							t.Errorf("round %d game %s seat %d: stored before %v, recomputed %v", rd.N, m.GameID, i+1, m.RatingsBefore, w)
						}
						befores[x] = append(befores[x], fmt.Sprintf("%.0f", w))
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
					if s.Rating != want[e][i] || s.Round != i || s.Before != "" {
						t.Errorf("entrant %d round %d: history %+v, recomputed %s", e, i, s, want[e][i])
					}
				}
				// Their own page: the rating before each rated game, the
				// first one's too (the rating they came with).
				pp, err := h.r.PersonPage(tr.ID+"-"+tr.Key, e+1, 1)
				if err != nil {
					t.Fatal(err)
				}
				var got []string
				for _, g := range pp.Games {
					if g.RatingAfter != "" {
						got = append(got, g.RatingBefore)
					}
				}
				if fmt.Sprint(got) != fmt.Sprint(befores[e]) {
					t.Errorf("entrant %d's page: ratings before %q, recomputed %q", e, got, befores[e])
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
					if p.History[1].Rating != "1234" {
						t.Fatalf("the history does not read the stored ratings: %+v", p.History)
					}
					break
				}
			}
		})
	}
}
