package referee

import (
	"fmt"
	"testing"
)

// BenchmarkSeatCommandMail: a seat's mail of referee commands only (a
// setting, a relay, a help, a log), through Process: what the seat's door
// costs the core per mail (issue 25: the door behind commands.Seat).
func BenchmarkSeatCommandMail(b *testing.B) {
	h := newHarness(b)
	h.newToyGame("g1", ann, bob)
	h.mails()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		text := fmt.Sprintf("NOTIFY every\nSAY Bob: hello %d\nHELP SAY\nLOG 5\nNOTIFY turn", i)
		if out := h.send("g1", ann, text, -1); out.Status != "answered" && out.Status != "applied" {
			b.Fatalf("%d: %+v", i, out)
		}
		if i%50 == 49 {
			b.StopTimer()
			h.mails()
			b.StartTimer()
		}
	}
}
