package store

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pbem-referee/referee/store/inboundform"
	"github.com/pbem-referee/referee/store/rowform"
)

// markOld records an input as a store before 2026-12-06 did: the JSON of
// the whole record (HTML escapes, every key) under each of its keys.
func markOld(tx *Tx, rec InboundRecord) error {
	for _, k := range rec.Keys {
		if err := putJSON(tx.bucket(bInbound), []byte(k), rec); err != nil {
			return err
		}
	}
	return nil
}

// markClustered records an input as a store from 2026-12-06 to the short
// keys did: under its cluster and its key, compact.
func markClustered(tx *Tx, rec InboundRecord) error {
	for _, k := range rec.Keys {
		v, err := encodeInbound(rec, k)
		if err != nil {
			return err
		}
		if err := tx.bucket(bInbound).Put(inputKey(k), v); err != nil {
			return err
		}
	}
	return nil
}

// markShortCopies records an input as a store with the short keys did
// before an input was recorded once: its whole record under each key.
func markShortCopies(tx *Tx, rec InboundRecord) error {
	v, err := encodeInbound(rec, "")
	if err != nil {
		return err
	}
	for _, k := range rec.Keys {
		if err := tx.bucket(bInbound).Put(hashedInputKey(k), v); err != nil {
			return err
		}
	}
	return nil
}

// TestInboundFormsOldAndNew_Issue25: an input recorded in the old form
// (its key alone), in the clustered one (next to its cluster, compact), in
// the short one (a digest of its key, from 2026-12-07) with its record
// under each key, or recorded once (its record under its first key, a
// pointer under the others: the current form), and a VERP id
// kept under its whole id or under its bytes, is seen under any of its
// keys, and recording it again, under any of its keys in any form, fails as a duplicate and writes nothing: a mail
// already seen before the change is never applied again. PruneInbound
// takes both forms by time and leaves the VERP ids; PruneVERP takes the
// VERP ids (old ids and ids in an input's cluster) and leaves the inputs.
// Generated: 1-3 keys per input (Message-IDs with angle brackets, IMAP and
// webhook keys, non-ASCII), records with and without replies and details.
func TestInboundFormsOldAndNew_Issue25(t *testing.T) {
	db := open(t)
	rng := rand.New(rand.NewPCG(25, 6))
	t0 := time.Date(2026, 12, 6, 9, 0, 0, 0, time.UTC)
	type input struct {
		rec   InboundRecord
		form  int // 0 old, 1 clustered, 2 short copies, 3 recorded once
		verps []string
	}
	var ins []input
	for i := 0; i < 120; i++ {
		keys := []string{fmt.Sprintf("msgid:<%d.%x@mail.example>", i, rng.Uint64())}
		if rng.IntN(2) == 0 {
			keys = append(keys, fmt.Sprintf("imap:acct/INBOX/7/%d", i))
		}
		if rng.IntN(4) == 0 {
			keys = append(keys, fmt.Sprintf("webhook:%d/ünï", i))
		}
		rec := InboundRecord{Keys: keys, Received: t0.Add(time.Duration(i) * time.Minute), Source: "imap", From: "ann@example.test",
			Game: fmt.Sprintf("g%d", i%7), Seat: i%3 - 1, Outcome: "applied", LogSeq: uint64(i)}
		for j := rng.IntN(3); j > 0; j-- {
			rec.Messages = append(rec.Messages, fmt.Sprintf("<rf.g%d.%d.0.%d@example.test>", i%7, j, i))
		}
		if rng.IntN(3) == 0 {
			rec.Detail = strings.Repeat("déjà <vu> ", rng.IntN(40))
		}
		in := input{rec: rec, form: i % 4}
		for j := rng.IntN(3); j > 0; j-- {
			cluster := ""
			if in.form > 0 {
				cluster = InputCluster(keys[0])
			}
			in.verps = append(in.verps, fmt.Sprintf("%s%016x", cluster, rng.Uint64()))
		}
		ins = append(ins, in)
	}
	err := db.Update(func(tx *Tx) error {
		for _, in := range ins {
			mark := tx.MarkInbound
			switch in.form {
			case 0:
				mark = func(rec InboundRecord) error { return markOld(tx, rec) }
			case 1:
				mark = func(rec InboundRecord) error { return markClustered(tx, rec) }
			case 2:
				mark = func(rec InboundRecord) error { return markShortCopies(tx, rec) }
			}
			if err := mark(in.rec); err != nil {
				return err
			}
			for _, id := range in.verps {
				vr := VERPRecord{To: "ann@example.test", Key: "<k@x>", Sent: in.rec.Received}
				if in.form < 2 { // as stores before the short keys kept it
					if err := putJSON(tx.bucket(bInbound), verpKey(id), vr); err != nil {
						return err
					}
				} else if err := tx.PutVERP(id, vr); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// The records and ids of the short form are under keys of 19 bytes
	// at most (branches of inbound hold twice as many children).
	short := 0
	for _, in := range ins {
		if in.form >= 2 {
			short += len(indexedKeys(in.rec, in.form == 3)) + len(in.verps)
		}
	}
	db.View(func(tx *Tx) error {
		n := 0
		tx.bucket(bInbound).ForEach(func(k, _ []byte) error {
			if bytes.HasPrefix(k, shortPrefix) && len(k) <= shortInputLen {
				n++
			}
			return nil
		})
		if n != short {
			t.Errorf("%d short keys in inbound, want %d", n, short)
		}
		return nil
	})
	check := func(stage string, kept func(in input) bool) {
		t.Helper()
		err := db.Update(func(tx *Tx) error {
			for i, in := range ins {
				for _, k := range in.rec.Keys {
					if in.form == 3 && inboundform.Unindexed(k, in.rec.Keys) { // seen with its Message-ID
						if _, alone, _ := tx.Seen(k); alone {
							t.Errorf("%s: input %d seen under its unindexed key %q alone", stage, i, k)
						}
						if _, ok, _ := tx.Seen(in.rec.Keys...); ok != kept(in) {
							t.Errorf("%s: input %d (form %d) seen with its keys: %v", stage, i, in.form, ok)
						}
						continue
					}
					got, ok, err := tx.Seen("nothing:"+k, k)
					if err != nil {
						return err
					}
					if ok != kept(in) {
						t.Errorf("%s: input %d (form %d) seen under %q: %v", stage, i, in.form, k, ok)
						continue
					}
					if !ok {
						continue
					}
					if !reflect.DeepEqual(got, in.rec) {
						t.Errorf("%s: input %d under %q read back\n%+v\nwant\n%+v", stage, i, k, got, in.rec)
					}
					// The same mail again, under this key alone or with a
					// new one: a duplicate, nothing written.
					again := in.rec
					again.Keys = []string{"new:" + k, k}
					if err := tx.MarkInbound(again); !errors.Is(err, ErrDuplicate) {
						t.Errorf("%s: input %d marked again under %q: %v", stage, i, k, err)
					}
					if _, ok, _ := tx.Seen("new:" + k); ok {
						t.Errorf("%s: a failed MarkInbound wrote %q", stage, "new:"+k)
					}
				}
				for _, id := range in.verps {
					if _, ok, err := tx.VERP(id); err != nil || ok != (stage == "written" || stage == "inputs pruned") {
						t.Errorf("%s: VERP id %s of input %d: %v %v", stage, id, i, ok, err)
					}
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	check("written", func(input) bool { return true })
	cut := t0.Add(60 * time.Minute)
	nOld := 0
	for _, in := range ins {
		if in.rec.Received.Before(cut) {
			nOld += len(indexedKeys(in.rec, in.form == 3))
		}
	}
	db.Update(func(tx *Tx) error {
		if n, err := tx.PruneInbound(cut); err != nil || n != nOld {
			t.Errorf("PruneInbound: %d %v, want %d", n, err, nOld)
		}
		return nil
	})
	check("inputs pruned", func(in input) bool { return !in.rec.Received.Before(cut) })
	nVERP := 0
	for _, in := range ins {
		nVERP += len(in.verps)
	}
	db.Update(func(tx *Tx) error {
		if n, err := tx.PruneVERP(t0.Add(1000 * time.Hour)); err != nil || n != nVERP {
			t.Errorf("PruneVERP: %d %v, want %d", n, err, nVERP)
		}
		return nil
	})
	check("VERP pruned", func(in input) bool { return !in.rec.Received.Before(cut) })
	if err := db.Check(); err != nil {
		t.Fatal(err)
	}
}

// TestInboundRecordSmall_Issue25: the stored form of a record is at most
// 60% of the old form (here 179 bytes against 318: bbolt never splits a
// leaf of four entries, and four records of 250-300 bytes made a leaf of
// inbound two pages of 1 KiB).
func TestInboundRecordSmall_Issue25(t *testing.T) {
	rec := InboundRecord{Keys: []string{"msgid:<CAF=abc123def456@mail.gmail.com>"}, Received: time.Date(2026, 12, 6, 9, 0, 0, 123456789, time.UTC),
		Source: "imap", From: "someone.long@gmail.com", Game: "g123456", Seat: 1, Outcome: "answered",
		Messages: []string{"<rf.g123456.0.12.4@referee.example.org>", "<rf.g123456.1.12.5@referee.example.org>"}}
	v, err := encodeInbound(rec, rec.Keys[0])
	if err != nil {
		t.Fatal(err)
	}
	old, _ := json.Marshal(rec)
	if 10*len(v) > 6*len(old) {
		t.Errorf("stored record %d bytes, the old form %d: want at most 60%%", len(v), len(old))
	}
}

// TestLogEntriesOldAndCompressed_Issue25: a log entry is kept compressed
// when that is smaller (the form of a snapshot), and every entry reads back
// as written: an entry of an older store (raw JSON), a long one, a short
// one, and entries that do not start with '{' (one starting with the
// compressed form's byte).
func TestLogEntriesOldAndCompressed_Issue25(t *testing.T) {
	db := open(t)
	long := []byte(`{"kind":"move","text":"` + strings.Repeat("ann plays BREW 3 on the second vat; ", 30) + `"}`)
	entries := [][]byte{[]byte(`{"kind":"old"}`), long, []byte(`{"k":1}`), {snapZ, 'a', 'b'}, []byte("plain"), {}}
	err := db.Update(func(tx *Tx) error {
		// The first as an older store wrote it: the entry as it is.
		if err := tx.bucket(bLogFlat).Put(logKey("g1", 1), entries[0]); err != nil {
			return err
		}
		for _, e := range entries[1:] {
			if _, err := tx.AppendLog("g1", e); err != nil {
				return err
			}
		}
		if v := tx.bucket(bLogFlat).Get(logKey("g1", 2)); len(v) == 0 || v[0] != snapZ || 2*len(v) > len(long) {
			t.Errorf("a long entry kept in %d bytes (of %d), want compressed", len(v), len(long))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var got [][]byte
	db.View(func(tx *Tx) error {
		return tx.Log("g1", 1, func(_ uint64, e []byte) error { got = append(got, e); return nil })
	})
	if len(got) != len(entries) {
		t.Fatalf("read %d entries, want %d", len(got), len(entries))
	}
	for i := range entries {
		if string(got[i]) != string(entries[i]) {
			t.Errorf("entry %d read back %q, want %q", i+1, got[i], entries[i])
		}
	}
}

// TestInboundRecordedOnce_Issue24: an input of several keys is recorded
// once (doc.go, "Key layout"): its record under its first key's short key,
// and under each other key only that short key (19 bytes), so inbound
// holds one record an input. Generated: 1-4 keys an input, the first key
// repeated among them in some; every key reads the record back, marking
// it again under any key is a duplicate, PruneInbound takes the pointers
// with their record (and a pointer whose record is gone), and nothing else.
func TestInboundRecordedOnce_Issue24(t *testing.T) {
	db := open(t)
	rng := rand.New(rand.NewPCG(24, 7))
	t0 := time.Date(2026, 12, 7, 9, 0, 0, 0, time.UTC)
	var recs []InboundRecord
	for i := 0; i < 90; i++ {
		keys := []string{fmt.Sprintf("msgid:<%d.%x@mail.example>", i, rng.Uint64())}
		for j := rng.IntN(4); j > 0; j-- {
			if j == 1 { // a mailbox's message, numbered (in UID order)
				keys = append(keys, fmt.Sprintf("imap:acct/INBOX/7/%d", 100+i))
				continue
			}
			keys = append(keys, fmt.Sprintf("imap:acct/INBOX/%d/%d/%x", j, i, rng.Uint32()))
		}
		if i%9 == 0 {
			keys = append(keys, keys[0])
		}
		recs = append(recs, InboundRecord{Keys: keys, Received: t0.Add(time.Duration(i) * time.Minute), Source: "imap",
			From: "bob@example.test", Game: fmt.Sprintf("g%d", i%5), Seat: i % 2, Outcome: "applied", LogSeq: uint64(i),
			Messages: []string{fmt.Sprintf("<rf.g%d.%d@example.test>", i%5, i)}})
	}
	orphan := shortInputKey("imap:acct/INBOX/gone/1")
	err := db.Update(func(tx *Tx) error {
		for _, rec := range recs {
			if err := tx.MarkInbound(rec); err != nil {
				return err
			}
		}
		return tx.bucket(bInbound).Put(orphan, shortInputKey("msgid:<gone@mail.example>"))
	})
	if err != nil {
		t.Fatal(err)
	}
	// One record an input, a pointer of 19 bytes under each other key; a
	// mailbox's numbered keys side by side in UID order.
	db.View(func(tx *Tx) error {
		b := tx.bucket(bInbound)
		var uids, run []uint64
		for _, rec := range recs {
			for _, k := range rec.Keys {
				if stem, n, ok := rowform.Split(k); ok && stem == "imap:acct/INBOX/7/" {
					uids = append(uids, n)
				}
			}
		}
		sum := sha256.Sum256([]byte("imap:acct/INBOX/7/"))
		c := b.Cursor()
		for k, _ := c.Seek(shortInputKey("imap:acct/INBOX/7/0")); len(k) == shortInputLen && bytes.Equal(k[2:10], sum[:8]); k, _ = c.Next() {
			run = append(run, binary.BigEndian.Uint64(k[11:]))
		}
		if len(uids) < 10 || len(run) > 0 {
			t.Errorf("a mailbox's keys of inputs with a Message-ID in inbound %v, want none (of %v)", run, uids)
		}
		for i, rec := range recs {
			first := shortInputKey(rec.Keys[0])
			if v := b.Get(first); v == nil || inboundPointer(v) {
				t.Errorf("input %d: no record under its first key: %q", i, v)
			}
			for _, k := range rec.Keys[1:] {
				v := b.Get(shortInputKey(k))
				if un := inboundform.Unindexed(k, rec.Keys); k != rec.Keys[0] && (un != (v == nil) || !un && !bytes.Equal(v, first)) {
					t.Errorf("input %d: under %q %q, want the pointer %q (%d bytes) unless numbered (%v)", i, k, v, first, len(first), un)
				}
			}
		}
		return nil
	})
	seen := func(stage string, want func(InboundRecord) bool) {
		t.Helper()
		db.Update(func(tx *Tx) error {
			for i, rec := range recs {
				for _, k := range indexedKeys(rec, true) {
					got, ok, err := tx.Seen(k)
					if err != nil || ok != want(rec) || (ok && !reflect.DeepEqual(got, rec)) {
						t.Errorf("%s: input %d under %q: %v %v %+v", stage, i, k, ok, err, got)
					}
					if !ok {
						continue
					}
					if err := tx.MarkInbound(InboundRecord{Keys: []string{"again:" + k, k}}); !errors.Is(err, ErrDuplicate) {
						t.Errorf("%s: input %d marked again under %q: %v", stage, i, k, err)
					}
				}
			}
			return errors.New("roll back the marks again")
		})
	}
	seen("written", func(InboundRecord) bool { return true })
	cut := t0.Add(40 * time.Minute)
	want := 1 // the orphan pointer
	for _, rec := range recs {
		if rec.Received.Before(cut) {
			keys := indexedKeys(rec, true)
			slices.Sort(keys)
			want += len(slices.Compact(keys))
		}
	}
	db.Update(func(tx *Tx) error {
		if n, err := tx.PruneInbound(cut); err != nil || n != want {
			t.Errorf("PruneInbound: %d %v, want %d", n, err, want)
		}
		if tx.bucket(bInbound).Get(orphan) != nil {
			t.Error("a pointer without its record kept")
		}
		return nil
	})
	seen("pruned", func(rec InboundRecord) bool { return !rec.Received.Before(cut) })
	if err := db.Check(); err != nil {
		t.Fatal(err)
	}
}

// indexedKeys are the keys an input is recorded under: every key, or
// when once (the current form), all but its numbered keys when it has a
// Message-ID (inboundform.Unindexed).
func indexedKeys(rec InboundRecord, once bool) []string {
	var keys []string
	for _, k := range rec.Keys {
		if !once || !inboundform.Unindexed(k, rec.Keys) {
			keys = append(keys, k)
		}
	}
	return keys
}
