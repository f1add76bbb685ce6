package store

import (
	"bytes"
	stdflate "compress/flate"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pbem-referee/referee/store/codec"
	bolt "go.etcd.io/bbolt"
)

// The store's compressed values of every form read (the codec's own
// tests: store/codec).

// mainDeflate is the compressor of the stores written before 2026-12-06's
// codec change (store/codec): compress/flate at its default level, as
// main's deflateAlways wrote every compressed value.
func mainDeflate(t testing.TB, v []byte) []byte {
	return deflateWith(t, v, func(w io.Writer) (io.WriteCloser, error) {
		return stdflate.NewWriter(w, stdflate.DefaultCompression)
	})
}

// deflateWith compresses v with the writer newWriter makes.
func deflateWith(t testing.TB, v []byte, newWriter func(io.Writer) (io.WriteCloser, error)) []byte {
	var buf bytes.Buffer
	w, err := newWriter(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write(v); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestStoreWrittenByMainReads (store/codec): a store whose compressed
// values main's code wrote (compress/flate: queued payloads live and
// retired, snapshots, game deltas, log entries, inbound records) reads
// every value as written, after a restart, and its items deliver and
// retire; and values the new codec writes next to them read too.
func TestStoreWrittenByMainReads(t *testing.T) {
	path := filepath.Join(t.TempDir(), "main.db")
	db, err := Open(path, &Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(12, 6))
	t0 := time.Date(2026, 12, 6, 12, 0, 0, 0, time.UTC)
	games := map[string][]byte{}
	payload := map[uint64][]byte{}
	var inputs []InboundRecord
	var entries [][]byte
	step := func(i int) {
		err := db.Update(func(tx *Tx) error {
			for g := range 3 {
				id := fmt.Sprintf("g%d", g)
				rec := games[id]
				if rec == nil {
					rec = record(rng, 3000+g*20000)
				} else {
					rec = mutate(rng, rec)
				}
				games[id] = rec
				if err := tx.PutGame(id, rec); err != nil {
					return err
				}
			}
			for _, n := range []int{300, 4000, 40000} {
				var p bytes.Buffer
				for p.Len() < n {
					fmt.Fprintf(&p, "Subject: move %d\r\nYour turn, seat %d\r\n", rng.IntN(100), rng.IntN(4))
				}
				id, err := tx.Enqueue("outbox", Item{Key: fmt.Sprintf("<%d.%d@r>", i, n), To: "a@x", Payload: p.Bytes(), Created: t0})
				if err != nil {
					return err
				}
				payload[id] = p.Bytes()
			}
			in := InboundRecord{Keys: []string{fmt.Sprintf("imap:a/INBOX/1/%d", i)}, Received: t0, Source: "imap",
				From: "ann@x", Game: "g1", Seat: 1, Outcome: "applied", Detail: "a move of some words to compress",
				Messages: []string{"<move.1.seat1@referee.example>", "<move.1.seat2@referee.example>",
					"<move.1.seat3@referee.example>", "<move.1.seat4@referee.example>"}}
			inputs = append(inputs, in)
			// Every other entry over codec.SmallValue (compressed now), the
			// others under it (kept raw now).
			e := fmt.Appendf(nil, `{"at":"2026-12-06T12:00:%02dZ","kind":"move","seat":%d,"text":"PLACE %d %d%s","vis":{"public":true}}`,
				i, rng.IntN(4), rng.IntN(100), rng.IntN(100), strings.Repeat(" AND PLACE 1 1", i%2*6))
			entries = append(entries, e)
			if _, err := tx.AppendLog("g1", e); err != nil {
				return err
			}
			return tx.MarkInbound(in)
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	for i := range 12 {
		step(i)
	}
	// Every compressed value rewritten as main's code wrote it.
	rewritten := map[string]int{}
	err = db.bolt.Update(func(btx *bolt.Tx) error {
		redo := func(b *bolt.Bucket, k []byte, prefix int, kind string) error {
			v := getValue(b, k)
			raw, err := codec.Decompress(v[prefix:])
			if err != nil {
				return fmt.Errorf("%s %x: %w", kind, k, err)
			}
			rewritten[kind]++
			return putValue(b, bytes.Clone(k), append(bytes.Clone(v[:prefix]), mainDeflate(t, raw)...))
		}
		type kv struct{ k, v []byte }
		each := func(name string) []kv {
			var out []kv
			b := bucketOf(btx, []byte(name))
			b.ForEach(func(k, v []byte) error {
				if v == nil {
					v = getValue(b, k) // a blob
				}
				out = append(out, kv{bytes.Clone(k), bytes.Clone(v)})
				return nil
			})
			return out
		}
		for _, e := range each("queue.outbox") {
			if bytes.Equal(e.k, zbodyKey(bytesID(e.k))) {
				if err := redo(bucketOf(btx, []byte("queue.outbox")), e.k, 0, "payload"); err != nil {
					return err
				}
			}
		}
		for _, e := range each(string(bGameSnap)) {
			if e.v[0] == snapZ {
				if err := redo(bucketOf(btx, bGameSnap), e.k, 1, "snapshot"); err != nil {
					return err
				}
			}
		}
		// Every game's value back in "games" (main kept it there, not
		// beside the log: writepath.go).
		for _, e := range each(string(bGames)) {
			if isInLog(e.v) {
				v := getValue(bucketOf(btx, bLogFlat), recordKey(string(e.k)))
				if err := bucketOf(btx, bGames).Put(e.k, bytes.Clone(v)); err != nil {
					return err
				}
				if err := bucketOf(btx, bLogFlat).Delete(recordKey(string(e.k))); err != nil {
					return err
				}
				rewritten["record moved back"]++
			}
		}
		for _, e := range each(string(bGames)) {
			if e.v[0] == gameDeltaZ {
				if err := redo(bucketOf(btx, bGames), e.k, 9, "delta"); err != nil {
					return err
				}
			}
			// A delta too small for the zstd form main compressed when
			// DEFLATE made it smaller.
			if e.v[0] == gameDelta {
				if z := mainDeflate(t, e.v[9:]); len(z) < len(e.v)-9 {
					v := append(append([]byte{gameDeltaZ}, e.v[1:9]...), z...)
					if err := putValue(bucketOf(btx, bGames), e.k, v); err != nil {
						return err
					}
					rewritten["delta"]++
				}
			}
		}
		for _, e := range each(string(bLogFlat)) {
			if e.v[0] == snapZ {
				if err := redo(bucketOf(btx, bLogFlat), e.k, 1, "log entry"); err != nil {
					return err
				}
			}
			// An entry too small to compress now (codec.SmallValue) that main
			// compressed when DEFLATE made it smaller.
			if e.v[0] == '{' {
				if z := mainDeflate(t, e.v); len(z) < len(e.v) {
					if err := putValue(bucketOf(btx, bLogFlat), e.k, append([]byte{snapZ}, z...)); err != nil {
						return err
					}
					rewritten["log entry"]++
				}
			}
		}
		for _, e := range each("inbound") {
			if len(e.v) > 0 && e.v[0] == inboundZ {
				if err := redo(bucketOf(btx, []byte("inbound")), e.k, 1, "inbound"); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, kind := range []string{"payload", "snapshot", "delta", "inbound", "log entry", "record moved back"} {
		if rewritten[kind] == 0 {
			t.Errorf("no %s compressed to rewrite: the test would not fail", kind)
		}
	}
	db.Close()
	db, err = Open(path, &Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	check := func(when string) {
		t.Helper()
		db.View(func(tx *Tx) error {
			for id, rec := range games {
				if got, err := tx.Game(id); err != nil || !bytes.Equal(got, rec) {
					t.Errorf("%s: game %s reads %d bytes of %d (%v)", when, id, len(got), len(rec), err)
				}
			}
			for id, p := range payload {
				if got := tx.Payload("outbox", id); !bytes.Equal(got, p) {
					t.Errorf("%s: payload %d reads %d bytes of %d", when, id, len(got), len(p))
				}
			}
			n := 0
			err := tx.Log("g1", 1, func(seq uint64, e []byte) error {
				if int(seq) > len(entries) || !bytes.Equal(e, entries[seq-1]) {
					t.Errorf("%s: log entry %d reads %q", when, seq, e)
				}
				n++
				return nil
			})
			if err != nil || n != len(entries) {
				t.Errorf("%s: %d log entries of %d (%v)", when, n, len(entries), err)
			}
			for _, in := range inputs {
				rec, seen, err := tx.Seen(in.Keys...)
				if err != nil || !seen || rec.Detail != in.Detail || len(rec.Messages) != 4 {
					t.Errorf("%s: input %s: %+v %v %v", when, in.Keys[0], rec, seen, err)
				}
			}
			return nil
		})
	}
	check("main's forms")
	// New values next to main's: a move each, a mail, and deliveries.
	step(12)
	check("main's and new forms")
	err = db.Update(func(tx *Tx) error {
		due, err := tx.DueRows("outbox", t0, 0)
		if err != nil || len(due) != len(payload) {
			return fmt.Errorf("due %d of %d (%v)", len(due), len(payload), err)
		}
		for _, it := range due {
			if it.Payload != nil {
				t.Errorf("DueRows read item %d's payload", it.ID)
			}
			if _, err := tx.Finish("outbox", it.ID, Sent, t0, t0.Add(time.Hour), ""); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	check("retired")
}

func bytesID(k []byte) uint64 {
	if len(k) < 8 {
		return 0
	}
	var id uint64
	for _, c := range k[:8] {
		id = id<<8 | uint64(c)
	}
	return id
}

// TestDictionaryThreeRefusedByAnOlderReferee_Issue24: a store whose
// values may be frames of dictionary 3 (store/codec) is of schema 13,
// which a referee of schema 12 (without that dictionary) refuses at Open
// (store/layout/schema13.go); the payload it holds reads back.
func TestDictionaryThreeRefusedByAnOlderReferee_Issue24(t *testing.T) {
	path := t.TempDir() + "/referee.db"
	db, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	payload := bytes.Repeat([]byte("Subject: [Fromage b3] News\r\n{\"seat\":1}\r\n"), 40)
	var id uint64
	if err := db.Update(func(tx *Tx) error {
		id, err = tx.Enqueue("outbox", Item{Key: "k", To: "a@x", Payload: payload, Created: t0, Due: t0})
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if v, _ := db.SchemaVersion(); v < 13 {
		t.Errorf("a new store is of schema %d, want 13 or later", v)
	}
	db.Close()
	if _, err := Open(path, &Options{Migrations: migrations[:12]}); !errors.Is(err, ErrNewerSchema) {
		t.Fatalf("a referee of schema 12 opened a store of dictionary 3: %v", err)
	}
	if db, err = Open(path, nil); err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.View(func(tx *Tx) error {
		if got := tx.Payload("outbox", id); !bytes.Equal(got, payload) {
			t.Errorf("the payload reads back as %d bytes, want %d", len(got), len(payload))
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
}
