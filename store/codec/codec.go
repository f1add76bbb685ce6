package codec

import (
	"bytes"
	_ "embed"
	"io"
	"runtime"
	"sync/atomic"

	"github.com/klauspost/compress/flate"
	"github.com/klauspost/compress/zstd"
)

// Compressed values (issue 25: the store's own disk writes per move within
// 4x of the data the move adds). The largest values a move writes are its
// mails (tens of KB of MIME each) and, every few dozen moves, its game's
// snapshot (JSON, tens of KB): text that compression keeps in a fifth to a
// third of its size, and every byte saved is a byte of a page not written.
// A value is kept compressed only when that is smaller; its caller's form
// says which (writepath.go: a game value's kind, a snapshot's first byte,
// a payload's key, an inbound record's first byte), so that every value of
// an older store reads as before. The figures the disk bytes are held to
// (WriteStats.DataBytes) count the data as the caller gave it,
// uncompressed. (The store's call sites once named Compress and
// Decompress deflate and inflate, for the codec the store had first.)
//
// The compressed bytes, after the caller's prefix, are one of two forms,
// told apart by their first byte:
//   - zstdForm (0xFF) and a zstd frame (RFC 8878) without its four bytes
//     of magic number: written from 2026-12-07. The frame's header names
//     the dictionary it was compressed with (dictionaries, below); every
//     dictionary ever shipped stays in the binary, unchanged, so that a
//     store decodes forever what it wrote (TestDictionariesNeverChange).
//   - anything else: raw DEFLATE (RFC 1951), as every value was written
//     before (compress/flate before 2026-12-06, klauspost's flate after;
//     TestCompressedFormsOldAndNew). No DEFLATE stream starts with
//     0xFF: its first three bits would be a block of type 3, which
//     RFC 1951 reserves as an error (TestZstdFormNeverADeflateStream).
//
// The codec (issues 24 and 25: compression was 17% of the referee bench's
// daemon CPU and ~1.4 s of a 5,000-game START's) is chosen by measurement
// (BenchmarkCodecCorpus, over the values of a bench's store: 722 mails of
// 36 KB on average, 1,513 log entries, 2,108 inbound records, snapshots
// and deltas; 2026-12-06, load 17-43, so the CPU figures are rough):
// klauspost's zstd at its fastest level with a dictionary of 32 KB
// trained on another run's values (a demo's) compresses a mail in 0.5-0.6
// of DEFLATE's CPU (level 5) into 7% fewer bytes, a log entry or an
// inbound record (a few hundred bytes, where a dictionary matters most)
// into 30-39% fewer, a snapshot in 0.6 of the CPU into 1-2% more; the
// golden mails (four languages, the dictionary knowing English only) into
// 3% fewer; it decodes a mail in 0.7-0.8 of DEFLATE's time. zstd without
// a dictionary was as fast on mails and faster on small values, but wrote
// 10-11% more bytes than DEFLATE (mails, log entries); its default level
// was no faster than DEFLATE; s2 2-5 times faster, but 40% more bytes;
// DEFLATE level 1, 6-19% more bytes.
//   - One encoder and one decoder serve every goroutine (EncodeAll and
//     DecodeAll are safe for concurrent use), with as many inner
//     coders as the process may run at once: no per-call state, no
//     per-call allocation but the value's own bytes. No checksum (DEFLATE
//     had none; bbolt's pages are the integrity story), one segment, a
//     window of 256 KB at most (our values are smaller).
//   - DEFLATE's readers are kept in a free list, which the GC does not
//     empty (a sync.Pool is emptied every other GC, and a round opening's
//     garbage made that often), for the values of older stores.
//
// Where and when (store/doc.go, "Compression"): a payload is compressed
// when it is queued, before the write lock when it is queued by a speculation
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

var flateReaders = freeList[io.ReadCloser]{c: make(chan io.ReadCloser, 4), new: func() io.ReadCloser {
	return flate.NewReader(bytes.NewReader(nil))
}}

// zstdForm starts the zstd form of a compressed value (see above).
const zstdForm = 0xFF

// zstdMagic starts every zstd frame; the stored form drops it.
var zstdMagic = [4]byte{0x28, 0xB5, 0x2F, 0xFD}

// Dictionaries: a zstd frame's header names its dictionary by id. Every
// dictionary ever shipped is here, unchanged forever (a change would make
// the values it compressed unreadable: TestDictionariesNeverChange pins
// each one's SHA-256); a new one takes a new id and becomes the one
// compressed with (zstdDict), the old ones staying for reading.
//
//   - 1: 32 KB of raw content (zstd's "raw dictionary": no entropy
//     tables, text a reader can read), built by dict.BuildRawDict from
//     the values of a `referee demo` store (four games, English; see
//     BenchmarkCodecCorpus to build another).
//
//   - 2 (2026-12-07): dictionary 1 and, after it, the reply line
//     (templates/referee/*/replyline.tmpl: the first line of every mail to
//     a person) in the four languages, the French one also as its
//     quoted-printable body writes it: dictionary 1 knew the English one
//     only. Values compressed with 1 read as before (their frames name
//     it). Shipped as what it adds only (zdict/2-extra.txt, from the
//     CRLF that ends dictionary 1's last line): it is built at load as
//     1.txt followed by 2-extra.txt, byte for byte the dictionary the
//     values name (TestDictionariesNeverChange pins the whole).
//
//   - 3 (2026-12-07, issue 24: the outbox's pages a mail): dictionary 2
//     and, after it, 32 KB of raw content built by dict.BuildRawDict from
//     every value of a `referee bench --sizes none --seed train` store
//     (zdict/3-extra.txt; BenchmarkCodecCorpus with
//     REFEREE_CODEC_WRITE_DICT): dictionary 1's demo knew little of the
//     mails' view.json parts. Over another bench's store (seed "bench"):
//     a mail in 19.8% of its bytes where 2 kept 23.6% (4,057 -> 3,412 B,
//     4.48 -> 3.84 pages of 1 KiB), log entries 48.9 -> 46.4%, inbound
//     records 64.4 -> 63.8%, snapshots 29.6 -> 26.4%, the golden mails of
//     four languages 23.6 -> 23.3%
//     (TestDictionaryThreeKeepsEveryLanguageSmaller_Issue24).
//     A store holding its frames is schema 13 (store/layout/schema13.go):
//     a referee without dictionary 3 refuses it at Open.
//
// A file of zdict is a dictionary whole (<id>.txt) or what dictionary id
// adds to dictionary id-1 (<id>-extra.txt), never a second copy.
//
//go:embed zdict/1.txt
var zdict1 []byte

//go:embed zdict/2-extra.txt
var zdict2Extra []byte

//go:embed zdict/3-extra.txt
var zdict3Extra []byte

// zdict2 is dictionary 2: dictionary 1 and what 2 adds; zdict3 is 2 and
// what 3 adds.
var (
	zdict2 = append(zdict1[:len(zdict1):len(zdict1)], zdict2Extra...)
	zdict3 = append(zdict2[:len(zdict2):len(zdict2)], zdict3Extra...)
)

// zstdDict is the id of the dictionary new values are compressed with.
const zstdDict = 3

// zstdWindow is the largest window the encoder uses.
const zstdWindow = 256 << 10

// The one encoder and decoder are made when the package is initialised,
// not at their first use: they keep their coders in channels, and a
// channel made inside a testing/synctest bubble cannot be used from
// another (a test's first compression would own them;
// TestCodecServesEveryBubble). The encoder's own lazy set-up is run here
// too, by a first encoding.
var (
	zstdEnc = newZstdEncoder(zstdDict, zdict3)
	zstdDec = newZstdDecoder()
)

// newZstdEncoder makes the encoder of the dictionary id, dict.
func newZstdEncoder(id uint32, dict []byte) *zstd.Encoder {
	e, err := zstd.NewWriter(nil,
		zstd.WithEncoderLevel(zstd.SpeedFastest),
		zstd.WithEncoderConcurrency(runtime.GOMAXPROCS(0)),
		zstd.WithEncoderCRC(false),
		zstd.WithSingleSegment(true),
		zstd.WithZeroFrames(true),
		zstd.WithWindowSize(zstdWindow),
		zstd.WithLowerEncoderMem(true),
		zstd.WithEncoderDictRaw(id, dict))
	if err != nil {
		panic("store/codec: zstd encoder: " + err.Error())
	}
	e.EncodeAll(nil, nil)
	return e
}

func newZstdDecoder() *zstd.Decoder {
	d, err := zstd.NewReader(nil,
		zstd.WithDecoderConcurrency(runtime.GOMAXPROCS(0)),
		zstd.WithDecoderMaxMemory(maxValue),
		zstd.WithDecoderDictRaw(1, zdict1), // every dictionary shipped, by its id
		zstd.WithDecoderDictRaw(2, zdict2),
		zstd.WithDecoderDictRaw(3, zdict3))
	if err != nil {
		panic("store/codec: zstd decoder: " + err.Error())
	}
	return d
}

// zframes holds the buffers a stored form is made a frame again in, and
// a value's frame is encoded in (encode).
var zframes = freeList[[]byte]{c: make(chan []byte, 8), new: func() []byte { return nil }}

// maxValue bounds what a compressed value may decompress to (a corrupt
// header must not ask for gigabytes).
const maxValue = 1 << 30

// compressed counts the values compressed, for the tests that a write
// transaction compresses none it can be kept out of (Compressed).
var compressed atomic.Int64

// Compressed reports how many values went through the encoder since the
// process started (the store's tests: a write transaction compresses none
// it can be kept out of).
func Compressed() int64 { return compressed.Load() }

// Compress returns prefix followed by v compressed, or nil when that is
// not smaller than prefix followed by v: at once for a value shorter than
// SmallValue (its stored frame is 6 bytes longer).
func Compress(prefix, v []byte) []byte {
	if len(v) < SmallValue {
		return nil
	}
	return encode(prefix, v, len(v))
}

// CompressAlways returns prefix followed by v compressed, in the zstd
// form (never nil); a value shorter than SmallValue is not run through
// the encoder: its frame holds it stored (storedFrame), which is never
// smaller, so Compress and the store's encodeSnap keep it raw.
func CompressAlways(prefix, v []byte) []byte {
	if len(v) < SmallValue {
		return storedFrame(prefix, v)
	}
	return encode(prefix, v, -1)
}

// encode returns prefix followed by v in the zstd form, or nil when that
// form is limit bytes or more (limit >= 0). The frame is made in a buffer
// kept for the next (zframes), and the value returned is allocated at its
// size (issue 24: the round opening's allocations; a mail's 4 KB used to
// take a buffer of half the mail, 8 KB, that the store then kept).
func encode(prefix, v []byte, limit int) []byte {
	compressed.Add(1)
	f := zstdEnc.EncodeAll(v, zframes.get()[:0])
	rest := f[len(zstdMagic):]
	var out []byte
	if limit < 0 || 1+len(rest) < limit {
		// prefix, magic, rest -> prefix, zstdForm, rest
		out = make([]byte, 0, len(prefix)+1+len(rest))
		out = append(append(append(out, prefix...), zstdForm), rest...)
	}
	if cap(f) <= 64<<10 {
		zframes.put(f)
	}
	return out
}

// EncodeAlways returns v in the zstd form through the encoder, whatever
// its size: what a binary before SmallValue (issue 24) wrote for a small
// value, for the store's tests of older stores. It is not counted by
// Compressed.
func EncodeAlways(v []byte) []byte {
	z := zstdEnc.EncodeAll(v, nil)
	return append([]byte{zstdForm}, z[len(zstdMagic):]...)
}

// SmallValue: a value shorter than this is kept as it is, never
// compressed (issue 24). The encoder sets its dictionary up at every call
// (a copy of its 32 KB and of the tables it dirtied), which costs a value
// of a hundred bytes about as much as one of 300 (BenchmarkCompressSmall:
// 30-39 us against 60 at load 24) and saves it 13-45 bytes: a 5,000-game
// START logged 10,000 such entries (a seat's invitation, ~100 bytes).
// Nothing is read otherwise: what decides a value's form is still its
// stored bytes (a raw value, or a compressed one of either codec,
// whatever its size: TestSmallValuesKeptRaw reads old tiny values).
const SmallValue = 128

// storedFrame returns prefix followed by v in the zstd form, v stored in
// one raw block (RFC 8878 3.1.1: a single-segment frame, no dictionary,
// its content size in one byte; v shorter than 256 bytes): 6 bytes more
// than v, read back by the same decoder.
func storedFrame(prefix, v []byte) []byte {
	n := len(v)
	out := make([]byte, 0, len(prefix)+6+n)
	out = append(out, prefix...)
	hdr := uint32(n)<<3 | 1 // Last_Block, Block_Type 0 (raw), Block_Size
	out = append(out, zstdForm, 0x20, byte(n), byte(hdr), byte(hdr>>8), byte(hdr>>16))
	return append(out, v...)
}

// Decompress decompresses what Compress or CompressAlways wrote (after
// its prefix), in either form.
func Decompress(z []byte) ([]byte, error) {
	if len(z) > 0 && z[0] == zstdForm {
		return unzstd(z[1:])
	}
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

// unzstd decodes a zstd frame stored without its magic number.
func unzstd(rest []byte) ([]byte, error) {
	f := zframes.get()
	f = append(append(f[:0], zstdMagic[:]...), rest...)
	out, err := zstdDec.DecodeAll(f, nil)
	if cap(f) <= 64<<10 {
		zframes.put(f)
	}
	if err != nil {
		return nil, err
	}
	return out, nil
}
