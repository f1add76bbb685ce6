package mailmsg_test

import (
	"strings"
	"testing"

	"github.com/pbem-referee/referee/mailfmt"
	"github.com/pbem-referee/referee/mailfmt/mailmsg"
)

// TestComposeRoundTrip parses the composed mail back: the referee's own mail
// is Self, its subject tag and body come back, and with the reply line
// omitted Commands returns the body without its signature.
func TestComposeRoundTrip(t *testing.T) {
	o := mailmsg.ReplyOut(t)
	o.ReplyLine = "-"
	o.Text = "SAY all: città, “quotes” and = signs\nPLACE MH1 SEED, MH1+ B3\n\n-- \nReferee"
	raw, err := mailmsg.Compose(o)
	if err != nil {
		t.Fatal(err)
	}
	m, err := mailmsg.Parse(raw, mailmsg.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if c := mailfmt.Classify(m, []string{"referee@example.test"}); c.Class != mailfmt.Self {
		t.Errorf("own mail classified %v", c.Class)
	}
	if m.MessageID != o.MessageID || m.From != o.From || len(m.ReplyTo) != 1 || m.ReplyTo[0].Addr != "referee+g42.1.k7x9q2abcd3e.57@example.test" {
		t.Errorf("headers: %q %+v %+v", m.MessageID, m.From, m.ReplyTo)
	}
	if m.Subject != `[g42.1.k7x9q2abcd3e #57] Dice Brewing: tocca a te - mossa 57` {
		t.Errorf("subject = %q", m.Subject)
	}
	if tr := mailmsg.FindTag(m, mailmsg.GoldenReferee); tr.Tag != o.Tag || tr.SecretFrom != mailmsg.SourceSubject {
		t.Errorf("FindTag = %+v", tr)
	}
	text, info := mailfmt.Commands(m)
	if text != "SAY all: città, \"quotes\" and = signs\nPLACE MH1 SEED, MH1+ B3" || !info.Signature {
		t.Errorf("Commands = %q %+v", text, info)
	}
	if len(m.References) != 3 || m.References[1] != "<rf.g42.1.56.z9@example.test>" {
		t.Errorf("References = %v", m.References)
	}
}

// TestReplyToComposed simulates players answering a composed mail with the
// layouts of several clients: the commands come back and nothing of the
// referee's text does; the tag comes from the Reply-To plus address.
func TestReplyToComposed(t *testing.T) {
	raw, err := mailmsg.Compose(mailmsg.ReplyOut(t))
	if err != nil {
		t.Fatal(err)
	}
	orig, err := mailmsg.Parse(raw, mailmsg.Options{})
	if err != nil {
		t.Fatal(err)
	}
	quoted := mailmsg.QuoteLines(orig.Text)
	layouts := map[string]string{
		"gmail top":    "PASS\n\nOn Tue, May 12, 2026 at 10:14 AM Referee <referee@example.test> wrote:\n\n" + quoted,
		"gmail bottom": "Il giorno mar 12 mag 2026 alle ore 10:14 Referee <referee@example.test> ha scritto:\n" + quoted + "\nPASS\n",
		"outlook": "PASS\n\n________________________________\nDa: Referee <referee@example.test>\nInviato: martedì 12 maggio 2026 10:14\n" +
			"A: Anna Rossi <anna@rossi.example>\nOggetto: " + orig.Subject + "\n\n" + orig.Text,
		"unknown client without quote header": "PASS\n\n" + orig.Text,
	}
	for name, body := range layouts {
		reply := "From: Anna Rossi <anna@rossi.example>\r\n" +
			"To: " + orig.ReplyTo[0].String() + "\r\n" +
			"Subject: Re: " + orig.Subject + "\r\n" +
			"Message-ID: <reply-1@rossi.example>\r\n" +
			"In-Reply-To: " + orig.MessageID + "\r\n" +
			"References: " + strings.Join(orig.References, " ") + " " + orig.MessageID + "\r\n" +
			"Content-Type: text/plain; charset=utf-8\r\n\r\n" + strings.ReplaceAll(body, "\n", "\r\n")
		m, err := mailmsg.Parse([]byte(reply), mailmsg.Options{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if c := mailfmt.Classify(m, []string{"referee@example.test"}); c.Class != mailfmt.Normal {
			t.Errorf("%s: class %v", name, c.Class)
		}
		if text, info := mailfmt.Commands(m); text != "PASS" {
			t.Errorf("%s: Commands = %q (%+v)", name, text, info)
		}
		tr := mailmsg.FindTag(m, mailmsg.GoldenReferee)
		want := mailmsg.Tag{Kind: mailmsg.TagSeat, Game: "g42", Seat: 1, Secret: "k7x9q2abcd3e", Token: 57}
		if tr.Tag != want || tr.SecretFrom != mailmsg.SourceTo || tr.Conflict {
			t.Errorf("%s: FindTag = %+v", name, tr)
		}
	}
}
