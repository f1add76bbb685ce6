package testkit

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
)

// recorder stands in for the test given to Run, to see what it reports.
type recorder struct {
	testing.TB
	errs     []string
	cleanups []func()
}

func (r *recorder) Helper()                   {}
func (r *recorder) Cleanup(f func())          { r.cleanups = append(r.cleanups, f) }
func (r *recorder) Errorf(f string, a ...any) { r.errs = append(r.errs, fmt.Sprintf(f, a...)) }

func TestRun(t *testing.T) {
	for _, c := range []struct {
		name    string
		onStop  error
		wantErr bool
	}{
		{"clean stop", nil, false},
		{"error on stop", errors.New("boom"), true},
	} {
		t.Run(c.name, func(t *testing.T) {
			rec := &recorder{TB: t}
			started := make(chan struct{})
			calls := 0
			stop := Run(rec, func(ctx context.Context) error {
				calls++
				close(started)
				<-ctx.Done()
				return c.onStop
			})
			<-started
			stop()
			stop() // idempotent
			for _, f := range rec.cleanups {
				f()
			}
			if len(rec.cleanups) != 1 || calls != 1 {
				t.Errorf("%d cleanups, %d calls; want 1 and 1", len(rec.cleanups), calls)
			}
			if (len(rec.errs) > 0) != c.wantErr || len(rec.errs) > 1 {
				t.Errorf("reported %q; want an error: %v, once", rec.errs, c.wantErr)
			}
		})
	}
}

func TestSyncBuffer(t *testing.T) {
	var b SyncBuffer
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 100; j++ {
				fmt.Fprint(&b, "x")
			}
		}()
	}
	wg.Wait()
	if n := len(b.String()); n != 800 {
		t.Errorf("%d bytes, want 800", n)
	}
}
