package store

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
)

// The next group starts now (store/doc.go, issue 25: the group commit's
// hand-over): a commit that came while a group was written is written
// before the caller that led that group goes on with its own work, not
// when that caller next blocks. On one P (GOMAXPROCS 1), the leader's
// Group returns only after the next group's transaction ran, for 1 to 4
// callers waiting (Group and a speculation's Commit); callers that only
// GroupLater start nothing. The yield is the scheduler's to honour: one
// time in 61 it runs the leader first (its fairness check of the global
// queue), so each case has three tries.
func TestNextGroupStartsBeforeTheLeaderGoesOn_Issue25(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	for waiting := 1; waiting <= 4; waiting++ {
		for _, kind := range []string{"group", "commit", "later"} {
			t.Run(fmt.Sprintf("%d-%s", waiting, kind), func(t *testing.T) {
				var got []int
				for range 3 {
					got = append(got, groupsWhenTheLeaderGoesOn(t, waiting, kind))
					if kind != "later" && got[len(got)-1] == 2 {
						return
					}
				}
				for _, batches := range got {
					switch {
					case kind == "later" && batches != 1:
						t.Errorf("%d lazy callers waiting: %d groups written when the leader went on, want 1", waiting, batches)
					case kind != "later" && batches != 2:
						t.Errorf("%d callers waiting: %d groups written when the leader went on, want 2", waiting, batches)
					}
				}
			})
		}
	}
}

// groupsWhenTheLeaderGoesOn leads a group while callers of the kind come
// and returns how many groups were written when its Group returned.
func groupsWhenTheLeaderGoesOn(t *testing.T, waiting int, kind string) int {
	db := open(t)
	var ran atomic.Int64
	var wg sync.WaitGroup
	fn := func(tx *Tx) error {
		ran.Add(1)
		return tx.PutGame(fmt.Sprintf("w%d", ran.Load()), []byte(`{}`))
	}
	err := db.Group(func(tx *Tx) error {
		if n, _ := db.group.Counts(); n > 1 {
			return nil // written again: the waiting callers came
		}
		for i := range waiting {
			wg.Go(func() {
				var err error
				switch kind {
				case "group":
					err = db.Group(fn)
				case "commit":
					var s *Spec
					if s, err = db.Speculate(func(tx *Tx) error { return tx.PutGame(fmt.Sprintf("s%d", i), []byte(`{}`)) }); err == nil {
						ran.Add(1)
						err = db.Commit(s, nil)
					}
				case "later":
					err = db.GroupLater(fn)
				}
				if err != nil {
					t.Error(err)
				}
			})
		}
		for {
			n, _ := db.group.Counts()
			if n == 1+waiting {
				return nil
			}
			runtime.Gosched()
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	_, batches := db.group.Counts()
	db.Hurry()
	wg.Wait()
	return batches
}
