package tournament

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// drawLine is a generated line of holders of one place over rounds
// 1..rounds: hand-overs at points 2b (after round b) or 2x-1 (within
// round x, after a move), some at the same point (a holder replaced
// before playing), names shared between holders, and a holder who comes
// back (their name and address again): stints equal to an earlier one.
// who[x-1] are the holders (from 1) who played round x, first to last,
// as the generator placed them.
func drawLine(rng *rand.Rand, rounds int) (Entrant, [][]int) {
	var points []int
	for range rng.IntN(5) {
		points = append(points, rng.IntN(2*rounds+1))
	}
	slices.Sort(points)
	if rng.IntN(3) == 0 && len(points) > 0 {
		// Replaced, back, and replaced again at one point: equal stints.
		p := points[rng.IntN(len(points))]
		points = append(points, p, p)
		slices.Sort(points)
	}
	e := Entrant{Name: "A", Address: "a@x"}
	var line []Stint // every holder's name and address, first to last
	who := make([][]int, rounds)
	for j, p := range append(slices.Clone(points), 2*rounds) {
		q := 0
		if j > 0 {
			q = points[j-1]
		}
		for x := 1; x <= rounds; x++ {
			if q <= 2*x-1 && p >= 2*x-1 {
				who[x-1] = append(who[x-1], j+1)
			}
		}
		if j == len(points) {
			break
		}
		s := Stint{Name: e.Name, Address: e.Address, Through: p / 2}
		if p%2 == 1 {
			s.Into = (p + 1) / 2
		}
		e.Before = append(e.Before, s)
		line = append(line, Stint{Name: e.Name, Address: e.Address})
		switch {
		case j >= 1 && rng.IntN(2) == 0:
			// The one before comes back: this stint and a later one
			// may be equal.
			e.Name, e.Address = line[j-1].Name, line[j-1].Address
		case rng.IntN(2) == 0:
			e.Name, e.Address = "A", fmt.Sprintf("a%d@x", j) // A's name, another person
		default:
			e.Name, e.Address = fmt.Sprintf("S%d", j), fmt.Sprintf("s%d@x", j)
		}
	}
	return e, who
}

// TestPlayedHoldersByPosition_Issue24 (issue 24: after a REPLACE, every
// page and mail names who played which game): 3,000 generated lines of
// holders (drawLine: hand-overs between rounds and within games, holders
// replaced before playing, shared names, one who comes back so that two
// stints are equal). PlayedHolders gives for every round exactly the
// holders the generator placed there, by number, first to last; Played
// are their names; Holder(k) is holder k; and
// Holders' K is each earlier holder's own number, never the first equal
// stint's.
func TestPlayedHoldersByPosition_Issue24(t *testing.T) {
	equal := 0
	for draw := range 3000 {
		rng := rand.New(rand.NewPCG(24, uint64(draw)))
		rounds := 1 + rng.IntN(4)
		e, who := drawLine(rng, rounds)
		for i := range e.Before {
			if slices.Contains(e.Before[:i], e.Before[i]) {
				equal++
			}
		}
		for x := 1; x <= rounds; x++ {
			got := e.PlayedHolders(x)
			if fmt.Sprint(got) != fmt.Sprint(who[x-1]) {
				t.Fatalf("draw %d: round %d played by holders %v, want %v (%+v)", draw, x, got, who[x-1], e.Before)
			}
			var names []string
			for _, k := range who[x-1] {
				names = append(names, e.Holder(k).Name)
			}
			if fmt.Sprint(e.Played(x)) != fmt.Sprint(names) {
				t.Fatalf("draw %d: round %d named %q, want %q", draw, x, e.Played(x), names)
			}
		}
		if h := e.Holder(len(e.Before) + 1); h.Name != e.Name || h.Address != e.Address {
			t.Fatalf("draw %d: the current holder is %+v", draw, h)
		}
		held, _ := e.Holders()
		for _, h := range held {
			if h.K < 1 || h.K > len(e.Before) || e.Before[h.K-1] != h.Stint {
				t.Fatalf("draw %d: held %+v is numbered %d", draw, h.Stint, h.K)
			}
			// An earlier holder Holders lists played a round: they are
			// among those the generator placed in it.
			playedOne := false
			for x := 1; x <= rounds; x++ {
				playedOne = playedOne || slices.Contains(who[x-1][:len(who[x-1])], h.K)
			}
			if !playedOne {
				t.Fatalf("draw %d: holder %d (%+v) listed, played no round of %v", draw, h.K, h.Stint, who)
			}
		}
		// Every earlier holder the generator placed in a round is listed,
		// by their own number.
		for x := 1; x <= rounds; x++ {
			for _, k := range who[x-1] {
				if k <= len(e.Before) && !slices.ContainsFunc(held, func(h Held) bool { return h.K == k }) {
					t.Fatalf("draw %d: holder %d played round %d, not listed in %+v", draw, k, x, held)
				}
			}
		}
	}
	if equal < 100 {
		t.Fatalf("only %d equal stints generated: the test does not reach the case", equal)
	}
}

// TestTenuresByPosition_Issue24: the one walk of a place's line of
// holders (Entrant.Tenures, which Holders and the person pages read), on
// 3,000 generated lines (drawLine). Each holder K, first to last, played
// alone exactly the rounds max(First, Took+1) through Through (the
// current holder: through the last), took over the game of round Took
// from the holder before them (they are in its line of players, not
// first), and handed on the game of round Into (they are in it, not
// last); Holders lists, by number, the earlier holders Tenures says
// played a round.
func TestTenuresByPosition_Issue24(t *testing.T) {
	took, into := 0, 0
	for draw := range 3000 {
		rng := rand.New(rand.NewPCG(2412, uint64(draw)))
		rounds := 1 + rng.IntN(4)
		e, who := drawLine(rng, rounds)
		var tns []Tenure
		for tn := range e.Tenures() {
			tns = append(tns, tn)
		}
		if len(tns) != len(e.Before)+1 {
			t.Fatalf("draw %d: %d tenures for %d holders", draw, len(tns), len(e.Before)+1)
		}
		var played []int
		for i, tn := range tns {
			if tn.K != i+1 {
				t.Fatalf("draw %d: tenure %d numbered %d", draw, i+1, tn.K)
			}
			through := tn.Through
			if tn.K == len(tns) {
				through = rounds
			}
			var alone, wantAlone []int
			wantTook, wantInto := 0, 0
			for x := 1; x <= rounds; x++ {
				w := who[x-1]
				if len(w) == 1 && w[0] == tn.K {
					alone = append(alone, x)
				}
				if at := slices.Index(w, tn.K); at > 0 {
					wantTook = x
				}
				if at := slices.Index(w, tn.K); at >= 0 && at < len(w)-1 {
					wantInto = x
				}
			}
			for x := max(tn.First, tn.Took+1); x <= through; x++ {
				wantAlone = append(wantAlone, x)
			}
			if fmt.Sprint(alone) != fmt.Sprint(wantAlone) || tn.Took != wantTook || tn.Into != wantInto {
				t.Fatalf("draw %d: holder %d's tenure %+v: alone in %v, want alone in %v, took %d, into %d; line %+v, who %v",
					draw, tn.K, tn, alone, wantAlone, wantTook, wantInto, e.Before, who)
			}
			took += min(tn.Took, 1)
			into += min(tn.Into, 1)
			if tn.K < len(tns) && (tn.Through >= tn.First || tn.Into >= tn.First) {
				played = append(played, tn.K)
			}
		}
		held, from := e.Holders()
		var ks []int
		for _, h := range held {
			ks = append(ks, h.K)
		}
		if fmt.Sprint(ks) != fmt.Sprint(played) || from != tns[len(tns)-1].First {
			t.Fatalf("draw %d: Holders %v from %d, Tenures say %v from %d", draw, ks, from, played, tns[len(tns)-1].First)
		}
	}
	if took < 300 || into < 300 {
		t.Fatalf("%d tenures took a game, %d handed one on: the generator does not reach the cases", took, into)
	}
}
