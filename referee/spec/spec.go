package spec

import (
	"errors"

	"github.com/pbem-referee/referee/store"
)

// ErrWide stops a speculation that cannot commit (the work touched what a
// speculation cannot check); the work returns it, and is done again in a
// write transaction.
var ErrWide = errors.New("referee: speculation cannot commit")

// View is one speculation's view of the referee's memory: a random source
// that keeps what it drew and limiters that only look.
type View struct {
	random    *Random
	tape      *Tape
	decisions *[]decision
}

// NewView opens a view on the referee's random source.
func NewView(r *Random) *View {
	return &View{random: r, tape: r.Tape(), decisions: &[]decision{}}
}

// Random is the view's random source.
func (v *View) Random() *Tape { return v.tape }

// Limiter is the view of a limiter: it decides as l would, counting the
// view's own earlier decisions, and notes each decision instead of
// counting it.
func (v *View) Limiter(l *Limiter) *Limiter {
	return &Limiter{limit: l.limit, window: l.window, view: &limiterView{l: l, decisions: v.decisions}}
}

// count runs inside the commit's write transaction: it checks that every
// rate-limit decision of the speculation is still the one the limiters
// make now, in order, and then counts them.
func (v *View) count() bool {
	dec := *v.decisions
	extra := map[limitKey]int{}
	for _, d := range dec {
		k := limitKey{d.l, d.who}
		if d.l.peek(d.who, d.now, extra[k]) != d.ok {
			return false
		}
		if d.ok {
			extra[k]++
		}
	}
	for _, d := range dec {
		d.l.Allow(d.who, d.now)
	}
	return true
}

// Speculate runs work on a snapshot of db with the view v and commits its
// writes if nothing it read changed since and the limiters decide as they
// did (hook, in tests, runs between the two). When it returns an error
// nothing was written and v's random bytes were given back: the work is
// to be done in a write transaction, which says whether it fails for real
// (store.ErrConflict, ErrWide, or the work's error on the snapshot).
func Speculate(db *store.DB, v *View, hook func(), work func(tx *store.Tx) error) error {
	s, err := db.Speculate(work)
	if err == nil && s.Wide() {
		err = ErrWide
	}
	if err == nil {
		if hook != nil {
			hook()
		}
		if err = db.Commit(s, v.count); err == nil {
			return nil
		}
	}
	v.random.Drop(v.tape)
	return err
}
