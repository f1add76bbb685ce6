package tournament

// The other formats' draws: tables of K by standing, round robin by the
// circle method, knockout.

import (
	"sort"

	"github.com/pbem-referee/referee/referee/tournament/tables"
)

// The tables draw's methods recorded with a round (Round.Pairing), drawn
// by package tables (doc.go there, "Who sits with whom"): PairingDual the
// newest, PairingBound and PairingLeast the rounds drawn before it, and
// PairingExact ("") a round the single swaps seat.
const (
	PairingLeast = tables.Least
	PairingBound = tables.Bound
	PairingDual  = tables.Dual
)

// pairingNewest is the method NextRound asks for: each format's newest
// (windows for a large Swiss field, PairingDual for tables).
const pairingNewest = "newest"

// tables seats round n's entrants (in standing order, byes taken) by
// tables.Draw with pairing (pairingNewest: PairingDual), then seats each
// table: first those who sat late before, then by the round's draw.
func (t *Tournament) tables(n int, order []int, pairing string) ([]Match, string, error) {
	kmin := t.MinTable
	if kmin == 0 {
		kmin = t.Table
	}
	sizes := tables.Sizes(len(order), t.Table, kmin)
	if len(sizes) == 0 {
		return nil, "", ErrEntrants
	}
	seated := 0
	for _, s := range sizes {
		seated += s
	}
	h := t.seatHistories()
	order, byes := takeByes(order, len(order)-seated, h)
	short := make([]int, len(h))
	for e := range h {
		short[e] = h[e].short
	}
	if pairing == pairingNewest {
		pairing = PairingDual
	}
	tabs, used := tables.Draw(sizes, order, short, t.meetings(), t.Scaled, pairing)
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
	sizes := tables.Sizes(len(alive), k, max(2, min(t.MinTable, k)))
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
