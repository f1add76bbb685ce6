package bymail

import (
	"fmt"
	"testing"

	"github.com/pbem-referee/referee/referee/tournament"
)

// TestRatingHistoryStartsWhereThePlaceStarted_Issue24 (issue 24: ratings
// include every rated game; a place page's rating history): on 40
// generated tournaments (drawPersons: Swiss and tables, byes, places
// handed on between rounds and within a game, each rated game stored with
// the ratings its players came with from games elsewhere, every fourth a
// record older than those), every place's history starts (Round 0) at the
// rating its first rated game began from, not a newcomer's, and a round
// before it (a bye) shows that start; each complete round shows the
// rating after the place's last rated game, and the rating its game began
// from when that is not the row before's (a substitute, games elsewhere);
// a record without the ratings before starts at a newcomer's and names
// no other start. Some place starts rated after a round it did not play.
func TestRatingHistoryStartsWhereThePlaceStarted_Issue24(t *testing.T) {
	byeFirst, befores := 0, 0
	for draw := range 40 {
		pd := drawPersons(t, draw)
		tr := pd.tr
		h := pd.host(t)
		newcomer := fmt.Sprintf("%.0f", tournament.RatingValue(tournament.NewRating(tr.Game, ""), tr.Table))
		for e := range tr.Entrants {
			// The place's rated games, round by round: before ("" when
			// not stored) and after.
			type game struct{ before, after string }
			byRound := map[int]game{}
			first := 0
			for _, rd := range tr.Rounds {
				for _, m := range rd.Matches {
					for i, x := range m.Seats {
						if x != e || !tournament.Rated(m) {
							continue
						}
						g := game{after: fmt.Sprintf("%.0f", m.Ratings[i])}
						if len(m.RatingsBefore) > 0 {
							g.before = fmt.Sprintf("%.0f", m.RatingsBefore[i])
						}
						byRound[rd.N] = g
						if first == 0 {
							first = rd.N
						}
					}
				}
			}
			start := newcomer
			if g, ok := byRound[first]; ok && g.before != "" {
				start = g.before
			}
			if first > 1 && start != newcomer {
				byeFirst++
			}
			want := []string{fmt.Sprintf("0 %s", start)}
			last := start
			for _, rd := range tr.Rounds {
				if !rd.Complete() {
					continue
				}
				step := fmt.Sprintf("%d ", rd.N)
				if g, ok := byRound[rd.N]; ok {
					if g.before != "" && g.before != last {
						step += g.before + "->"
						befores++
					}
					last = g.after
				}
				want = append(want, step+last)
			}
			p, err := PlayerPageOf(h, "cup", "k", e+1)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, s := range p.History {
				step := fmt.Sprintf("%d ", s.Round)
				if s.Before != "" {
					step += s.Before + "->"
				}
				got = append(got, step+s.Rating)
			}
			if fmt.Sprint(got) != fmt.Sprint(want) || p.Recomputed {
				t.Errorf("draw %d: place %d's history %q (recomputed %v), want %q", draw, e+1, got, p.Recomputed, want)
			}
		}
	}
	if byeFirst == 0 || befores == 0 {
		t.Fatalf("%d places start rated after a round not played, %d steps from another rating: the generator no longer reaches the case", byeFirst, befores)
	}
}
