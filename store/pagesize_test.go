package store

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"
	"time"
)

// pageModel is what a store must hold after pageWork: the game records,
// the logs, the queued payloads by id, and the de-duplication keys.
type pageModel struct {
	games map[string][]byte
	logs  map[string][][]byte
	items map[uint64][]byte
	keys  []string
}

// pageWork writes n moves of generated games into db: records of every
// size (plain, snapshot, delta), log entries, queued mails small and large
// (blobs), de-duplication keys and VERP ids.
func pageWork(t *testing.T, db *DB, rng *rand.Rand, m *pageModel, n int) {
	t.Helper()
	for i := range n {
		err := db.Update(func(tx *Tx) error {
			g := fmt.Sprintf("g%d", rng.IntN(12))
			rec, ok := m.games[g]
			if !ok || rng.IntN(20) == 0 {
				rec = record(rng, []int{200, 900, 3000, 12000, 40000}[rng.IntN(5)])
			} else {
				rec = mutate(rng, rec)
			}
			if err := tx.PutGame(g, rec); err != nil {
				return err
			}
			m.games[g] = rec
			entry := record(rng, 50+rng.IntN(1500))
			if _, err := tx.AppendLog(g, entry); err != nil {
				return err
			}
			m.logs[g] = append(m.logs[g], entry)
			key := fmt.Sprintf("msgid:<%x@players.test>", rng.Uint64())
			if err := tx.MarkInbound(InboundRecord{Keys: []string{key}, Game: g, Outcome: "applied"}); err != nil {
				return err
			}
			m.keys = append(m.keys, key)
			for range rng.IntN(3) {
				pay := bytes.Repeat([]byte{byte('a' + i%26)}, []int{300, 1023, 1024, 3700, 9000, 70000}[rng.IntN(6)])
				id, err := tx.Enqueue("outbox", Item{Key: fmt.Sprintf("<r%d@ref>", i), To: "ann@example.test", Payload: pay, Created: time.Unix(int64(1e9+i), 0)})
				if err != nil {
					return err
				}
				m.items[id] = pay
				if err := tx.PutVERP(fmt.Sprintf("%x", rng.Uint64()), VERPRecord{To: "ann@example.test", Key: fmt.Sprintf("<r%d@ref>", i)}); err != nil {
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

// pageCheck reads back everything the model holds, and checks bbolt's
// consistency.
func pageCheck(t *testing.T, db *DB, m *pageModel) {
	t.Helper()
	if err := db.Check(); err != nil {
		t.Fatal(err)
	}
	db.View(func(tx *Tx) error {
		for g, want := range m.games {
			if got, err := tx.Game(g); err != nil || !bytes.Equal(got, want) {
				t.Errorf("game %s: %d bytes, want %d (%v)", g, len(got), len(want), err)
			}
			var got [][]byte
			tx.Log(g, 1, func(_ uint64, e []byte) error { got = append(got, e); return nil })
			if len(got) != len(m.logs[g]) {
				t.Errorf("log of %s: %d entries, want %d", g, len(got), len(m.logs[g]))
			}
			for i := range min(len(got), len(m.logs[g])) {
				if !bytes.Equal(got[i], m.logs[g][i]) {
					t.Errorf("log of %s, entry %d differs", g, i+1)
				}
			}
		}
		for id, want := range m.items {
			if it, err := tx.QueueItem("outbox", id); err != nil || !bytes.Equal(it.Payload, want) {
				t.Errorf("item %d: %d bytes, want %d (%v)", id, len(it.Payload), len(want), err)
			}
		}
		for _, k := range m.keys {
			if _, seen, err := tx.Seen(k); !seen || err != nil {
				t.Errorf("key %s not seen (%v)", k, err)
			}
		}
		return nil
	})
}

// TestNewStorePageSize (issue 25, pagesize.go): a new store is made with
// pages of NewPageSize, whatever its first writes.
func TestNewStorePageSize(t *testing.T) {
	db, err := Open(filepath.Join(t.TempDir(), "n.db"), &Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if got := db.PageSize(); got != NewPageSize {
		t.Fatalf("a new store has pages of %d bytes, want %d", got, NewPageSize)
	}
}

// TestOldPageSizeStoreOpens (issue 25, pagesize.go): a store made with
// another page size (4 KiB: every store made before NewPageSize) keeps
// it when opened by this code, reads every record of generated work back,
// takes more of it, and reads that back after a reopen; Compact rewrites
// it with pages of NewPageSize and loses nothing.
func TestOldPageSizeStoreOpens(t *testing.T) {
	for _, ps := range []int{4096, 2048, 8192} {
		t.Run(fmt.Sprint(ps), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "old.db")
			db, err := Open(path, &Options{NoSync: true, PageSize: ps})
			if err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(uint64(ps), 25))
			m := &pageModel{games: map[string][]byte{}, logs: map[string][][]byte{}, items: map[uint64][]byte{}}
			pageWork(t, db, rng, m, 150)
			if err := db.Close(); err != nil {
				t.Fatal(err)
			}
			for round := range 2 {
				if db, err = Open(path, &Options{NoSync: true}); err != nil {
					t.Fatal(err)
				}
				if got := db.PageSize(); got != ps {
					t.Fatalf("reopen %d: pages of %d bytes, want the file's %d", round, got, ps)
				}
				pageCheck(t, db, m)
				pageWork(t, db, rng, m, 100)
				pageCheck(t, db, m)
				if err := db.Close(); err != nil {
					t.Fatal(err)
				}
			}
			if _, _, err := Compact(path); err != nil {
				t.Fatal(err)
			}
			if db, err = Open(path, &Options{NoSync: true}); err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			if got := db.PageSize(); got != NewPageSize {
				t.Errorf("compacted: pages of %d bytes, want %d", got, NewPageSize)
			}
			pageCheck(t, db, m)
		})
	}
}

// TestGameCountFromIndex (issue 25): with the game index built, GameCount
// is read from the counts by status and equals the number of games after
// every change (games created, their status changed, in one transaction
// or several), and bbolt's count of the records after each commit;
// without the index, it counts the records.
func TestGameCountFromIndex(t *testing.T) {
	for seed := range uint64(4) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			db, err := Open(filepath.Join(t.TempDir(), "c.db"), &Options{NoSync: true})
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			rng := rand.New(rand.NewPCG(seed, 25))
			statuses := []string{"open", "running", "over", "aborted"}
			n := 0
			for range 60 {
				err := db.Update(func(tx *Tx) error {
					for range 1 + rng.IntN(4) {
						id := fmt.Sprintf("g%d", rng.IntN(n+3))
						if !tx.HasGame(id) {
							n++
						}
						if err := tx.PutGame(id, record(rng, 100+rng.IntN(2000))); err != nil {
							return err
						}
						if err := tx.IndexGame(id, GameIndex{Game: id, Status: statuses[rng.IntN(len(statuses))]}); err != nil {
							return err
						}
						// Games made earlier in the same transaction
						// count too (bbolt's count of the records saw
						// only the committed ones).
						if got := tx.GameCount(); got != n {
							t.Fatalf("GameCount %d, games made %d", got, n)
						}
					}
					return nil
				})
				if err != nil {
					t.Fatal(err)
				}
				db.View(func(tx *Tx) error {
					if got, want := tx.GameCount(), tx.b(bGames).Stats().KeyN; got != want {
						t.Fatalf("GameCount %d, records %d", got, want)
					}
					return nil
				})
			}
			db.View(func(tx *Tx) error {
				if !tx.GameIndexBuilt() || tx.GameCount() != n {
					t.Errorf("index built %v, GameCount %d, want %d", tx.GameIndexBuilt(), tx.GameCount(), n)
				}
				return nil
			})
			// An index not built (a store older than it): the records.
			db.Update(func(tx *Tx) error {
				if err := tx.b(bMeta).Delete(kGameIndex); err != nil {
					return err
				}
				if err := tx.b(bGameCount).Put([]byte("over"), u64(1e6)); err != nil {
					return err
				}
				if tx.GameCount() != n {
					t.Errorf("index not built: GameCount %d, want the %d records", tx.GameCount(), n)
				}
				return nil
			})
		})
	}
}
