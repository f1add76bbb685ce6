package tournament

import (
	"fmt"
	"math"
	"sort"

	"github.com/pbem-referee/referee/engine"
)

// ActiveIn lists the entrants paired in round n (1-based): those who had
// not withdrawn before it opened, had joined by then (a late entry) and
// asked for no bye in it (Entrant.Plays; the byes asked are added to the
// round by nextRound).
func (t *Tournament) ActiveIn(n int) []int {
	var out []int
	for _, e := range t.Entrants {
		if e.Plays(n) {
			out = append(out, e.ID)
		}
	}
	return out
}

// rand is the draw of round n: derived from the tournament's seed, so the
// pairings can be replayed once the seed is revealed.
func (t *Tournament) rand(n int, what string) engine.Rand {
	return engine.NewRand(fmt.Sprintf("%s/tournament/round-%d/%s", t.Seed, n, what))
}

// NextRound draws the pairings of the next round from the record (it does
// not add the round: the caller opens its games and appends it). It only
// reads t, so a caller may draw on a copy of the record outside its
// write transaction and commit the round after.
func (t *Tournament) NextRound() (Round, error) {
	return t.nextRound(PairingWindows)
}

// nextRound draws the next round; a Swiss round is paired by the method
// pairing (Replay passes the one recorded with the round).
func (t *Tournament) nextRound(pairing string) (Round, error) {
	n := len(t.Rounds) + 1
	if len(t.Rounds) > 0 && !t.Rounds[len(t.Rounds)-1].Complete() {
		return Round{}, fmt.Errorf("tournament: round %d is not complete", n-1)
	}
	if t.Finished() {
		return Round{}, fmt.Errorf("tournament: all %d rounds are played", len(t.Rounds))
	}
	var ms []Match
	var err error
	used := PairingExact
	switch t.Format {
	case Swiss:
		ms, used, err = t.swiss(n, pairing)
	case RoundRobin:
		ms, err = t.roundRobin(n)
	case Knockout:
		ms, err = t.knockout(n)
	default:
		ms, err = t.tables(n, t.order(n))
	}
	if err != nil {
		return Round{}, err
	}
	// The byes asked for this round, after the tables drawn.
	for _, e := range t.Entrants {
		if e.AskedBye(n) && (e.Withdrawn == 0 || n < e.Withdrawn) && n >= e.Joined {
			ms = append(ms, Match{Seats: []int{e.ID}, Requested: true})
		}
	}
	for i := range ms {
		ms[i].Table = i + 1
		if len(ms[i].Seats) == 1 {
			ms[i].State = MatchBye
		}
	}
	return Round{N: n, Matches: ms, Pairing: used}, nil
}

// order lists the entrants of round n by standing; entrants level on
// everything are ordered by the round's draw (the whole order in round 1).
func (t *Tournament) order(n int) []int {
	active := t.ActiveIn(n)
	rnd := t.rand(n, "order")
	draw := make([]int, len(t.Entrants))
	perm := make([]int, len(t.Entrants))
	for i := range perm {
		perm[i] = i
	}
	rnd.Shuffle(len(perm), func(i, j int) { perm[i], perm[j] = perm[j], perm[i] })
	for pos, e := range perm {
		draw[e] = pos
	}
	place := make([]int, len(t.Entrants))
	for _, s := range t.Standings() {
		place[s.Entrant] = s.Place
	}
	sort.SliceStable(active, func(i, j int) bool {
		a, b := active[i], active[j]
		if place[a] != place[b] {
			return place[a] < place[b]
		}
		return draw[a] < draw[b]
	})
	return active
}

// seatHistory is an entrant's past seats: firsts minus seconds (two-player
// games), the last seat, and the sum of lateness (0 first .. 1 last).
type seatHistory struct {
	balance  int
	last     int // 0 none, 1 first, 2 not first
	lateness float64
	byes     int
	short    int // seats at a table smaller than Settings.Table
}

func (t *Tournament) seatHistories() []seatHistory {
	h := make([]seatHistory, len(t.Entrants))
	for _, rd := range t.Rounds {
		for _, m := range rd.Matches {
			if m.State == MatchBye {
				for _, e := range m.Seats {
					h[e].byes++
				}
				continue
			}
			for i, e := range m.Seats {
				if i == 0 {
					h[e].balance++
					h[e].last = 1
				} else {
					h[e].balance--
					h[e].last = 2
				}
				if len(m.Seats) > 1 {
					h[e].lateness += float64(i) / float64(len(m.Seats)-1)
				}
				if len(m.Seats) < t.Table {
					h[e].short++
				}
			}
		}
	}
	return h
}

// takeByes removes k entrants from the bottom of order: the lowest who had
// no bye yet, then the lowest.
func takeByes(order []int, k int, h []seatHistory) (rest, byes []int) {
	rest = append([]int(nil), order...)
	for round := 0; k > 0 && len(rest) > 0; round++ {
		for i := len(rest) - 1; i >= 0 && k > 0; i-- {
			if h[rest[i]].byes <= round {
				byes = append(byes, rest[i])
				rest = append(rest[:i:i], rest[i+1:]...)
				k--
			}
		}
	}
	return rest, byes
}

// swiss pairs round n: a maximum-weight matching whose weights put, in
// order, a full pairing, no rematch, close scores, seat balance, close
// standings first. pairing is the method recorded with the round
// (PairingExact or PairingWindows).
func (t *Tournament) swiss(n int, pairing string) ([]Match, string, error) {
	order := t.order(n)
	if len(order) < 2 {
		return nil, "", ErrEntrants
	}
	h := t.seatHistories()
	var byes []int
	if len(order)%2 == 1 {
		order, byes = takeByes(order, 1, h)
	}
	pts := t.PointTotals()
	met := t.meetings()
	var pairs [][2]int
	used := PairingExact
	if pairing == PairingExact || len(order) <= swissStep+swissLook {
		pairs = exactSwiss(order, pts, met, h)
	} else {
		pairs, used = windowSwiss(order, pts, met, h, swissStep, swissLook), PairingWindows
	}
	if pairs == nil {
		return nil, "", fmt.Errorf("tournament: no pairing of %d entrants", len(order))
	}
	rnd := t.rand(n, "seats")
	var ms []Match
	for _, p := range pairs {
		a, b := p[0], p[1]
		first := firstOf(h, a, b, rnd.Intn("seat", 2) == 1)
		if first == a {
			ms = append(ms, Match{Seats: []int{a, b}, State: MatchPlaying})
		} else {
			ms = append(ms, Match{Seats: []int{b, a}, State: MatchPlaying})
		}
	}
	for _, e := range byes {
		ms = append(ms, Match{Seats: []int{e}})
	}
	return ms, used, nil
}

// Pairing methods recorded with a Swiss round, so that Replay draws it
// again the same way.
const (
	// PairingExact is one maximum-weight matching over every entrant
	// (rounds recorded before windows existed have "", the same).
	PairingExact = ""
	// PairingWindows is the windowed matching (windowSwiss) of a field
	// larger than one window.
	PairingWindows = "windows"
)

// The windows of windowSwiss: swissStep entrants are paired for good in
// each window, which also sees the swissLook entrants below them. A field
// of at most swissStep+swissLook entrants is paired exactly. (Variables
// only so that tests can shrink them.)
var (
	swissStep = 200
	swissLook = 200
)

// exactSwiss is the maximum-weight matching of the whole list: first
// only pairs at most 60 places apart, then every pair when that leaves
// someone out or forces a rematch.
func exactSwiss(order []int, pts []float64, met map[[2]int]int, h []seatHistory) [][2]int {
	pairs := swissMatch(order, pts, met, h, 60)
	if pairs == nil || rematches(pairs, met) > 0 {
		if full := swissMatch(order, pts, met, h, len(order)); full != nil &&
			(pairs == nil || rematches(full, met) < rematches(pairs, met)) {
			pairs = full
		}
	}
	return pairs
}

// windowSwiss pairs a large field window by window down the standings
// (the Dutch system's score groups with floaters, by matching): each
// window is the entrants carried down from the window above, the next
// step entrants, and a look-ahead of the look entrants below them. The
// window's maximum-weight matching (the same weights as exactSwiss) is
// kept for every pair with an entrant among the carried and step ones
// (a look-ahead entrant so paired leaves the later windows); whoever it
// left out floats down into the next window. The last window takes all that is left and must pair
// everyone. A pairing with a rematch is drawn again with windows twice
// as large, up to one window over the whole field (exactSwiss), so a
// rematch stays only where the exact matching has one too.
func windowSwiss(order []int, pts []float64, met map[[2]int]int, h []seatHistory, step, look int) [][2]int {
	for {
		if len(order) <= step+look {
			return exactSwiss(order, pts, met, h)
		}
		if pairs := windowPass(order, pts, met, h, step, look); pairs != nil && rematches(pairs, met) == 0 {
			return seamPass(order, pairs, pts, met, h, step)
		}
		step, look = 2*step, 2*look
	}
}

// windowPass is one pass of windowSwiss with fixed windows; nil when the
// last window cannot pair everyone.
func windowPass(order []int, pts []float64, met map[[2]int]int, h []seatHistory, step, look int) [][2]int {
	var pairs [][2]int
	var carry []int
	paired := make([]bool, len(h))
	for pos := 0; ; {
		win := carry
		for pos < len(order) && len(win) < len(carry)+step {
			if e := order[pos]; !paired[e] {
				win = append(win, e)
			}
			pos++
		}
		keep := len(win)
		for k := pos; k < len(order) && len(win) < keep+look; k++ {
			if e := order[k]; !paired[e] {
				win = append(win, e)
			}
		}
		if len(win) == keep || len(win) < keep+look {
			// The last window: everyone left.
			last := exactSwiss(win, pts, met, h)
			if last == nil {
				return nil
			}
			return append(pairs, last...)
		}
		mate := windowMatch(win, keep, pts, met, h)
		carry = nil
		for i := 0; i < keep; i++ {
			switch j := mate[i]; {
			case j < 0:
				carry = append(carry, win[i])
			case j >= keep:
				pairs = append(pairs, [2]int{win[i], win[j]})
				paired[win[j]] = true
			case i < j:
				pairs = append(pairs, [2]int{win[i], win[j]})
			}
		}
	}
}

// seamPass improves a windowed pairing across the windows' seams: the
// entrants within step/2 places of a seam whose partner is too are
// matched again among themselves (exactSwiss), and that matching replaces
// theirs when its cost (pairCost) is lower. The pairs come out in
// standing order of their higher entrant (board 1 at the top).
func seamPass(order []int, pairs [][2]int, pts []float64, met map[[2]int]int, h []seatHistory, step int) [][2]int {
	place := make([]int, len(h))
	for i, e := range order {
		place[e] = i
	}
	partner := make([]int, len(order)) // by place
	for _, p := range pairs {
		a, b := place[p[0]], place[p[1]]
		partner[a], partner[b] = b, a
	}
	for seam := step; seam < len(order); seam += step {
		lo, hi := max(0, seam-step/2), min(len(order), seam+step/2)
		var sub []int
		var old [][2]int
		for i := lo; i < hi; i++ {
			if j := partner[i]; j >= lo && j < hi {
				sub = append(sub, order[i])
				if i < j {
					old = append(old, [2]int{order[i], order[j]})
				}
			}
		}
		repl := exactSwiss(sub, pts, met, h)
		if repl == nil || !costLess(pairCost(repl, place, pts, met, h), pairCost(old, place, pts, met, h)) {
			continue
		}
		for _, p := range repl {
			a, b := place[p[0]], place[p[1]]
			partner[a], partner[b] = b, a
		}
	}
	out := make([][2]int, 0, len(pairs))
	for i, j := range partner {
		if i < j {
			out = append(out, [2]int{order[i], order[j]})
		}
	}
	return out
}

// pairCost is the cost of some pairs, term by term in the order of the
// weights of swissEdges: meetings, third seat imbalances, squared score
// differences in half points, seat clashes, distance in places.
func pairCost(pairs [][2]int, place []int, pts []float64, met map[[2]int]int, h []seatHistory) [5]int {
	var c [5]int
	for _, p := range pairs {
		a, b := p[0], p[1]
		c[0] += met[pairKey(a, b)]
		if (h[a].balance >= 2 && h[b].balance >= 2) || (h[a].balance <= -2 && h[b].balance <= -2) {
			c[1]++
		}
		d := halfPoints(pts[a] - pts[b])
		c[2] += d * d
		c[3] += colourClash(h[a], h[b])
		c[4] += abs(place[a] - place[b])
	}
	return c
}

func costLess(a, b [5]int) bool {
	for k := range a {
		if a[k] != b[k] {
			return a[k] < b[k]
		}
	}
	return false
}

// windowMatch matches one window like exactSwiss, leaving out whom it
// must: pairs at most 60 places apart, then every pair when that forces a
// rematch among the first keep entrants (the pairs kept).
func windowMatch(win []int, keep int, pts []float64, met map[[2]int]int, h []seatHistory) []int {
	mate := maxWeightMatching(len(win), swissEdges(win, pts, met, h, 60))
	bad := false
	for i := 0; i < keep && !bad; i++ {
		if j := mate[i]; j >= 0 && met[pairKey(win[i], win[j])] > 0 {
			bad = true
		}
	}
	if bad {
		mate = maxWeightMatching(len(win), swissEdges(win, pts, met, h, len(win)))
	}
	return mate
}

// rematches counts the pairs that met before.
func rematches(pairs [][2]int, met map[[2]int]int) int {
	k := 0
	for _, p := range pairs {
		k += met[pairKey(p[0], p[1])]
	}
	return k
}

// swissMatch matches an even list of entrants (in standing order), using
// only pairs at most band places apart; nil if that leaves anyone out.
func swissMatch(order []int, pts []float64, met map[[2]int]int, h []seatHistory, band int) [][2]int {
	mate := maxWeightMatching(len(order), swissEdges(order, pts, met, h, band))
	var pairs [][2]int
	for i, j := range mate {
		if j < 0 {
			return nil
		}
		if i < j {
			pairs = append(pairs, [2]int{order[i], order[j]})
		}
	}
	return pairs
}

// swissEdges are the weighted pairs of a list of entrants (in standing
// order) at most band places apart. The weights are, in order of
// precedence: one more pair, one meeting fewer, no third seat imbalance,
// the squared score difference (in half points), the seat clash, the
// distance in places.
func swissEdges(order []int, pts []float64, met map[[2]int]int, h []seatHistory, band int) []wedge {
	n := len(order)
	maxMet, maxD := 0, 0
	for i, a := range order {
		for _, b := range order[i+1 : min(n, i+band+1)] {
			maxMet = max(maxMet, met[pairKey(a, b)])
			maxD = max(maxD, halfPoints(pts[a]-pts[b]))
		}
	}
	rounds := 0
	for _, x := range h {
		rounds = max(rounds, abs(x.balance))
	}
	half := int64(n/2 + 1)
	c := int64(rounds+3)*int64(n+1) + int64(n) // bounds the colour and place terms
	s := (int64(maxD)*int64(maxD) + 1) * c     // bounds one pair's score term
	v := s * half                              // a forced third seat imbalance outweighs every score term
	u := v * half                              // one meeting outweighs every imbalance
	b := u * int64(maxMet+1) * half            // one more pair outweighs everything
	if b > math.MaxInt64/8 {
		// Too wide a spread for exact weights: coarsen the score term.
		return swissEdges(order, coarse(pts), met, h, band)
	}
	edges := make([]wedge, 0, n*min(band, n))
	for i, a := range order {
		for j := i + 1; j < min(n, i+band+1); j++ {
			bb := order[j]
			d := int64(halfPoints(pts[a] - pts[bb]))
			w := b - int64(met[pairKey(a, bb)])*u - d*d*c - int64(colourClash(h[a], h[bb]))*int64(n+1) - int64(j-i)
			if (h[a].balance >= 2 && h[bb].balance >= 2) || (h[a].balance <= -2 && h[bb].balance <= -2) {
				w -= v
			}
			edges = append(edges, wedge{i, j, w})
		}
	}
	return edges
}

func coarse(pts []float64) []float64 {
	out := make([]float64, len(pts))
	for i, p := range pts {
		out[i] = math.Floor(p / 4)
	}
	return out
}

func halfPoints(d float64) int { return int(math.Round(math.Abs(d) * 2)) }

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// colourClash is how much two entrants want the same seat: both have had
// the first seat more often (or both less often), or both had it last time.
func colourClash(a, b seatHistory) int {
	k := 0
	if a.balance > 0 && b.balance > 0 {
		k += 2 * min(a.balance, b.balance)
	}
	if a.balance < 0 && b.balance < 0 {
		k += 2 * min(-a.balance, -b.balance)
	}
	if a.last != 0 && a.last == b.last {
		k++
	}
	return k
}

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
// lowers the number of repeated meetings; seats go first to those who sat
// late before.
func (t *Tournament) tables(n int, order []int) ([]Match, error) {
	kmin := t.MinTable
	if kmin == 0 {
		kmin = t.Table
	}
	sizes := tableSizes(len(order), t.Table, kmin)
	if len(sizes) == 0 {
		return nil, ErrEntrants
	}
	seated := 0
	for _, s := range sizes {
		seated += s
	}
	h := t.seatHistories()
	order, byes := takeByes(order, len(order)-seated, h)
	met := t.meetings()
	tabs := seatTables(sizes, order, h, t.Scaled)
	cost := func(tab []int) int {
		c := 0
		for i, a := range tab {
			for _, b := range tab[i+1:] {
				c += met[pairKey(a, b)]
			}
		}
		return c
	}
	for pass := 0; pass < 50; pass++ {
		improved := false
		for x := 0; x+1 < len(tabs); x++ {
			for y := x + 1; y < len(tabs) && y <= x+2; y++ {
				for i := range tabs[x] {
					for j := range tabs[y] {
						if t.Scaled && len(tabs[x]) != len(tabs[y]) && h[tabs[x][i]].short != h[tabs[y][j]].short {
							continue // keeps the small tables' seats even
						}
						before := cost(tabs[x]) + cost(tabs[y])
						tabs[x][i], tabs[y][j] = tabs[y][j], tabs[x][i]
						if cost(tabs[x])+cost(tabs[y]) < before {
							improved = true
							continue
						}
						tabs[x][i], tabs[y][j] = tabs[y][j], tabs[x][i]
					}
				}
			}
		}
		if !improved {
			break
		}
	}
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
	return ms, nil
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

// Replay checks every round's pairings against a fresh draw from the seed
// and the results of the rounds before it; it returns the first
// difference.
func Replay(t *Tournament) error {
	if engine.Commitment(t.Seed) != t.Commitment {
		return fmt.Errorf("tournament %s: the seed does not match the commitment %s", t.ID, t.Commitment)
	}
	for r := range t.Rounds {
		c := *t
		c.Rounds = t.Rounds[:r]
		// The entrants of the draw: late entries (appended, Joined in
		// order) came after it.
		k := len(c.Entrants)
		for k > 0 && c.Entrants[k-1].Joined > r+1 {
			k--
		}
		c.Entrants = c.Entrants[:k]
		// The results as the draw saw them (RESULT changed some since).
		if changed(c.Rounds) {
			c.Rounds = asDrawn(c.Rounds, r)
		}
		got, err := c.nextRound(t.Rounds[r].Pairing)
		if err != nil {
			return fmt.Errorf("round %d: %w", r+1, err)
		}
		for _, sw := range t.Rounds[r].Swaps { // the organiser's SWAPs
			got.swap(sw[0], sw[1])
		}
		want := t.Rounds[r].Matches
		if len(got.Matches) != len(want) {
			return fmt.Errorf("round %d: %d matches drawn, %d recorded", r+1, len(got.Matches), len(want))
		}
		for k := range want {
			if fmt.Sprint(got.Matches[k].Seats) != fmt.Sprint(want[k].Seats) {
				return fmt.Errorf("round %d table %d: drawn %v, recorded %v", r+1, k+1, got.Matches[k].Seats, want[k].Seats)
			}
		}
	}
	return nil
}

// changed reports whether a result of rounds was changed (Match.Changes).
func changed(rounds []Round) bool {
	for _, rd := range rounds {
		for _, m := range rd.Matches {
			if len(m.Changes) > 0 {
				return true
			}
		}
	}
	return false
}

// asDrawn copies rounds with their matches as a draw made when drawn
// rounds existed saw them.
func asDrawn(rounds []Round, drawn int) []Round {
	out := make([]Round, len(rounds))
	for q, rd := range rounds {
		out[q] = rd
		out[q].Matches = make([]Match, len(rd.Matches))
		for k, m := range rd.Matches {
			out[q].Matches[k] = m.asDrawn(drawn)
		}
	}
	return out
}

// permute is a permutation of 0..n-1 drawn from rnd.
func permute(rnd *engine.Rand, n int) []int {
	p := make([]int, n)
	for i := range p {
		p[i] = i
	}
	rnd.Shuffle(n, func(i, j int) { p[i], p[j] = p[j], p[i] })
	return p
}

// firstOf chooses who of a and b takes the first seat: the one who had it
// less often, else the one who did not have it last, else a (b if swap).
func firstOf(h []seatHistory, a, b int, swap bool) int {
	switch {
	case h[a].balance < h[b].balance:
		return a
	case h[a].balance > h[b].balance:
		return b
	case h[a].last == 2 && h[b].last != 2:
		return a
	case h[b].last == 2 && h[a].last != 2:
		return b
	case swap:
		return b
	}
	return a
}
