package group

import (
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"
)

// recorder is a Group's Write over plain values: each batch it writes is
// recorded, a value in fail fails its batch alone (written again
// without it), and hold, when set, keeps the first batch until closed.
type recorder struct {
	mu      sync.Mutex
	batches [][]int
	fail    map[int]bool
	hold    chan struct{}
	held    chan struct{}
}

func (r *recorder) write(batch []*Commit[int]) (*Commit[int], error) {
	if r.hold != nil {
		close(r.held)
		<-r.hold
		r.hold = nil
	}
	var got []int
	for _, c := range batch {
		if r.fail[c.Work] {
			c.Err = fmt.Errorf("commit %d", c.Work)
			return c, c.Err
		}
		got = append(got, c.Work)
	}
	r.mu.Lock()
	r.batches = append(r.batches, got)
	r.mu.Unlock()
	return nil, nil
}

// TestCommitsQueuedBehindAGroupShareOneAndFailAlone: the commits that
// come while a group is written are written together in the next, once
// each; a commit whose write fails gets its error alone and the others
// of its group are written without it (every count of commits, every
// place of the failing ones).
func TestCommitsQueuedBehindAGroupShareOneAndFailAlone(t *testing.T) {
	for n := 1; n <= 6; n++ {
		for mask := 0; mask < 1<<n; mask++ {
			r := &recorder{fail: map[int]bool{}, hold: make(chan struct{}), held: make(chan struct{})}
			for i := range n {
				if mask&(1<<i) != 0 {
					r.fail[i+1] = true
				}
			}
			g := &Group[int]{Write: r.write}
			first := make(chan error, 1)
			go func() { first <- g.Enqueue(0, false) }()
			<-r.held
			errs := make([]error, n+1)
			var wg sync.WaitGroup
			for i := 1; i <= n; i++ {
				wg.Go(func() { errs[i] = g.Enqueue(i, false) })
			}
			for k, _ := g.Counts(); k < n+1; k, _ = g.Counts() {
				time.Sleep(time.Millisecond)
			}
			close(r.hold)
			if err := <-first; err != nil {
				t.Fatal(err)
			}
			wg.Wait()
			var want []int
			for i := 1; i <= n; i++ {
				if r.fail[i] != (errs[i] != nil) {
					t.Errorf("n=%d mask=%b: commit %d: error %v", n, mask, i, errs[i])
				}
				if !r.fail[i] {
					want = append(want, i)
				}
			}
			if len(r.batches) < 1 || !slices.Equal(r.batches[0], []int{0}) {
				t.Fatalf("n=%d mask=%b: first batch %v", n, mask, r.batches)
			}
			var rest []int // in the order the commits came
			if len(r.batches) > 1 {
				rest = slices.Sorted(slices.Values(r.batches[1]))
			}
			if len(r.batches) > 2 || !slices.Equal(rest, want) {
				t.Errorf("n=%d mask=%b: batches %v, want [0] then %v in one", n, mask, r.batches, want)
			}
		}
	}
}

// TestLazyCommitsWaitForAGroupOrHurry: a lazy commit starts no group; the
// next commit that does takes it in, Hurry writes it at once, and
// without either the timer writes it Within after it came.
func TestLazyCommitsWaitForAGroupOrHurry(t *testing.T) {
	for _, by := range []string{"commit", "hurry", "timer"} {
		r := &recorder{}
		g := &Group[int]{Write: r.write, Within: time.Hour}
		if by == "timer" {
			g.Within = 5 * time.Millisecond
		}
		lazy := make(chan error, 1)
		go func() { lazy <- g.Enqueue(1, true) }()
		for k, _ := g.Counts(); k < 1; k, _ = g.Counts() {
			time.Sleep(time.Millisecond)
		}
		if by != "timer" {
			time.Sleep(20 * time.Millisecond)
			if _, b := g.Counts(); b != 0 {
				t.Fatalf("%s: a lazy commit alone was written", by)
			}
		}
		switch by {
		case "commit":
			if err := g.Enqueue(2, false); err != nil {
				t.Fatal(err)
			}
		case "hurry":
			g.Hurry()
		}
		if err := <-lazy; err != nil {
			t.Fatal(err)
		}
		want := [][]int{{1}}
		if by == "commit" {
			want = [][]int{{1, 2}}
		}
		r.mu.Lock()
		got := r.batches
		r.mu.Unlock()
		if !slices.EqualFunc(got, want, slices.Equal) {
			t.Errorf("%s: batches %v, want %v", by, got, want)
		}
	}
}

// TestAWriteErrorIsEveryCommitsOutcome: an error of the transaction (no
// commit of its own failed) is the outcome of every commit of the group.
func TestAWriteErrorIsEveryCommitsOutcome(t *testing.T) {
	boom := errors.New("boom")
	g := &Group[int]{Write: func([]*Commit[int]) (*Commit[int], error) { return nil, boom }}
	if err := g.Enqueue(1, false); !errors.Is(err, boom) {
		t.Fatalf("got %v", err)
	}
}

// TestLazyCommitsAfterAGroupWaitToo: a lazy commit that came while a
// group was written is not written by the next group's goroutine alone:
// it waits, as any lazy commit, for a commit or Hurry.
func TestLazyCommitsAfterAGroupWaitToo(t *testing.T) {
	r := &recorder{hold: make(chan struct{}), held: make(chan struct{})}
	g := &Group[int]{Write: r.write, Within: time.Hour}
	first := make(chan error, 1)
	go func() { first <- g.Enqueue(0, false) }()
	<-r.held
	lazy := make(chan error, 1)
	go func() { lazy <- g.Enqueue(1, true) }()
	for k, _ := g.Counts(); k < 2; k, _ = g.Counts() {
		time.Sleep(time.Millisecond)
	}
	close(r.hold)
	if err := <-first; err != nil {
		t.Fatal(err)
	}
	time.Sleep(20 * time.Millisecond)
	if _, b := g.Counts(); b != 1 {
		t.Fatalf("%d groups written: the lazy commit did not wait", b)
	}
	g.Hurry()
	if err := <-lazy; err != nil {
		t.Fatal(err)
	}
	if !slices.EqualFunc(r.batches, [][]int{{0}, {1}}, slices.Equal) {
		t.Errorf("batches %v", r.batches)
	}
}
