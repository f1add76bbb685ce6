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
