package tables

// The check before the search for a seating with no repeated meeting
// (seater.free): a proof, cheap to find, that every seating repeats one,
// so that free's steps are not spent where no seating has none (doc.go,
// "Who sits with whom"). It changes no seating: free finds none there.

import (
	"math/bits"
	"slices"
)

// cliqueSteps is the most entrants each of unavoidable's searches (clique)
// adds to one it grows (it proves or gives up; the seating does not
// depend on it). A variable so that a test can spend it at once and see
// a search that gave up prove nothing.
var cliqueSteps = 20_000

// unavoidable reports whether every seating of the entrants of s.tabs at
// tables of their sizes seats two who met, proven by one of: an entrant
// with no choice of mates for the smallest table among whom none met it
// or another (those it did not meet searched whole for as many who did
// not meet each other, within cliqueSteps); more entrants who all met
// each other than there are tables (two of them share a table in any
// seating), sought within cliqueSteps.
// False proves nothing. A field of more than 64 entrants is not checked.
func (s *seater) unavoidable() bool {
	var es []int
	small := len(s.tabs[0])
	for _, tab := range s.tabs {
		es = append(es, tab...)
		small = min(small, len(tab))
	}
	m := len(es)
	if m > 64 {
		return false
	}
	nb := make([]uint64, m) // whom each met, a bit by index in es
	for i, a := range es {
		for j, b := range es[:i] {
			if s.met[Key(a, b)] > 0 {
				nb[i] |= 1 << j
				nb[j] |= 1 << i
			}
		}
	}
	all := uint64(1)<<m - 1
	if m == 64 {
		all = ^uint64(0)
	}
	not := make([]uint64, m) // whom each did not meet
	for i := range nb {
		not[i] = all &^ nb[i] &^ (1 << i)
	}
	for i := range not {
		steps := cliqueSteps
		if !clique(not, not[i], small-1, &steps) && steps > 0 {
			return true // no table for i: every choice of mates met
		}
	}
	steps := cliqueSteps
	return clique(nb, all, len(s.tabs)+1, &steps)
}

// clique reports whether some want entrants of cand all met each other
// (nb: whom each met, by bit; or, given whom each did not meet, whether
// some want did not meet each other), found depth first: entrants who met the most among
// those left first, a branch given up when it and all those left that
// met every one of it are fewer than want, or the steps are spent.
func clique(nb []uint64, cand uint64, want int, steps *int) bool {
	var grow func(cand uint64, size int) bool
	grow = func(cand uint64, size int) bool {
		if size >= want {
			return true
		}
		var order []int
		for c := cand; c != 0; c &= c - 1 {
			order = append(order, bits.TrailingZeros64(c))
		}
		slices.SortStableFunc(order, func(a, b int) int {
			return bits.OnesCount64(nb[b]&cand) - bits.OnesCount64(nb[a]&cand)
		})
		for _, v := range order {
			if size+bits.OnesCount64(cand) < want || *steps <= 0 {
				return false
			}
			*steps--
			if grow(cand&nb[v], size+1) {
				return true
			}
			cand &^= 1 << v
		}
		return false
	}
	return grow(cand, 0)
}
