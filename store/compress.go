package store

import (
	"bytes"
	"compress/flate"
	"io"
	"sync"
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

// flateLevel: the mails and records are small; the default level costs
// little more than the fastest and keeps them smaller (BenchmarkDeflateMail,
// a mail of 4 KB, load average 15: default 184 us, 1056 bytes; fastest
// 157 us, 1125 bytes; inflating it 50-72 us).
const flateLevel = flate.DefaultCompression

var (
	flateWriters = sync.Pool{New: func() any {
		w, _ := flate.NewWriter(nil, flateLevel)
		return w
	}}
	flateReaders = sync.Pool{New: func() any { return flate.NewReader(bytes.NewReader(nil)) }}
)

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
	var buf bytes.Buffer
	buf.Grow(len(prefix) + len(v)/2)
	buf.Write(prefix)
	w := flateWriters.Get().(*flate.Writer)
	defer flateWriters.Put(w)
	w.Reset(&buf)
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
	r := flateReaders.Get().(io.ReadCloser)
	defer flateReaders.Put(r)
	if err := r.(flate.Resetter).Reset(bytes.NewReader(z), nil); err != nil {
		return nil, err
	}
	out := bytes.NewBuffer(make([]byte, 0, 4*len(z)))
	if _, err := io.Copy(out, r); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}
