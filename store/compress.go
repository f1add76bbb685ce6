package store

import (
	"bytes"
	"io"
	"runtime"
	"sync"
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
//   - Its default level: a mail of 5 KB in 40-62 us of CPU against 82-90
//     for compress/flate's, 74-87 against 114-142 with the caches cold
//     (BenchmarkDeflateMail, load 31-34: noisy); the 65 golden mails in
//     1.4% more bytes. Its stateless mode (no writer state) was faster
//     still, 27-39 us, but for 10% more bytes, and its level 1 too: bytes
//     are disk writes (referee bench's disk bytes per input rose 6.5%),
//     not taken.
//   - Writers (a megabyte of state each) and readers are kept in a free
//     list, which the GC does not empty (a sync.Pool is emptied every
//     other GC, and a round opening's garbage made that often).
//
// Where and when (see doc.go, "Compression"): a payload is compressed when
// it is queued, before the write lock when it is queued by a speculation
// (the compressed bytes are what its commit writes) or packed by the
// caller (PackBody, Tx.EnqueueBody); it is inflated only where its bytes
// are read (Tx.Payload, QueueItem, Due, Items, Retired), never by the
// delivery's bookkeeping (DueRows, Attempt, Retry, Finish).

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
	flateWriters = freeList[*flate.Writer]{c: make(chan *flate.Writer, 4), new: func() *flate.Writer {
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

// Body is a payload ready for a queue (PackBody): compressed when that is
// smaller.
type Body struct {
	raw, z []byte
	n      int // the payload's length, uncompressed
}

// PackBody compresses a payload for a queue when that makes it smaller.
// It is a pure function of the payload: a caller may pack its payloads
// before the write transaction, on any goroutine (Tx.EnqueueBody).
func PackBody(payload []byte) Body {
	if z := deflate(nil, payload); z != nil {
		return Body{z: z, n: len(payload)}
	}
	return Body{raw: payload, n: len(payload)}
}

// PackBodies packs n payloads, payload(i) for i in [0, n) (PackBody), on
// as many goroutines as the process may run when they are many (a round
// opening's hundreds of mails): the transaction that queues them waits for
// the slowest part, not the sum.
func PackBodies(n int, payload func(i int) []byte) []Body {
	out := make([]Body, n)
	workers := min(runtime.GOMAXPROCS(0), n/packPerWorker)
	if workers <= 1 {
		for i := range n {
			out[i] = PackBody(payload(i))
		}
		return out
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for i := int(next.Add(1)) - 1; i < n; i = int(next.Add(1)) - 1 {
				out[i] = PackBody(payload(i))
			}
		})
	}
	wg.Wait()
	return out
}

// packPerWorker: fewer payloads than this a goroutine are packed in one.
const packPerWorker = 8
