package testkit

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// Turns counts the turns another goroutine gets while fn runs on one
// processor (GOMAXPROCS 1 meanwhile): a goroutine that yields at once
// every time it runs is started before fn, so it gets a turn each time fn
// yields its processor or waits, and none while fn computes (but for the
// runtime's preemption of a goroutine that ran for 10 ms). So fn's count
// says how many times it gave its processor away; soFar reads it while
// fn runs. The rule on the intake's turn (referee/edge/mailin) is tested
// with it.
func Turns(fn func(soFar func() int)) int {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	var (
		turns atomic.Int64
		stop  atomic.Bool
		wg    sync.WaitGroup
	)
	wg.Add(1)
	counting := make(chan struct{})
	go func() {
		defer wg.Done()
		close(counting)
		for !stop.Load() {
			turns.Add(1)
			runtime.Gosched()
		}
	}()
	<-counting
	base := turns.Load()
	fn(func() int { return int(turns.Load() - base) })
	n := turns.Load() - base
	stop.Store(true)
	wg.Wait()
	return int(n)
}
