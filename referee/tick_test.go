package referee

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/pbem-referee/referee/store"
)

// cloneDueGames stores n copies of a running game whose deadlines are
// all due at the same time (as after a pause of the daemon), straight in
// the store: what Tick meets at scale.
func cloneDueGames(t testing.TB, h *harness, tmpl *Game, n int) time.Time {
	t.Helper()
	var due time.Time
	for _, s := range tmpl.Seats {
		if s.Deadline != nil && !s.Deadline.Due.IsZero() {
			due = s.Deadline.Due
		}
	}
	if due.IsZero() {
		t.Fatal("the template game has no deadline")
	}
	for lo := 0; lo < n; lo += 1000 {
		err := h.db.Update(func(tx *store.Tx) error {
			for i := lo; i < min(n, lo+1000); i++ {
				g := *tmpl
				g.ID = fmt.Sprintf("d%05d", i)
				g.Seats = append([]Seat(nil), tmpl.Seats...)
				for k := range g.Seats {
					g.Seats[k].Address = fmt.Sprintf("p%d.%d@example.test", i, k)
				}
				if err := saveGame(tx, &g); err != nil {
					return err
				}
				if err := tx.SetWake(g.ID, due); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return due
}

// TestTickBatchesDueGames (issue 25: deadlines batched): games due at
// once are handled in transactions of tickBatch games, each game's
// deadline expired exactly once; a game that cannot be handled holds
// back no other and its failure is reported.
func TestTickBatchesDueGames(t *testing.T) {
	for _, broken := range []bool{false, true} {
		t.Run(fmt.Sprint("broken=", broken), func(t *testing.T) {
			h := newHarness(t)
			h.newToyGame("tmpl", ann, bob)
			h.mails()
			tmpl := h.game("tmpl")
			const n = 2*tickBatch + 17
			due := cloneDueGames(t, h, tmpl, n)
			if broken {
				// A game whose engine is unknown, due first.
				bad := *tmpl
				bad.ID, bad.Game = "a-bad", "nosuch"
				h.db.Update(func(tx *store.Tx) error {
					if err := saveGame(tx, &bad); err != nil {
						return err
					}
					return tx.SetWake(bad.ID, due.Add(-time.Minute))
				})
			}
			h.clock.T = due.Add(time.Minute)
			ws0 := h.db.WriteStats()
			handled, err := h.r.Tick(context.Background())
			commits := h.db.WriteStats().Sub(ws0).Commits
			if broken {
				if err == nil {
					t.Error("the broken game's failure was not reported")
				}
			} else {
				if err != nil || handled != n+1 { // the clones and the template
					t.Fatalf("Tick: %d handled, %v", handled, err)
				}
				if want := int64((n + 1 + tickBatch - 1) / tickBatch); commits != want {
					t.Errorf("%d transactions for %d games, want %d", commits, n+1, want)
				}
			}
			for i := range n {
				g := h.game(fmt.Sprintf("d%05d", i))
				missed := 0
				for _, s := range g.Seats {
					missed += s.MissedTotal
				}
				if missed != 1 {
					t.Fatalf("game d%05d: %d missed moves after the tick, want 1", i, missed)
				}
			}
		})
	}
}

// BenchmarkTickDue measures a tick over games all due at once (issue 25:
// 10,000 games took 40 s, a transaction each), with fsync as in
// production; set -benchtime 1x, the figure is per tick of every game.
func BenchmarkTickDue(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			if testing.Short() && n > 1000 {
				b.Skip("-short")
			}
			for b.Loop() {
				b.StopTimer()
				h := newHarnessStore(b, &store.Options{})
				h.newToyGame("tmpl", ann, bob)
				h.mails()
				due := cloneDueGames(b, h, h.game("tmpl"), n)
				h.clock.T = due.Add(time.Minute)
				ws0 := h.db.WriteStats()
				c0 := cpuTime()
				b.StartTimer()
				for {
					k, err := h.r.Tick(context.Background())
					if err != nil {
						b.Fatal(err)
					}
					if k == 0 {
						break
					}
				}
				b.StopTimer()
				b.ReportMetric((cpuTime() - c0).Seconds(), "cpu-s")
				b.ReportMetric(float64(h.db.WriteStats().Sub(ws0).Commits), "commits")
				b.StartTimer()
			}
		})
	}
}
