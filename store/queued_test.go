package store

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
	"time"
)

// OnQueued (issue 25, the send wait): each commit that enqueued items in
// a queue makes that queue's calls once, after it is durable (a reader
// sees the items), whatever the way it committed (Update, Group, a
// speculation's Commit) and however many items it queued; a transaction
// rolled back, one that queued nothing there and a call stopped make
// none. 200 generated sequences of 30 transactions over two queues with
// three hooks, one stopped midway; then concurrent groups.
func TestOnQueuedOnceACommitAfterItIsDurable_Issue25(t *testing.T) {
	queues := []string{"outbox", "hooks"}
	errFail := errors.New("rolled back")
	for seed := range uint64(200) {
		rng := rand.New(rand.NewPCG(seed, 7))
		db := open(t)
		committed := map[string]int{}
		var mu sync.Mutex
		calls := map[string]int{}
		want := map[string]int{}
		hook := func(name, q string) func() {
			return func() {
				var n int
				db.View(func(tx *Tx) error { n = tx.QueueLen(q); return nil })
				mu.Lock()
				defer mu.Unlock()
				if n != committed[q] {
					t.Errorf("seed %d: %s called with %d items of %s on record, want %d", seed, name, n, q, committed[q])
				}
				calls[name]++
			}
		}
		stopA := db.OnQueued("outbox", hook("a", "outbox"))
		db.OnQueued("outbox", hook("b", "outbox"))
		db.OnQueued("hooks", hook("c", "hooks"))
		listeners := map[string][]string{"outbox": {"a", "b"}, "hooks": {"c"}}
		stopAt := rng.IntN(30)
		for step := range 30 {
			if step == stopAt {
				stopA()
				listeners["outbox"] = []string{"b"}
			}
			fail := rng.IntN(5) == 0
			adds := map[string]int{}
			for range rng.IntN(4) {
				adds[queues[rng.IntN(2)]]++
			}
			fn := func(tx *Tx) error {
				for q, k := range adds {
					for range k {
						if _, err := tx.Enqueue(q, Item{Key: fmt.Sprintf("%d-%d", seed, step), Payload: []byte("m"), Created: time.Unix(0, 0)}); err != nil {
							return err
						}
					}
				}
				if fail {
					return errFail
				}
				mu.Lock()
				for q, k := range adds {
					committed[q] += k
				}
				mu.Unlock()
				return nil
			}
			var err error
			switch way := rng.IntN(3); way {
			case 0:
				err = db.Update(fn)
			case 1:
				err = db.Group(fn)
			default:
				var s *Spec
				if s, err = db.Speculate(fn); err == nil {
					err = db.Commit(s, nil)
				}
			}
			if !errors.Is(err, errFail) && err != nil {
				t.Fatal(err)
			}
			if fail {
				continue
			}
			for q, k := range adds {
				if k > 0 {
					for _, name := range listeners[q] {
						want[name]++
					}
				}
			}
		}
		mu.Lock()
		for _, name := range []string{"a", "b", "c"} {
			if calls[name] != want[name] {
				t.Errorf("seed %d: %s called %d times, want %d (one a commit that queued)", seed, name, calls[name], want[name])
			}
		}
		mu.Unlock()
	}
}

// Concurrent groups: one call a commit, however many of the group's
// callers queued items, and the last call sees every item.
func TestOnQueuedOnceAGroup_Issue25(t *testing.T) {
	for round := range 20 {
		db := open(t)
		var mu sync.Mutex
		calls, last := 0, 0
		db.OnQueued("outbox", func() {
			var n int
			db.View(func(tx *Tx) error { n = tx.QueueLen("outbox"); return nil })
			mu.Lock()
			calls++
			last = max(last, n)
			mu.Unlock()
		})
		before := db.WriteStats().Commits
		var wg sync.WaitGroup
		const n = 16
		for i := range n {
			wg.Go(func() {
				if err := db.Group(func(tx *Tx) error {
					_, err := tx.Enqueue("outbox", Item{Key: fmt.Sprint(i), Payload: []byte("m"), Created: time.Unix(0, 0)})
					return err
				}); err != nil {
					t.Error(err)
				}
			})
		}
		wg.Wait()
		commits := int(db.WriteStats().Commits - before)
		mu.Lock()
		if calls != commits || last != n {
			t.Errorf("round %d: %d calls for %d commits, the last saw %d items of %d", round, calls, commits, last, n)
		}
		mu.Unlock()
	}
}
