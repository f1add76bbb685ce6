package bymail

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/pbem-referee/referee/referee/tournament"
)

// personDraw is a generated tournament whose places changed hands, and
// the generator's record of who played what: who[e][x-1] are the holders
// (from 0) of place e who played round x, first to last.
type personDraw struct {
	tr  *tournament.Tournament
	who [][][]int
}

// drawPersons plays threeRounds and hands 2 or 3 places on once or twice
// each, between rounds or within a game after a move (never a bye), a
// holder sometimes replaced before playing, a substitute sometimes named
// like another holder, and sometimes one who left another place (their
// address again, in other letters: one person).
func drawPersons(t *testing.T, draw int) personDraw {
	rng := rand.New(rand.NewPCG(2424, uint64(draw)))
	format := []string{tournament.Swiss, tournament.Tables}[draw%2]
	n := 5 + rng.IntN(4)
	tr := threeRounds(t, format, fmt.Sprint("pseed", draw), n, func(_, seats int) int { return 1 + rng.IntN(seats) })
	for r, rd := range tr.Rounds {
		for k := range rd.Matches {
			m := &rd.Matches[k]
			if m.State != tournament.MatchBye {
				for s := range m.Seats {
					m.Ratings = append(m.Ratings, float64(1000+100*r+10*k+s))
					if draw%4 != 3 {
						// The rating they came with: from games elsewhere
						// too, not their previous game's here (a record
						// of every fourth draw is older: none kept).
						m.RatingsBefore = append(m.RatingsBefore, float64(900+100*r+10*k+s))
					}
				}
			}
		}
	}
	bye := func(e, x int) bool {
		for _, m := range tr.Rounds[x-1].Matches {
			if slices.Contains(m.Seats, e) {
				return m.State == tournament.MatchBye
			}
		}
		return true
	}
	pd := personDraw{tr: tr, who: make([][][]int, n)}
	var departed []string
	places := rng.Perm(n)[:2+rng.IntN(2)]
	var back []int // places where a holder comes back
	for e := range tr.Entrants {
		// Hand-over points: 2b after round b, 2x-1 within round x.
		var points []int
		if slices.Contains(places, e) {
			for range 1 + rng.IntN(2) {
				p := rng.IntN(7)
				if p%2 == 1 && bye(e, (p+1)/2) {
					p--
				}
				points = append(points, p)
			}
			if rng.IntN(3) == 0 {
				// Replaced, back, and replaced again at one point: two
				// equal stints (holder j+2 is holder j again).
				p := points[rng.IntN(len(points))]
				points = append(points, p, p)
				back = append(back, e)
			}
			sort.Ints(points)
		}
		en := &tr.Entrants[e]
		for j, p := range append(slices.Clone(points), 6) {
			q := 0
			if j > 0 {
				q = points[j-1]
			}
			for x := 1; x <= 3; x++ {
				if len(pd.who[e]) < x {
					pd.who[e] = append(pd.who[e], nil)
				}
				if q <= 2*x-1 && p >= 2*x-1 {
					pd.who[e][x-1] = append(pd.who[e][x-1], j)
				}
			}
			if j == len(points) {
				break
			}
			s := tournament.Stint{Name: en.Name, Address: en.Address, Through: p / 2}
			if p%2 == 1 {
				s.Into = (p + 1) / 2
			}
			en.Before = append(en.Before, s)
			departed = append(departed, en.Address)
			en.Name, en.Address = fmt.Sprintf("S%d", j), fmt.Sprintf("s%d-%d@x", e, j)
			if slices.Contains(back, e) && j >= 1 && points[j-1] == p && j+1 < len(points) && points[j+1] == p {
				// The one before comes back, to be replaced again at once.
				en.Name, en.Address = en.Before[j-1].Name, en.Before[j-1].Address
				continue
			}
			switch rng.IntN(3) {
			case 0:
				en.Name = tr.Entrants[rng.IntN(n)].Name // named like another holder
			case 1:
				if d := departed[rng.IntN(len(departed))]; d != s.Address {
					en.Address = strings.ToUpper(d) // one who left a place, back in another
				}
			}
		}
	}
	return pd
}

// host is a desk's test host holding the draw's tournament as "cup".
func (pd personDraw) host(t *testing.T) *testHost {
	t.Helper()
	h := newTestHost(t, time.Date(2026, 9, 16, 18, 0, 0, 0, time.UTC))
	raw, err := json.Marshal(pd.tr)
	if err != nil {
		t.Fatal(err)
	}
	h.rec.tours["cup"] = raw
	return h
}

// holderOf is holder k's name and address of place e.
func (pd personDraw) holderOf(e, k int) (name, addr string) {
	en := pd.tr.Entrants[e]
	if k < len(en.Before) {
		return en.Before[k].Name, en.Before[k].Address
	}
	return en.Name, en.Address
}

// pageOf is the address of holder k of place e's page as the generator
// knows it: the place's page when it never changed hands.
func (pd personDraw) pageOf(e, k int) string {
	u := fmt.Sprintf("/t/cup-k/p/%d", e+1)
	if len(pd.tr.Entrants[e].Before) == 0 {
		return u
	}
	return fmt.Sprintf("%s/%d", u, k+1)
}

// TestPersonPagesListTheirGames_Issue24 (issue 24: a page per person who
// played in the event): 40 generated tournaments (drawPersons: Swiss and
// tables, places handed on once or twice, between rounds and within a
// game, same-name holders, one person holding two places). Every holder
// of every place has a page at /t/<id>-<key>/p/<n>/<k> listing exactly the
// games the generator's record says they played, for which place, each
// opponent named as every holder who played that game, first to last,
// each linking their own page, who
// shared the game when it was handed on, their rating before and after
// each rated game they finished (before as stored with the match, their
// first game's too; none for a match stored before it was kept: every
// fourth draw), and the places they held (substitute,
// replaced in round N). The place's page and the crosstable link each
// earlier holder's page, the crosstable's handed-on cell the page of each
// holder who played the game, every opponent line the page of who
// finished the game; the tournament page's
// round tables name and link every holder who played each seat's game,
// first to last; a page past the place's holders, or of a place, is none.
func TestPersonPagesListTheirGames_Issue24(t *testing.T) {
	equal := 0 // stints equal to an earlier one of their place, played
	for draw := range 40 {
		pd := drawPersons(t, draw)
		tr := pd.tr
		for _, en := range tr.Entrants {
			for i, s := range en.Before {
				if slices.Contains(en.Before[:i], s) && s.Into > s.Through {
					equal++
				}
			}
		}
		h := pd.host(t)
		for e, en := range tr.Entrants {
			if _, err := PersonPageOf(h, "cup", "k", e+1, len(en.Before)+2); err != ErrNoPage {
				t.Errorf("draw %d: place %d's holder %d past its last: %v", draw, e+1, len(en.Before)+2, err)
			}
			for k := 0; k <= len(en.Before); k++ {
				name, addr := pd.holderOf(e, k)
				p, err := PersonPageOf(h, "cup", "k", e+1, k+1)
				if err != nil {
					t.Fatalf("draw %d: place %d holder %d: %v", draw, e+1, k+1, err)
				}
				if p.Name != name {
					t.Errorf("draw %d: place %d holder %d's page is %q's, want %q's", draw, e+1, k+1, p.Name, name)
				}
				// The generator's record: this person's games and places.
				var want []string
				var held []string
				for _, rd := range tr.Rounds {
					for _, m := range rd.Matches {
						for seat, x := range m.Seats {
							for i, j := range pd.who[x][rd.N-1] {
								if _, a := pd.holderOf(x, j); !strings.EqualFold(a, addr) {
									continue
								}
								g := fmt.Sprintf("r%d place %d", rd.N, x+1)
								for s, o := range m.Seats {
									if s != seat {
										g += " vs"
										for _, f := range pd.who[o][rd.N-1] {
											on, _ := pd.holderOf(o, f)
											g += fmt.Sprintf(" %s %s", on, pd.pageOf(o, f))
										}
									}
								}
								if ws := pd.who[x][rd.N-1]; len(ws) > 1 {
									g += " shared"
								}
								if i == len(pd.who[x][rd.N-1])-1 && m.State != tournament.MatchBye {
									before := ""
									if m.RatingsBefore != nil {
										before = fmt.Sprint(m.RatingsBefore[seat])
									}
									g += fmt.Sprintf(" rated %s->%v", before, m.Ratings[seat])
								}
								want = append(want, g)
								break
							}
						}
					}
				}
				for x, xe := range tr.Entrants {
					for j := 0; j <= len(xe.Before); j++ {
						if _, a := pd.holderOf(x, j); strings.EqualFold(a, addr) {
							left := 0
							if j < len(xe.Before) {
								left = xe.Before[j].Through + 1
							}
							held = append(held, fmt.Sprintf("place %d sub=%v left=%d", x+1, j > 0, left))
						}
					}
				}
				var got, gotHeld []string
				for _, g := range p.Games {
					s := fmt.Sprintf("r%d place %d", g.Round, g.Place)
					for _, o := range g.Opponents {
						s += " vs"
						for i, name := range o.Part {
							s += fmt.Sprintf(" %s %s", name, o.PartURLs[i])
						}
						s += fmt.Sprintf(" %s %s", o.Name, o.URL)
					}
					if len(g.Played) > 0 {
						s += " shared"
					}
					if g.RatingAfter != "" {
						s += fmt.Sprintf(" rated %s->%s", g.RatingBefore, g.RatingAfter)
					}
					got = append(got, s)
				}
				for _, s := range p.Held {
					gotHeld = append(gotHeld, fmt.Sprintf("place %d sub=%v left=%d", s.Place, s.Substitute, s.Left))
				}
				if fmt.Sprint(got) != fmt.Sprint(want) {
					t.Errorf("draw %d: place %d holder %d (%s) lists\n%q\nwant\n%q", draw, e+1, k+1, name, got, want)
				}
				if fmt.Sprint(gotHeld) != fmt.Sprint(held) {
					t.Errorf("draw %d: place %d holder %d (%s) held %q, want %q", draw, e+1, k+1, name, gotHeld, held)
				}
			}
			pp, err := PlayerPageOf(h, "cup", "k", e+1)
			if err != nil {
				t.Fatal(err)
			}
			// The place's page marks each earlier holder who played, by
			// their own number (equal stints: each their own page).
			var wantMarks, gotMarks []string
			for j := range en.Before {
				for _, w := range pd.who[e] {
					if slices.Contains(w, j) {
						wantMarks = append(wantMarks, en.Before[j].Name+" "+pd.pageOf(e, j))
						break
					}
				}
			}
			for _, s := range pp.Replaced {
				gotMarks = append(gotMarks, s.Name+" "+s.URL)
			}
			if fmt.Sprint(gotMarks) != fmt.Sprint(wantMarks) {
				t.Errorf("draw %d: place %d's page marks %q, want %q", draw, e+1, gotMarks, wantMarks)
			}
		}
		// The tournament page's round tables name and link, for each
		// seat, every holder who played its game, first to last.
		tp, err := Page(h, "cup", "k", "en")
		if err != nil {
			t.Fatal(err)
		}
		for _, pr := range tp.Pairings {
			rd := tr.Rounds[pr.N-1]
			for i, pm := range pr.Matches {
				for seat, e := range rd.Matches[i].Seats {
					var want, got []string
					for _, k := range pd.who[e][pr.N-1] {
						name, _ := pd.holderOf(e, k)
						want = append(want, name+" "+pd.pageOf(e, k))
					}
					for j, name := range pm.Part[seat] {
						got = append(got, name+" "+pm.PartURLs[seat][j])
					}
					got = append(got, pm.Players[seat]+" "+pm.PlayerURLs[seat])
					if fmt.Sprint(got) != fmt.Sprint(want) {
						t.Errorf("draw %d: round %d table %d seat %d names %q, want %q", draw, pr.N, pm.Table, seat+1, got, want)
					}
				}
			}
		}
		cp, err := CrossPageOf(h, "cup", "k")
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range cp.Lines {
			e := l.Line
			for i := range tr.Entrants {
				if playerPagePath(tr, i) == l.URL {
					e = i
				}
			}
			for r, c := range l.Cells {
				if c.Players == nil {
					continue
				}
				var want []string
				for _, k := range pd.who[e][r] {
					want = append(want, pd.pageOf(e, k))
				}
				if fmt.Sprint(c.PlayedURLs) != fmt.Sprint(want) {
					t.Errorf("draw %d: the crosstable's round %d of place %d links %q, want %q", draw, r+1, e+1, c.PlayedURLs, want)
				}
			}
			for _, s := range l.Replaced {
				if !strings.HasPrefix(s.URL, playerPagePath(tr, e)+"/") {
					t.Errorf("draw %d: the crosstable marks %s of place %d linking %q", draw, s.Name, e+1, s.URL)
				}
			}
		}
	}
	if equal < 3 {
		t.Errorf("%d played stints equal to an earlier one: the generator no longer reaches the case", equal)
	}
}
