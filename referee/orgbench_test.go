package referee

import "testing"

// BenchmarkOrganiserMail: one organiser's mail of game commands (STATUS,
// LIST, PAUSE, RESUME, EXTEND, an unknown command, a refused ROLLBACK)
// through Process, answered in one mail.
func BenchmarkOrganiserMail(b *testing.B) {
	h := newHarness(b)
	h.newToyGame("g1", "ann@p.test", "bob@p.test")
	h.mails()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		h.org("STATUS g1\nLIST\nPAUSE g1\nRESUME g1\nEXTEND g1 ann 1h\nFROBNICATE g1\nROLLBACK g1 99")
		h.mails()
	}
}
