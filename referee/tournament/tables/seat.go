package tables

// The draw's door: the tables' sizes, the seating by standing, and Draw,
// which the tournament calls with a round's entrants, their meetings and
// their seats at small tables before.

import "sort"

// Key is the key of the meetings of a and b in the maps Draw reads (the
// smaller first).
func Key(a, b int) [2]int {
	if a > b {
		a, b = b, a
	}
	return [2]int{a, b}
}

// Cost is what Draw lowers: the meetings in met of every two entrants
// seated at one of tabs (a pair that met twice counts twice).
func Cost(tabs [][]int, met map[[2]int]int) int {
	return (&seater{tabs: tabs, met: met}).total()
}

// Sizes splits n entrants into tables of k (or of kmin when the game
// allows smaller tables), seating as many as possible in as few tables as
// possible; the rest get byes.
func Sizes(n, k, kmin int) []int {
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

// byStanding splits order (by standing) into tables of sizes (the full
// ones first, then the small ones). Unkept, the tables take the
// standings in turn, so the small ones go to the bottom. Kept, the
// small tables take the run of consecutive entrants with the fewest
// seats at a small table before (short; the lowest most of them had, then their
// sum, then the lowest in the standings), and the full tables the others
// in turn; tables are numbered by their best-placed entrant.
func byStanding(sizes, order, short []int, keep bool) [][]int {
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
	if keep && width > 0 && long > 0 {
		bestMax, bestSum := -1, 0
		for i := 0; i+width <= len(order); i++ {
			mx, sum := 0, 0
			for _, e := range order[i : i+width] {
				mx, sum = max(mx, short[e]), sum+short[e]
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

// Draw seats a tables round: order the entrants seated, by standing;
// sizes the tables' sizes (Sizes, seating all of order); short[e] entrant
// e's seats at a table smaller than the game's before; met the meetings
// before the round (by Key); keep whether a small table's seat goes only
// to an entrant with as many small seats before as the one it replaces
// (the tournament's Settings.Scaled). It seats the entrants by standing,
// swaps one entrant for another between tables up to two apart while
// that lowers the repeated meetings, then, unless method is Exact, the
// least search seats no repeated meeting another seating avoids
// (seater.least; with lower bounds unless method is Least, and with the
// entrants' weights and the search for a seating with none unless it is
// Least or Bound). It returns the tables (each in the draw's order: by
// standing, or as the search seated them) and the method to record: Exact
// when the search did not change the seating, else Least, Bound or Dual
// (any other method asked for draws by Dual).
func Draw(sizes, order, short []int, met map[[2]int]int, keep bool, method string) ([][]int, string) {
	s := &seater{tabs: byStanding(sizes, order, short, keep), met: met, short: short, order: order, keep: keep}
	s.swaps()
	s.bounded = method != Least
	s.dual = s.bounded && method != Bound
	switch {
	case method == Exact || !s.least():
		return s.tabs, Exact
	case !s.bounded:
		return s.tabs, Least
	case !s.dual:
		return s.tabs, Bound
	}
	return s.tabs, Dual
}

// WholeAtMost sets the most seatings of a field the least search searches
// whole (exactSeatings, 3,000,000 in a draw) and returns what restores it:
// for a test that holds the resplits to an exact search on small fields
// (the tournament's TestTablesResplitAgainstExact_Issue24). Not safe
// beside a draw running.
func WholeAtMost(n int) (restore func()) {
	old := exactSeatings
	exactSeatings = n
	return func() { exactSeatings = old }
}
