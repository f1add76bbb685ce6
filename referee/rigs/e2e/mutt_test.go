// Package e2e_test runs the referee daemon against the real Dovecot +
// Postfix stack (referee/rigs/mailstack) with replies written as real mail
// clients write them.
package e2e_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	_ "github.com/pbem-referee/referee/engine/dicebrewing"
	"github.com/pbem-referee/referee/mailfmt/mailmsg"
	"github.com/pbem-referee/referee/referee"
)

// muttReply is a reply as mutt writes it by default when the player types
// directly above the attribution line, without a blank line: the commands,
// "On <date>, Referee wrote:", and the original quoted with "> ".
func muttReply(t *testing.T, orig []byte, from, id, text string) (to string, raw []byte) {
	t.Helper()
	m, err := mailmsg.Parse(orig, mailmsg.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(m.ReplyTo) == 0 {
		t.Fatalf("no Reply-To in the referee's mail:\n%s", orig)
	}
	to = m.ReplyTo[0].Addr
	var b strings.Builder
	fmt.Fprintf(&b, "Date: %s\r\nFrom: %s\r\nTo: Referee <%s>\r\nSubject: Re: %s\r\nMessage-ID: <%s@mutt.example.test>\r\n"+
		"References: %s\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Disposition: inline\r\n"+
		"Content-Transfer-Encoding: 8bit\r\nIn-Reply-To: %s\r\nUser-Agent: Mutt/2.2.13 (2024-03-09)\r\n\r\n",
		time.Now().UTC().Format(time.RFC1123Z), from, to, m.Subject, id, m.MessageID, m.MessageID)
	for _, l := range strings.Split(text, "\n") {
		b.WriteString(l + "\r\n")
	}
	b.WriteString("On " + m.Date.Format("Mon, Jan 02, 2006 at 03:04:05PM -0700") + ", Referee wrote:\r\n")
	for _, l := range strings.Split(strings.TrimRight(m.Text, "\n"), "\n") {
		if l == "" {
			b.WriteString(">\r\n")
		} else {
			b.WriteString("> " + l + "\r\n")
		}
	}
	return to, []byte(b.String())
}

// Issue 10, end to end: mutt replies typed directly above "On ...,
// Referee wrote:" go through Postfix and Dovecot to the daemon: both
// players' JOIN start the game, and "Ciao!" + LINGUA it + PIAZZA MH1 SEED
// + "Grazie" applies the commands and lists the two ignored lines.
func TestMuttReplyAboveAttributionThroughDovecotAndPostfix(t *testing.T) {
	ms, d, orgTo := startReferee(t, "ann", "bob")
	organise(t, ms, orgTo, "e2e-org1", "NEW dicebrewing id=m1 deadline=none\r\nPLAYER ann@example.test Ann\r\nPLAYER bob@example.test Bob\r\n")
	ms.WaitCount(t, "ann", "INBOX", 1, 20*time.Second)
	ms.WaitCount(t, "bob", "INBOX", 1, 20*time.Second)

	// Both JOIN, typed right above the attribution.
	for _, p := range []string{"ann", "bob"} {
		inv := ms.Messages(t, p, "INBOX")[0].Raw
		to, raw := muttReply(t, inv, ms.Address(p), "join-"+p, "JOIN")
		ms.Send(t, ms.Address(p), []string{to}, raw)
	}
	waitFor(t, "the game to start", func() bool {
		g, err := d.Referee.GameRecord("m1")
		return err == nil && g.Status == referee.StatusRunning
	})

	// The seat to move gets "WHAT YOU NEED TO DO NOW"; it answers in mutt
	// with a greeting and a thanks around its commands.
	var mover string
	var prompt []byte
	waitFor(t, "a prompt", func() bool {
		for _, p := range []string{"ann", "bob"} {
			for _, m := range ms.Messages(t, p, "INBOX") {
				pm, err := mailmsg.Parse(m.Raw, mailmsg.Options{})
				if err == nil && strings.Contains(pm.Text, "WHAT YOU NEED TO DO NOW") {
					mover, prompt = p, m.Raw
					return true
				}
			}
		}
		return false
	})
	before := ms.Count(t, mover, "INBOX")
	to, raw := muttReply(t, prompt, ms.Address(mover), "move-"+mover, "Ciao!\nLINGUA it\nPIAZZA MH1 SEED\nGrazie")
	ms.Send(t, ms.Address(mover), []string{to}, raw)
	ms.WaitCount(t, mover, "INBOX", before+1, 20*time.Second)
	var echo string
	waitFor(t, "the echo of the move", func() bool {
		for _, m := range ms.Messages(t, mover, "INBOX") {
			pm, err := mailmsg.Parse(m.Raw, mailmsg.Options{})
			if err == nil && strings.Contains(pm.Text, "Ho ignorato") {
				echo = pm.Text
				return true
			}
		}
		return false
	})
	for _, want := range []string{"Ho ignorato 2 righe della tua mail senza comandi:\n  Ciao!\n  Grazie", "Ho letto 2 righe della tua mail"} {
		if !strings.Contains(echo, want) {
			t.Errorf("echo lacks %q:\n%s", want, echo)
		}
	}
	for _, not := range []string{"Non ho applicato niente", "RESPINTO", "Nothing of this message"} {
		if strings.Contains(echo, not) {
			t.Errorf("echo has %q:\n%s", not, echo)
		}
	}
	g, err := d.Referee.GameRecord("m1")
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range g.Seats {
		if s.Address == ms.Address(mover) && s.Lang != "it" {
			t.Errorf("LINGUA it not applied: %q", s.Lang)
		}
	}
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	waitShowing(t, what, cond, nil)
}

// waitShowing waits for cond (30 s at most); on timeout it fails the test,
// with show's text when show is not nil (what the referee answered instead).
func waitShowing(t *testing.T, what string, cond func() bool, show func() string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			if show != nil {
				t.Fatalf("timed out waiting for %s; %s", what, show())
			}
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
