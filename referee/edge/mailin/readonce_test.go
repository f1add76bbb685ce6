package mailin

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/pbem-referee/referee/mailfmt/mailmsg"
	"github.com/pbem-referee/referee/referee"
	"github.com/pbem-referee/referee/referee/rigs/testkit"
	"github.com/pbem-referee/referee/store"
)

// Rule (issue 25, one reading): a mail's own text is read once, in one
// place. Whole claim games are played by mail through the intake, each
// player answering in a different form (a bare command, alternatives,
// chat around the answer, an option number, a typo, a block) and every
// third answer (but a typo's, which HasCommand does not know as a
// command) carried by a mail whose Subject alone says out of office
// (read for a command by Referee.HasCommand, then processed): every parser
// run on a mail's text (reading.ReadHook, whichever Mail runs it) is
// counted per mail; a second Mail of one mail's text, or a form (a parser
// and its vocabulary) read twice, fails, and so does a raw mail parsed
// twice (every other mail is handed over as imapin's lanes may: Parse,
// then HandleParsed with the same reading).
func TestEveryMailReadOnce(t *testing.T) {
	readings := testkit.WatchReadings(t)
	parses := 0
	ParseHook = func(Inbound) { parses++ }
	t.Cleanup(func() { ParseHook = nil })
	forms := testkit.ClaimAnswers
	mails, oof, games := 0, 0, 0
	for game := range 3 {
		h := newMailHarness(t)
		if _, err := h.r.Organise(org, "NEW claim id=c1\nPLAYER ann@example.test Ann it\nPLAYER bob@example.test Bob"); err != nil {
			t.Fatal(err)
		}
		handle := func(raw []byte) referee.Outcome {
			t.Helper()
			readings.Reset()
			parses = 0
			var out referee.Outcome
			if mails%2 == 0 {
				out = h.handle(raw)
			} else {
				// As imapin's lanes hand a mail over: its headers read
				// first (the tag), the same reading then handled.
				p := h.in.Parse(Inbound{Raw: raw, Source: "test", Received: h.clock.Now()})
				if p.Err != nil || p.Tag.Tag.Game == "" && len(p.Tag.Candidates) == 0 {
					t.Fatalf("mail %d: parsed %v, tag %+v", mails, p.Err, p.Tag)
				}
				var err error
				if out, err = h.in.HandleParsed(context.Background(), p); err != nil {
					t.Fatal(err)
				}
			}
			if parses != 1 {
				t.Errorf("game %d, mail %d: the raw mail parsed %d times", game, mails, parses)
			}
			mails++
			by, count := readings.Counts()
			if by == 0 {
				t.Errorf("game %d, mail %d (%s): its text never read (the count counts nothing)", game, mails, out.Status)
			}
			if by > 1 {
				t.Errorf("game %d, mail %d (%s): its text read by %d Mails (%v), not one", game, mails, out.Status, by, count)
			}
			for _, fs := range count {
				for form, n := range fs {
					if n > 1 {
						t.Errorf("game %d, mail %d (%s): the form %q of its text read %d times (%v)", game, mails, out.Status, form, n, fs)
					}
				}
			}
			return out
		}
		last := map[string][]byte{}
		keep := func() {
			for to, ms := range h.inbox() {
				last[to] = ms[len(ms)-1]
			}
		}
		keep()
		handle(h.reply(last[ann], ann, "JOIN"))
		handle(h.reply(last[bob], bob, "JOIN"))
		keep()
		for turn := 0; turn < 40 && h.game("c1").Status != referee.StatusOver; turn++ {
			for k, who := range []string{ann, bob} {
				text := forms[(turn*2+k+game)%len(forms)]
				raw := h.reply(last[who], who, text)
				if (turn+k+game)%3 == 0 && !strings.HasPrefix(text, "clam") {
					m, err := mailmsg.Parse(raw, mailmsg.Options{})
					if err != nil {
						t.Fatal(err)
					}
					raw = []byte(strings.Replace(string(raw), "Subject: "+m.Subject, "Subject: Out of office: "+m.Subject, 1))
					oof++
					if out := handle(raw); out.Status == referee.OutcomeIgnored {
						t.Fatalf("a move under an out-of-office subject was ignored: %q %+v", text, out)
					}
				} else {
					handle(raw)
				}
				keep()
			}
		}
		if g := h.game("c1"); g.Status != referee.StatusOver {
			t.Fatalf("game %d not over: %s", game, g.Status)
		}
		games++
	}
	if games != 3 || oof < 6 || mails < 30 {
		t.Fatalf("%d games, %d mails, %d under an out-of-office subject: too few to test", games, mails, oof)
	}
}

// Rule (issue 25): an out-of-office answer through a VERP bounce address
// finds its game in the VERP record, where the referee wrote it, and
// never parses the record's Message-ID back; a record written before the
// game was kept (an old store) still finds it from its Message-ID.
func TestAutoReplyThroughVERPReadsTheRecordsGame(t *testing.T) {
	h := newMailHarness(t)
	if _, err := h.r.Organise(org, "NEW claim id=c1\nPLAYER ann@example.test Ann\nPLAYER bob@example.test Bob"); err != nil {
		t.Fatal(err)
	}
	in := h.inbox()
	h.handle(h.reply(in[ann][0], ann, "JOIN"))
	h.handle(h.reply(in[bob][0], bob, "JOIN"))
	// Ann's last mail and its VERP id, from its envelope sender
	// ("referee+bounce.<id>@...") as the outbox keeps it.
	var raw []byte
	var id string
	if err := h.db.View(func(tx *store.Tx) error {
		due, err := tx.Due(referee.OutboxQueue, h.clock.Now().Add(1000*time.Hour), 0)
		for _, it := range due {
			if it.To == ann {
				raw = it.Payload
				local, _, _ := strings.Cut(it.Meta[referee.MetaFrom], "@")
				_, id, _ = strings.Cut(local, "+bounce.")
			}
		}
		return err
	}); err != nil || id == "" {
		t.Fatalf("no VERP id for ann's last mail (%v)", err)
	}
	orig, err := mailmsg.Parse(raw, mailmsg.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var written store.VERPRecord
	if err := h.db.View(func(tx *store.Tx) error {
		var ok bool
		written, ok, err = tx.VERP(id)
		if !ok {
			t.Fatalf("no VERP record for %s", orig.MessageID)
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if written.Game != "c1" || written.Key != orig.MessageID {
		t.Fatalf("VERP record %+v: the game not kept where it is written", written)
	}
	for n, c := range []struct {
		name string
		rec  store.VERPRecord
	}{
		{"as written", written},
		{"old record without the game", store.VERPRecord{To: written.To, Key: written.Key, Sent: written.Sent}},
		{"the game kept, a Message-ID that names none", store.VERPRecord{To: written.To, Key: "<not-ours@example.test>", Game: "c1", Sent: written.Sent}},
	} {
		if err := h.db.Update(func(tx *store.Tx) error { return tx.PutVERP(id, c.rec) }); err != nil {
			t.Fatal(err)
		}
		ooo := fmt.Sprintf("From: Ann <ann@example.test>\r\nTo: referee+bounce.%s@example.test\r\nSubject: Automatic reply: %s\r\n"+
			"Auto-Submitted: auto-replied\r\nMessage-ID: <verpooo%d@example.test>\r\nDate: Mon, 23 Nov 2026 09:01:00 +0000\r\n\r\n"+
			"I am out of the office until 30 November 2026.\r\n", id, orig.Subject, n)
		if out := h.handle([]byte(ooo)); out.Game != "c1" || !strings.Contains(out.Detail, "absence offered") {
			t.Errorf("%s: %+v", c.name, out)
		}
	}
}
