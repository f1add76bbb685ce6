package group

import (
	"cmp"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// LaterWithin bounds how long a lazy commit (Enqueue with lazy) waits for
// a commit to ride in before it has one written for it.
const LaterWithin = 20 * time.Millisecond

// A Commit is one caller's work waiting for a group: W is what the
// store's Write writes of it; Write sets Err, the commit's own outcome.
type Commit[W any] struct {
	Work W
	Err  error
	// lazy: a GroupLater call's, which starts no group by itself.
	lazy bool
	done chan error
}

// Group gathers the commits waiting to be written. Its zero value with
// Write set is ready.
type Group[W any] struct {
	// Write writes a batch in one write transaction, each commit's Err
	// set. failed is a commit whose own error rolled the transaction
	// back: the batch is written again without it, and it gets its Err.
	// Otherwise err is the transaction's (nil: committed), every
	// commit's outcome when not nil.
	Write func(batch []*Commit[W]) (failed *Commit[W], err error)
	// After runs after each group is written, on its writer's goroutine
	// (the store's trim of its mapping).
	After func()
	// Within is LaterWithin unless a test set another.
	Within time.Duration

	mu      sync.Mutex
	pending []*Commit[W]
	leading bool
	// batches counts the transactions written, enqueued the commits
	// ever queued (for tests: Counts).
	batches, enqueued int
	// hurry: the next group is written even when it holds only lazy
	// commits, which otherwise wait, the timer later armed.
	hurry bool
	later *time.Timer
	// threadCPU, when set (MeasureCPU), reads the calling thread's CPU
	// time; cpu sums what the groups written on the store's own
	// goroutines took of it.
	threadCPU atomic.Pointer[func() time.Duration]
	cpu       atomic.Int64
}

// Enqueue adds a commit of w to the group and waits for its outcome. A
// lazy commit leads no group: it waits for the next one, or for
// LaterWithin (or Hurry) to start one.
func (g *Group[W]) Enqueue(w W, lazy bool) error {
	c := &Commit[W]{Work: w, lazy: lazy, done: make(chan error, 1)}
	g.mu.Lock()
	g.pending = append(g.pending, c)
	g.enqueued++
	lead := !g.leading && !c.lazy
	if lead {
		g.leading = true
	} else if c.lazy && !g.leading {
		g.armLater()
	}
	g.mu.Unlock()
	if lead {
		g.lead()
	}
	return <-c.done
}

// Hurry has the lazy commits waiting written now, in a group of their own
// unless one is being written (they then ride in the next), on a
// goroutine of the group's own: it does not wait for them.
func (g *Group[W]) Hurry() {
	g.mu.Lock()
	if len(g.pending) == 0 {
		g.mu.Unlock()
		return
	}
	g.hurry = true
	if g.leading {
		g.mu.Unlock()
		return
	}
	g.leading = true
	g.mu.Unlock()
	go g.leadAlone()
}

// armLater starts the timer that writes lazy commits nobody else's group
// took (the caller holds the lock).
func (g *Group[W]) armLater() {
	if g.later == nil {
		g.later = time.AfterFunc(cmp.Or(g.Within, LaterWithin), g.Hurry)
	}
}

// lead writes the group of commits waiting; the commits that arrive
// meanwhile are written by another goroutine, so that no caller waits for
// more than its own group.
func (g *Group[W]) lead() {
	g.mu.Lock()
	batch := g.pending
	if len(batch) == 0 || (!g.hurry && !slices.ContainsFunc(batch, func(c *Commit[W]) bool { return !c.lazy })) {
		// Nothing, or only lazy commits: they wait for the next group
		// or their timer.
		g.leading = false
		if len(batch) > 0 {
			g.armLater()
		}
		g.mu.Unlock()
		return
	}
	g.pending, g.hurry = nil, false
	if g.later != nil {
		g.later.Stop()
		g.later = nil
	}
	g.batches++
	g.mu.Unlock()
	var err error
	for {
		var failed *Commit[W]
		failed, err = g.Write(batch)
		if failed == nil {
			break
		}
		// A commit failed: it alone gets its error, the others are
		// written again without it.
		failed.done <- failed.Err
		batch = slices.DeleteFunc(batch, func(c *Commit[W]) bool { return c == failed })
		if len(batch) == 0 {
			break
		}
	}
	for _, c := range batch {
		if err != nil {
			c.done <- err
		} else {
			c.done <- c.Err
		}
	}
	// The next group, if any, is another goroutine's to write, and it
	// starts now: the caller here yields to it (the rule on the next
	// group in store/doc.go).
	g.mu.Lock()
	next := g.hurry || slices.ContainsFunc(g.pending, func(c *Commit[W]) bool { return !c.lazy })
	g.mu.Unlock()
	go g.leadAlone()
	if next {
		runtime.Gosched()
	}
	if g.After != nil {
		g.After()
	}
}

// leadAlone writes the next group on a goroutine of the group's own
// (lead), counting its CPU time when asked to (MeasureCPU).
func (g *Group[W]) leadAlone() {
	cpu := g.threadCPU.Load()
	if cpu == nil {
		g.lead()
		return
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	t0 := (*cpu)()
	g.lead()
	g.cpu.Add(int64((*cpu)() - t0))
}

// MeasureCPU has the group count the CPU time of the groups it writes on
// goroutines of its own: threadCPU reads the calling thread's CPU time,
// and the goroutine is locked to its thread while it writes. nil stops
// counting. CPU reports the sum.
func (g *Group[W]) MeasureCPU(threadCPU func() time.Duration) {
	if threadCPU == nil {
		g.threadCPU.Store(nil)
		return
	}
	g.threadCPU.Store(&threadCPU)
}

// CPU is the CPU time counted since MeasureCPU was called.
func (g *Group[W]) CPU() time.Duration { return time.Duration(g.cpu.Load()) }

// Counts returns how many commits were ever enqueued (pending, or taken
// by a group) and how many transactions were written.
func (g *Group[W]) Counts() (enqueued, batches int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.enqueued, g.batches
}
