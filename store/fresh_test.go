package store

import (
	"errors"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
	"time"
)

// Fresh items (doc.go, "one write transaction per delivery"): an item is
// fresh for every reader who sees it committed, even one looking while
// the commit's handlers run (a dispatcher polling while the referee's
// commits land found 7% of them not fresh, and recorded their attempt
// in a commit of its own); an id whose transaction rolled back is given
// again to an item this process enqueues, fresh; after a reopen no item
// is fresh.
func TestFreshFromItsFirstSight_Issue25(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f.db")
	db, err := Open(path, &Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	const n = 3000
	enq := func(tx *Tx) (uint64, error) {
		return tx.Enqueue("outbox", Item{Key: "k", To: "x@example.test", Payload: []byte("m"), Created: time.Unix(1, 0)})
	}
	// The writer tells each id as its transaction ends (the last thing
	// its function does, just before bbolt commits it): the reader waits
	// for that, idle meanwhile, and then looks until the commit shows the
	// item (yielding between looks, for one commit's time), so that it
	// looks while the commit's handlers run.
	committing := make(chan uint64)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer close(committing)
		for range n {
			if err := db.Group(func(tx *Tx) error {
				id, err := enq(tx)
				if err == nil {
					committing <- id
				}
				return err
			}); err != nil {
				t.Error(err)
				return
			}
		}
	}()
	notFresh := 0
	for id := range committing {
		for found := false; !found; runtime.Gosched() {
			if err := db.View(func(tx *Tx) error {
				_, err := tx.QueueItem("outbox", id)
				found = err == nil
				return nil
			}); err != nil {
				t.Fatal(err)
			}
		}
		if !db.TakeFresh("outbox", id) {
			notFresh++
		}
	}
	wg.Wait()
	if notFresh > 0 {
		t.Errorf("%d of %d items not fresh when first seen committed", notFresh, n)
	}
	// A rolled-back id comes again, fresh.
	var gone, again uint64
	boom := errors.New("rolled back")
	if err := db.Update(func(tx *Tx) error { gone, _ = enq(tx); return boom }); !errors.Is(err, boom) {
		t.Fatal(err)
	}
	if err := db.Update(func(tx *Tx) error { again, err = enq(tx); return err }); err != nil {
		t.Fatal(err)
	}
	if again != gone || !db.TakeFresh("outbox", again) {
		t.Errorf("id %d rolled back, then %d enqueued: fresh %v", gone, again, again == gone)
	}
	if err := db.Update(func(tx *Tx) error { again, err = enq(tx); return err }); err != nil {
		t.Fatal(err)
	}
	db.Close()
	if db, err = Open(path, &Options{NoSync: true}); err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if db.TakeFresh("outbox", again) {
		t.Errorf("item %d fresh after a reopen", again)
	}
}
