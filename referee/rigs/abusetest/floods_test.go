package abusetest

import (
	"fmt"
	"strings"
	"time"

	"github.com/pbem-referee/referee/referee"
)

// Size and floods (issue 11, items 1 and 9): oversized mails, mail bombs,
// and the mail that kills the daemon.

// oversized (item 9): a mail over the size limit is quarantined unread and
// its registered sender told.
func (s *suite) oversized(note func(string, string, ...any)) {
	alice := s.box["alice"]
	s.say("alice", alice.latest, "", strings.Repeat("STATUS and some padding to make it big\n", 32000)) // 1.2 MB
	alice.next("saying the mail was too large", 60*time.Second, func(m *mail) bool { return strings.Contains(m.text(), "too large") })
	note("a 1.2 MB mail (limit 1 MiB)", "quarantined unread; alice told")
}

// bombs (item 1): one mail of HELP lines, then one of LOG, OBSERVE and SAY
// lines. Each gets one answer of bounded size; memory stays bounded.
func (s *suite) bombs(note func(string, string, ...any)) {
	t := s.t
	alice, bob := s.box["alice"], s.box["bob"]
	bob.settle(300 * time.Millisecond)
	help := strings.Repeat("HELP\n", 150000) // 750 KB
	r := s.ask("alice", alice.latest, "", help)
	if len(r.raw) > 200<<10 {
		t.Errorf("the answer to a HELP bomb is %d bytes", len(r.raw))
	}
	if !strings.Contains(r.text(), "answered once") {
		t.Errorf("the answer does not say the repeated commands were answered once:\n%.600s", r.m.Text)
	}
	var b strings.Builder
	for i := 0; i < 2000; i++ {
		b.WriteString("LOG 500\n")
	}
	for i := 0; i < 200; i++ {
		fmt.Fprintf(&b, "OBSERVE x%d\nOBSERVE g1\nSAY all: hello number %d\n", i, i)
	}
	r2 := s.ask("alice", alice.latest, "", b.String())
	if len(r2.raw) > 200<<10 {
		t.Errorf("the answer to a LOG/OBSERVE/SAY bomb is %d bytes", len(r2.raw))
	}
	if !strings.Contains(r2.text(), "not answered") {
		t.Errorf("the answer does not say that questions were left out:\n%.800s", r2.m.Text)
	}
	s.sync("alice")
	extra := alice.settle(time.Second)
	says := 0
	for _, m := range bob.settle(time.Second) {
		says += strings.Count(m.m.Text, "hello number")
	}
	if len(extra) > 1 || says > referee.DefaultMaxInfo {
		t.Errorf("the bomb brought alice %d more mails and bob %d relayed SAYs", len(extra), says)
	}
	rss := s.d.peakRSS()
	if rss > rssLimit {
		t.Errorf("the daemon's peak RSS reached %d MB", rss>>20)
	}
	note("150,000 HELP lines (750 KB)", "one answer of %d KB, \"answered once\"", len(r.raw)>>10)
	note("2,000 LOG 500 + 200 OBSERVE + 200 SAY all", "one answer of %d KB; %d observe mails; %d SAYs relayed", len(r2.raw)>>10, len(extra), says)
	note("peak RSS through the mail bombs", "%d MB (limit %d MB)", rss>>20, rssLimit>>20)
}

// poison (item 1): a mail that kills the daemon each time it is handed
// over is quarantined after three crashes, alice is told, and the intake
// moves on to her next mail.
func (s *suite) poison(note func(string, string, ...any)) {
	t := s.t
	alice := s.box["alice"]
	alice.settle(300 * time.Millisecond)
	before := s.d.crashCount()
	s.say("alice", alice.latest, "", "STATUS", crashHeader)
	told := alice.next("telling alice her mail was set aside", 90*time.Second, func(m *mail) bool {
		return strings.Contains(m.text(), "could not be read")
	})
	crashes := s.d.crashCount() - before
	if crashes != 3 {
		t.Errorf("the poison message crashed the daemon %d times, want 3", crashes)
	}
	_ = told
	// Issue 23: the operator is told by mail (operator.address).
	ops := s.box["ops"].next("telling the operator", 60*time.Second, func(m *mail) bool {
		return strings.Contains(m.text(), "set aside") && strings.Contains(m.text(), "crashed")
	})
	for _, l := range strings.Split(ops.m.Text, "\n") {
		if len([]rune(strings.TrimRight(l, "\r"))) > 80 {
			t.Errorf("the operator's mail has a line over 80 columns: %q", l)
		}
	}
	s.ask("alice", alice.latest, "", "STATUS")
	note("a mail that kills the daemon (SIGKILL)", "%d crashes, then quarantined; alice and the operator told; intake moves on", crashes)
}
