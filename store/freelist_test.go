package store

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// freePages is bbolt's count of free pages of an open store.
func freePages(db *DB) int { return db.bolt.Stats().FreePageN }

// TestOpenReadsFreeListAfterClose (issue 25: 100,000 live games under
// 300 MB): on generated stores (games, log entries, queued mails, some of
// them retired and pruned so that pages are freed), Open after a Close
// reads the free list that Close wrote and does not walk the file; Open
// after a crash (a hot copy: no Close, no free list on file) walks it, and
// the list it rebuilds is the one Close wrote for the same state; commits
// after either Open keep the file consistent, and after another crash the
// walk finds the same free pages as Close records.
func TestOpenReadsFreeListAfterClose(t *testing.T) {
	for seed := range uint64(6) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(seed, 25))
			dir := t.TempDir()
			path := filepath.Join(dir, "referee.db")
			db, err := Open(path, &Options{NoSync: true})
			if err != nil {
				t.Fatal(err)
			}
			if db.OpenWalked() {
				t.Fatal("a new file was walked")
			}
			churn(t, db, rng, 20+rng.IntN(200))
			crash := hotCopy(t, db, filepath.Join(dir, "crash.db"))
			if err := db.Close(); err != nil {
				t.Fatal(err)
			}

			closed := reopen(t, path, false)
			walkedDB := reopen(t, crash, true)
			if a, b := freePages(closed), freePages(walkedDB); a != b || a == 0 {
				t.Fatalf("free pages: %d read from the file, %d found by the walk (want equal, > 0)", a, b)
			}
			// Both go on serving; a crash of the first is walked to the
			// free list the first records at its Close (the same state:
			// the two files differ in where their free lists were written,
			// so the same work after it may leave them with different free
			// pages, as it does with pages of 1 KiB).
			churn(t, closed, rand.New(rand.NewPCG(seed, 1)), 50)
			churn(t, walkedDB, rand.New(rand.NewPCG(seed, 1)), 50)
			crash2 := hotCopy(t, closed, filepath.Join(dir, "crash2.db"))
			for _, db := range []*DB{closed, walkedDB} {
				if err := db.Check(); err != nil {
					t.Fatal(err)
				}
				if err := db.Close(); err != nil {
					t.Fatal(err)
				}
			}
			a, b := reopen(t, path, false), reopen(t, crash2, true)
			if freePages(a) != freePages(b) {
				t.Fatalf("free pages: %d read from the file, %d found by the walk", freePages(a), freePages(b))
			}
			a.Close()
			b.Close()
			// A session that only reads commits nothing, at Open or at
			// Close, and leaves the free list on file.
			a = reopen(t, crash, false)
			a.View(func(tx *Tx) error { _, err := tx.Game("g1"); return err })
			if st := a.bolt.Stats(); st.TxStats.GetWrite() != 0 {
				t.Errorf("an open of a current file wrote %d pages", st.TxStats.GetWrite())
			}
			a.Close()
			reopen(t, crash, false).Close()
		})
	}
}

// reopen opens a store and checks whether the open walked the file.
func reopen(t *testing.T, path string, wantWalk bool) *DB {
	t.Helper()
	db, err := Open(path, &Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	if db.OpenWalked() != wantWalk {
		t.Fatalf("%s: open walked the file: %v, want %v", filepath.Base(path), db.OpenWalked(), wantWalk)
	}
	if err := db.Check(); err != nil {
		t.Fatal(err)
	}
	return db
}

// hotCopy copies an open store as a crash leaves it (bbolt's consistent
// copy of the last commit, whose meta page names no free list).
func hotCopy(t *testing.T, db *DB, path string) string {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Backup(f); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// churn commits n inputs of a game-like workload: a game record put, log
// entries, a mail queued; mails sent and pruned now and then, which frees
// pages.
func churn(t *testing.T, db *DB, rng *rand.Rand, n int) {
	t.Helper()
	now := t0
	for i := range n {
		now = now.Add(time.Minute)
		err := db.Update(func(tx *Tx) error {
			g := fmt.Sprintf("g%d", rng.IntN(12))
			if err := tx.PutGame(g, record(rng, 200+rng.IntN(6000))); err != nil {
				return err
			}
			if _, err := tx.AppendLog(g, record(rng, 50+rng.IntN(400))); err != nil {
				return err
			}
			if _, err := tx.Enqueue("outbox", Item{Key: fmt.Sprintf("<%d@x>", i), To: "a@x", Payload: record(rng, 500+rng.IntN(4000)), Created: now}); err != nil {
				return err
			}
			if rng.IntN(3) == 0 {
				due, err := tx.Due("outbox", now, 4)
				if err != nil {
					return err
				}
				for _, it := range due {
					if _, err := tx.Finish("outbox", it.ID, Sent, now, now.Add(time.Hour), ""); err != nil {
						return err
					}
				}
				if _, err := tx.PruneRetired("outbox", now); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}
