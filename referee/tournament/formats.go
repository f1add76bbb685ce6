package tournament

// The other formats' draws: tables of K by standing, round robin by the
// circle method, knockout.

import (
	"sort"
)

// tableSizes splits n entrants into tables of k (or of kmin when the game
// allows smaller tables), seating as many as possible in as few tables as
// possible; the rest get byes.
func tableSizes(n, k, kmin int) []int {
	bestSeated, bestA, bestB := -1, 0, 0
	for b := 0; b*kmin <= n; b++ {
		if kmin == k && b > 0 {
			break
		}
		a := (n - b*kmin) / k
		seated := a*k + b*kmin
		if seated > bestSeated || (seated == bestSeated && a+b < bestA+bestB) {
			bestSeated, bestA, bestB = seated, a, b
		}
	}
	var sizes []int
	for i := 0; i < bestA; i++ {
		sizes = append(sizes, k)
	}
	for i := 0; i < bestB; i++ {
		sizes = append(sizes, kmin)
	}
	return sizes
}

// seatTables splits order (by standing) into tables of sizes (the full
// ones first, then the small ones). Unscaled, the tables take the
// standings in turn, so the small ones go to the bottom. Scaled, the
// small tables take the run of consecutive entrants with the fewest
// seats at a small table before (the lowest most of them had, then their
// sum, then the lowest in the standings), and the full tables the others
// in turn; tables are numbered by their best-placed entrant.
func seatTables(sizes, order []int, h []seatHistory, scaled bool) [][]int {
	long := 0
	for _, s := range sizes {
		if s == sizes[0] {
			long++
		}
	}
	width := 0
	for _, s := range sizes[long:] {
		width += s
	}
	at := len(order) - width // where the small tables' run starts
	if scaled && width > 0 && long > 0 {
		bestMax, bestSum := -1, 0
		for i := 0; i+width <= len(order); i++ {
			mx, sum := 0, 0
			for _, e := range order[i : i+width] {
				mx, sum = max(mx, h[e].short), sum+h[e].short
			}
			if bestMax < 0 || mx < bestMax || (mx == bestMax && sum <= bestSum) {
				bestMax, bestSum, at = mx, sum, i
			}
		}
	}
	rest := append(append([]int(nil), order[:at]...), order[at+width:]...)
	var tabs [][]int
	k := 0
	for _, s := range sizes[:long] {
		tabs = append(tabs, rest[k:k+s])
		k += s
	}
	k = at
	for _, s := range sizes[long:] {
		tabs = append(tabs, append([]int(nil), order[k:k+s]...))
		k += s
	}
	place := make(map[int]int, len(order))
	for i, e := range order {
		place[e] = i
	}
	sort.SliceStable(tabs, func(x, y int) bool { return place[tabs[x][0]] < place[tabs[y][0]] })
	return tabs
}

// tables seats round n's entrants (in standing order) at tables of K from
// the top, then swaps players between neighbouring tables while that
// lowers the number of repeated meetings; then, unless pairing is
// PairingExact (a round recorded before the least search), the least
// search seats no repeated meeting another seating avoids (seater.least,
// recorded as PairingDual when it changed the seating; with lower
// bounds unless pairing is PairingLeast, a round recorded before them,
// and with the entrants' weights unless pairing is PairingLeast or
// PairingBound).
// Seats go first to those who sat late before.
func (t *Tournament) tables(n int, order []int, pairing string) ([]Match, string, error) {
	kmin := t.MinTable
	if kmin == 0 {
		kmin = t.Table
	}
	sizes := tableSizes(len(order), t.Table, kmin)
	if len(sizes) == 0 {
		return nil, "", ErrEntrants
	}
	seated := 0
	for _, s := range sizes {
		seated += s
	}
	h := t.seatHistories()
	order, byes := takeByes(order, len(order)-seated, h)
	s := &seater{tabs: seatTables(sizes, order, h, t.Scaled), met: t.meetings(), h: h, order: order, keep: t.Scaled}
	s.swaps()
	used := PairingExact
	s.bounded = pairing != PairingLeast
	s.dual = s.bounded && pairing != PairingBound
	if pairing != PairingExact && s.least() {
		used = PairingLeast
		if s.dual {
			used = PairingDual
		} else if s.bounded {
			used = PairingBound
		}
	}
	tabs := s.tabs
	rnd := t.rand(n, "seats")
	var ms []Match
	for _, tab := range tabs {
		draw := make(map[int]int, len(tab))
		perm := permute(&rnd, len(tab))
		for i, e := range tab {
			draw[e] = perm[i]
		}
		sort.SliceStable(tab, func(i, j int) bool {
			a, b := tab[i], tab[j]
			if h[a].lateness != h[b].lateness {
				return h[a].lateness > h[b].lateness
			}
			return draw[a] < draw[b]
		})
		ms = append(ms, Match{Seats: tab, State: MatchPlaying})
	}
	for _, e := range byes {
		ms = append(ms, Match{Seats: []int{e}})
	}
	return ms, used, nil
}

// roundRobin is round n of the circle method over every entrant in a drawn
// order: one entrant stays, the others turn one place each round. A game
// against an entrant who withdrew is a bye.
func (t *Tournament) roundRobin(n int) ([]Match, error) {
	rnd := t.rand(0, "roundrobin")
	l := permute(&rnd, len(t.Entrants))
	if len(l) < 2 {
		return nil, ErrEntrants
	}
	if len(l)%2 == 1 {
		l = append(l, -1)
	}
	m := len(l)
	r := (n - 1) % (m - 1)
	arr := make([]int, m)
	arr[0] = l[0]
	for i := 1; i < m; i++ {
		arr[i] = l[1+(i-1+r)%(m-1)]
	}
	activeSet := map[int]bool{}
	for _, e := range t.ActiveIn(n) {
		activeSet[e] = true
	}
	h := t.seatHistories()
	var ms []Match
	for i := 0; i < m/2; i++ {
		a, b := arr[i], arr[m-1-i]
		if a >= 0 && b >= 0 && firstOf(h, a, b, i%2 == 1) == b {
			a, b = b, a
		}
		switch {
		case a >= 0 && b >= 0 && activeSet[a] && activeSet[b]:
			ms = append(ms, Match{Seats: []int{a, b}, State: MatchPlaying})
		case a >= 0 && activeSet[a]:
			ms = append(ms, Match{Seats: []int{a}})
		case b >= 0 && activeSet[b]:
			ms = append(ms, Match{Seats: []int{b}})
		}
	}
	return ms, nil
}

// Winner returns the entrant who won a decided match: the best rank, then
// the best game score, then the earlier seat.
func Winner(m Match) int {
	if len(m.Seats) == 0 {
		return -1
	}
	if m.State == MatchBye || len(m.Rank) != len(m.Seats) {
		return m.Seats[0]
	}
	best := 0
	for i := range m.Seats {
		if m.Rank[i] < m.Rank[best] || (m.Rank[i] == m.Rank[best] && i < len(m.Scores) && best < len(m.Scores) && m.Scores[i] > m.Scores[best]) {
			best = i
		}
	}
	return m.Seats[best]
}

// knockout seats round n: round 1 in drawn order, then the winners of the
// previous round in bracket order (the winner of each table goes on).
func (t *Tournament) knockout(n int) ([]Match, error) {
	var alive []int
	if n == 1 {
		alive = t.order(1)
	} else {
		activeSet := map[int]bool{}
		for _, e := range t.ActiveIn(n) {
			activeSet[e] = true
		}
		for _, m := range t.Rounds[n-2].Matches {
			if w := Winner(m); w >= 0 && activeSet[w] {
				alive = append(alive, w)
			}
		}
	}
	if len(alive) < 2 {
		return nil, ErrEntrants
	}
	k := t.Table
	sizes := tableSizes(len(alive), k, max(2, min(t.MinTable, k)))
	if len(sizes) == 0 {
		sizes = []int{len(alive)}
	}
	seated := 0
	for _, s := range sizes {
		seated += s
	}
	// Byes go to the first entrants of the bracket (the top of round 1's
	// order), so they are spread evenly.
	byes := alive[:len(alive)-seated]
	rest := alive[len(alive)-seated:]
	var ms []Match
	for _, e := range byes {
		ms = append(ms, Match{Seats: []int{e}})
	}
	h := t.seatHistories()
	i := 0
	for _, s := range sizes {
		tab := append([]int(nil), rest[i:i+s]...)
		i += s
		sort.SliceStable(tab, func(x, y int) bool { return h[tab[x]].lateness > h[tab[y]].lateness })
		ms = append(ms, Match{Seats: tab, State: MatchPlaying})
	}
	return ms, nil
}
