package hookout

import (
	"context"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pbem-referee/referee/referee"
	"github.com/pbem-referee/referee/store"
)

// Calls delivered per second to a local receiver, store writes included
// (the attempt and the outcome are two transactions per call; NoSync).
func BenchmarkDeliver(b *testing.B) {
	db, err := store.Open(filepath.Join(b.TempDir(), "r.db"), &store.Options{NoSync: true})
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	var got atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { got.Add(1) }))
	defer srv.Close()
	body := []byte(`{"id":"x","game":"g1","title":"t","token":1,"status":"running","players":["a","b"],"lines":["a rolled 4"]}`)
	n := b.N
	if err := db.Update(func(tx *store.Tx) error {
		for i := range n {
			if _, err := tx.Enqueue(referee.HooksQueue, store.Item{Key: "g1-h-" + strconv.Itoa(i), To: srv.URL, Payload: body,
				Meta: map[string]string{referee.MetaHookSecret: hookSecret, referee.MetaHookFormat: "generic"}, Created: time.Now()}); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		b.Fatal(err)
	}
	done := make(chan struct{})
	var sent atomic.Int64
	s, _ := New(Options{Store: db, Allow: loopback, Workers: 4, OnResult: func(r Result) {
		if r.Outcome == OutcomeSent && sent.Add(1) == int64(n) {
			close(done)
		}
	}})
	ctx, cancel := context.WithCancel(context.Background())
	b.ResetTimer()
	go s.Run(ctx)
	<-done
	b.StopTimer()
	cancel()
	if got.Load() != int64(n) {
		b.Fatalf("%d calls received for %d items", got.Load(), n)
	}
}
