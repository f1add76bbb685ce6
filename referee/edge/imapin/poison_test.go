package imapin

import (
	"context"
	"net"
	"strings"
	"sync"
	"testing"

	"github.com/emersion/go-imap/v2/imapclient"

	"github.com/pbem-referee/referee/referee"
	"github.com/pbem-referee/referee/referee/rigs/testkit"
	"github.com/pbem-referee/referee/store"
)

// notifying is a fakeHandler that also takes quarantine notices.
type notifying struct {
	*fakeHandler
	mu    sync.Mutex
	notes []referee.QuarantineNotice
}

func (n *notifying) NotifyQuarantined(_ context.Context, q referee.QuarantineNotice) (referee.Outcome, error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.notes = append(n.notes, q)
	return referee.Outcome{Status: "rejected"}, nil
}

func (n *notifying) notices() []referee.QuarantineNotice {
	n.mu.Lock()
	defer n.mu.Unlock()
	return append([]referee.QuarantineNotice(nil), n.notes...)
}

// A message whose handling never finishes (here: the handler panics every
// time, as a process killed by it would never finish either) is
// quarantined after MaxCrashes attempts, its sender is told, and the
// intake moves on to the next message (issue 11, item 1).
func TestPoisonMessageQuarantinedAfterCrashes(t *testing.T) {
	ms := startServer(t, capsRev2)
	for _, id := range []string{"<m1@a>", "<bomb@a>", "<m3@a>"} {
		ms.deliver(t, "INBOX", message(id, "x"))
	}
	h := &notifying{fakeHandler: newHandler()}
	h.fail = killedBy("<bomb@a>")
	db := openStore(t)
	var logs testkit.SyncBuffer
	o := testOptions(ms.addr, db, h, &logs)
	o.MaxCrashes = 3
	r := start(t, o)
	h.await(t, 5) // m1, the bomb three times, m3
	eventually(t, "the bomb quarantined and the next mail processed", func() bool {
		return len(contents(t, ms.addr, testUser, testPass, "Quarantine")) == 1 &&
			len(contents(t, ms.addr, testUser, testPass, "Processed")) == 2
	})
	if got := msgIDs(contents(t, ms.addr, testUser, testPass, "Quarantine")); got != "<bomb@a>" {
		t.Errorf("quarantine holds %q", got)
	}
	h.checkHandedOver(t, "<bomb@a>", 3)
	notes := h.notices()
	if len(notes) != 1 || notes[0].Reason != "crashed" || notes[0].MessageID != "<bomb@a>" || len(notes[0].Keys) != 1 {
		t.Fatalf("notices %+v", notes)
	}
	if !strings.Contains(logs.String(), "poison message") {
		t.Errorf("the reason was not logged")
	}
	r.stop()
	// Nothing is left on record.
	db.View(func(tx *store.Tx) error {
		if n := tx.AttemptCount(notes[0].Keys[0]); n != 0 {
			t.Errorf("%d attempts left on record", n)
		}
		return nil
	})
}

// The attempt count survives the process: a message that already killed
// the referee MaxCrashes times (recorded in the store before each
// hand-over) is quarantined on the next start without being handed over.
func TestPoisonCountSurvivesRestart(t *testing.T) {
	ms := startServer(t, capsRev2)
	ms.deliver(t, "INBOX", message("<bomb@a>", "x"))
	ms.deliver(t, "INBOX", message("<m2@a>", "x"))
	db := openStore(t)
	h := &notifying{fakeHandler: newHandler()}
	o := testOptions(ms.addr, db, h, &testkit.SyncBuffer{})
	o.MaxCrashes = 2
	validity := inboxValidity(t, ms.addr)
	db.Update(func(tx *store.Tx) error {
		for i := 0; i < 2; i++ {
			if _, err := tx.BeginAttempt(keyOf(validity, 1)); err != nil {
				return err
			}
		}
		return nil
	})
	r := start(t, o)
	h.await(t, 1)
	eventually(t, "filing", func() bool {
		return len(contents(t, ms.addr, testUser, testPass, "Quarantine")) == 1 &&
			len(contents(t, ms.addr, testUser, testPass, "Processed")) == 1
	})
	r.stop()
	if _, applied := h.snapshot(); len(applied) != 1 || applied[0] != "<m2@a>" {
		t.Errorf("applied %v: the bomb was handed over again", applied)
	}
	if notes := h.notices(); len(notes) != 1 || notes[0].Reason != "crashed" {
		t.Errorf("notices %+v", notes)
	}
}

// An oversized message is quarantined without being fetched, and its
// sender told (issue 11, item 9).
func TestOversizedMessageSenderTold(t *testing.T) {
	ms := startServer(t, capsRev2)
	ms.deliver(t, "INBOX", message("<big@a>", strings.Repeat("HELP\r\n", 2000)))
	h := &notifying{fakeHandler: newHandler()}
	o := testOptions(ms.addr, openStore(t), h, &testkit.SyncBuffer{})
	o.MaxMessageSize = 1000
	r := start(t, o)
	eventually(t, "the notice", func() bool { return len(h.notices()) > 0 })
	r.stop()
	if got := msgIDs(contents(t, ms.addr, testUser, testPass, "Quarantine")); got != "<big@a>" {
		t.Errorf("quarantine holds %q", got)
	}
	notes := h.notices()
	if len(notes) != 1 || notes[0].Reason != "too_large" || notes[0].Max != 1000 || notes[0].Size <= 1000 {
		t.Fatalf("notices %+v", notes)
	}
}

func inboxValidity(t *testing.T, addr string) uint32 {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	c := imapclient.New(conn, nil)
	defer c.Close()
	if err := c.Login(testUser, testPass).Wait(); err != nil {
		t.Fatal(err)
	}
	sel, err := c.Select("INBOX", nil).Wait()
	if err != nil {
		t.Fatal(err)
	}
	return sel.UIDValidity
}
