package codec

import (
	"fmt"
	"testing"
)

// BenchmarkCompressSmall: the cost of a small value through the encoder
// (its dictionary set up per call) and what it saves, by size.
func BenchmarkCompressSmall(b *testing.B) {
	entry := []byte(`{"kind":"start","seat":-1,"vis":0,"at":"2026-11-23T09:00:00Z","params":{"commitment":"5c8b0e6f1d2a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4","options":null,"order":["P17","P4242"],"variant":""},"setup":[{"kind":"deal","seat":0},{"kind":"deal","seat":1}],"hash":"ab12cd34ef56"}`)
	for _, n := range []int{64, 100, 128, 192, 256, 330} {
		v := entry[:min(n, len(entry))]
		for len(v) < n {
			v = append(v, entry...)[:n]
		}
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			var z []byte
			for b.Loop() {
				z = zstdEnc.EncodeAll(v, nil)
			}
			b.ReportMetric(float64(n-(len(z)-len(zstdMagic)+1)), "saved-B")
		})
	}
}
