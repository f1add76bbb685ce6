package store

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkDeflateMail: the CPU a queued mail's compression costs
// (compress.go), and its inflation at each read.
func BenchmarkDeflateMail(b *testing.B) {
	p := payloads(rand.New(rand.NewPCG(3, 25)))["text4000"]
	var z []byte
	b.Run("deflate", func(b *testing.B) {
		for b.Loop() {
			z = deflate(nil, p)
		}
		b.ReportMetric(float64(len(z)), "stored-B")
	})
	b.Run("inflate", func(b *testing.B) {
		for b.Loop() {
			if _, err := inflate(z); err != nil {
				b.Fatal(err)
			}
		}
	})
}
