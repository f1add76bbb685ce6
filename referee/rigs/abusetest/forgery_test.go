package abusetest

import (
	"strings"
	"time"

	"github.com/pbem-referee/referee/referee/rigs/mailstack"
)

// Forgery (issue 11, items 2 and 6): mails and delivery reports "from"
// someone who did not send them.

// forgedSenders (item 2): sixty-odd mails "from" alice, untagged and with a
// made-up secret, must not silence her: her next genuine mail is answered,
// and she is not flooded with answers to mails she never sent.
func (s *suite) forgedSenders(note func(string, string, ...any)) {
	t := s.t
	alice := s.box["alice"]
	alice.settle(300 * time.Millisecond)
	for i := 0; i < 70; i++ {
		to := "referee+g1.0.aaaaaaaaaaaaaaaa@" + mailstack.Domain
		if i%2 == 0 {
			to = s.addr("referee")
		}
		raw := compose("alice <"+s.addr("alice")+">", to, "Re: your move", newID("eve"), nil, "PASS\nSTATUS")
		s.send(s.addr("eve"), []string{to}, raw)
	}
	p := alice.latest
	r := s.ask("alice", p, "", "STATUS")
	s.sync("alice")
	others := alice.settle(time.Second)
	if len(others) > 2 {
		t.Errorf("70 forged mails brought alice %d mails", len(others))
	}
	if r.js == nil {
		t.Errorf("alice's genuine STATUS got no game view:\n%s", r.m.Text)
	}
	note("70 forged From: alice, then her genuine mail", "genuine mail answered; %d side mails to alice", len(others))

	// REGISTER from a forged From (issue 23, no backscatter): carl gets
	// nothing at all, whatever another server's Authentication-Results
	// says (before: one mail asking him to confirm; 1,000 forged
	// REGISTERs to 1,000 addresses made 1,000 mails).
	carl := s.box["carl"]
	for i := 0; i < 20; i++ {
		var hs []string
		if i%2 == 1 {
			hs = []string{"Authentication-Results: mx.elsewhere.example; dkim=pass header.d=" + mailstack.Domain}
		}
		raw := compose("Mallory <"+s.addr("carl")+">", s.addr("referee"), "register", newID("eve"), hs, "REGISTER Mallory en")
		s.send(s.addr("eve"), []string{s.addr("referee")}, raw)
	}
	s.sync("alice")
	if got := carl.settle(time.Second); len(got) != 0 {
		t.Errorf("20 forged REGISTERs brought carl %d mails", len(got))
	}
	note("20 REGISTERs with a forged From: carl", "0 mails to carl (before: 1 per address); no player")
}

// forgedBounces (item 6): delivery reports about alice without a VERP id
// of ours change nothing and alert nobody; reports through a real VERP id
// about bob alert the organiser at most three times, quoting the remote
// text.
func (s *suite) forgedBounces(note func(string, string, ...any)) {
	t := s.t
	olga, bob := s.box["olga"], s.box["bob"]
	olga.settle(300 * time.Millisecond)
	dsn := func(to, rcpt, id string) []byte {
		return []byte("From: Mail Delivery System <MAILER-DAEMON@" + mailstack.Domain + ">\r\nTo: " + to + "\r\n" +
			"Subject: Undelivered Mail Returned to Sender\r\nMessage-ID: " + id + "\r\nDate: " + time.Now().Format(time.RFC1123Z) +
			"\r\nAuto-Submitted: auto-replied\r\nMIME-Version: 1.0\r\n" +
			"Content-Type: multipart/report; report-type=delivery-status; boundary=\"b\"\r\n\r\n--b\r\nContent-Type: text/plain\r\n\r\nBounced.\r\n" +
			"--b\r\nContent-Type: message/delivery-status\r\n\r\nReporting-MTA: dns; mx.evil.example\r\n\r\nFinal-Recipient: rfc822; " + rcpt + "\r\n" +
			"Action: failed\r\nStatus: 5.1.1\r\nDiagnostic-Code: smtp; 550 5.1.1 account closed, reset it at http://evil.example/\r\n\r\n--b--\r\n")
	}
	for i := 0; i < 5; i++ {
		to := s.addr("referee")
		if i%2 == 1 {
			to = "referee+bounce.0123456789abcdef@" + mailstack.Domain
		}
		s.send("", []string{to}, dsn(to, s.addr("alice"), newID("eve")))
	}
	s.sync("alice")
	if got := olga.settle(time.Second); len(got) != 0 {
		t.Errorf("five forged bounces sent the organiser %d alerts", len(got))
	}
	note("5 DSNs about alice, no VERP id of ours", "ignored: alice not failing, no alert")
	// Through the VERP address of a real mail to bob.
	bob.poll()
	verp := ""
	for _, m := range append([]*mail{bob.latest}, bob.unread...) {
		if m == nil {
			continue
		}
		if rp := m.m.Header("Return-Path"); len(rp) > 0 && strings.Contains(rp[0], "+bounce.") {
			verp = strings.Trim(rp[0], "<> ")
		}
	}
	if verp == "" {
		t.Fatal("bob's mail has no VERP Return-Path")
	}
	for i := 0; i < 5; i++ {
		s.send("", []string{verp}, dsn(verp, s.addr("bob"), newID("mx")))
	}
	got := olga.next("alerting the bounce", 30*time.Second, func(m *mail) bool { return strings.Contains(m.text(), "bounced") })
	if !strings.Contains(got.m.Text, "  > 5.1.1 550 5.1.1 account closed") || !strings.Contains(got.m.Text, "unchecked") {
		t.Errorf("the diagnostic is not quoted as untrusted:\n%s", got.m.Text)
	}
	more := olga.settle(1500 * time.Millisecond)
	if n := 1 + len(more); n > 3 {
		t.Errorf("five real bounces sent %d alerts", n)
	}
	note("5 DSNs for bob through a real VERP id", "%d alerts (at most 3 a day), diagnostic quoted", 1+len(more))
}
