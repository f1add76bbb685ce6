package webhook

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/pbem-referee/referee/referee"
	"github.com/pbem-referee/referee/referee/edge/mailin"
	"github.com/pbem-referee/referee/store"
)

// storeAttempts is the daemon's: the attempts in the store, ended in the
// input's commit (AttemptRider).
type storeAttempts struct{ db *store.DB }

func (a storeAttempts) BeginAttempt(key string) (n int, err error) {
	err = a.db.Update(func(tx *store.Tx) error { n, err = tx.BeginAttempt(key); return err })
	return n, err
}

func (a storeAttempts) EndAttempt(key string) error {
	return a.db.Update(func(tx *store.Tx) error { return tx.EndAttempt(key) })
}

func (a storeAttempts) EndWith(key, inputKey string) func() bool {
	return a.db.Ride(inputKey, func(tx *store.Tx) error { return tx.EndAttempt(key) }).Done
}

// recordingHandler records the input in the store, as the referee does,
// unless it is a duplicate (which writes nothing).
type recordingHandler struct {
	db  *store.DB
	dup bool
}

func (h *recordingHandler) HandleMail(_ context.Context, in mailin.Inbound) (referee.Outcome, error) {
	if h.dup {
		return referee.Outcome{Status: referee.OutcomeDuplicate}, nil
	}
	err := h.db.Update(func(tx *store.Tx) error {
		// The Message-ID's key, which mailin adds, after the transport's.
		keys := append(append([]string(nil), in.Keys...), "msgid:<x@example.test>")
		return tx.MarkInbound(store.InboundRecord{Keys: keys, Outcome: "applied"})
	})
	return referee.Outcome{Status: referee.OutcomeApplied}, err
}

// A posted mail's attempt ends in the commit that records it (issue 25):
// two commits per post (the attempt, the input) instead of three, also for
// a post without a key of its own (it rides on the key of its bytes); a
// post that writes nothing (a duplicate) ends it apart. Either way no
// attempt is left on record.
func TestPostedAttemptEndsInTheInputsCommit(t *testing.T) {
	for _, dup := range []bool{false, true} {
		for _, keyed := range []bool{false, true} {
			t.Run(fmt.Sprintf("dup-%v-keyed-%v", dup, keyed), func(t *testing.T) {
				db, err := store.Open(filepath.Join(t.TempDir(), "w.db"), &store.Options{NoSync: true})
				if err != nil {
					t.Fatal(err)
				}
				defer db.Close()
				ts := newTestServer(t, func(o *Options) {
					o.Handler, o.Attempts = &recordingHandler{db: db, dup: dup}, storeAttempts{db}
				})
				raw := []byte(sampleMail)
				h := signed(rawSecret, ts.now, raw)
				if keyed {
					h.Set("Idempotency-Key", "k1")
				}
				before := db.WriteStats().Commits
				if rec := ts.do("POST", "/inbound", "message/rfc822", raw, h); rec.Code/100 != 2 {
					t.Fatalf("post: %d %s", rec.Code, rec.Body)
				}
				// The attempt, and the input's commit with its end; a
				// duplicate writes nothing: the attempt and its end; a
				// post without a key of its own rides on the key of its
				// bytes.
				got, want := db.WriteStats().Commits-before, int64(2)
				if got != want {
					t.Errorf("%d commits for the post, want %d", got, want)
				}
				db.View(func(tx *store.Tx) error {
					if n := tx.AttemptCount("webhook:" + digest(raw)); n != 0 {
						t.Errorf("%d attempts left on record", n)
					}
					return nil
				})
			})
		}
	}
}
