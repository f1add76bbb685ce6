package store

import (
	"path/filepath"

	"fmt"
	bolt "go.etcd.io/bbolt"
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

// The set is built by the first read transaction that asks, not at Open
// (issue 25: one read a key of "wake", 0.3-0.4 s at 100,000 games), and
// a build misses no commit: the commits handed over while it reads wait
// for it and are applied in order; a state older than a commit handed
// over already is never built (that reader reads, the next one builds);
// a commit that never hands over leaves the set behind, dropped after
// staleLater more, then built again. Variation: 2,000 games' wake-ups
// (a tree: stale keys kept), commits of 0 to 100 random changes (later,
// earlier, back to an old time, none, the stale keys due dropped) during
// the build, one of them outside Update in some runs, or before the
// reader's snapshot is read; after each, the answers against the keys
// read one by one, and the set against them whenever it is of the state.
func TestStaleSetBuiltWhileCommitsHandOver_Issue25(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 21))
	sec := func(i int) time.Time { return t0.Add(time.Duration(i) * time.Second) }
	const games = 2000
	game := func() string { return fmt.Sprintf("game-%04d", rng.IntN(games)) }
	change := func(tx *Tx) error {
		switch r := rng.IntN(10); {
		case r == 0:
			return tx.SetWake(game(), time.Time{})
		case r < 3:
			_, err := tx.DropStaleWakes(sec(rng.IntN(2e6)))
			return err
		}
		return tx.SetWake(game(), sec(rng.IntN(3e6)))
	}
	// byReads is every stale key of "wake", each read beside its log.
	byReads := func(tx *Tx) map[string]struct{} {
		out := map[string]struct{}{}
		c := tx.bucket(bWake).Cursor()
		for k, _ := c.First(); k != nil && k[0] != wakeByPrefix; k, _ = c.Next() {
			if !tx.wakeLive(k) {
				out[string(k)] = struct{}{}
			}
		}
		return out
	}
	// check compares a View's answers and the set with the reads.
	check := func(db *DB, when string) (known bool) {
		t.Helper()
		db.View(func(tx *Tx) error {
			want := byReads(tx)
			for _, end := range []int{5e5, 1e6 + 500, 2e6, 4e6} {
				n := 0
				for k := range want {
					if bytesTime(k) <= uint64(sec(end).UnixNano()) {
						n++
					}
				}
				if got := tx.StaleWakes(sec(end), 0); got != n {
					t.Fatalf("%s: %d stale keys at %d s, %d by the reads", when, got, end, n)
				}
			}
			db.stale.Lock()
			defer db.stale.Unlock()
			if known = db.stale.keys != nil && db.stale.at == uint64(tx.tx.ID()); known && !maps.Equal(db.stale.keys, want) {
				t.Fatalf("%s: the set holds %d keys, the reads find %d stale", when, len(db.stale.keys), len(want))
			}
			return nil
		})
		return known
	}
	for run, k := range []int{0, 1, 3, 40, 100, 0, 5, 40, 100, 3} {
		outside, before := run%3 == 1, run%5 == 4
		t.Run(fmt.Sprintf("%d commits, one outside %v, before %v", k, outside, before), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "referee.db")
			opt := &Options{NoSync: true, InitialMmapSize: 64 << 20}
			db, err := Open(path, opt)
			if err != nil {
				t.Fatal(err)
			}
			setWakes(t, db, games, "game-%04d", func(j int) time.Time { return sec(1e6 + j) })
			for range 300 {
				if err := db.Update(change); err != nil {
					t.Fatal(err)
				}
			}
			db.Close()
			if db, err = Open(path, opt); err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			if db.stale.at != 0 || db.stale.keys != nil {
				t.Fatal("the set was built at Open")
			}
			commits := func() {
				for i := range k {
					var err error
					if outside && i == k/2 {
						// A write outside Update: never handed over.
						err = db.bolt.Update(func(btx *bolt.Tx) error { return change(&Tx{tx: btx, db: db}) })
					} else {
						err = db.Update(change)
					}
					if err != nil {
						t.Fatal(err)
					}
				}
			}
			if before {
				// A reader whose snapshot is older than commits handed
				// over: it builds nothing, and answers by the reads.
				btx, err := db.bolt.Begin(false)
				if err != nil {
					t.Fatal(err)
				}
				old := &Tx{tx: btx, db: db}
				want := byReads(old)
				commits()
				if got := old.StaleWakes(sec(4e6), 0); got != len(want) && k > 0 {
					t.Errorf("the old snapshot: %d stale keys, %d by its reads", got, len(want))
				}
				if k > 0 && db.stale.keys != nil {
					t.Error("a set built of a state older than a commit handed over")
				}
				btx.Rollback()
			} else {
				db.staleReading = func() { db.staleReading = nil; commits() }
			}
			check(db, "the builder's snapshot") // the set of a later state: the reads answer
			if !before && db.staleReading != nil {
				t.Fatal("no build read the keys")
			}
			known := check(db, "after the build")
			if !known && !outside {
				t.Error("the set is not of the store's state")
			}
			// Later commits keep it (a set behind is dropped and built
			// again by the next reader).
			for i := range staleLater + 3 {
				if err := db.Update(change); err != nil {
					t.Fatal(err)
				}
				if i%20 == 0 || i >= staleLater {
					if !check(db, fmt.Sprintf("commit %d after the build", i)) && i >= staleLater {
						t.Errorf("commit %d after the build: the set is not of the store's state", i)
					}
				}
			}
		})
	}
}

// BenchmarkOpenWithWakes measures Open of a store whose "wake" holds
// 100,000 games' wake-ups, a tenth of them moved once (stale keys left):
// cursors/open is bbolt's count of the cursors the Open made (every Get,
// bucket look-up and walk makes one), exact (issue 25: the set of stale
// keys was built at Open, one read a key).
func BenchmarkOpenWithWakes(b *testing.B) {
	const games = 100000
	sec := func(i int) time.Time { return t0.Add(time.Duration(i) * time.Second) }
	path := filepath.Join(b.TempDir(), "referee.db")
	db, err := Open(path, &Options{NoSync: true})
	if err != nil {
		b.Fatal(err)
	}
	for k := 0; k < games; k += 10000 {
		if err := db.Update(func(tx *Tx) error {
			for j := k; j < k+10000; j++ {
				g := fmt.Sprintf("game-%06d", j)
				if err := tx.SetWake(g, sec(1e6+j)); err != nil {
					return err
				}
				if j%10 == 0 {
					if err := tx.SetWake(g, sec(2e6+j)); err != nil {
						return err
					}
				}
			}
			return nil
		}); err != nil {
			b.Fatal(err)
		}
	}
	if err := db.Close(); err != nil {
		b.Fatal(err)
	}
	var cursors int64
	for b.Loop() {
		db, err := Open(path, nil)
		if err != nil {
			b.Fatal(err)
		}
		st := db.bolt.Stats()
		cursors += int64(st.TxStats.GetCursorCount())
		if err := db.Close(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(cursors)/float64(b.N), "cursors/open")
}
