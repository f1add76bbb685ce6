package referee

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/pbem-referee/referee/referee/tournament"
)

// BenchmarkTournamentRoundOpening measures the opening of round 2 of a
// Swiss tournament of 1,000 entrants (issue 24: every entrant's round mail
// carried the whole standings, 10.4 s CPU and 2.8 GB at 1,000): the timed
// part is the organiser's ADJUDICATE of round 1's last game, whose end
// completes the round and opens the next (500 games, 1,000 round mails).
// Run: go test -run '^$' -bench TournamentRoundOpening -benchtime 1x ./referee/
func BenchmarkTournamentRoundOpening(b *testing.B) {
	const entrants = 1000
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		h := newHarness(b)
		// The harness's counter repeats its secrets after a few hundred
		// players: a deterministic source that does not.
		h.r.random = &replayReader{src: rand.NewChaCha8([32]byte{24})}
		h.r.opt.Random = h.r.random
		var text strings.Builder
		text.WriteString("NEW TOURNAMENT big game=toy rounds=3\n")
		for e := 0; e < entrants; e++ {
			fmt.Fprintf(&text, "ENTER big p%d@p.test P%d\n", e, e)
		}
		text.WriteString("START big\n")
		h.org(text.String())
		h.mails()
		tr := h.tour("big")
		ms := tr.Rounds[0].Matches
		var adj strings.Builder
		for _, m := range ms[:len(ms)-1] {
			fmt.Fprintf(&adj, "ADJUDICATE %s\n", m.GameID)
		}
		h.org(adj.String())
		h.mails()
		b.ReportAllocs()
		cpu := cpuTime()
		b.StartTimer()
		h.org("ADJUDICATE " + ms[len(ms)-1].GameID)
		b.StopTimer()
		b.ReportMetric((cpuTime() - cpu).Seconds(), "cpu-s/op")
		out := h.mails()
		if tr := h.tour("big"); len(tr.Rounds) != 2 || tr.Status != tournament.StatusRunning {
			b.Fatalf("round 2 not open: %d rounds", len(tr.Rounds))
		}
		bytes := 0
		for _, m := range out {
			bytes += len(m.Body)
		}
		b.ReportMetric(float64(bytes), "mail-bytes/op")
		b.ReportMetric(float64(len(out)), "mails/op")
	}
}

// bigTourHarness is a harness whose random source does not repeat its
// secrets (the harness's counter does after a few hundred players).
func bigTourHarness(b testing.TB) *harness {
	h := newHarness(b)
	h.r.random = &replayReader{src: rand.NewChaCha8([32]byte{24})}
	h.r.opt.Random = h.r.random
	h.r.opt.MaxEntrants = 20000
	return h
}

// enterAll enters n entrants into id, MaxOrgLines lines a mail.
func enterAll(h *harness, id string, n int) {
	for from := 0; from < n; from += MaxOrgLines {
		h.org(enterLines(id, from, min(MaxOrgLines, n-from)))
	}
}

// enterLines are n ENTER lines of tournament id.
func enterLines(id string, from, n int) string {
	var text strings.Builder
	for e := from; e < from+n; e++ {
		fmt.Fprintf(&text, "ENTER %s p%d@p.test P%d\n", id, e, e)
	}
	return text.String()
}

// BenchmarkTournamentEnter measures n ENTER lines, in organiser mails of
// MaxOrgLines lines (issue 24: ENTER was quadratic, 10,000 lines took
// 184 s CPU: every line read and wrote the whole tournament record).
// Linear: cpu-µs/line stays flat from 1,000 to 4,000.
// Run: go test -run '^$' -bench TournamentEnter -benchtime 1x ./referee/
func BenchmarkTournamentEnter(b *testing.B) {
	for _, n := range []int{1000, 2000, 4000, 10000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				h := bigTourHarness(b)
				h.org("NEW TOURNAMENT big game=toy rounds=3\n")
				b.ReportAllocs()
				cpu := cpuTime()
				b.StartTimer()
				enterAll(h, "big", n)
				b.StopTimer()
				b.ReportMetric((cpuTime() - cpu).Seconds(), "cpu-s/op")
				b.ReportMetric((cpuTime()-cpu).Seconds()/float64(n)*1e6, "cpu-µs/line")
				if got := len(h.tour("big").Entrants); got != n {
					b.Fatalf("%d entrants, want %d", got, n)
				}
			}
		})
	}
}

// BenchmarkTournamentStart measures START of a Swiss tournament of n
// entrants (n/2 games opened, n round mails; issue 24: 5,000 games took
// 12 s CPU and 623 MB). Goal: 5,000 games under 3 s CPU and 200 MB.
// Run: go test -run '^$' -bench TournamentStart -benchtime 1x ./referee/
func BenchmarkTournamentStart(b *testing.B) {
	for _, n := range []int{2000, 10000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				h := bigTourHarness(b)
				h.org("NEW TOURNAMENT big game=toy rounds=3\n")
				enterAll(h, "big", n)
				h.mails()
				b.ReportAllocs()
				cpu := cpuTime()
				b.StartTimer()
				h.org("START big")
				b.StopTimer()
				b.ReportMetric((cpuTime() - cpu).Seconds(), "cpu-s/op")
				if tr := h.tour("big"); len(tr.Rounds) != 1 || len(tr.Rounds[0].Matches) != n/2 {
					b.Fatalf("round 1 not open")
				}
			}
		})
	}
}
