package rowform

import (
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/pbem-referee/referee/store/codec"
)

// A queue's payloads packed before the transaction that queues them
// (issue 25: a value compressed once, and out of the write transaction
// where it can be: store/doc.go, "Compression"; the codec is store/codec's).

// Body is a payload ready for a queue (Pack): compressed when that is
// smaller.
type Body struct {
	raw, z []byte
	n      int // the payload's length, uncompressed
}

// Len is the payload's length, uncompressed.
func (b Body) Len() int { return b.n }

// Stored returns the bytes to keep and whether they are compressed
// (store/codec's form: codec.Decompress reads them).
func (b Body) Stored() ([]byte, bool) {
	if b.z != nil {
		return b.z, true
	}
	return b.raw, false
}

// Pack compresses a payload for a queue when that makes it smaller. It is
// a pure function of the payload: a caller may pack its payloads before
// the write transaction, on any goroutine (store.Tx.EnqueueBody).
func Pack(payload []byte) Body {
	if z := codec.Compress(nil, payload); z != nil {
		return Body{z: z, n: len(payload)}
	}
	return Body{raw: payload, n: len(payload)}
}

// PackAll packs n payloads, payload(i) for i in [0, n) (Pack), on as many
// goroutines as the process may run when they are many (a round opening's
// hundreds of mails): the transaction that queues them waits for the
// slowest part, not the sum.
func PackAll(n int, payload func(i int) []byte) []Body {
	out := make([]Body, n)
	workers := min(runtime.GOMAXPROCS(0), n/packPerWorker)
	if workers <= 1 {
		for i := range n {
			out[i] = Pack(payload(i))
		}
		return out
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for i := int(next.Add(1)) - 1; i < n; i = int(next.Add(1)) - 1 {
				out[i] = Pack(payload(i))
			}
		})
	}
	wg.Wait()
	return out
}

// packPerWorker: fewer payloads than this a goroutine are packed in one.
const packPerWorker = 8
