package rowform

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/pbem-referee/referee/store/codec"
)

// TestPackAllAsOneByOne: payloads packed many at once, on several
// goroutines, are packed as one by one, each in its place, for every count
// around the split into goroutines; each reads back whole.
func TestPackAllAsOneByOne(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 25))
	var all [][]byte
	for len(all) < 5*packPerWorker {
		var b bytes.Buffer
		for b.Len() < rng.IntN(9000) {
			fmt.Fprintf(&b, "Round %d, move %x. ", rng.IntN(9), rng.Uint32())
		}
		all = append(all, b.Bytes())
	}
	for n := range len(all) + 1 {
		got := PackAll(n, func(i int) []byte { return all[i] })
		if len(got) != n {
			t.Fatalf("%d payloads packed as %d", n, len(got))
		}
		for i := range n {
			v, z := got[i].Stored()
			wv, wz := Pack(all[i]).Stored()
			if !bytes.Equal(v, wv) || z != wz || got[i].Len() != len(all[i]) {
				t.Errorf("%d payloads: payload %d packed otherwise", n, i)
			}
			if z {
				v, _ = codec.Decompress(v)
			}
			if !bytes.Equal(v, all[i]) {
				t.Errorf("%d payloads: payload %d reads back otherwise", n, i)
			}
		}
	}
}
