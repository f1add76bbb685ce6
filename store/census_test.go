package store

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/pbem-referee/referee/store/pagefile"
)

// TestPageCensusCountsEveryPageWritten_Issue25 (census.go): the census
// counts, per bucket and kind, exactly the pages a page-by-page reading
// of the whole file finds written (pagefile.Written), commit by commit, and
// with the meta pages every byte WriteStats counts. Variation: 30 and 600
// games, moves through Update, a speculation and the group commit, with
// and without a mail, a wake-up, a delivery retiring a mail (not in a
// speculation, which cannot); then moves
// from eight goroutines at once through Group, where only the totals can
// be compared.
func TestPageCensusCountsEveryPageWritten_Issue25(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 14))
	text := func(n int) []byte { return moveText(rng, n) }
	for _, games := range []int{30, 600} {
		db, err := Open(filepath.Join(t.TempDir(), "referee.db"), &Options{NoSync: true})
		if err != nil {
			t.Fatal(err)
		}
		page := int64(db.PageSize())
		for k := 0; k < games; k += 100 {
			if err := db.Update(func(tx *Tx) error {
				for j := k; j < min(games, k+100); j++ {
					id := fmt.Sprintf("c%d", j)
					if err := tx.PutGame(id, text(500+rng.IntN(3000))); err != nil {
						return err
					}
					for range 2 + rng.IntN(5) {
						if _, err := tx.AppendLog(id, text(100+rng.IntN(400))); err != nil {
							return err
						}
					}
				}
				return nil
			}); err != nil {
				t.Fatal(err)
			}
		}
		if err := db.StartPageCensus(); err != nil {
			t.Fatal(err)
		}
		var queued []uint64
		move := func(m int) func(tx *Tx) error {
			id := fmt.Sprintf("c%d", rng.IntN(games))
			mail, wake, retire := rng.IntN(3) > 0, rng.IntN(2) == 0, m%3 != 1 && len(queued) > 0 && rng.IntN(2) == 0
			rec, entry, size := text(500+rng.IntN(3000)), text(100+rng.IntN(400)), 200+rng.IntN(3000)
			return func(tx *Tx) error {
				if err := tx.PutGame(id, rec); err != nil {
					return err
				}
				if _, err := tx.AppendLog(id, entry); err != nil {
					return err
				}
				if err := tx.MarkInbound(InboundRecord{Keys: []string{fmt.Sprintf("move:%s:%d", id, m)}, Game: id, Outcome: "applied"}); err != nil {
					return err
				}
				if mail {
					if _, err := tx.Enqueue("outbox", Item{Key: fmt.Sprint(id, m), To: "a@example.test", Payload: moveText(rand.New(rand.NewPCG(uint64(m), 1)), size), Created: t0}); err != nil {
						return err
					}
				}
				if wake {
					if err := tx.SetWake(id, t0.Add(time.Duration(m)*time.Minute)); err != nil {
						return err
					}
				}
				if retire {
					if _, err := tx.Finish("outbox", queued[0], Sent, t0, t0.Add(time.Hour), ""); err != nil {
						return err
					}
				}
				return nil
			}
		}
		total := map[string]int64{}
		for m := range 60 {
			fn := move(m)
			before, err := db.PageReading()
			if err != nil {
				t.Fatal(err)
			}
			c0, ws0 := db.PageCensus(), db.WriteStats()
			switch m % 3 {
			case 0:
				err = db.Update(fn)
			case 1:
				err = updateOrSpeculate(db, 1, fn)
			case 2:
				err = db.Group(fn)
			}
			if err != nil {
				t.Fatal(err)
			}
			after, err := db.PageReading()
			if err != nil {
				t.Fatal(err)
			}
			want, _ := pagefile.Written(before, after)
			got, n := map[string]int{}, int64(0)
			for k, v := range db.PageCensus() {
				if d := v - c0[k]; d != 0 {
					got[k] = int(d)
					n += d
				}
			}
			if !maps.Equal(got, want) {
				t.Fatalf("%d games, move %d: the census counted %v, the file's reading found %v", games, m, got, want)
			}
			if ws := db.WriteStats().Sub(ws0); (n+ws.Commits)*page != ws.DiskBytes {
				t.Fatalf("%d games, move %d: %d pages counted and %d meta pages, %d bytes written", games, m, n, ws.Commits, ws.DiskBytes)
			}
			if err := db.View(func(tx *Tx) error {
				queued = queued[:0]
				items, err := tx.Due("outbox", t0.Add(time.Hour), 10)
				for _, it := range items {
					queued = append(queued, it.ID)
				}
				return err
			}); err != nil {
				t.Fatal(err)
			}
			maps.Copy(total, db.PageCensus())
		}
		// Commits of several goroutines at once: the totals.
		ws0, c0 := db.WriteStats(), db.PageCensus()
		queued = nil
		var wg sync.WaitGroup
		var mu sync.Mutex
		errs := make(chan error, 8)
		for g := range 8 {
			wg.Go(func() {
				for i := range 10 {
					mu.Lock()
					fn := move(1000 + g*10 + i)
					mu.Unlock()
					if err := db.Group(fn); err != nil {
						errs <- err
						return
					}
				}
			})
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatal(err)
		}
		ws, n := db.WriteStats().Sub(ws0), int64(0)
		for k, v := range db.PageCensus() {
			n += v - c0[k]
		}
		if (n+ws.Commits)*page != ws.DiskBytes {
			t.Errorf("%d games, eight goroutines: %d pages counted and %d meta pages, %d bytes written", games, n, ws.Commits, ws.DiskBytes)
		}
		t.Logf("%d games: %d commits of eight goroutines, %d pages; the census of the single moves: %v", games, ws.Commits, n, total)
		if err := db.Check(); err != nil {
			t.Error(err)
		}
		db.Close()
	}
}

// A commit takes the census's mutex only while a census runs (census.go,
// issue 25: it took it around every commit): with the mutex held
// elsewhere, commits go through when no census runs, and wait for it when
// one does (under bbolt's writer lock, so that the census reads each
// commit alone). Variation: Update, the group commit and a speculation.
func TestCommitTakesTheCensusLockOnlyWhenOne_Issue25(t *testing.T) {
	db := open(t)
	commit := func(m int) error {
		fn := func(tx *Tx) error {
			_, err := tx.AppendLog("g1", []byte(fmt.Sprintf(`{"m":%d}`, m)))
			return err
		}
		switch m % 3 {
		case 0:
			return db.Update(fn)
		case 1:
			return db.Group(fn)
		}
		return updateOrSpeculate(db, m, fn)
	}
	// held runs commit m with the census's mutex held, reports whether it
	// went through within wait, then unlocks and waits for it.
	held := func(m int, wait time.Duration) bool {
		db.census.mu.Lock()
		done := make(chan error, 1)
		go func() { done <- commit(m) }()
		through := false
		select {
		case err := <-done:
			through, done = true, make(chan error, 1)
			done <- err
		case <-time.After(wait):
		}
		db.census.mu.Unlock()
		if err := <-done; err != nil {
			t.Fatal(err)
		}
		return through
	}
	for m := range 6 {
		if !held(m, 20*time.Second) {
			t.Fatalf("commit %d waits for the census's mutex with no census", m)
		}
	}
	if err := db.StartPageCensus(); err != nil {
		t.Fatal(err)
	}
	for m := range 3 {
		if held(m, 50*time.Millisecond) {
			t.Fatalf("commit %d went through a census's mutex held", m)
		}
	}
	n := int64(0)
	for _, c := range db.PageCensus() {
		n += c
	}
	if n < 3 {
		t.Errorf("the census counted %d pages in three commits", n)
	}
}
