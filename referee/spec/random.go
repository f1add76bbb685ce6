package spec

import (
	"io"
	"sync"
)

// Random is the referee's random source: bytes given back by a dropped
// run (Drop) are read again first, so that a deterministic source stays
// deterministic whatever was dropped.
type Random struct {
	mu   sync.Mutex
	src  io.Reader
	back []byte
}

// NewRandom wraps the referee's source.
func NewRandom(src io.Reader) *Random { return &Random{src: src} }

func (r *Random) Read(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.back) > 0 {
		n := copy(p, r.back)
		r.back = r.back[n:]
		return n, nil
	}
	return r.src.Read(p)
}

// Tape returns a reader of r that keeps what it drew, for one run.
func (r *Random) Tape() *Tape { return &Tape{src: r} }

// Drop gives back what a dropped run's tape drew, to be read before
// anything else.
func (r *Random) Drop(t *Tape) {
	if len(t.drawn) == 0 {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.back = append(append([]byte(nil), t.drawn...), r.back...)
	t.drawn = nil
}

// Tape reads from a Random and keeps what it drew.
type Tape struct {
	src   io.Reader
	drawn []byte
}

func (t *Tape) Read(p []byte) (int, error) {
	n, err := t.src.Read(p)
	t.drawn = append(t.drawn, p[:n]...)
	return n, err
}
