package referee

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/pbem-referee/referee/referee/spec"
	"github.com/pbem-referee/referee/store"

	"github.com/pbem-referee/referee/referee/tournament"
)

// BenchmarkTournamentGameEnd measures what the store writes when a game of
// a Swiss tournament of n entrants ends (issue 24/25: the write path writes
// only what changed): the games of round 1 end one by one, by RESIGN (a
// player's mail: the game ends with a result, GameEnded) and by the
// organiser's ADJUDICATE (scored as it stands), none completing the
// round. disk-KiB/end is DB.WriteStats' DiskBytes per game end (the mail's
// own writes included: its log entry, its mails and their rows).
// Run: go test -run '^$' -bench TournamentGameEnd -benchtime 1x ./referee/
func BenchmarkTournamentGameEnd(b *testing.B) {
	for _, n := range []int{100, 1000, 5000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				h := newHarnessStore(b, &store.Options{NoSync: true, InitialMmapSize: 1 << 31})
				h.r.random = spec.NewRandom(rand.NewChaCha8([32]byte{24}))
				h.r.opt.Random = h.r.random
				h.r.opt.MaxEntrants = 20000
				h.org("NEW TOURNAMENT big game=toy rounds=3\n")
				enterAll(h, "big", n)
				h.org("START big")
				h.mails()
				ms := h.tour("big").Rounds[0].Matches
				const ends = 8
				if len(ms) < ends+1 {
					b.Fatalf("%d games", len(ms))
				}
				b.ReportAllocs()
				var adj, end struct {
					disk, commits int64
					cpu           float64
				}
				en := h.tour("big").Entrants
				touched := map[string]int{}
				for k, m := range ms[:ends] {
					if k%2 == 0 {
						// Both seats resign: the bots finish the game at
						// the second mail, whose unit of work is measured.
						h.send(m.GameID, en[m.Seats[1]].Address, "RESIGN", -1)
					}
					ws0, cpu := h.db.WriteStats(), cpuTime()
					roots0, release0 := h.db.BucketRoots()
					b.StartTimer()
					if k%2 == 0 {
						h.send(m.GameID, en[m.Seats[0]].Address, "RESIGN", -1)
					} else {
						h.org("ADJUDICATE " + m.GameID)
					}
					b.StopTimer()
					roots1, release1 := h.db.BucketRoots()
					for _, name := range store.Touched(roots0, roots1) {
						touched[name]++
					}
					release0()
					release1()
					ws, c := h.db.WriteStats().Sub(ws0), (cpuTime() - cpu).Seconds()
					p := &adj
					if k%2 == 0 {
						p = &end
					}
					p.disk, p.commits, p.cpu = p.disk+ws.DiskBytes, p.commits+ws.Commits, p.cpu+c
				}
				const half = ends / 2
				b.ReportMetric(float64(end.disk)/half/1024, "disk-KiB/end")
				b.ReportMetric(float64(adj.disk)/half/1024, "disk-KiB/adjudicate")
				b.ReportMetric(float64(end.commits+adj.commits)/ends, "commits/op")
				b.ReportMetric(end.cpu/half*1000, "cpu-ms/end")
				b.ReportMetric(adj.cpu/half*1000, "cpu-ms/adjudicate")
				b.Logf("%d entrants: buckets touched in %d game ends: %v", n, ends, touched)
				tr := h.tour("big")
				for _, m := range tr.Rounds[0].Matches[:ends] {
					if !m.Decided() || m.State == tournament.MatchBye {
						b.Fatalf("game %s: %s", m.GameID, m.State)
					}
				}
				h.mails()
			}
		})
	}
}
