package imapin

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pbem-referee/referee/engine/enginetest"
	"github.com/pbem-referee/referee/mailfmt/mailmsg"
	"github.com/pbem-referee/referee/referee"
	"github.com/pbem-referee/referee/referee/edge/mailin"
	"github.com/pbem-referee/referee/referee/rigs/testkit"
	"github.com/pbem-referee/referee/store"
)

// readingIntake is the real intake, counting how the Watcher hands mail
// over: read by its lanes (HandleParsed) or raw (HandleMail).
type readingIntake struct {
	*mailin.Intake
	parsed, raw atomic.Int64
}

func (i *readingIntake) HandleMail(ctx context.Context, in mailin.Inbound) (referee.Outcome, error) {
	i.raw.Add(1)
	return i.Intake.HandleMail(ctx, in)
}

func (i *readingIntake) HandleParsed(ctx context.Context, p *mailin.Parsed) (referee.Outcome, error) {
	i.parsed.Add(1)
	return i.Intake.HandleParsed(ctx, p)
}

// Rule (issue 25, one reading; doc.go, "One reading"): a mail through the
// Watcher is read once, in one place. Three claim games of two players
// each (six senders, so that the Watcher's looks run in lanes) are played
// to the end by mail through a memory IMAP server, the Watcher and the
// real intake and referee, every player answering every round in another
// form (a bare command, alternatives, chat around the answer, an option
// number, a typo, a block, PASS), all six mails of a round delivered at
// once: every raw mail must be parsed once (mailin.ParseHook: its lane
// keys and its handling take the same reading) and its text read once
// (reading.ReadHook: no form read twice by one Mail, no more Mails than
// mails). Most mails must reach the handler read by the lanes.
func TestEveryMailReadOnce(t *testing.T) {
	enginetest.RegisterClaim()
	var mu sync.Mutex
	parses := map[string]int{}
	mailin.ParseHook = func(in mailin.Inbound) {
		mu.Lock()
		defer mu.Unlock()
		parses[msgID(in.Raw)]++
	}
	t.Cleanup(func() { mailin.ParseHook = nil })
	readings := testkit.WatchReadings(t)

	db := openStore(t)
	ref, err := referee.New(referee.Options{DB: db, Domain: "example.test", Organisers: map[string]string{"olga@example.test": "orgsecretorgsecret"},
		Compose: referee.Composer(mailmsg.Address{Name: "Referee", Addr: testUser}), RateLimit: -1})
	if err != nil {
		t.Fatal(err)
	}
	players := [][2]string{{"ann", "bob"}, {"cy", "dee"}, {"eve", "fay"}}
	for g, p := range players {
		if _, err := ref.Organise("olga@example.test", fmt.Sprintf("NEW claim id=c%d\nPLAYER %s@example.test %s\nPLAYER %s@example.test %s",
			g+1, p[0], p[0], p[1], p[1])); err != nil {
			t.Fatal(err)
		}
	}
	// Each player's last mail from the referee.
	last := map[string][]byte{}
	outbox := func() {
		t.Helper()
		if err := db.Update(func(tx *store.Tx) error {
			due, err := tx.Due(referee.OutboxQueue, time.Now().Add(1000*time.Hour), 0)
			for _, it := range due {
				last[it.To] = it.Payload
				if _, err := tx.Finish(referee.OutboxQueue, it.ID, store.Sent, time.Now(), time.Now(), ""); err != nil {
					return err
				}
			}
			return err
		}); err != nil {
			t.Fatal(err)
		}
	}
	outbox()
	in := &readingIntake{Intake: mailin.New(ref, mailin.Options{})}
	ms := startServer(t, capsRev2)
	r := start(t, testOptions(ms.addr, db, in, &testkit.SyncBuffer{}))
	defer r.stop()
	answers := testkit.ClaimAnswers
	sent := 0
	over := func() bool {
		for g := range players {
			if gr, err := ref.GameRecord(fmt.Sprintf("c%d", g+1)); err != nil || gr.Status != referee.StatusOver {
				return false
			}
		}
		return true
	}
	for round := 0; round < 60 && !over(); round++ {
		for g, p := range players {
			for k, who := range p {
				addr := who + "@example.test"
				orig, err := mailmsg.Parse(last[addr], mailmsg.Options{})
				if err != nil {
					t.Fatalf("%s's last mail: %v", who, err)
				}
				text := "JOIN"
				if round > 0 {
					text = answers[(round*2+k+g)%len(answers)]
				}
				sent++
				ms.deliver(t, "INBOX", []byte(fmt.Sprintf("From: %s <%s>\r\nTo: %s\r\nSubject: Re: %s\r\nMessage-ID: <r%d@players.test>\r\n"+
					"In-Reply-To: %s\r\nReferences: %s\r\nDate: Sun, 06 Dec 2026 10:00:00 +0000\r\n\r\n%s\r\n",
					who, addr, orig.ReplyTo[0].Addr, orig.Subject, sent, orig.MessageID, orig.MessageID, strings.ReplaceAll(text, "\n", "\r\n"))))
			}
		}
		r.w.Kick()
		eventually(t, fmt.Sprintf("round %d filed", round), func() bool {
			return len(contents(t, ms.addr, testUser, testPass, "INBOX")) == 0
		})
		outbox()
	}
	if !over() {
		t.Fatalf("the games are not over after %d mails", sent)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(parses) != sent {
		t.Errorf("%d mails parsed, %d sent", len(parses), sent)
	}
	for id, n := range parses {
		if n != 1 {
			t.Errorf("%s parsed %d times", id, n)
		}
	}
	mails, forms := readings.Counts()
	if mails < sent/2 {
		t.Errorf("%d Mails read the text of %d mails: the count misses readings", mails, sent)
	}
	if mails > sent {
		t.Errorf("%d Mails read the text of %d mails", mails, sent)
	}
	for _, fs := range forms {
		for form, n := range fs {
			if n > 1 {
				t.Errorf("a mail's %q form read %d times (%v)", form, n, fs)
			}
		}
	}
	if in.parsed.Load() < int64(sent)/2 {
		t.Errorf("of %d mails %d handed over read by the lanes: too few to test", sent, in.parsed.Load())
	}
	if p := contents(t, ms.addr, testUser, testPass, "Processed"); len(p) != sent {
		t.Errorf("%d mails processed, %d sent", len(p), sent)
	}
	if q := contents(t, ms.addr, testUser, testPass, "Quarantine"); len(q) > 0 {
		t.Errorf("%d mails quarantined: %s", len(q), msgIDs(q))
	}
	t.Logf("%d mails, %d handed over read by the lanes, %d raw", sent, in.parsed.Load(), in.raw.Load())
}
