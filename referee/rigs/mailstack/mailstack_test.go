package mailstack_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/pbem-referee/referee/referee/rigs/mailstack"
)

func msg(from, to, subject, id string) []byte {
	return []byte(fmt.Sprintf("From: %s\r\nTo: %s\r\nSubject: %s\r\nMessage-ID: <%s@tests.example.test>\r\n"+
		"Date: Mon, 02 Jan 2006 15:04:05 +0000\r\n\r\nbody of %s\r\n", from, to, subject, id, id))
}

// TestStack checks the stack itself: delivery with plus-addressing,
// rejections, and a Dovecot outage during which Postfix defers the mail.
func TestStack(t *testing.T) {
	s := mailstack.Start(t, "referee", "alice")

	begin := time.Now()
	s.Send(t, s.Address("alice"), []string{"referee+g1@example.test"}, msg(s.Address("alice"), "referee+g1@example.test", "move", "m1"))
	s.WaitCount(t, "referee", "INBOX", 1, 10*time.Second)
	t.Logf("SMTP accept to visible over IMAP: %v", time.Since(begin))
	got := s.Messages(t, "referee", "INBOX")
	if len(got) != 1 || !bytes.Contains(got[0].Raw, []byte("Delivered-To: referee+g1@example.test")) ||
		!bytes.Contains(got[0].Raw, []byte("body of m1")) {
		var raws []string
		for _, m := range got {
			raws = append(raws, string(m.Raw))
		}
		t.Fatalf("INBOX: %q", raws)
	}

	for rcpt, code := range map[string]string{"nobody@example.test": "550", "bob@elsewhere.test": "554"} {
		err := s.SendErr(s.Address("alice"), []string{rcpt}, msg("a", rcpt, "x", "m2"))
		if err == nil || !strings.Contains(err.Error(), code) {
			t.Errorf("send to %s: %v, want a %s rejection", rcpt, err, code)
		}
	}

	s.StopDovecot(t)
	s.Send(t, s.Address("alice"), []string{"referee@example.test"}, msg("a", "referee@example.test", "during outage", "m3"))
	time.Sleep(300 * time.Millisecond) // Postfix tries and defers
	s.StartDovecot(t)
	s.WaitCount(t, "referee", "INBOX", 2, 20*time.Second)
	if got := s.Messages(t, "referee", "INBOX"); !bytes.Contains(got[1].Raw, []byte("body of m3")) {
		t.Errorf("second message %q", got[1].Raw)
	}
	if out := s.Doveadm(t, "mailbox", "status", "-u", "referee@example.test", "messages", "INBOX"); !strings.Contains(out, "messages=2") {
		t.Errorf("doveadm: %q", out)
	}
}
