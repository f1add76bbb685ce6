package store

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// gameJSON is a record of a game large enough for a snapshot and deltas.
func gameJSON(move int, tag string) []byte {
	return []byte(fmt.Sprintf(`{"id":"g1","move":%d,"tag":%q,"table":"%s"}`, move, tag, strings.Repeat("seat ann vat 3 brew ", 400)))
}

// TestSnapshotKeptInflatedOnlyForItsBytes_Issue25: the snapshots kept
// inflated (snapcache.go) serve a record only while the stored snapshot
// is the bytes they came from: a snapshot written by a transaction that
// rolled back, or one written under the cache's feet, is never read in
// place of the stored one. Every record read back is the one put last
// and committed, through deltas and new snapshots.
func TestSnapshotKeptInflatedOnlyForItsBytes_Issue25(t *testing.T) {
	db := open(t)
	want := gameJSON(0, "start")
	put := func(rec []byte) {
		t.Helper()
		if err := db.Update(func(tx *Tx) error { return tx.PutGame("g1", rec) }); err != nil {
			t.Fatal(err)
		}
		want = rec
	}
	read := func(stage string) {
		t.Helper()
		var got []byte
		db.View(func(tx *Tx) error { got, _ = tx.Game("g1"); return nil })
		if string(got) != string(want) {
			t.Fatalf("%s: read back %.80q..., want %.80q...", stage, got, want)
		}
	}
	put(want)
	read("first")
	for i := 1; i <= 60; i++ {
		rec := gameJSON(i, strings.Repeat("x", i*i))
		if i%7 == 0 {
			// Rolled back: its snapshot (if any) must not be read.
			other := gameJSON(i, strings.Repeat("rolled back ", i*5))
			err := db.Update(func(tx *Tx) error {
				if err := tx.PutGame("g1", other); err != nil {
					return err
				}
				return errors.New("roll back")
			})
			if err == nil {
				t.Fatal("no roll back")
			}
			read(fmt.Sprintf("after roll back %d", i))
		}
		if i%11 == 0 {
			db.snaps.keep("g1", []byte{snapZ, 1, 2, 3}, []byte("not the snapshot"))
		}
		put(rec)
		read(fmt.Sprintf("move %d", i))
	}
}

// BenchmarkPutGameDelta: a move's put of a game record with a compressed
// snapshot (the delta's base inflated from the cache, not each time).
func BenchmarkPutGameDelta(b *testing.B) {
	db := open(b)
	rec := gameJSON(0, "start")
	if err := db.Update(func(tx *Tx) error { return tx.PutGame("g1", rec) }); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r := gameJSON(i%5, "t")
		if err := db.Update(func(tx *Tx) error { return tx.PutGame("g1", r) }); err != nil {
			b.Fatal(err)
		}
	}
}
