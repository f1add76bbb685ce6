package store

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/pbem-referee/referee/store/codec"
)

// TestSmallValuesKeptRaw (store/codec, SmallValue): a value shorter than
// SmallValue is never run through the encoder: Compress keeps it raw, a
// log entry or snapshot that is JSON is stored as it is, one that is not
// is stored in a frame of its own bytes that reads back; a small value an
// older binary stored compressed (the encoder's frame, dictionary and
// all) still reads; a value of SmallValue bytes or more is compressed as
// before. Values of every length around the threshold, JSON and not.
func TestSmallValuesKeptRaw(t *testing.T) {
	rng := rand.New(rand.NewPCG(24, 128))
	before := codec.Compressed()
	for n := range codec.SmallValue + 40 {
		for _, v := range [][]byte{logEntry(rng, n), randomBytes(rng, n)} {
			small := n < codec.SmallValue
			if z := codec.Compress([]byte{7}, v); small && z != nil {
				t.Errorf("%d bytes: Compress compressed a small value", n)
			} else if z != nil {
				if got, err := codec.Decompress(z[1:]); err != nil || !bytes.Equal(got, v) {
					t.Errorf("%d bytes: deflated value reads otherwise (%v)", n, err)
				}
			}
			s := encodeSnap(v)
			if small && n > 0 && v[0] == '{' && !bytes.Equal(s, v) {
				t.Errorf("%d bytes: a small JSON value not stored raw: % x", n, s[:min(8, len(s))])
			}
			if got, err := decodeSnap(s); err != nil || !bytes.Equal(got, v) {
				t.Errorf("%d bytes (first %q): stored form reads otherwise (%v)", n, v[:min(1, n)], err)
			}
			// What an older binary wrote: the encoder's frame of v.
			old := append([]byte{snapZ}, codec.EncodeAlways(v)...)
			if got, err := decodeSnap(old); err != nil || !bytes.Equal(got, v) {
				t.Errorf("%d bytes: an older binary's compressed value reads otherwise (%v)", n, err)
			}
		}
	}
	// Only the values at or over the threshold went through the encoder
	// (Compress and encodeSnap once each, two values a length: 40 lengths).
	if got, want := codec.Compressed()-before, int64(2*2*40); got != want && !raceEnabled {
		t.Errorf("%d values compressed, want %d", got, want)
	}
	// The entries of a tournament's START: a seat's invitation is kept
	// raw, its game's start (over SmallValue) compressed.
	invite := []byte(`{"at":"2026-11-23T09:00:00Z","kind":"invite","seat":1,"vis":{"public":true},"params":{"name":"P4242"}}`)
	if s := encodeSnap(invite); !bytes.Equal(s, invite) {
		t.Errorf("an invitation's %d-byte entry stored as % x...", len(invite), s[:8])
	}
	start := bytes.Repeat(invite, 2)
	if s := encodeSnap(start); s[0] != snapZ || len(s) >= len(start) {
		t.Errorf("a %d-byte entry stored in %d bytes, form %x", len(start), len(s), s[0])
	}
	// In a store: small log entries are written raw and read back.
	db := open(t)
	for n := 2; n < codec.SmallValue+40; n += 7 {
		e := logEntry(rng, n)
		if err := db.Update(func(tx *Tx) error { _, err := tx.AppendLog("g1", e); return err }); err != nil {
			t.Fatal(err)
		}
		db.View(func(tx *Tx) error {
			var last []byte
			tx.Log("g1", 0, func(_ uint64, got []byte) error { last = got; return nil })
			if !bytes.Equal(last, e) {
				t.Errorf("%d bytes: log entry reads %q", n, last)
			}
			return nil
		})
	}
}

// logEntry is n bytes of JSON-like text starting with '{'.
func logEntry(rng *rand.Rand, n int) []byte {
	if n == 0 {
		return nil
	}
	words := []string{`"kind":"invite",`, `"seat":1,`, `"name":"P`, `42",`, `"vis":0,`, `"params":{`}
	v := []byte{'{'}
	for len(v) < n {
		v = append(v, words[rng.IntN(len(words))]...)
	}
	return v[:n]
}

func randomBytes(rng *rand.Rand, n int) []byte {
	v := make([]byte, n)
	for i := range v {
		v[i] = byte(rng.Uint32())
	}
	return v
}
