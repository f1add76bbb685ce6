package pagefile

import (
	"maps"
	"math/rand/v2"
	"testing"
)

// TestAddedAndWrittenCountWhatChanged_Issue25: of two generated readings
// (pages kept, rewritten in place, freed, added, leaves gained or lost
// per owner), Added counts per owner the pages that are new, and Written
// the pages new or whose bytes changed, per owner and kind, with the
// leaves each owner gained (none for an owner that lost some).
func TestAddedAndWrittenCountWhatChanged_Issue25(t *testing.T) {
	owners := []string{"log.flat", "inbound", Headers, RestHeaders}
	kinds := []string{"leaf", "branch", "nested", "overflow"}
	for seed := range uint64(50) {
		r := rand.New(rand.NewPCG(seed, 25))
		before := map[uint64]Info{}
		for id := range uint64(20 + r.IntN(80)) {
			before[id] = Info{Owner: owners[r.IntN(len(owners))], Kind: kinds[r.IntN(len(kinds))], Sum: r.Uint64()}
		}
		after := maps.Clone(before)
		wantWritten, wantAdded := map[string]int{}, map[string]int{}
		leaves := map[string]int{}
		for id, p := range before {
			switch r.IntN(4) {
			case 0: // freed
				delete(after, id)
				if p.Kind == "leaf" {
					leaves[p.Owner]--
				}
			case 1: // rewritten in place (a page freed and used again)
				q := Info{Owner: owners[r.IntN(len(owners))], Kind: kinds[r.IntN(len(kinds))], Sum: p.Sum + 1}
				after[id] = q
				wantWritten[q.Owner+" "+q.Kind]++
				leaves[p.Owner] -= b2i(p.Kind == "leaf")
				leaves[q.Owner] += b2i(q.Kind == "leaf")
			}
		}
		for id := range uint64(r.IntN(30)) {
			q := Info{Owner: owners[r.IntN(len(owners))], Kind: kinds[r.IntN(len(kinds))], Sum: r.Uint64()}
			after[1000+id] = q
			wantWritten[q.Owner+" "+q.Kind]++
			wantAdded[q.Owner]++
			leaves[q.Owner] += b2i(q.Kind == "leaf")
		}
		wantSplits := map[string]int{}
		for o, n := range leaves {
			if n > 0 {
				wantSplits[o] = n
			}
		}
		written, splits := Written(before, after)
		if !maps.Equal(written, wantWritten) || !maps.Equal(splits, wantSplits) {
			t.Errorf("seed %d: Written %v %v, want %v %v", seed, written, splits, wantWritten, wantSplits)
		}
		b, a := map[uint64]string{}, map[uint64]string{}
		for id, p := range before {
			b[id] = p.Owner
		}
		for id, p := range after {
			a[id] = p.Owner
		}
		if added := Added(b, a); !maps.Equal(added, wantAdded) {
			t.Errorf("seed %d: Added %v, want %v", seed, added, wantAdded)
		}
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
