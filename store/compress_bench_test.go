package store

import (
	"bytes"
	stdflate "compress/flate"
	"io"
	"os"
	"syscall"
	"testing"
	"time"

	kflate "github.com/klauspost/compress/flate"
	"github.com/pbem-referee/referee/store/codec"
)

// cpuNow is the process's CPU time (user and system).
func cpuNow() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// flateWriter is a DEFLATE writer kept for many values (compress/flate's
// or klauspost's), as the store kept its writers before the zstd form.
type flateWriter interface {
	io.WriteCloser
	Reset(io.Writer)
}

// deflateReusing compresses v with w, reset for it.
func deflateReusing(w flateWriter, v []byte) []byte {
	var buf bytes.Buffer
	w.Reset(&buf)
	w.Write(v)
	w.Close()
	return buf.Bytes()
}

// BenchmarkDeflateMail: the CPU a queued mail's compression costs
// (codec.go), and its inflation at each read, with the store's codec
// ("zstd": the zstd form, from 2026-12-07), klauspost's flate at its
// default level ("deflate": 2026-12-06) and compress/flate at its default
// level ("deflate-std": before). The mail is 5 KB of a golden group menu (a real mail's text).
// "cold" evicts the caches between mails, as a busy referee does: the
// CPU per mail, not the wall time, is the figure (cpu-us/op), the
// machine being shared.
func BenchmarkDeflateMail(b *testing.B) {
	p, err := os.ReadFile("../referee/testdata/golden/groupmenus.fromage.en.txt")
	if err != nil {
		b.Skip(err)
	}
	p = p[:min(len(p), 5000)]
	std, _ := stdflate.NewWriter(nil, stdflate.DefaultCompression)
	kw, _ := kflate.NewWriter(nil, kflate.DefaultCompression)
	codecs := []struct {
		name string
		fn   func() []byte
	}{
		{"zstd", func() []byte { return codec.CompressAlways(nil, p) }},
		{"deflate", func() []byte { return deflateReusing(kw, p) }},
		{"deflate-std", func() []byte { return deflateReusing(std, p) }},
	}
	evict := make([]byte, 8<<20)
	for _, cold := range []string{"", "-cold"} {
		for _, c := range codecs {
			var z []byte
			b.Run(c.name+cold, func(b *testing.B) {
				var spent time.Duration
				for b.Loop() {
					if cold != "" {
						for i := 0; i < len(evict); i += 64 {
							evict[i]++
						}
					}
					t := cpuNow()
					z = c.fn()
					spent += cpuNow() - t
				}
				b.ReportMetric(float64(len(z)), "stored-B")
				b.ReportMetric(float64(spent.Nanoseconds())/1e3/float64(b.N), "cpu-us/op")
			})
		}
	}
	z := codec.CompressAlways(nil, p)
	zd := mainDeflate(b, p)
	stdr := stdflate.NewReader(nil)
	for name, fn := range map[string]func() error{
		"inflate":         func() error { _, err := codec.Decompress(z); return err },
		"inflate-deflate": func() error { _, err := codec.Decompress(zd); return err },
		"inflate-std": func() error {
			stdr.(stdflate.Resetter).Reset(bytes.NewReader(zd), nil)
			_, err := io.Copy(io.Discard, stdr)
			return err
		},
	} {
		b.Run(name, func(b *testing.B) {
			var spent time.Duration
			for b.Loop() {
				t := cpuNow()
				if err := fn(); err != nil {
					b.Fatal(err)
				}
				spent += cpuNow() - t
			}
			b.ReportMetric(float64(spent.Nanoseconds())/1e3/float64(b.N), "cpu-us/op")
		})
	}
}
