package store

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

// TestDueIndexBothForms (queue.go, the due index by latest due): with
// entries of the older form (dueEntry, as a store before it wrote them)
// and of the newer (dueLatest) mixed, the index reads earliest due first,
// then the lowest id, as a plain model of the live items does; attempts,
// retries and finishes move or delete either form, and leave no entry of
// an item behind. Generated: 40 runs of random dues (many equal), forms,
// and operations.
func TestDueIndexBothForms(t *testing.T) {
	t0 := time.Date(2026, 12, 6, 12, 0, 0, 0, time.UTC)
	for run := range 40 {
		rng := rand.New(rand.NewPCG(uint64(run), 25))
		db := open(t)
		model := map[uint64]time.Time{}
		at := func() time.Time { return t0.Add(time.Duration(rng.IntN(6)) * time.Minute) }
		for step := range 60 {
			err := db.Update(func(tx *Tx) error {
				var live []uint64
				for id := range model {
					live = append(live, id)
				}
				slices.Sort(live)
				switch op := rng.IntN(5); {
				case op <= 1 || len(live) == 0:
					created := at()
					id, err := tx.Enqueue("outbox", Item{Key: "k", To: "a@x", Payload: []byte("p"), Created: created})
					if err != nil {
						return err
					}
					model[id] = created
					if rng.IntN(2) == 0 {
						// As an older store indexed it.
						b := tx.dueIndex("outbox")
						if err := b.Delete(dueLatest(created, id)); err != nil {
							return err
						}
						return b.Put(dueEntry(created, id), nil)
					}
				case op == 2:
					id := live[rng.IntN(len(live))]
					next := at()
					if _, err := tx.Attempt("outbox", id, t0, next); err != nil {
						return err
					}
					model[id] = next
				case op == 3:
					id := live[rng.IntN(len(live))]
					next := at()
					if _, err := tx.Retry("outbox", id, next, "later"); err != nil {
						return err
					}
					model[id] = next
				default:
					id := live[rng.IntN(len(live))]
					if _, err := tx.Finish("outbox", id, Sent, t0, t0.Add(time.Hour), ""); err != nil {
						return err
					}
					delete(model, id)
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			type entry struct {
				due time.Time
				id  uint64
			}
			var want, got []entry
			for id, due := range model {
				want = append(want, entry{due, id})
			}
			slices.SortFunc(want, func(a, b entry) int {
				return cmp.Or(a.due.Compare(b.due), cmp.Compare(a.id, b.id))
			})
			db.View(func(tx *Tx) error {
				return tx.DueOrder("outbox", func(due time.Time, id uint64) (bool, error) {
					got = append(got, entry{due, id})
					return true, nil
				})
			})
			if !slices.EqualFunc(got, want, func(a, b entry) bool { return a.due.Equal(b.due) && a.id == b.id }) {
				t.Fatalf("run %d step %d: due index %v, want %v", run, step, got, want)
			}
			db.View(func(tx *Tx) error {
				if n := tx.QueueLen("outbox"); n != len(model) {
					t.Fatalf("run %d step %d: QueueLen %d, want %d", run, step, n, len(model))
				}
				due, err := tx.Due("outbox", t0.Add(3*time.Minute), 0)
				n := 0
				for _, e := range want {
					if !e.due.After(t0.Add(3 * time.Minute)) {
						n++
					}
				}
				if err != nil || len(due) != n {
					t.Fatalf("run %d step %d: %d due by +3m, want %d (%v)", run, step, len(due), n, err)
				}
				return nil
			})
		}
	}
}
