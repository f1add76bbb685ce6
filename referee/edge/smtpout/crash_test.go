package smtpout

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pbem-referee/referee/referee/edge/dispatch"
	"github.com/pbem-referee/referee/referee/rigs/testkit"
	"github.com/pbem-referee/referee/store"
)

// The bound on what a crash resends (referee/edge/dispatch's package doc,
// issue 25): the store's commits are held from the first message the SMTP
// server accepts on, so that no outcome is recorded; the process crashes
// once sending has stopped (the store copied as it stands, the sender
// abandoned); a sender restarted over the copy delivers the rest. Counted
// at the SMTP servers: every message arrives at least once, and
// dispatch.InFlightBound(Workers) arrive twice (every message was accepted
// after the hold, so exactly the bound was sent and not recorded), at 1
// and 2 workers.
func TestCrashDuringHeldCommitResendsAtMostTheBound_Issue25(t *testing.T) {
	for _, workers := range []int{1, 2} {
		t.Run(fmt.Sprintf("workers-%d", workers), func(t *testing.T) {
			const n = 10
			bound := dispatch.InFlightBound(workers)
			dir := t.TempDir()
			db, err := store.Open(filepath.Join(dir, "referee.db"), &store.Options{NoSync: true})
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			for i := range n {
				key := fmt.Sprintf("<m%d@referee.example.test>", i)
				enqueue(t, db, key, "referee@example.test", "alice@example.test", testMessage(key, "alice@example.test"), time.Now())
			}
			before := startSink(t)
			before.requireAuth = false
			s, err := New(Options{Addr: before.addr, TLSPolicy: TLSNone, Auth: AuthNone, Workers: workers,
				ShutdownGrace: time.Second, Store: db, Logger: debugLogger(&testkit.SyncBuffer{})})
			if err != nil {
				t.Fatal(err)
			}
			held, release := make(chan struct{}), make(chan struct{})
			var once sync.Once
			before.gate = func() {
				// From the first message on no commit of the store ends
				// until release; no message is accepted before that.
				once.Do(func() { go db.Group(func(tx *store.Tx) error { close(held); <-release; return nil }) })
				<-held
			}
			ctx, cancel := context.WithCancel(t.Context())
			stopped := make(chan error, 1)
			go func() { stopped <- s.Run(ctx) }()
			select {
			case <-held:
			case <-time.After(10 * time.Second):
				t.Fatal("nothing was sent")
			}
			// Sending stops at the bound, on real signals rather than a
			// quiet spell: the bound's messages accepted, then no delivery
			// under way (the loop's in-flight set is full of outcomes that
			// wait for the held commit, so it starts none).
			for i := range bound {
				select {
				case <-before.arrived:
				case <-time.After(60 * time.Second):
					t.Fatalf("%d of the bound %d messages arrived", i, bound)
				}
			}
			for end := time.Now().Add(60 * time.Second); s.Stats().Delivering > 0; time.Sleep(time.Millisecond) {
				if time.Now().After(end) {
					t.Fatalf("deliveries still under way: %+v", s.Stats())
				}
			}
			// The crash: the store as it stands, what the server got until now.
			copyPath := filepath.Join(dir, "crashed.db")
			testkit.CrashCopy(t, copyPath, db.Backup)
			got := map[string]int{}
			for _, m := range before.messages() {
				got[msgID(m.Data)]++
			}
			select {
			case <-before.arrived:
				t.Errorf("a message beyond the bound %d was sent while the commits were held", bound)
			default:
			}
			if st := s.Stats(); st.InFlight != int64(bound) {
				t.Errorf("in flight at the crash: %+v, want the bound %d", st, bound)
			}
			cancel()
			close(release)
			<-stopped

			crashed, err := store.Open(copyPath, &store.Options{NoSync: true})
			if err != nil {
				t.Fatal(err)
			}
			defer crashed.Close()
			after := startSink(t)
			after.requireAuth = false
			s2, err := New(Options{Addr: after.addr, TLSPolicy: TLSNone, Auth: AuthNone, Workers: workers,
				ShutdownGrace: time.Second, Store: crashed, Logger: debugLogger(&testkit.SyncBuffer{})})
			if err != nil {
				t.Fatal(err)
			}
			ctx2, cancel2 := context.WithCancel(t.Context())
			defer cancel2()
			go s2.Run(ctx2)
			pending := func() int {
				c := 0
				crashed.View(func(tx *store.Tx) error {
					due, err := tx.DueRows(DefaultQueue, time.Now().Add(time.Hour), n)
					c = len(due)
					return err
				})
				return c
			}
			for end := time.Now().Add(10 * time.Second); pending() > 0 && time.Now().Before(end); {
				time.Sleep(5 * time.Millisecond)
			}
			if p := pending(); p > 0 {
				t.Fatalf("%d items still pending after the restart", p)
			}
			for _, m := range after.messages() {
				got[msgID(m.Data)]++
			}
			twice := 0
			for i := range n {
				key := fmt.Sprintf("<m%d@referee.example.test>", i)
				switch c := got[key]; {
				case c == 0:
					t.Errorf("%s lost", key)
				case c > 2:
					t.Errorf("%s sent %d times", key, c)
				case c == 2:
					twice++
				}
			}
			// Every message was accepted with the commits held: exactly the
			// bound was sent and not recorded.
			if twice != bound {
				t.Errorf("%d messages sent again after the crash, want the bound %d (%d workers)", twice, bound, workers)
			}
			t.Logf("%d workers: %d of %d messages sent again after the crash (bound %d)", workers, twice, n, bound)
		})
	}
}

// msgID is a test message's Message-ID.
func msgID(data []byte) string {
	const h = "Message-ID: "
	s := string(data)
	i := strings.Index(s, h)
	if i < 0 {
		return ""
	}
	s = s[i+len(h):]
	return s[:strings.Index(s, "\r\n")]
}
