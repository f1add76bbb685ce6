package store

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"
	"time"

	"github.com/pbem-referee/referee/store/codec"
)

// record makes a game-like JSON record of about n bytes.
func record(rng *rand.Rand, n int) []byte {
	var b bytes.Buffer
	b.WriteString(`{"id":"g1","table":[`)
	for b.Len() < n {
		fmt.Fprintf(&b, `{"k":%d,"v":"%x"},`, rng.IntN(1000), rng.Uint64())
	}
	b.WriteString(`0]}`)
	return b.Bytes()
}

// mutate changes a record the way a move does: a few values here and
// there, sometimes a value added or cut.
func mutate(rng *rand.Rand, rec []byte) []byte {
	out := bytes.Clone(rec)
	for range 1 + rng.IntN(6) {
		i := 20 + rng.IntN(max(1, len(out)-40))
		k := rng.IntN(3)
		if len(out) < 100 {
			k = 1
		}
		switch k {
		case 0:
			out[i] = "0123456789abcdef"[rng.IntN(16)]
		case 1:
			out = append(out[:i:i], append([]byte(fmt.Sprintf(`"n%d",`, rng.IntN(1e6))), out[i:]...)...)
		default:
			out = append(out[:i:i], out[i+min(8, len(out)-i-30):]...)
		}
	}
	return out
}

// TestGameRecordsRoundTrip (issue 25, the write path): whatever the size
// of a record and however it changes, a read returns exactly the record
// last put, in the transaction that put it, after it, after a reopen; the
// stamp changes with every put; most puts write a delta, not the record.
func TestGameRecordsRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "g.db")
	db, err := Open(path, &Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 25))
	want := map[string][]byte{}
	stamps := map[string][]byte{}
	deltas, puts := 0, 0
	for _, size := range []int{10, 900, 1100, 5000, 40000, 200000} {
		id := fmt.Sprintf("g%d", size)
		rec := record(rng, size)
		for step := range 60 {
			if step%17 == 16 {
				rec = record(rng, size) // a record with nothing in common
			} else {
				rec = mutate(rng, rec)
			}
			err := db.Update(func(tx *Tx) error {
				if err := tx.PutGame(id, rec); err != nil {
					return err
				}
				got, err := tx.Game(id)
				if err != nil || !bytes.Equal(got, rec) {
					t.Fatalf("%s step %d: read in the same transaction differs (%v)", id, step, err)
				}
				st := tx.GameStamp(id)
				if bytes.Equal(st, stamps[id]) {
					t.Errorf("%s step %d: stamp unchanged by a put", id, step)
				}
				stamps[id] = st
				if st[0] == gameDelta || st[0] == gameDeltaZ {
					deltas++
				}
				puts++
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			want[id] = bytes.Clone(rec)
		}
	}
	if deltas < puts/2 {
		t.Errorf("%d of %d puts written as deltas", deltas, puts)
	}
	check := func(when string) {
		err := db.View(func(tx *Tx) error {
			n := 0
			err := tx.Games(func(id string, rec []byte) error {
				n++
				if !bytes.Equal(rec, want[id]) {
					t.Errorf("%s: Games: %s differs", when, id)
				}
				return nil
			})
			for id, rec := range want {
				if got, err := tx.Game(id); err != nil || !bytes.Equal(got, rec) {
					t.Errorf("%s: Game(%s) differs (%v)", when, id, err)
				}
			}
			if n != len(want) {
				t.Errorf("%s: %d games listed, want %d", when, n, len(want))
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	check("open")
	db.Close()
	if db, err = Open(path, nil); err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	check("reopened")
	if err := db.Check(); err != nil {
		t.Fatal(err)
	}
}

// TestGameDeltaWritesLess: a small change to a large record writes a
// fraction of it to disk (bbolt pages counted by WriteStats); the first
// put writes the record, compressed (store/codec).
func TestGameDeltaWritesLess(t *testing.T) {
	db := open(t)
	rng := rand.New(rand.NewPCG(2, 25))
	rec := record(rng, 60000)
	put := func() int64 {
		ws0 := db.WriteStats()
		if err := db.Update(func(tx *Tx) error { return tx.PutGame("g", rec) }); err != nil {
			t.Fatal(err)
		}
		return db.WriteStats().Sub(ws0).DiskBytes
	}
	whole := int64(len(codec.Compress(nil, rec)))
	first := put()
	var later int64
	for range 10 {
		rec = mutate(rng, rec)
		later += put()
	}
	if first < whole || later/10 > first/4 {
		t.Errorf("a put of the whole record wrote %d bytes, a put of a change %d on average", first, later/10)
	}
}

// TestSpeculationPutsGameTwice: a speculation that puts a game twice (the
// second a delta against the snapshot the first made) commits the last
// record; one whose snapshot changed meanwhile conflicts.
func TestSpeculationPutsGameTwice(t *testing.T) {
	db := open(t)
	rng := rand.New(rand.NewPCG(3, 25))
	a := record(rng, 8000)
	db.Update(func(tx *Tx) error { return tx.PutGame("g", a) })
	b := record(rng, 8000) // nothing in common: a new snapshot
	c := mutate(rng, b)    // a delta against b
	s, err := db.Speculate(func(tx *Tx) error {
		if err := tx.PutGame("g", b); err != nil {
			return err
		}
		if err := tx.PutGame("g", c); err != nil {
			return err
		}
		if got, _ := tx.Game("g"); !bytes.Equal(got, c) {
			t.Error("the speculation reads another record than it put")
		}
		return nil
	})
	if err != nil || s.Wide() {
		t.Fatal(err, s.Wide())
	}
	if err := db.Commit(s, nil); err != nil {
		t.Fatal(err)
	}
	db.View(func(tx *Tx) error {
		if got, err := tx.Game("g"); err != nil || !bytes.Equal(got, c) {
			t.Errorf("committed record differs (%v)", err)
		}
		return nil
	})
	// A speculation reading the game, then another put of it: conflict.
	d := mutate(rng, c)
	s, _ = db.Speculate(func(tx *Tx) error { return tx.PutGame("g", d) })
	db.Update(func(tx *Tx) error { return tx.PutGame("g", record(rng, 8000)) })
	if err := db.Commit(s, nil); !errors.Is(err, ErrConflict) {
		t.Errorf("commit over a changed snapshot: %v", err)
	}
}

// TestQueuePayloadStoredOnce: a queued item's payload is written once,
// raw, apart from its row; every attempt rewrites the row only; every read
// has the payload; pruning forgets it.
func TestQueuePayloadStoredOnce(t *testing.T) {
	db := open(t)
	payload := bytes.Repeat([]byte("Subject: x\r\n\r\nline\r\n"), 2000) // 40 KB
	var id uint64
	db.Update(func(tx *Tx) error {
		id, _ = tx.Enqueue("outbox", Item{Key: "<a@r>", To: "ann@x", Payload: payload, Created: t0})
		return nil
	})
	var attempt int64
	db.Update(func(tx *Tx) error {
		row := tx.bucket([]byte("queue.outbox")).Get(u64(id))
		if len(row) > 500 || bytes.Contains(row, []byte("payload")) {
			t.Errorf("the row holds the payload (%d bytes)", len(row))
		}
		return nil
	})
	ws0 := db.WriteStats()
	db.Update(func(tx *Tx) error {
		it, err := tx.Attempt("outbox", id, t0, t0.Add(time.Minute))
		if err != nil || it.Payload != nil || !bytes.Equal(tx.Payload("outbox", id), payload) {
			t.Errorf("attempt: payload %d bytes (want the state only), %v", len(it.Payload), err)
		}
		return err
	})
	attempt = db.WriteStats().Sub(ws0).DiskBytes
	if attempt >= int64(len(payload)) {
		t.Errorf("an attempt wrote %d bytes for a %d-byte payload", attempt, len(payload))
	}
	db.Update(func(tx *Tx) error {
		due, _ := tx.Due("outbox", t0.Add(time.Hour), 0)
		if len(due) != 1 || !bytes.Equal(due[0].Payload, payload) {
			t.Errorf("due: %d items", len(due))
		}
		it, err := tx.Finish("outbox", id, Sent, t0, t0.Add(time.Hour), "")
		if err != nil || it.Payload != nil || !bytes.Equal(tx.Payload("outbox", id), payload) {
			t.Errorf("finish: %v, %d bytes of payload returned (want the state only)", err, len(it.Payload))
		}
		it, _ = tx.QueueItem("outbox", id)
		if !bytes.Equal(it.Payload, payload) {
			t.Error("retired item without its payload")
		}
		n := 0
		tx.Retired("outbox", func(it Item) error {
			n++
			if !bytes.Equal(it.Payload, payload) {
				t.Error("Retired: no payload")
			}
			return nil
		})
		if n != 1 {
			t.Errorf("%d retired", n)
		}
		if k, _ := tx.PruneRetired("outbox", t0.Add(2*time.Hour)); k != 1 {
			t.Errorf("pruned %d", k)
		}
		if getValue(tx.bucket([]byte("queue.outbox")), bodyKey(id)) != nil {
			t.Error("pruned item's payload kept")
		}
		return nil
	})
}

// TestMigrationMovesPayloads: a store of schema 5 (payloads inside the
// rows, base64) opens as schema 6 with every item, live and retired,
// whole; and a game record of schema 5 reads as before and is written as a
// snapshot at its next put.
func TestMigrationMovesPayloads(t *testing.T) {
	db, path := openAtSchema(t, 5)
	rng := rand.New(rand.NewPCG(4, 25))
	rec := record(rng, 5000)
	payloads := map[string][]byte{}
	err := db.Update(func(tx *Tx) error {
		if err := tx.bucket(bGames).Put([]byte("g"), rec); err != nil {
			return err
		}
		for i, name := range []string{"queue.outbox", "done.outbox", "queue.hooks"} {
			for k := range 3 {
				id := uint64(10*i + k + 1)
				p := []byte(fmt.Sprintf("payload %s %d %x", name, k, rng.Uint64()))
				payloads[fmt.Sprint(id)] = p
				raw, _ := json.Marshal(Item{ID: id, Key: fmt.Sprint(id), To: "x@y", Payload: p, Created: t0, Due: t0, State: Pending})
				if err := tx.bucket([]byte(name)).Put(u64(id), raw); err != nil {
					return err
				}
				if name != "done.outbox" {
					q := name[len("queue."):]
					if err := tx.bucket([]byte("due."+q)).Put(dueKey(t0, id), nil); err != nil {
						return err
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	db = reopenCurrent(t, db, path)
	db.Update(func(tx *Tx) error {
		n := 0
		each := func(it Item) error {
			n++
			if !bytes.Equal(it.Payload, payloads[it.Key]) {
				t.Errorf("item %s: payload %q", it.Key, it.Payload)
			}
			return nil
		}
		tx.Items("outbox", each)
		tx.Retired("outbox", each)
		tx.Items("hooks", each)
		if n != 9 {
			t.Errorf("%d items after the migration", n)
		}
		for _, name := range []string{"queue.outbox", "done.outbox", "queue.hooks"} {
			tx.bucket([]byte(name)).ForEach(func(k, v []byte) error {
				if bytes.Contains(v, []byte(`"payload"`)) {
					t.Errorf("%s %x: payload left in the row", name, k)
				}
				return nil
			})
		}
		if got, _ := tx.Game("g"); !bytes.Equal(got, rec) {
			t.Error("schema-5 game record changed")
		}
		rec = mutate(rng, rec)
		return tx.PutGame("g", rec)
	})
	db.View(func(tx *Tx) error {
		if got, _ := tx.Game("g"); !bytes.Equal(got, rec) {
			t.Error("game record put after the migration differs")
		}
		if st := tx.GameStamp("g"); st[0] != gameSnap {
			t.Errorf("first put after the migration stored as %#x", st[0])
		}
		return nil
	})
}

// FuzzGameDelta: any record, any change: the store gives back the record.
func FuzzGameDelta(f *testing.F) {
	f.Add([]byte(`{"a":1}`), []byte(`{"a":2}`), uint16(3000))
	f.Add(bytes.Repeat([]byte("x"), 2000), []byte("y"), uint16(100))
	db, err := Open(filepath.Join(f.TempDir(), "f.db"), &Options{NoSync: true})
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { db.Close() })
	n := 0
	f.Fuzz(func(t *testing.T, base, change []byte, at uint16) {
		n++
		id := fmt.Sprintf("f%d", n%7)
		a := bytes.Repeat(base, 1+2048/(len(base)+1))
		i := int(at) % (len(a) + 1)
		b := append(append(bytes.Clone(a[:i]), change...), a[i:]...)
		for _, rec := range [][]byte{a, b} {
			err := db.Update(func(tx *Tx) error {
				if err := tx.PutGame(id, rec); err != nil {
					return err
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			db.View(func(tx *Tx) error {
				if got, err := tx.Game(id); err != nil || !bytes.Equal(got, rec) {
					t.Fatalf("record differs (%v)", err)
				}
				return nil
			})
		}
	})
}
