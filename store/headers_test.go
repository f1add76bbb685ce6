package store

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/pbem-referee/referee/store/pagefile"
	bolt "go.etcd.io/bbolt"
)

// wholeKey is an attempt key that is kept whole (intake.go): not of the
// form <stem>/<n>.
func wholeKey(key string) string { return key + "/x" }

// topIsLeaf reports whether the tree of the top-level buckets' headers is
// one leaf, as last committed.
func topIsLeaf(t *testing.T, db *DB) bool {
	t.Helper()
	var leaf bool
	if err := db.bolt.View(func(tx *bolt.Tx) error {
		p, err := tx.Page(int(tx.Cursor().Bucket().Root()))
		leaf = err == nil && p != nil && p.Type == "leaf"
		return err
	}); err != nil {
		t.Fatal(err)
	}
	return leaf
}

// TestTopLevelMergedBackIntoOneLeaf_Issue25 (headers.go): a new store's
// small top buckets, inline in the top level's leaf, split it; once they
// have left it, the next commit merges the top level back into one leaf,
// with every record where it was, and a commit writes one page of
// headers again. A crash between the merge's two commits leaves the top
// buckets in rest: the next commit moves them back. Variation: which
// buckets grow inline (intake attempts, cursors and the log, with the
// queue, inbound or both) and by how much.
func TestTopLevelMergedBackIntoOneLeaf_Issue25(t *testing.T) {
	for shape := range 3 {
		t.Run(fmt.Sprint("shape ", shape), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "referee.db")
			db, err := Open(path, &Options{NoSync: true})
			if err != nil {
				t.Fatal(err)
			}
			if !topIsLeaf(t, db) {
				t.Fatal("a new store's top level is not one leaf")
			}
			// The set of stale wake-up keys built (the tick's first
			// question): the merge's commits must reach it (below).
			db.View(func(tx *Tx) error { tx.NextWake(); return nil })
			// Small entries in the top buckets, kept inline, until the top
			// level splits.
			n := 0
			write := func(k int) error {
				return db.Update(func(tx *Tx) error {
					for i := range k {
						n++
						key := fmt.Sprintf("imap:a/INBOX/1/%d", n)
						// Kept whole, not in its mailbox's row (intake.go):
						// a row each, which grows out of the top level.
						if _, err := tx.BeginAttempt(wholeKey(key)); err != nil {
							return err
						}
						if err := tx.PutCursor(fmt.Sprint("box", n%(2+shape)), Cursor{UIDValidity: 1, LastUID: uint32(n)}); err != nil {
							return err
						}
						if shape != 1 && i%2 == 0 {
							if _, err := tx.Enqueue("outbox", Item{Key: key, To: "a@example.test", Payload: []byte("ok")}); err != nil {
								return err
							}
						}
						if i%2 == 0 {
							if _, err := tx.AppendLog(fmt.Sprint("g", n%3), []byte(`{"m":1}`)); err != nil {
								return err
							}
						}
						if shape > 1 {
							if err := tx.MarkInbound(InboundRecord{Keys: []string{key}, Outcome: "applied"}); err != nil {
								return err
							}
						}
					}
					return nil
				})
			}
			for topIsLeaf(t, db) {
				if n > 400 {
					t.Fatal("the top level never split: the test grows nothing inline")
				}
				if err := write(1); err != nil {
					t.Fatal(err)
				}
			}
			// They grow out of it: the top level stays split (bbolt
			// merges after deletes only) until the store merges it.
			if err := write(40 + 20*shape); err != nil {
				t.Fatal(err)
			}
			if db.HeaderMerges() == 0 && topIsLeaf(t, db) {
				t.Fatal("bbolt merged the top level by itself: the test proves nothing")
			}
			if err := write(1); err != nil {
				t.Fatal(err)
			}
			if !topIsLeaf(t, db) || db.HeaderMerges() == 0 {
				t.Fatalf("after %d inputs the top level is not one leaf (%d merges)", n, db.HeaderMerges())
			}
			// A commit writes one page of headers.
			before, err := db.PageReading()
			if err != nil {
				t.Fatal(err)
			}
			if err := write(1); err != nil {
				t.Fatal(err)
			}
			after, err := db.PageReading()
			if err != nil {
				t.Fatal(err)
			}
			if w, _ := pagefile.Written(before, after); w["(bucket headers) leaf"] != 1 || w["(bucket headers) branch"] != 0 {
				t.Errorf("a commit wrote %v", w)
			}
			check := func(db *DB) {
				t.Helper()
				if err := db.View(func(tx *Tx) error {
					for i := 1; i <= n; i++ {
						key := fmt.Sprintf("imap:a/INBOX/1/%d", i)
						if c := tx.AttemptCount(wholeKey(key)); c != 1 {
							return fmt.Errorf("attempts of %s: %d", key, c)
						}
						if _, ok, err := tx.Seen(key); err != nil || ok != (shape > 1) {
							return fmt.Errorf("seen %s: %v %v", key, ok, err)
						}
					}
					if c, err := tx.Cursor("box0"); err != nil || c.LastUID == 0 {
						return fmt.Errorf("cursor %+v %v", c, err)
					}
					return nil
				}); err != nil {
					t.Fatal(err)
				}
				if err := db.Check(); err != nil {
					t.Fatal(err)
				}
			}
			check(db)
			// The merge's commits are handed to the set of stale wake-up
			// keys: it is still of the state a reader sees (wakeset.go).
			if err := db.View(func(tx *Tx) error {
				if _, known := db.stale.stale(uint64(tx.tx.ID()), []byte("k")); !known {
					return fmt.Errorf("after %d merges the stale set is not of the store's state", db.HeaderMerges())
				}
				return nil
			}); err != nil {
				t.Error(err)
			}
			// A crash between the two commits of a merge: the top buckets
			// in rest, found there, moved back by the next commit.
			if err := db.bolt.Update(migrateSchema10); err != nil {
				t.Fatal(err)
			}
			if err := db.Close(); err != nil {
				t.Fatal(err)
			}
			if db, err = Open(path, &Options{NoSync: true}); err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			check(db)
			if err := write(1); err != nil {
				t.Fatal(err)
			}
			if err := db.View(func(tx *Tx) error {
				return tx.tx.ForEach(func(name []byte, _ *bolt.Bucket) error {
					if !topBucket(name) {
						return fmt.Errorf("%q at the top level", name)
					}
					return nil
				})
			}); err != nil {
				t.Fatal(err)
			}
			if r := db.bolt.View(func(tx *bolt.Tx) error {
				return tx.Bucket(bRest).ForEachBucket(func(name []byte) error {
					if topBucket(name) {
						return fmt.Errorf("%q still in rest", name)
					}
					return nil
				})
			}); r != nil {
				t.Error(r)
			}
			check(db)
		})
	}
}

// BenchmarkSmallCommit measures a commit of one log entry in a store
// whose top level is one leaf, the census off (issue 25: every commit
// walked rest's bucket headers to ask whether the top level was due a
// merge, under the census's mutex). allocs/op and cursors/commit
// (bbolt's count: every Get, bucket look-up and walk makes one) are
// exact; NoSync, so the time is the commit's work, not the disk's.
func BenchmarkSmallCommit(b *testing.B) {
	db, err := Open(filepath.Join(b.TempDir(), "referee.db"), &Options{NoSync: true})
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	entry := []byte(`{"seat":1,"card":"c12","n":4}`)
	cursors := func() int64 { st := db.bolt.Stats(); return st.TxStats.GetCursorCount() }
	c0 := cursors()
	for b.Loop() {
		if err := db.Update(func(tx *Tx) error {
			_, err := tx.AppendLog("g1", entry)
			return err
		}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(cursors()-c0)/float64(b.N), "cursors/commit")
}
