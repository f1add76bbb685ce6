package store

import (
	"bytes"
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

// TestSnapshotKeptWithoutCopies_Issue24: a snapshot put is kept inflated
// as the record the caller gave (PutGame: the record is the store's from
// then on) and as the stored form the put made, neither copied (issue 24:
// a START of 5,000 games copied both of every new game), whether the put
// is a transaction's or a speculation's; the record reads back.
func TestSnapshotKeptWithoutCopies_Issue24(t *testing.T) {
	db := open(t)
	for i, put := range []func(func(tx *Tx) error) error{db.Update, func(fn func(tx *Tx) error) error {
		s, err := db.Speculate(fn)
		if err != nil {
			return err
		}
		return db.Commit(s, func() bool { return true })
	}} {
		id := fmt.Sprint("g", i)
		rec := gameJSON(i, "new")
		if err := put(func(tx *Tx) error { return tx.PutGame(id, rec) }); err != nil {
			t.Fatal(err)
		}
		var stored []byte
		db.View(func(tx *Tx) error { stored = bytes.Clone(tx.get(bGameSnap, []byte(id))); return nil })
		snap, ok := db.snaps.Get(id, stored)
		if !ok {
			t.Errorf("put %d: none kept, or the stored form kept is not the one stored", i)
		} else if &snap[0] != &rec[0] {
			t.Errorf("put %d: the snapshot kept is a copy of the record", i)
		}
		var got []byte
		db.View(func(tx *Tx) error { got, _ = tx.Game(id); return nil })
		if !bytes.Equal(got, rec) {
			t.Errorf("put %d: read back %.80q", i, got)
		}
	}
}
