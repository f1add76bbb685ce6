package store

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// Group: the updates that queue behind a commit share one transaction; a
// failing one fails alone and writes nothing, the others are written.
func TestGroupSharesCommitsAndIsolatesFailures(t *testing.T) {
	db := open(t)
	const n = 8
	boom := errors.New("boom")
	hold, held := make(chan struct{}), make(chan struct{})
	go db.Update(func(*Tx) error { close(held); <-hold; return nil })
	<-held
	errs := make(chan error, n)
	for i := 0; i < n; i++ {
		go func() {
			errs <- db.Group(func(tx *Tx) error {
				if err := tx.PutGame(fmt.Sprintf("g%d", i), []byte(`{}`)); err != nil {
					return err
				}
				if i == 3 {
					return boom // after a write: it must be rolled back
				}
				return nil
			})
		}()
	}
	// Every update queued (the first to come leads and holds the ones it
	// took, as many as had come; waiting for n-1 pending hung when it
	// took two or more).
	for {
		k, _ := db.group.Counts()
		if k >= n {
			break
		}
		time.Sleep(time.Millisecond)
	}
	close(hold)
	failed := 0
	for range n {
		if err := <-errs; errors.Is(err, boom) {
			failed++
		} else if err != nil {
			t.Fatal(err)
		}
	}
	if failed != 1 {
		t.Errorf("%d failures, want 1", failed)
	}
	if _, b := db.group.Counts(); b > 2 {
		t.Errorf("%d commits for %d updates", b, n)
	}
	// The hold and at most two groups; the failed member's rolled-back
	// attempt is no commit.
	if ws := db.WriteStats(); ws.Commits < 2 || ws.Commits > 3 || ws.WriteTime <= 0 {
		t.Errorf("write stats %+v", ws)
	}
	err := db.View(func(tx *Tx) error {
		for i := 0; i < n; i++ {
			_, err := tx.Game(fmt.Sprintf("g%d", i))
			if i == 3 && !errors.Is(err, ErrNotFound) {
				return fmt.Errorf("the failed update's write was kept: %v", err)
			}
			if i != 3 && err != nil {
				return fmt.Errorf("g%d: %v", i, err)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// A Group call and a speculation's Commit share the transaction.
func TestGroupWithSpeculation(t *testing.T) {
	db := open(t)
	s, err := db.Speculate(func(tx *Tx) error { return tx.PutGame("s", []byte(`{}`)) })
	if err != nil {
		t.Fatal(err)
	}
	hold, held := make(chan struct{}), make(chan struct{})
	go db.Update(func(*Tx) error { close(held); <-hold; return nil })
	<-held
	errs := make(chan error, 2)
	go func() { errs <- db.Commit(s, nil) }()
	go func() { errs <- db.Group(func(tx *Tx) error { return tx.PutGame("u", []byte(`{}`)) }) }()
	for {
		k, _ := db.group.Counts() // both queued (pending, or taken by the leader)
		if k >= 2 {
			break
		}
		time.Sleep(time.Millisecond)
	}
	close(hold)
	for range 2 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	err = db.View(func(tx *Tx) error {
		for _, g := range []string{"s", "u"} {
			if _, err := tx.Game(g); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// MeasureGroupCPU (spec.go, the bench's group_cpu_ms): a group written on
// a goroutine of the store's own is counted with the thread-CPU reader
// given, and with none (never set, or set back to nil) the reader is
// never called and nothing is counted: the daemon's normal path neither
// reads a clock nor locks a thread for it. Variation: 1 to 6 groups in a
// row, from 1 to 4 goroutines at once.
func TestGroupCPUCountedOnlyWhenMeasured(t *testing.T) {
	for _, measured := range []bool{true, false} {
		for goroutines := 1; goroutines <= 4; goroutines++ {
			db := open(t)
			var calls atomic.Int64
			clock := func() time.Duration { return time.Duration(calls.Add(1)) * time.Millisecond }
			db.MeasureGroupCPU(clock)
			if !measured {
				db.MeasureGroupCPU(nil)
			}
			var wg sync.WaitGroup
			for g := range goroutines {
				wg.Go(func() {
					for i := range 1 + (g+goroutines)%6 {
						if err := db.Group(func(tx *Tx) error { return tx.PutGame(fmt.Sprintf("g%d-%d", g, i), []byte("{}")) }); err != nil {
							t.Error(err)
						}
					}
				})
			}
			wg.Wait()
			// The store's own goroutine leads the next group after each
			// commit (store/group: lead): wait for it to have counted.
			for end := time.Now().Add(5 * time.Second); measured && db.GroupCPU() == 0 && time.Now().Before(end); {
				time.Sleep(time.Millisecond)
			}
			time.Sleep(20 * time.Millisecond)
			if measured && (db.GroupCPU() <= 0 || calls.Load() < 2) {
				t.Errorf("%d goroutines, measured: %v counted, the reader called %d times", goroutines, db.GroupCPU(), calls.Load())
			}
			if !measured && (db.GroupCPU() != 0 || calls.Load() != 0) {
				t.Errorf("%d goroutines, not measured: %v counted, the reader called %d times", goroutines, db.GroupCPU(), calls.Load())
			}
		}
	}
}

// GroupLater (issue 25, a delivery's outcome rides in the next commit):
// lazy writes start no commit of their own; the next Group or Commit
// takes them all into its transaction (one commit for k lazy writes and
// the one that came), Hurry writes them at once, and a lazy write that
// nobody's commit takes is written LaterWithin after it came.
func TestLaterRidesInTheNextCommit_Issue25(t *testing.T) {
	for _, k := range []int{1, 2, 5} {
		for _, by := range []string{"group", "commit", "hurry"} {
			t.Run(fmt.Sprintf("%d-%s", k, by), func(t *testing.T) {
				db := open(t)
				db.group.Within = time.Hour // no timer writes them in this test
				before := db.WriteStats()
				errs := make(chan error, k)
				for i := range k {
					go func() {
						errs <- db.GroupLater(func(tx *Tx) error { return tx.PutGame(fmt.Sprintf("lazy%d", i), []byte(`{}`)) })
					}()
				}
				waitEnqueued(t, db, k)
				if c := db.WriteStats().Sub(before).Commits; c != 0 {
					t.Fatalf("%d commits before another came, want 0", c)
				}
				switch by {
				case "group":
					if err := db.Group(func(tx *Tx) error { return tx.PutGame("eager", []byte(`{}`)) }); err != nil {
						t.Fatal(err)
					}
				case "commit":
					s, err := db.Speculate(func(tx *Tx) error { return tx.PutGame("eager", []byte(`{}`)) })
					if err != nil {
						t.Fatal(err)
					}
					if err := db.Commit(s, nil); err != nil {
						t.Fatal(err)
					}
				case "hurry":
					db.Hurry()
				}
				for range k {
					if err := <-errs; err != nil {
						t.Fatal(err)
					}
				}
				want := int64(1)
				if c := db.WriteStats().Sub(before).Commits; c != want {
					t.Errorf("%d commits for %d lazy writes and a %s, want %d", c, k, by, want)
				}
				for i := range k {
					if err := db.View(func(tx *Tx) error {
						_, err := tx.Game(fmt.Sprintf("lazy%d", i))
						return err
					}); err != nil {
						t.Errorf("lazy write %d: %v", i, err)
					}
				}
			})
		}
	}
	// Alone: its own commit, by the timer.
	db := open(t)
	before := db.WriteStats()
	if err := db.GroupLater(func(tx *Tx) error { return tx.PutGame("alone", []byte(`{}`)) }); err != nil {
		t.Fatal(err)
	}
	if c := db.WriteStats().Sub(before).Commits; c != 1 {
		t.Errorf("%d commits for a lazy write alone, want 1", c)
	}
}

// waitEnqueued waits until n calls are queued for a commit.
func waitEnqueued(t *testing.T, db *DB, n int) {
	t.Helper()
	for end := time.Now().Add(time.Minute); ; time.Sleep(time.Millisecond) {
		k, _ := db.group.Counts()
		if k >= n {
			return
		}
		if time.Now().After(end) {
			t.Fatalf("%d of %d calls queued", k, n)
		}
	}
}
