package testkit

import (
	"context"
	"sync"
	"testing"
	"time"
)

// StopTimeout bounds how long Run's stop waits for the loop to return.
const StopTimeout = 15 * time.Second

// Run starts run(ctx) in the background and returns stop, which cancels ctx
// and waits for run to return: the test fails if it returns an error or is
// still running after StopTimeout. stop may be called more than once; the
// test's cleanup calls it too.
func Run(t testing.TB, run func(context.Context) error) (stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- run(ctx) }()
	var once sync.Once
	stop = func() {
		once.Do(func() {
			cancel()
			select {
			case err := <-done:
				if err != nil {
					t.Errorf("Run: %v", err)
				}
			case <-time.After(StopTimeout):
				t.Errorf("Run did not return %v after cancel", StopTimeout)
			}
		})
	}
	t.Cleanup(stop)
	return stop
}
