package mailin

import (
	"context"
	"strings"
	"testing"

	"github.com/pbem-referee/referee/mailfmt/mailmsg"
	"github.com/pbem-referee/referee/referee"
	"github.com/pbem-referee/referee/store"
)

// The whole mail path: an organiser's mail creates a game, players answer
// the invitation and their prompts by replying to the referee's mails, the
// quoted referee text never counts, a reply to an older mail is stale, and
// nothing is applied twice.
func TestMailEndToEnd(t *testing.T) {
	h := newMailHarness(t)
	orgMail := []byte("From: Olga <olga@example.test>\r\nTo: referee+org.orgsecretorgsecret@example.test\r\nSubject: new game\r\n" +
		"Message-ID: <org1@example.test>\r\nDate: Mon, 23 Nov 2026 08:00:00 +0000\r\n\r\n" +
		"NEW claim id=c1\r\nPLAYER ann@example.test Ann it\r\nPLAYER bob@example.test Bob\r\n")
	if out := h.handle(orgMail); out.Status != "applied" {
		t.Fatalf("organiser mail: %+v", out)
	}
	in := h.inbox()
	if len(in[org]) != 1 || len(in[ann]) != 1 || len(in[bob]) != 1 {
		t.Fatalf("inboxes: %d %d %d", len(in[org]), len(in[ann]), len(in[bob]))
	}
	inv, _ := mailmsg.Parse(in[ann][0], mailmsg.Options{})
	// Issue 11.7: the secret is in the Reply-To only; the subject names the game.
	secret := h.game("c1").Seats[0].Secret
	if !strings.HasPrefix(inv.Subject, "[Claim c1] ") || strings.Contains(inv.Subject, secret) ||
		!strings.Contains(inv.ReplyTo[0].Addr, secret) {
		t.Fatalf("invitation subject %q reply-to %v", inv.Subject, inv.ReplyTo)
	}
	if out := h.handle(h.reply(in[ann][0], ann, "JOIN")); out.Status != "answered" {
		t.Fatalf("ann JOIN: %+v", out)
	}
	joinRaw := h.reply(in[bob][0], bob, "join")
	if out := h.handle(joinRaw); out.Status != "answered" {
		t.Fatalf("bob JOIN: %+v", out)
	}
	// The same mail again (a re-delivery) changes nothing.
	if out := h.handle(joinRaw); out.Status != "duplicate" {
		t.Fatalf("duplicate: %+v", out)
	}
	in = h.inbox()
	g := h.game("c1")
	if g.Status != referee.StatusRunning {
		t.Fatalf("not started: %s", g.Status)
	}
	first := g.Seats[0].Address
	second := g.Seats[1].Address
	startOfSecond := last(in[second])
	prompt := last(in[first])
	pm, _ := mailmsg.Parse(prompt, mailmsg.Options{})
	if !strings.Contains(pm.Text, "1) CLAIM 1") {
		t.Fatalf("no numbered prompt:\n%s", pm.Text)
	}
	// The reply quotes the whole prompt, options included: only "3" counts.
	if out := h.handle(h.reply(prompt, first, "3")); out.Status != "applied" {
		t.Fatalf("numbered reply: %+v", out)
	}
	in = h.inbox()
	rm, _ := mailmsg.Parse(last(in[first]), mailmsg.Options{})
	if !strings.Contains(rm.Text, "3  =>  CLAIM 3") || !strings.Contains(rm.Text, "Ho letto 1 riga della tua mail; ho ignorato la mail citata") {
		t.Fatalf("echo:\n%s", rm.Text)
	}
	if got := rm.Header("Auto-Submitted"); len(got) != 1 || got[0] != "auto-replied" {
		t.Errorf("Auto-Submitted = %v", got)
	}
	if len(rm.InReplyTo) != 1 || !strings.HasPrefix(rm.InReplyTo[0], "<reply") {
		t.Errorf("In-Reply-To = %v", rm.InReplyTo)
	}
	// The other seat replies to its start mail, which is now stale.
	out := h.handle(h.reply(startOfSecond, second, "CLAIM 3 | CLAIM 5"))
	if out.Status != "applied" {
		t.Fatalf("stale reply: %+v", out)
	}
	in = h.inbox()
	sm, _ := mailmsg.Parse(last(in[second]), mailmsg.Options{})
	if !strings.Contains(sm.Text, "older state") || !strings.Contains(sm.Text, "CLAIM 5") {
		t.Fatalf("stale echo:\n%s", sm.Text)
	}
	if ms := h.inbox(); len(ms) != 0 {
		t.Fatalf("more mail: %v", ms)
	}
}

// Auto-replies are never answered but turned into an absence question;
// bounces mark the address failing and alert the organiser; the referee's
// own mail looping back is ignored.
func TestMailAutoRepliesBouncesAndLoops(t *testing.T) {
	h := newMailHarness(t)
	if _, err := h.r.Organise(org, "NEW claim id=c1\nPLAYER ann@example.test Ann\nPLAYER bob@example.test Bob"); err != nil {
		t.Fatal(err)
	}
	in := h.inbox()
	h.handle(h.reply(in[ann][0], ann, "JOIN"))
	h.handle(h.reply(in[bob][0], bob, "JOIN"))
	in = h.inbox()
	bobMail, _ := mailmsg.Parse(last(in[bob]), mailmsg.Options{})
	// Ann's out-of-office answer to her start mail.
	orig, _ := mailmsg.Parse(last(in[ann]), mailmsg.Options{})
	ooo := []byte("From: Ann <ann@example.test>\r\nTo: " + orig.ReplyTo[0].Addr + "\r\nSubject: Automatic reply: " + orig.Subject +
		"\r\nAuto-Submitted: auto-replied\r\nMessage-ID: <ooo1@example.test>\r\nIn-Reply-To: " + orig.MessageID +
		"\r\nDate: Mon, 23 Nov 2026 09:01:00 +0000\r\n\r\nI am out of the office until 30 November 2026.\r\n")
	out := h.handle(ooo)
	if out.Status != "ignored" || !strings.Contains(out.Detail, "absence offered") {
		t.Fatalf("out of office: %+v", out)
	}
	in = h.inbox()
	q, _ := mailmsg.Parse(last(in[ann]), mailmsg.Options{})
	if !strings.Contains(q.Text, "Reply YES") || !strings.Contains(q.Text, "2026-11-30") {
		t.Fatalf("absence question:\n%s", q.Text)
	}
	// A second auto-reply (to that question) gets no answer: no loop.
	ooo2 := strings.Replace(string(ooo), "<ooo1@", "<ooo2@", 1)
	h.handle([]byte(ooo2))
	if ms := h.inbox(); len(ms) != 0 {
		t.Fatalf("answered an auto-reply: %v", ms)
	}
	if out := h.handle(h.reply(last(in[ann]), ann, "YES")); out.Status != "answered" {
		t.Fatalf("YES: %+v", out)
	}
	g := h.game("c1")
	if v := g.Seats[seatOf(g, ann)].Vacation; len(v) != 1 {
		t.Fatalf("vacation not registered: %+v", v)
	}
	h.inbox()
	// A DSN for bob.
	forged := "From: MAILER-DAEMON@example.test\r\nTo: referee+bounce.0123456789abcdef@example.test\r\nSubject: Undelivered Mail Returned to Sender\r\n" +
		"Message-ID: <dsn1@example.test>\r\nDate: Mon, 23 Nov 2026 09:02:00 +0000\r\nAuto-Submitted: auto-replied\r\nMIME-Version: 1.0\r\n" +
		"Content-Type: multipart/report; report-type=delivery-status; boundary=\"b\"\r\n\r\n--b\r\nContent-Type: text/plain\r\n\r\nBounced.\r\n" +
		"--b\r\nContent-Type: message/delivery-status\r\n\r\nReporting-MTA: dns; mx.example.test\r\n\r\nFinal-Recipient: rfc822; bob@example.test\r\n" +
		"Action: failed\r\nStatus: 5.1.1\r\nDiagnostic-Code: smtp; 550 5.1.1 no such user\r\n\r\n--b--\r\n"
	// Issue 11, item 6: a report with a made-up VERP id is not acted on.
	if out := h.handle([]byte(forged)); out.Status != "ignored" || strings.Contains(out.Detail, "bob@example.test") {
		t.Fatalf("forged bounce: %+v", out)
	}
	if ms := h.inbox(); len(ms) != 0 {
		t.Fatalf("a forged bounce alerted: %v", ms)
	}
	dsn := strings.Replace(strings.Replace(forged, "0123456789abcdef", bounceIDOf(t, h.envelope[bobMail.MessageID]), 1), "<dsn1@", "<dsn2@", 1)
	// Bob's real id, but a report about ann: not acted on either.
	other := strings.Replace(strings.Replace(dsn, "rfc822; bob@", "rfc822; ann@", 1), "<dsn2@", "<dsn3@", 1)
	if out := h.handle([]byte(other)); strings.Contains(out.Detail, "ann@example.test") {
		t.Fatalf("bounce for another address: %+v", out)
	}
	if out := h.handle([]byte(dsn)); out.Status != "ignored" || !strings.Contains(out.Detail, "bob@example.test") {
		t.Fatalf("bounce: %+v", out)
	}
	in = h.inbox()
	om, _ := mailmsg.Parse(last(in[org]), mailmsg.Options{})
	if !strings.Contains(om.Text, "bob@example.test") || !strings.Contains(om.Text, "bounced") ||
		!strings.Contains(om.Text, "\n  > 5.1.1 550 5.1.1 no such user") {
		t.Fatalf("organiser not alerted, or the diagnostic not quoted:\n%s", om.Text)
	}
	// The referee's own mail coming back.
	self := "From: Referee <referee@example.test>\r\nTo: referee@example.test\r\nSubject: loop\r\nMessage-ID: <self1@example.test>\r\n" +
		"X-Loop: referee@example.test\r\nDate: Mon, 23 Nov 2026 09:03:00 +0000\r\n\r\nSTATUS\r\n"
	if out := h.handle([]byte(self)); out.Status != "ignored" {
		t.Fatalf("own mail: %+v", out)
	}
	if ms := h.inbox(); len(ms) != 0 {
		t.Fatalf("answered its own mail: %v", ms)
	}
}

// A message that can never be parsed is quarantined in the store (webhooks
// have no quarantine folder) and reported as permanent.
func TestMailUnparseableIsQuarantined(t *testing.T) {
	h := newMailHarness(t)
	_, err := h.in.HandleMail(context.Background(), Inbound{Raw: []byte("\x00\x01 not a mail header\r\n\r\n"), Source: "webhook:raw"})
	if !referee.IsPermanent(err) {
		t.Fatalf("error %v, want permanent", err)
	}
	n := 0
	h.db.View(func(tx *store.Tx) error {
		return tx.Quarantined(func(q store.Quarantined) error {
			n++
			if q.Source != "webhook:raw" || !strings.Contains(q.Reason, "unparseable") {
				t.Errorf("quarantined %+v", q)
			}
			return nil
		})
	})
	if n != 1 {
		t.Fatalf("%d quarantined", n)
	}
}

// bounceIDOf is the VERP id of an envelope sender "referee+bounce.<id>@...".
func bounceIDOf(t *testing.T, envelope string) string {
	t.Helper()
	local, _, _ := strings.Cut(envelope, "@")
	_, id, ok := strings.Cut(local, "+bounce.")
	if !ok || id == "" {
		t.Fatalf("no VERP id in the envelope sender %q", envelope)
	}
	return id
}
