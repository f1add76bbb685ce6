package tournament

// Swiss pairing by maximum-weight matching, window by window on a large
// field (see doc.go, "Swiss pairing").

import (
	"math"
)

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
		pairs = exactSwiss(new(matchBuf), order, pts, met, h)
	} else {
		pairs, used = windowSwiss(order, pts, met, h, swissStep, swissLook), PairingWindows
	}
	if pairs == nil {
		return nil, "", fault(nil, FaultNoPairing, "entrants", len(order))
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
func exactSwiss(buf *matchBuf, order []int, pts []float64, met map[[2]int]int, h []seatHistory) [][2]int {
	pairs := swissMatch(buf, order, pts, met, h, 60)
	if pairs == nil || rematches(pairs, met) > 0 {
		if full := swissMatch(buf, order, pts, met, h, len(order)); full != nil &&
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
	buf := new(matchBuf) // one set of edge arrays for every window's matching
	for {
		if len(order) <= step+look {
			return exactSwiss(buf, order, pts, met, h)
		}
		if pairs := windowPass(buf, order, pts, met, h, step, look); pairs != nil && rematches(pairs, met) == 0 {
			return seamPass(buf, order, pairs, pts, met, h, step)
		}
		step, look = 2*step, 2*look
	}
}

// windowPass is one pass of windowSwiss with fixed windows; nil when the
// last window cannot pair everyone.
func windowPass(buf *matchBuf, order []int, pts []float64, met map[[2]int]int, h []seatHistory, step, look int) [][2]int {
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
			last := exactSwiss(buf, win, pts, met, h)
			if last == nil {
				return nil
			}
			return append(pairs, last...)
		}
		mate := windowMatch(buf, win, keep, pts, met, h)
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
func seamPass(buf *matchBuf, order []int, pairs [][2]int, pts []float64, met map[[2]int]int, h []seatHistory, step int) [][2]int {
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
		repl := exactSwiss(buf, sub, pts, met, h)
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
func windowMatch(buf *matchBuf, win []int, keep int, pts []float64, met map[[2]int]int, h []seatHistory) []int {
	mate := matchOwned(buf, len(win), swissEdges(buf, win, pts, met, h, 60))
	bad := false
	for i := 0; i < keep && !bad; i++ {
		if j := mate[i]; j >= 0 && met[pairKey(win[i], win[j])] > 0 {
			bad = true
		}
	}
	if bad {
		mate = matchOwned(buf, len(win), swissEdges(buf, win, pts, met, h, len(win)))
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
func swissMatch(buf *matchBuf, order []int, pts []float64, met map[[2]int]int, h []seatHistory, band int) [][2]int {
	mate := matchOwned(buf, len(order), swissEdges(buf, order, pts, met, h, band))
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
func swissEdges(buf *matchBuf, order []int, pts []float64, met map[[2]int]int, h []seatHistory, band int) []wedge {
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
		return swissEdges(buf, order, coarse(pts), met, h, band)
	}
	var edges []wedge
	if buf != nil {
		edges = buf.edges[:0]
	}
	if cap(edges) < n*min(band, n) {
		edges = make([]wedge, 0, n*min(band, n))
	}
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
	if buf != nil {
		buf.edges = edges
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
