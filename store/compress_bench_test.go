package store

import (
	"bytes"
	stdflate "compress/flate"
	"io"
	"os"
	"syscall"
	"testing"
	"time"
)

// cpuNow is the process's CPU time (user and system).
func cpuNow() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkDeflateMail: the CPU a queued mail's compression costs
// (compress.go), and its inflation at each read, with this codec and with
// compress/flate at its default level (the codec before 2026-12-06, as
// "std"). The mail is 5 KB of a golden group menu (a real mail's text).
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
	codecs := []struct {
		name string
		fn   func() []byte
	}{
		{"deflate", func() []byte { return deflateAlways(nil, p) }},
		{"deflate-std", func() []byte {
			var buf bytes.Buffer
			std.Reset(&buf)
			std.Write(p)
			std.Close()
			return buf.Bytes()
		}},
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
	z := deflateAlways(nil, p)
	stdr := stdflate.NewReader(nil)
	for name, fn := range map[string]func() error{
		"inflate": func() error { _, err := inflate(z); return err },
		"inflate-std": func() error {
			stdr.(stdflate.Resetter).Reset(bytes.NewReader(z), nil)
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
