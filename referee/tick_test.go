package referee

import (
	"context"
	"errors"
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

// dueGames is a harness with a toy game "tmpl" and n copies of it due at
// once (cloneDueGames).
func dueGames(t *testing.T, n int) (*harness, *Game, time.Time) {
	h := newHarness(t)
	h.newToyGame("tmpl", ann, bob)
	h.mails()
	tmpl := h.game("tmpl")
	return h, tmpl, cloneDueGames(t, h, tmpl, n)
}

// TestTickBatchesDueGames (issue 25: deadlines batched): games due at
// once are handled in transactions of tickBatch games, each game's
// deadline expired exactly once; a game that cannot be handled holds
// back no other and its failure is reported.
func TestTickBatchesDueGames(t *testing.T) {
	for _, broken := range []bool{false, true} {
		t.Run(fmt.Sprint("broken=", broken), func(t *testing.T) {
			const n = 2*tickBatch + 17
			h, tmpl, due := dueGames(t, n)
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

// A game's old wake-up keys are left in the store for the tick to drop
// (store.Tx.SetWake, issue 25); the tick wakes every game by its live
// wake-up only and drops the stale keys due in its own transactions.
// Variation: 2 x tickBatch + 17 games due at once, each with stale keys
// before and after the tick's time, half of them moved a day later (stale
// keys due, the game not); then ticks with no game due and StaleSkip - 1,
// StaleSkip and 3 x StaleSkip stale keys due.
func TestTickWakesByTheLiveKeyAndDropsStale_Issue25(t *testing.T) {
	const n = 2*tickBatch + 17
	h, _, due := dueGames(t, n)
	later := due.Add(24 * time.Hour)
	if err := h.db.Update(func(tx *store.Tx) error {
		for i := range n {
			id := fmt.Sprintf("d%05d", i)
			final := due
			if i%2 == 1 {
				final = later
				g, err := loadGame(tx, id)
				if err != nil {
					return err
				}
				for k := range g.Seats {
					if dl := g.Seats[k].Deadline; dl != nil {
						dl.Due = later
					}
				}
				if err := saveGame(tx, g); err != nil {
					return err
				}
			}
			for _, at := range []time.Time{due.Add(-time.Hour), due.Add(3 * time.Hour), final} {
				if err := tx.SetWake(id, at); err != nil {
					return err
				}
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	h.clock.T = due.Add(time.Minute)
	handled, err := h.r.Tick(context.Background())
	if err != nil || handled != (n+1)/2+1 { // the games due and the template
		t.Fatalf("Tick: %d handled, %v; want %d", handled, err, (n+1)/2+1)
	}
	for i := range n {
		g := h.game(fmt.Sprintf("d%05d", i))
		missed := 0
		for _, s := range g.Seats {
			missed += s.MissedTotal
		}
		if want := 1 - i%2; missed != want {
			t.Errorf("game d%05d: %d missed moves after the tick, want %d", i, missed, want)
		}
	}
	stale := func() (k int) {
		h.db.View(func(tx *store.Tx) error { k = tx.StaleWakes(h.clock.T, 0); return nil })
		return k
	}
	if k := stale(); k != 0 {
		t.Errorf("%d stale keys due left after the tick", k)
	}
	// Ticks with no game due: the stale keys cost no commit until
	// StaleSkip of them are due.
	for _, k := range []int{store.StaleSkip - 1, store.StaleSkip, 3 * store.StaleSkip} {
		h.clock.T = h.clock.T.Add(time.Minute)
		at := h.clock.T.Add(-time.Second)
		leaveStale(t, h, fmt.Sprintf("s%d.", k), k, at)
		if got := stale(); got < k {
			t.Fatalf("%d stale keys due, %d made", got, k)
		}
		ws0 := h.db.WriteStats()
		handled, err := h.r.Tick(context.Background())
		commits := h.db.WriteStats().Sub(ws0).Commits
		if err != nil || handled != 0 {
			t.Fatalf("%d stale keys: Tick: %d handled, %v", k, handled, err)
		}
		if k < store.StaleSkip && (commits != 0 || stale() < k) {
			t.Errorf("%d stale keys due: %d commits, %d left; want none and all", k, commits, stale())
		}
		if k >= store.StaleSkip && (commits != 1 || stale() != 0) {
			t.Errorf("%d stale keys due: %d commits, %d left; want 1 and none", k, commits, stale())
		}
	}
}

// A tick with no game due whose drop of the stale wake-up keys fails
// reports the failure (issue 25: a batch of no game had none to report it
// under, and the error was lost); nothing is dropped then, and the next
// tick drops them. Variation: StaleSkip and 3 x StaleSkip stale keys due,
// the drop failing once or twice in a row.
func TestTickReportsAFailedStaleDrop_Issue25(t *testing.T) {
	errBroken := errors.New("the store is broken")
	for _, k := range []int{store.StaleSkip, 3 * store.StaleSkip} {
		for _, fails := range []int{1, 2} {
			t.Run(fmt.Sprintf("%d stale, %d failures", k, fails), func(t *testing.T) {
				h, _, due := dueGames(t, 2*tickBatch+17)
				h.clock.T = due.Add(time.Minute)
				if _, err := h.r.Tick(context.Background()); err != nil {
					t.Fatal(err)
				}
				h.clock.T = h.clock.T.Add(time.Minute) // no game due
				at := h.clock.T.Add(-time.Second)
				leaveStale(t, h, "s", k, at)
				stale := func() (n int) {
					h.db.View(func(tx *store.Tx) error { n = tx.StaleWakes(h.clock.T, 0); return nil })
					return n
				}
				if got := stale(); got != k {
					t.Fatalf("%d stale keys due, %d made", got, k)
				}
				left := fails
				h.r.tickUnit = func(w *work, ids []string) error {
					if len(ids) == 0 && left > 0 {
						left--
						return errBroken
					}
					return tickGames(w, ids)
				}
				for i := range fails {
					handled, err := h.r.Tick(context.Background())
					if !errors.Is(err, errBroken) || handled != 0 {
						t.Fatalf("tick %d with the drop failing: %d handled, %v; want the failure", i, handled, err)
					}
					if got := stale(); got != k {
						t.Fatalf("tick %d with the drop failing: %d stale keys left, want %d", i, got, k)
					}
				}
				if handled, err := h.r.Tick(context.Background()); err != nil || handled != 0 {
					t.Fatalf("the next tick: %d handled, %v", handled, err)
				}
				if got := stale(); got != 0 {
					t.Errorf("%d stale keys due after the next tick", got)
				}
			})
		}
	}
}

// leaveStale leaves k stale wake-up keys at at: k wake-ups (of games
// prefix0 to prefix<k-1>) set to at and then 1,000 hours later.
func leaveStale(t *testing.T, h *harness, prefix string, k int, at time.Time) {
	t.Helper()
	if err := h.db.Update(func(tx *store.Tx) error {
		for j := range k {
			id := fmt.Sprintf("%s%d", prefix, j)
			if err := tx.SetWake(id, at); err != nil {
				return err
			}
			if err := tx.SetWake(id, at.Add(1000*time.Hour)); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
}
