package heavenale

import (
	"fmt"
	"strings"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/heavenale/catalog"
)

// evenOut runs the final evening-out (HA-7.3) with the algorithm of HA-7.6:
// the exchanges (rate r) and ducat steps (d = ducats/10) that maximise the
// lowest marker. It returns the best lowest position, the markers after the
// exchanges, the exchange steps taken and the colour of each ducat step.
func evenOut(start [5]int, rate, d, max int, mayStop bool) (best int, ex [5]int, steps []string, ducat []int) {
	type key [5]int
	memo := map[key]int{}
	finish := func(p [5]int) int {
		q := p
		for k := 0; k < d; k++ {
			i := lowIdx(q, max)
			if i < 0 {
				break
			}
			q[i]++
		}
		return minOf(q)
	}
	// succ enumerates the successor states of one exchange.
	succ := func(p [5]int, f func([5]int)) {
		m := minOf(p)
		for i := 0; i < 5; i++ {
			if p[i] != m || m+1 > max {
				continue
			}
			t := m + 1
			var rec func(j, left int, q [5]int)
			rec = func(j, left int, q [5]int) {
				if left == 0 {
					f(q)
					return
				}
				if j == 5 {
					return
				}
				if j == i {
					rec(j+1, left, q)
					return
				}
				for k := 0; k <= left && (k == 0 || q[j]-k >= t); k++ {
					q2 := q
					q2[j] -= k
					rec(j+1, left-k, q2)
				}
			}
			q := p
			q[i] = t
			rec(0, rate, q)
		}
	}
	// The rule is symmetric in the colours: memoise on the sorted markers.
	var search func(p [5]int) int
	search = func(p [5]int) int {
		p = sorted5(p)
		if v, ok := memo[p]; ok {
			return v
		}
		best := -1 << 30
		terminal := true
		succ(p, func(q [5]int) {
			terminal = false
			if v := search(q); v > best {
				best = v
			}
		})
		if terminal {
			best = finish(p)
		} else if mayStop {
			if v := finish(p); v > best {
				best = v
			}
		}
		memo[p] = best
		return best
	}
	best = search(start)
	// Follow a best sequence on the real markers to report the exchanges.
	cur := start
	for n := 0; n < 10000; n++ {
		if mayStop && finish(cur) == best {
			break
		}
		var next [5]int
		found := false
		succ(cur, func(q [5]int) {
			if !found && search(q) == best {
				next, found = q, true
			}
		})
		if !found {
			break
		}
		steps = append(steps, exchangeText(cur, next))
		cur = next
	}
	ex = cur
	q := cur
	for k := 0; k < d; k++ {
		i := lowIdx(q, max)
		if i < 0 {
			break
		}
		q[i]++
		ducat = append(ducat, i)
	}
	return minOf(q), ex, steps, ducat
}

// exchangeText writes one exchange as colour deltas: "HO+1 WO-1 YE-1".
func exchangeText(from, to [5]int) string {
	var up, down []string
	for c := range from {
		switch d := to[c] - from[c]; {
		case d > 0:
			up = append(up, fmt.Sprintf("%s+%d", catalog.ColourNames[c], d))
		case d < 0:
			down = append(down, fmt.Sprintf("%s%d", catalog.ColourNames[c], d))
		}
	}
	return strings.Join(append(up, down...), " ")
}

// lowIdx returns the first least advanced marker below max, -1 if none.
func lowIdx(q [5]int, max int) int {
	i := -1
	for j := range q {
		if q[j] < max && (i < 0 || q[j] < q[i]) {
			i = j
		}
	}
	return i
}

func sorted5(q [5]int) [5]int {
	for i := 1; i < 5; i++ {
		for j := i; j > 0 && q[j] < q[j-1]; j-- {
			q[j], q[j-1] = q[j-1], q[j]
		}
	}
	return q
}

func minOf(q [5]int) int {
	m := q[0]
	for _, v := range q[1:] {
		if v < m {
			m = v
		}
	}
	return m
}

// scoreSeat computes one seat's final score (HA-7.2 to HA-7.4).
func (s *State) scoreSeat(seat int) FinalPlayer {
	p := &s.Players[seat]
	b := s.r.Band(p.Brew)
	fp := FinalPlayer{Rate: b.Rate, VP: b.VP, Before: p.Markers, Ducats: p.Ducats}
	d := p.Ducats / s.r.C.DucatsPerStep
	mayStop := s.H.Options["final_exchange_may_stop"] == "true"
	low, ex, steps, ducat := evenOut(p.Markers, b.Rate, d, s.r.Max, mayStop)
	fp.Exchanged, fp.Exchanges, fp.DucatSteps = ex, steps, ducat
	fp.After = ex
	for _, c := range ducat {
		fp.After[c]++
	}
	fp.Lowest = low
	if low > 0 {
		fp.Production = b.VP * low
	}
	fp.Large, fp.Small = s.barrels(seat)
	fp.Barrels = fp.Large*s.r.C.LargeVP + fp.Small*s.r.C.SmallVP
	for _, c := range p.Placed {
		if c == "BARREL" {
			fp.CardBonus = (fp.Large + fp.Small) * s.r.C.CardBarrelVP
		}
	}
	if s.Home[catalog.HomeFirst] == seat {
		fp.First = s.r.C.FirstVP
	}
	fp.Total = fp.Production + fp.Barrels + fp.CardBonus + fp.First
	return fp
}

// finish runs the final scoring (HA-7) and ends the game.
func (s *State) finish() []engine.Event {
	var evs []engine.Event
	f := &Final{}
	for seat := range s.Players {
		p := &s.Players[seat]
		sold := 0
		if p.EndSell && len(p.Cards) > 0 {
			// AUTO ENDSELL (§10.2): sell the unplaced cards that raise the score.
			base := s.scoreSeat(seat).Total
			bestK, best := 0, base
			for k := 1; k <= len(p.Cards); k++ {
				c := s.Clone().(*State)
				c.Players[seat].Ducats += k * s.r.C.SaleDucats
				if v := c.scoreSeat(seat).Total; v > best {
					best, bestK = v, k
				}
			}
			if bestK > 0 {
				p.Ducats += bestK * s.r.C.SaleDucats
				p.Cards = p.Cards[bestK:]
				sold = bestK
			}
		}
		fp := s.scoreSeat(seat)
		fp.Sold = sold
		f.Players = append(f.Players, fp)
		evs = append(evs, engine.NewEvent("ha.final", seat, engine.Public, "rate", fp.Rate, "vp", fp.VP,
			"before", marks(fp.Before), "exchanged", marks(fp.Exchanged), "after", marks(fp.After), "lowest", fp.Lowest,
			"production", fp.Production, "barrels", fp.Barrels, "card_bonus", fp.CardBonus, "first", fp.First,
			"total", fp.Total, "sold", sold))
	}
	s.Final = f
	s.Phase, s.Sub, s.Cur = phaseOver, "", -1
	res := s.Result()
	totals := make([]int, len(res.Scores))
	for i, sc := range res.Scores {
		totals[i] = sc.Total
	}
	evs = append(evs, engine.NewEvent(engine.EvGameOver, -1, engine.Public, "rank", res.Rank, "totals", totals))
	return evs
}

// Result implements engine.State (HA-7.4, HA-7.5: ties share the place).
func (s *State) Result() *engine.Result {
	if s.Phase != phaseOver || s.Final == nil {
		return nil
	}
	res := &engine.Result{}
	for seat, fp := range s.Final.Players {
		res.Scores = append(res.Scores, engine.Score{Seat: seat, Total: fp.Total, Parts: []engine.ScorePart{
			{Name: "production", Points: fp.Production},
			{Name: "barrels", Points: fp.Barrels},
			{Name: "barrel_card", Points: fp.CardBonus},
			{Name: "first", Points: fp.First},
		}})
	}
	res.Rank = engine.RankScores(res.Scores)
	return res
}
