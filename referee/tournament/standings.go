package tournament

import (
	"math"
	"sort"

	"github.com/pbem-referee/referee/referee/tournament/tables"
)

// Standing is one entrant's line in the standings.
type Standing struct {
	Entrant int    `json:"entrant"`
	Name    string `json:"name"`
	// Place is 1-based; entrants equal on points and every tie-break share
	// it.
	Place  int     `json:"place"`
	Points float64 `json:"points"`
	// Tiebreaks are in the order of Settings.Tiebreaks.
	Tiebreaks []float64 `json:"tiebreaks"`
	Played    int       `json:"played"`
	Won       int       `json:"won"`
	Drawn     int       `json:"drawn"`
	Lost      int       `json:"lost"`
	Byes      int       `json:"byes"`
	// Forfeits are the entrant's games decided by forfeit (won or lost):
	// in Won/Drawn/Lost, not in Played, and in the tie-breaks only when
	// Settings.Forfeits is ForfeitsCount.
	Forfeits  int  `json:"forfeits,omitempty"`
	Score     int  `json:"score"`
	Withdrawn bool `json:"withdrawn,omitempty"`
}

// seatPoints returns the tournament points of each seat of a decided match.
func (s *Settings) seatPoints(m Match) []float64 {
	out := make([]float64, len(m.Seats))
	if m.State == MatchBye {
		for i := range out {
			out[i] = s.Bye
			if m.Requested {
				out[i] = s.Bye / 2
			}
		}
		return out
	}
	if m.DoubleForfeit() {
		// Everyone lost: the last place's points each (a shared last
		// place is not a draw).
		for i := range out {
			out[i] = s.Points[min(s.Table, len(s.Points))-1]
		}
		return out
	}
	k := len(m.Seats)
	for i, r := range m.Rank {
		same := 0
		for _, q := range m.Rank {
			if q == r {
				same++
			}
		}
		if k == 2 && same == 2 && s.Draw != nil && (!s.Scaled || s.Table <= 2) {
			out[i] = *s.Draw
			continue
		}
		sum := 0.0
		for p := r - 1; p < r-1+same; p++ {
			if s.Scaled && k < s.Table && k > 1 {
				sum += s.placePoints(float64(p) * float64(s.Table-1) / float64(k-1))
			} else if p >= 0 && p < len(s.Points) {
				sum += s.Points[p]
			}
		}
		out[i] = sum / float64(same)
	}
	return out
}

// placePoints is the points of a fractional place x (0 first, Table-1
// last) at a full table: the points of the places on either side,
// weighted by nearness.
func (s *Settings) placePoints(x float64) float64 {
	last := min(s.Table, len(s.Points)) - 1
	if x <= 0 || last <= 0 {
		return s.Points[0]
	}
	if x >= float64(last) {
		return s.Points[last]
	}
	lo := int(math.Floor(x))
	f := x - float64(lo)
	return s.Points[lo] + f*(s.Points[lo+1]-s.Points[lo])
}

// tiebreakScale is the factor of a game's share in Buchholz and
// Sonneborn-Berger: the opponents a full table has over the opponents
// this one had (1 unless Scaled and the table is small).
func (s *Settings) tiebreakScale(m Match) float64 {
	if !s.Scaled || len(m.Seats) >= s.Table || len(m.Seats) < 2 {
		return 1
	}
	return float64(s.Table-1) / float64(len(m.Seats)-1)
}

// countsInTiebreaks reports whether a decided game counts in the
// tie-breaks: forfeits only when Settings.Forfeits says so.
func (s *Settings) countsInTiebreaks(m Match) bool {
	return m.State != MatchForfeit || s.Forfeits == "" || s.Forfeits == ForfeitsCount
}

// outcome is seat i's result against seat j at one table: 1 ahead, ½ level,
// 0 behind.
func outcome(m Match, i, j int) float64 {
	switch {
	case m.Rank[i] < m.Rank[j]:
		return 1
	case m.Rank[i] == m.Rank[j]:
		return 0.5
	}
	return 0
}

// played calls fn for every decided match that was a real game (not a
// bye), with its round index.
func (t *Tournament) played(fn func(r int, m Match)) {
	for r, rd := range t.Rounds {
		for _, m := range rd.Matches {
			if m.Decided() && m.State != MatchBye && len(m.Rank) == len(m.Seats) {
				fn(r, m)
			}
		}
	}
}

// PointTotals returns every entrant's tournament points.
func (t *Tournament) PointTotals() []float64 {
	pts := make([]float64, len(t.Entrants))
	for _, rd := range t.Rounds {
		for _, m := range rd.Matches {
			if !m.Decided() || (m.State != MatchBye && len(m.Rank) != len(m.Seats)) {
				continue
			}
			for i, p := range t.seatPoints(m) {
				pts[m.Seats[i]] += p
			}
		}
	}
	return pts
}

// Standings ranks the entrants: points, then the tie-breaks in order, then
// entrant number (the sign-up order).
func (t *Tournament) Standings() []Standing {
	n := len(t.Entrants)
	if n == 0 {
		return nil // no entrant yet (a page during sign-up)
	}
	pts := t.PointTotals()
	st := make([]Standing, n)
	for i, e := range t.Entrants {
		st[i] = Standing{Entrant: i, Name: e.Name, Points: pts[i], Withdrawn: e.Withdrawn > 0}
	}
	buch := make([]float64, n)
	sb := make([]float64, n)
	for _, rd := range t.Rounds {
		for _, m := range rd.Matches {
			if m.State == MatchBye && m.Decided() {
				for _, e := range m.Seats {
					st[e].Byes++
				}
			}
		}
	}
	t.played(func(_ int, m Match) {
		counts := t.countsInTiebreaks(m)
		scale := t.tiebreakScale(m)
		for i, a := range m.Seats {
			s := &st[a]
			if m.State == MatchForfeit {
				s.Forfeits++
			} else {
				s.Played++
			}
			if i < len(m.Scores) {
				s.Score += m.Scores[i]
			}
			// Nobody ahead and first (a double forfeit has no first).
			best, shared := m.Rank[i] == 1, false
			for j, b := range m.Seats {
				if i == j {
					continue
				}
				if counts {
					buch[a] += scale * pts[b]
					sb[a] += scale * outcome(m, i, j) * pts[b]
				}
				if m.Rank[j] < m.Rank[i] {
					best = false
				} else if m.Rank[j] == m.Rank[i] {
					shared = true
				}
			}
			switch {
			case best && !shared:
				s.Won++
			case best:
				s.Drawn++
			default:
				s.Lost++
			}
		}
	})
	keys := make([][]float64, n)
	for i := range keys {
		keys[i] = []float64{pts[i]}
	}
	equalUpTo := func(a, b, k int) bool {
		for x := 0; x < k; x++ {
			if keys[a][x] != keys[b][x] {
				return false
			}
		}
		return true
	}
	for _, tb := range t.Tiebreaks {
		switch tb {
		case Buchholz:
			for i := range keys {
				keys[i] = append(keys[i], buch[i])
			}
		case SonnebornBerger:
			for i := range keys {
				keys[i] = append(keys[i], sb[i])
			}
		case GameScore:
			for i := range keys {
				keys[i] = append(keys[i], float64(st[i].Score))
			}
		case HeadToHead:
			// Among the entrants still level, the results of their games
			// against each other.
			k := len(keys[0])
			h := make([]float64, n)
			t.played(func(_ int, m Match) {
				if !t.countsInTiebreaks(m) {
					return
				}
				for i, a := range m.Seats {
					for j, b := range m.Seats {
						if i != j && equalUpTo(a, b, k) {
							h[a] += outcome(m, i, j)
						}
					}
				}
			})
			for i := range keys {
				keys[i] = append(keys[i], h[i])
			}
		}
	}
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	less := func(a, b int) int {
		for x := range keys[a] {
			if keys[a][x] != keys[b][x] {
				if keys[a][x] > keys[b][x] {
					return -1
				}
				return 1
			}
		}
		return 0
	}
	sort.SliceStable(order, func(x, y int) bool {
		if c := less(order[x], order[y]); c != 0 {
			return c < 0
		}
		return order[x] < order[y]
	})
	out := make([]Standing, n)
	for k, e := range order {
		s := st[e]
		s.Tiebreaks = keys[e][1:]
		s.Place = k + 1
		if k > 0 && less(order[k-1], e) == 0 {
			s.Place = out[k-1].Place
		}
		out[k] = s
	}
	return out
}

// meetings counts, for every pair of entrants, the games they played
// together (byes excluded), decided or not.
func (t *Tournament) meetings() map[[2]int]int {
	met := map[[2]int]int{}
	for _, rd := range t.Rounds {
		for _, m := range rd.Matches {
			if m.State == MatchBye {
				continue
			}
			for i, a := range m.Seats {
				for _, b := range m.Seats[i+1:] {
					met[pairKey(a, b)]++
				}
			}
		}
	}
	return met
}

// pairKey is the key of a and b's meetings (tables.Key).
func pairKey(a, b int) [2]int { return tables.Key(a, b) }
