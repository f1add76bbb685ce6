package testkit

import (
	"fmt"
	"strings"
	"testing"

	"github.com/pbem-referee/referee/mailfmt"
	"github.com/pbem-referee/referee/mailfmt/mailmsg"
)

// refereeMail is a referee's mail as a client receives it: a Reply-To
// with the seat's tag, a menu in the text.
func refereeMail(lang string) []byte {
	return []byte("From: PBEM Referee <referee@example.test>\r\nReply-To: referee+g1.1.abcdefabcdefabcd@example.test\r\n" +
		"To: ann@example.test\r\nSubject: [Dice Brewing g1] Your move\r\nMessage-ID: <rf.g1.1.0.3@example.test>\r\n" +
		"Date: Mon, 07 Dec 2026 02:00:00 +0000\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n" +
		"##- " + lang + " -##\r\n\r\nWHAT YOU NEED TO DO NOW\r\n   1) PLACE MH1 SEED\r\n   2) PASS\r\n")
}

// TestWriterDrawsPeoplesLayouts: a Writer's layouts are seeded (the same
// seed and user draw the same clients, another seed others), every client
// of Clients is drawn in 40 mails, and every reply (and the phone's
// HTML-only one) answers the referee's mail (In-Reply-To, References, to
// its Reply-To) with the command as the reader's own text: the quote and
// the "-- " signature are taken off, the greeting and sign-off are the
// person's words around it.
func TestWriterDrawsPeoplesLayouts(t *testing.T) {
	orig := refereeMail("Please write your reply above this line")
	draws := func(seed string) []string {
		w := &Writer{User: "ann", Name: "Ann Müller", Lang: "fr", Seed: seed}
		var names []string
		for range 40 {
			names = append(names, w.Draw().Client.Name)
		}
		return names
	}
	a, b := draws("s1"), draws("s1")
	if fmt.Sprint(a) != fmt.Sprint(b) {
		t.Errorf("the same seed drew %v and %v", a, b)
	}
	if fmt.Sprint(a) == fmt.Sprint(draws("s2")) {
		t.Errorf("two seeds drew the same 40 layouts: %v", a)
	}
	for _, c := range Clients {
		if !strings.Contains(fmt.Sprint(a), c.Name) {
			t.Errorf("%s never drawn in 40 mails: %v", c.Name, a)
		}
	}
	w := &Writer{User: "ann", Name: "Ann Müller", Lang: "fr", Seed: "s1"}
	for i := range 12 {
		l := w.Draw()
		for _, c := range []Client{l.Client, PhoneHTML} {
			to, raw := c.Reply(t, orig, "ann@example.test", "Ann Müller", fmt.Sprintf("id%d", i), l.Text("PLACE MH1 SEED"), l.Signature)
			m, err := mailmsg.Parse(raw, mailmsg.Options{})
			if err != nil {
				t.Fatalf("%s: %v\n%s", c.Name, err, raw)
			}
			if to != "referee+g1.1.abcdefabcdefabcd@example.test" || len(m.InReplyTo) != 1 || m.InReplyTo[0] != "<rf.g1.1.0.3@example.test>" ||
				len(m.References) == 0 || m.From.Name != "Ann Müller" {
				t.Errorf("%s: to %s, In-Reply-To %v, References %v, From %+v", c.Name, to, m.InReplyTo, m.References, m.From)
			}
			own, info := mailfmt.NewKeywords([]string{"PLACE"}, nil).MailCommands(m)
			if !strings.Contains(own, "PLACE MH1 SEED") || strings.Contains(own, "WHAT YOU NEED") || !info.Quote {
				t.Errorf("%s (greeting %q, sign-off %q): the reader's own text %q (quote taken off: %v)\n%s", c.Name, l.Greeting, l.Bye, own, info.Quote, raw)
			}
			if strings.Contains(l.Signature, "Zürich") && c.Name != "outlook" && c.Name != PhoneHTML.Name && strings.Contains(own, "Zürich") {
				t.Errorf("%s: the signature after \"-- \" is in the reader's own text %q", c.Name, own)
			}
		}
	}
}

// TestWithoutReplyLineFindsItsFrame: the first line is found by its
// "##- ... -##" frame in any words, and nothing else is taken out.
func TestWithoutReplyLineFindsItsFrame(t *testing.T) {
	for _, words := range []string{"Please write your reply above this line", "Scrivi la tua risposta sopra questa riga", "x"} {
		text := "##- " + words + " -##\n\nHello\n##- not a frame"
		if got := WithoutReplyLine(text); got != "\nHello\n##- not a frame" {
			t.Errorf("%q: %q", words, got)
		}
	}
	if got := WithoutReplyLine("Hello\n-## not ##-"); got != "Hello\n-## not ##-" {
		t.Errorf("no frame: %q", got)
	}
}
