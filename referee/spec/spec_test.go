package spec

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"path/filepath"
	"testing"
	"time"

	"github.com/pbem-referee/referee/store"
)

var t0 = time.Date(2026, 12, 6, 8, 0, 0, 0, time.UTC)

// TestLimiterWindow: a limiter allows limit events per window and sender,
// forgets events older than the window, and a negative limit allows all.
func TestLimiterWindow(t *testing.T) {
	for _, limit := range []int{-1, 0, 1, 3} {
		l := NewLimiter(limit, time.Hour)
		for i := range 6 {
			at := t0.Add(time.Duration(i) * time.Minute)
			want := limit < 0 || i < limit
			if got := l.Allow("ann", at); got != want {
				t.Errorf("limit %d: event %d allowed %v", limit, i, got)
			}
			if limit >= 0 && !l.Allow(fmt.Sprint("other", i), at) != (limit == 0) {
				t.Errorf("limit %d: another sender's budget was touched", limit)
			}
		}
		if got := l.Allow("ann", t0.Add(2*time.Hour)); got != (limit != 0) {
			t.Errorf("limit %d: after the window, allowed %v", limit, got)
		}
	}
}

// TestViewDecidesAsTheLimiterAndCountsAtCommit: a view's limiter decides
// as the limiter would after the view's own earlier decisions, counts
// nothing, and count() counts them only if the limiter still decides the
// same (a commit made between makes it fail).
func TestViewDecidesAsTheLimiterAndCountsAtCommit(t *testing.T) {
	for _, between := range []int{0, 1, 2} {
		l := NewLimiter(2, time.Hour)
		v := NewView(NewRandom(bytes.NewReader(nil)))
		vl := v.Limiter(l)
		got := []bool{vl.Allow("ann", t0), vl.Allow("ann", t0), vl.Allow("ann", t0), vl.Allow("bob", t0)}
		if fmt.Sprint(got) != "[true true false true]" {
			t.Fatalf("view decisions %v", got)
		}
		if !l.peek("ann", t0, 1) {
			t.Fatal("the view counted on the limiter")
		}
		for range between {
			l.Allow("ann", t0)
		}
		ok := v.count()
		if ok != (between == 0) {
			t.Errorf("%d events between: count %v", between, ok)
		}
		wantAnn := min(2, between)
		if ok {
			wantAnn = 2
		}
		n := 0
		for l.peek("ann", t0, n) {
			n++
		}
		if n != 2-wantAnn {
			t.Errorf("%d events between (count %v): room for %d more of ann's, want %d", between, ok, n, 2-wantAnn)
		}
	}
}

// TestRandomDropIsReadAgain: what a dropped tape drew is read again, in
// order, before the source, whatever the sizes of the reads.
func TestRandomDropIsReadAgain(t *testing.T) {
	src := make([]byte, 256)
	for i := range src {
		src[i] = byte(i)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for run := range 50 {
		r := NewRandom(bytes.NewReader(src))
		var got []byte
		for len(got) < 200 {
			tape := r.Tape()
			b := make([]byte, 1+rng.IntN(20))
			n, err := io.ReadFull(tape, b)
			if err != nil {
				t.Fatal(err)
			}
			if rng.IntN(2) == 0 {
				r.Drop(tape)
				continue
			}
			got = append(got, b[:n]...)
		}
		if !bytes.Equal(got, src[:len(got)]) {
			t.Fatalf("run %d: read % x", run, got[:20])
		}
	}
}

type undoErr map[string]string

func (u undoErr) Error() string             { return fmt.Sprint("undo ", map[string]string(u)) }
func (u undoErr) Undone() map[string]string { return u }

// TestRedoRunsAgainWithoutTheUndone: each run sees the operations undone
// so far and the same random bytes; an operation undone twice stops it.
func TestRedoRunsAgainWithoutTheUndone(t *testing.T) {
	r := NewRandom(bytes.NewReader([]byte("abcdefgh")))
	var seen []string
	err := Redo(r, func(random io.Reader, undone map[string]string) error {
		b := make([]byte, 2)
		io.ReadFull(random, b)
		seen = append(seen, fmt.Sprint(string(b), len(undone)))
		switch len(undone) {
		case 0:
			return fmt.Errorf("line 1: %w", undoErr{"a": "no"})
		case 1:
			if undone["a"] != "no" {
				t.Errorf("undone %v", undone)
			}
			return undoErr{"b": "no", "c": "no"}
		}
		return nil
	})
	if err != nil || fmt.Sprint(seen) != "[ab0 ab1 ab3]" {
		t.Fatalf("runs %v, %v", seen, err)
	}
	err = Redo(r, func(io.Reader, map[string]string) error { return undoErr{"a": "again"} })
	if err == nil || !errors.As(err, new(Undoer)) {
		t.Fatalf("an operation undone twice: %v", err)
	}
	want := errors.New("plain")
	if err := Redo(r, func(io.Reader, map[string]string) error { return want }); err != want {
		t.Fatalf("a plain failure came back as %v", err)
	}
}

// TestSpeculateCommitsOrGivesBack: a speculation commits its writes when
// nothing it read changed and the limiters decide the same; when a commit
// came between (store.ErrConflict), a limiter's count changed, or the work
// failed, nothing is written, nothing counted and the random bytes are
// given back.
func TestSpeculateCommitsOrGivesBack(t *testing.T) {
	for _, c := range []string{"commit", "conflict", "limiter", "fails", "wide"} {
		t.Run(c, func(t *testing.T) {
			db, err := store.Open(filepath.Join(t.TempDir(), "s.db"), &store.Options{NoSync: true})
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			put := func(tx *store.Tx, v string) error { return tx.PutGame("g1", []byte(`{"v":"`+v+`"}`)) }
			if err := db.Update(func(tx *store.Tx) error { return put(tx, "0") }); err != nil {
				t.Fatal(err)
			}
			r := NewRandom(bytes.NewReader([]byte("0123456789")))
			l := NewLimiter(1, time.Hour)
			v := NewView(r)
			vl := v.Limiter(l)
			hook := func() {
				switch c {
				case "conflict":
					db.Update(func(tx *store.Tx) error { return put(tx, "other") })
				case "limiter":
					l.Allow("ann", t0)
				}
			}
			err = Speculate(db, v, hook, func(tx *store.Tx) error {
				if _, err := tx.Game("g1"); err != nil {
					return err
				}
				io.ReadFull(v.Random(), make([]byte, 3))
				vl.Allow("ann", t0)
				switch c {
				case "fails":
					return errors.New("no")
				case "wide":
					tx.Games(func(string, []byte) error { return nil })
				}
				return put(tx, "spec")
			})
			if (err == nil) != (c == "commit") {
				t.Fatalf("Speculate: %v", err)
			}
			if c == "conflict" && !errors.Is(err, store.ErrConflict) || c == "wide" && !errors.Is(err, ErrWide) {
				t.Errorf("error %v", err)
			}
			var stored string
			db.View(func(tx *store.Tx) error { b, _ := tx.Game("g1"); stored = string(b); return nil })
			next := make([]byte, 1)
			r.Read(next)
			if c == "commit" {
				if stored != `{"v":"spec"}` || string(next) != "3" || l.peek("ann", t0, 0) {
					t.Errorf("committed: %s, next byte %q, ann counted %v", stored, next, !l.peek("ann", t0, 0))
				}
				return
			}
			if stored == `{"v":"spec"}` || string(next) != "0" {
				t.Errorf("dropped: %s stored, next byte %q", stored, next)
			}
			if c != "limiter" && !l.peek("ann", t0, 0) {
				t.Error("a dropped speculation's decision was counted")
			}
		})
	}
}
