package store

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

// The set of stale wake-up keys takes the commits' changes in the order
// of the commits, whatever the order their handlers run in (bbolt runs
// them after the next writer may begin), and gives up (the reads answer)
// when one never comes. Variation: 300 runs of 1-40 commits, each of 0-6
// changes over 12 keys, handed over in a random order; a state is asked
// at every id, known only for the commits applied in order.
func TestStaleSetTakesCommitsInOrder_Issue25(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 7))
	for run := range 300 {
		n := 1 + rng.IntN(40)
		changes := make([]map[string]bool, n)
		for i := range changes {
			changes[i] = map[string]bool{}
			for range rng.IntN(7) {
				changes[i][fmt.Sprintf("k%d", rng.IntN(12))] = rng.IntN(2) == 0
			}
		}
		// want[i]: the keys after the first i commits, in order.
		want := []map[string]struct{}{{"k0": {}}}
		for _, c := range changes {
			next := maps.Clone(want[len(want)-1])
			for k, stale := range c {
				if stale {
					next[k] = struct{}{}
				} else {
					delete(next, k)
				}
			}
			want = append(want, next)
		}
		const base = 100
		s := &staleSet{keys: map[string]struct{}{"k0": {}}, at: base, later: map[uint64]map[string]bool{}}
		order := rng.Perm(n)
		done := make([]bool, n)
		for _, i := range order {
			s.committed(base+1+uint64(i), changes[i])
			done[i] = true
			applied := 0
			for applied < n && done[applied] {
				applied++
			}
			for id := uint64(base); id <= base+uint64(n); id++ {
				_, known := s.stale(id, []byte("k0"))
				if known != (id == base+uint64(applied)) {
					t.Fatalf("run %d: after %d of %v: state %d known %v, applied %d", run, i, order, id, known, applied)
				}
			}
			if !maps.Equal(s.keys, want[applied]) {
				t.Fatalf("run %d: after %d commits in order: %v, want %v", run, applied, s.keys, want[applied])
			}
		}
	}
	// A commit that never hands its changes over: past staleLater later
	// ones the set is given up, and no state is known.
	s := &staleSet{keys: map[string]struct{}{}, at: 1, later: map[uint64]map[string]bool{}}
	for id := uint64(3); id < 3+staleLater+1; id++ {
		s.committed(id, map[string]bool{"k": true})
	}
	for id := uint64(0); id < 3+staleLater+1; id++ {
		if _, known := s.stale(id, []byte("k")); known {
			t.Errorf("state %d known after a commit was lost", id)
		}
	}
}

// A snapshot older than the set (a read transaction begun before a
// commit changed the wake-ups) tells stale from live by the reads: it
// sees the keys as they were in it, neither the set's answer for a later
// state nor a key the later commit made stale or live (issue 25).
// Variation: 40 games, each moved later, moved back to its first time
// or dropped, in the commit the old snapshot does not see.
func TestStaleSetNotUsedForAnOlderSnapshot_Issue25(t *testing.T) {
	db := open(t)
	sec := func(i int) time.Time { return t0.Add(time.Duration(i) * time.Second) }
	// Enough games that "wake" is a tree (stale keys are kept) and the
	// mapping need not grow while the old snapshot is open.
	setWakes(t, db, 2000, "game-%04d", func(j int) time.Time { return sec(1e6 + j) })
	// Each of the first 40 games moved once before: its first key stale.
	setWakes(t, db, 40, "game-%04d", sec)
	due := func(tx *Tx) []string { return tx.DueWakes(sec(2e6), 0) }
	var before []string
	db.View(func(tx *Tx) error { before = due(tx); return nil })
	btx, err := db.bolt.Begin(false)
	if err != nil {
		t.Fatal(err)
	}
	old := &Tx{tx: btx, db: db}
	done := make(chan error, 1)
	go func() {
		done <- db.Update(func(tx *Tx) error {
			for j := range 40 {
				g := fmt.Sprintf("game-%04d", j)
				var at time.Time
				switch j % 3 {
				case 0:
					at = sec(3e6 + j) // later: no longer due
				case 1:
					at = sec(1e6 + j) // back to its first key, stale in the old snapshot
				}
				if err := tx.SetWake(g, at); err != nil {
					return err
				}
			}
			return nil
		})
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the commit waits for the old snapshot (the mapping grew)")
	}
	if got := due(old); !slices.Equal(got, before) {
		t.Errorf("the old snapshot's due games changed:\n%v\nwant\n%v", got, before)
	}
	if n, want := old.StaleWakes(sec(2e6), 0), 40; n != want {
		t.Errorf("the old snapshot's stale keys: %d, want %d", n, want)
	}
	btx.Rollback()
	var after []string
	db.View(func(tx *Tx) error { after = due(tx); return nil })
	if len(after) != 2000-40+40/3 {
		t.Errorf("due after the commit: %d games, want %d", len(after), 2000-40+40/3)
	}
}

// BenchmarkTickKick measures what the daemon's ticker asks after every
// commit (TickWakes, then NextWake, each in a read transaction) in a
// store whose "wake" is a tree of 20,000 games' keys, with StaleSkip - 1
// stale keys due and none of the games (issue 25: each stale key was a
// point read, three times a kick). cursors/kick is bbolt's count of the
// cursors the kick made (every Get, bucket look-up and walk makes one):
// exact.
func BenchmarkTickKick(b *testing.B) {
	db := open(b)
	sec := func(i int) time.Time { return t0.Add(time.Duration(i) * time.Second) }
	setWakes(b, db, 20000, "game-%05d", func(j int) time.Time { return sec(1e6 + j) })
	for j := range StaleSkip - 1 {
		g := fmt.Sprintf("game-%05d", j*70)
		for _, at := range []time.Time{sec(j), sec(1e6 + j*70)} {
			if err := db.Update(func(tx *Tx) error { return tx.SetWake(g, at) }); err != nil {
				b.Fatal(err)
			}
		}
	}
	now := sec(1e5)
	kick := func() {
		db.View(func(tx *Tx) error {
			if due, drop := tx.TickWakes(now, 500); len(due) != 0 || drop {
				b.Fatalf("due %d, drop %v", len(due), drop)
			}
			return nil
		})
		db.View(func(tx *Tx) error {
			if at, ok := tx.NextWake(); !ok || !at.Equal(sec(1e6)) {
				b.Fatalf("next wake-up %v %v", at, ok)
			}
			return nil
		})
	}
	kick()
	cursors := func() int64 { st := db.bolt.Stats(); return st.TxStats.GetCursorCount() }
	c0 := cursors()
	for b.Loop() {
		kick()
	}
	b.ReportMetric(float64(cursors()-c0)/float64(b.N), "cursors/kick")
}

// setWakes sets the wake-ups of games 0 to n-1 (named by format) in one
// update.
func setWakes(t testing.TB, db *DB, n int, format string, at func(j int) time.Time) {
	t.Helper()
	if err := db.Update(func(tx *Tx) error {
		for j := range n {
			if err := tx.SetWake(fmt.Sprintf(format, j), at(j)); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
}
