package store

import (
	"bytes"
	"io"
	"sync/atomic"

	"github.com/klauspost/compress/flate"
)

// Compressed values (issue 25: the store's own disk writes per move within
// 4x of the data the move adds). The largest values a move writes are its
// mails (a few KB of text each) and, every few dozen moves, its game's
// snapshot (JSON, tens of KB): text that DEFLATE keeps in a third to a
// tenth of its size, and every byte saved is a byte of a page not written.
// A value is kept compressed only when that is smaller; its form says
// which (writepath.go: a game value's kind, a snapshot's first byte, a
// payload's key), so that every value of an older store reads as before.
// The figures the disk bytes are held to (WriteStats.DataBytes) count the
// data as the caller gave it, uncompressed.
//
// The codec (issues 24 and 25: compression was 13% of the referee bench's
// CPU and 23% of a 5,000-game START's) is github.com/klauspost/compress's
// flate: raw DEFLATE (RFC 1951) as compress/flate wrote before 2026-12-06,
// so both read what either wrote (TestDeflateFormsReadByEitherCodec).
//   - A value up to statelessMax (a mail, a delta, an inbound record) is
//     compressed without a kept writer (flate.StatelessDeflate): no state
//     of a megabyte to allocate again when the GC empties a sync.Pool, nor
//     to bring back into the cache (BenchmarkDeflateMail, a 5 KB mail, CPU
//     per mail, load 20: compress/flate's default level 69-88 us, 2040
//     bytes; this 30-33 us, 2206 bytes).
//   - A larger value (a snapshot) goes through a kept writer at the default
//     level, from a free list that the GC does not empty (freeList).
//   - Inflating uses klauspost's reader (15 us against 24 for a mail),
//     kept in a free list too.
//
// Where and when (see doc.go, "Compression"): a payload is compressed when
// it is queued, before the write lock when it is queued by a speculation
// (the compressed bytes are what its commit writes) or packed by the
// caller (PackBody, Tx.EnqueueBody); it is inflated only where its bytes
// are read (Tx.Payload, QueueItem, Due, Items, Retired), never by the
// delivery's bookkeeping (DueRows, Attempt, Retry, Finish).

// statelessMax: values up to this size are compressed statelessly.
const statelessMax = 16 << 10

// freeList keeps up to cap(c) values across garbage collections (a
// sync.Pool is emptied by every other one).
type freeList[T any] struct {
	c   chan T
	new func() T
}

func (f *freeList[T]) get() T {
	select {
	case v := <-f.c:
		return v
	default:
		return f.new()
	}
}

func (f *freeList[T]) put(v T) {
	select {
	case f.c <- v:
	default:
	}
}

var (
	flateWriters = freeList[*flate.Writer]{c: make(chan *flate.Writer, 2), new: func() *flate.Writer {
		w, _ := flate.NewWriter(nil, flate.DefaultCompression)
		return w
	}}
	flateReaders = freeList[io.ReadCloser]{c: make(chan io.ReadCloser, 4), new: func() io.ReadCloser {
		return flate.NewReader(bytes.NewReader(nil))
	}}
)

// deflated counts the values compressed, for the tests that a write
// transaction compresses none it can be kept out of.
var deflated atomic.Int64

// deflate returns prefix followed by v compressed, or nil when that is
// not smaller than prefix followed by v.
func deflate(prefix, v []byte) []byte {
	z := deflateAlways(prefix, v)
	if len(z) >= len(prefix)+len(v) {
		return nil
	}
	return z
}

// deflateAlways returns prefix followed by v compressed (nil only if the
// compressor fails, which writing to memory does not).
func deflateAlways(prefix, v []byte) []byte {
	deflated.Add(1)
	buf := bytes.NewBuffer(make([]byte, 0, len(prefix)+len(v)/2+64))
	buf.Write(prefix)
	if len(v) <= statelessMax {
		if err := flate.StatelessDeflate(buf, v, true, nil); err != nil {
			return nil
		}
		return buf.Bytes()
	}
	w := flateWriters.get()
	defer flateWriters.put(w)
	w.Reset(buf)
	if _, err := w.Write(v); err != nil {
		return nil
	}
	if err := w.Close(); err != nil {
		return nil
	}
	return buf.Bytes()
}

// inflate decompresses what deflate wrote (after its prefix).
func inflate(z []byte) ([]byte, error) {
	r := flateReaders.get()
	defer flateReaders.put(r)
	if err := r.(flate.Resetter).Reset(bytes.NewReader(z), nil); err != nil {
		return nil, err
	}
	out := bytes.NewBuffer(make([]byte, 0, 4*len(z)))
	if _, err := io.Copy(out, r); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}
