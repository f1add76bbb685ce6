package tournament

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// bruteMatching is the best total weight over every matching (small n).
func bruteMatching(n int, w [][]int64) int64 {
	var best int64
	var rec func(used uint, total int64)
	rec = func(used uint, total int64) {
		if total > best {
			best = total
		}
		first := -1
		for v := 0; v < n; v++ {
			if used&(1<<v) == 0 {
				first = v
				break
			}
		}
		if first < 0 {
			return
		}
		rec(used|1<<first, total) // first stays unmatched
		for u := first + 1; u < n; u++ {
			if used&(1<<u) == 0 && w[first][u] > 0 {
				rec(used|1<<first|1<<u, total+w[first][u])
			}
		}
	}
	rec(0, 0)
	return best
}

func checkMatching(t *testing.T, n int, edges []wedge, mate []int) int64 {
	t.Helper()
	w := map[[2]int]int64{}
	for _, e := range edges {
		a, b := min(e.i, e.j), max(e.i, e.j)
		if e.w > w[[2]int{a, b}] {
			w[[2]int{a, b}] = e.w
		}
	}
	var total int64
	for v, u := range mate {
		if u == -1 {
			continue
		}
		if mate[u] != v {
			t.Fatalf("mate not symmetric: %d-%d but %d-%d", v, u, u, mate[u])
		}
		a, b := min(u, v), max(u, v)
		ww, ok := w[[2]int{a, b}]
		if !ok {
			t.Fatalf("matched %d-%d without an edge", v, u)
		}
		if v < u {
			total += ww
		}
	}
	return total
}

func TestMatchingKnown(t *testing.T) {
	cases := []struct {
		n     int
		edges []wedge
		want  int64
	}{
		{2, []wedge{{0, 1, 1}}, 1},
		{3, []wedge{{0, 1, 10}, {1, 2, 11}}, 11},
		{4, []wedge{{0, 1, 5}, {1, 2, 11}, {2, 3, 5}}, 11},
		// a blossom: the triangle 1-2-3 with a pendant path
		{6, []wedge{{0, 1, 9}, {0, 2, 8}, {1, 2, 10}, {0, 3, 5}, {3, 4, 4}, {0, 5, 3}}, 19},
		{4, []wedge{{0, 1, 5}, {1, 2, 11}, {2, 3, 5}, {0, 3, 5}}, 11 + 0 + 0 + 0},
	}
	for i, c := range cases {
		mate := maxWeightMatching(c.n, c.edges)
		w := make([][]int64, c.n)
		for k := range w {
			w[k] = make([]int64, c.n)
		}
		for _, e := range c.edges {
			w[e.i][e.j], w[e.j][e.i] = e.w, e.w
		}
		got := checkMatching(t, c.n, c.edges, mate)
		if want := bruteMatching(c.n, w); got != want {
			t.Errorf("case %d: weight %d, brute force %d (mate %v)", i, got, want, mate)
		}
	}
}

// TestMatchingRandom compares the blossom algorithm with brute force on
// thousands of random graphs, sparse and dense, small and large weights.
func TestMatchingRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for iter := 0; iter < 4000; iter++ {
		n := 1 + r.IntN(12)
		density := r.Float64()
		maxw := []int64{3, 10, 1000}[r.IntN(3)]
		var edges []wedge
		w := make([][]int64, n)
		for k := range w {
			w[k] = make([]int64, n)
		}
		for i := 0; i < n; i++ {
			for j := i + 1; j < n; j++ {
				if r.Float64() < density {
					x := 1 + r.Int64N(maxw)
					edges = append(edges, wedge{i, j, x})
					w[i][j], w[j][i] = x, x
				}
			}
		}
		mate := maxWeightMatching(n, edges)
		got := checkMatching(t, n, edges, mate)
		if want := bruteMatching(n, w); got != want {
			t.Fatalf("iter %d n=%d: weight %d, brute force %d\nedges %v\nmate %v", iter, n, got, want, edges, mate)
		}
	}
}

// TestMatchBufReusedMatchesAsFresh_Issue24: a matchBuf lent from one
// matching to the next (a windowed draw's windows, growing and shrinking)
// changes no matching: each equals the one made with arrays of its own,
// over random graphs of 1-60 vertices, sparse and dense.
func TestMatchBufReusedMatchesAsFresh_Issue24(t *testing.T) {
	r := rand.New(rand.NewPCG(24, 7))
	buf := new(matchBuf)
	for iter := 0; iter < 3000; iter++ {
		n := 1 + r.IntN(60)
		density := r.Float64()
		maxw := []int64{3, 10, 1000}[r.IntN(3)]
		var edges []wedge
		for i := 0; i < n; i++ {
			for j := i + 1; j < n; j++ {
				if r.Float64() < density {
					edges = append(edges, wedge{i, j, r.Int64N(maxw+1) - 1})
				}
			}
		}
		want := matchOwned(nil, n, slices.Clone(edges))
		got := matchOwned(buf, n, slices.Clone(edges))
		if !slices.Equal(got, want) {
			t.Fatalf("iter %d n=%d: with a lent buffer %v, with its own %v", iter, n, got, want)
		}
	}
}
