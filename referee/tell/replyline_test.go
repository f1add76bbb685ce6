package tell

import (
	"strings"
	"testing"
	"time"

	"github.com/pbem-referee/referee/mailfmt"
	"github.com/pbem-referee/referee/mailfmt/mailmsg"

	"github.com/pbem-referee/referee/templates"
)

// TestComposerWritesTheReadersReplyLine: a mail to a reader of any
// language starts with that language's reply line (templates.ReplyLine),
// the English one byte for byte as before; a language the templates do not
// have gets English; and a reply to it, quoting the line, yields only the
// player's lines.
func TestComposerWritesTheReadersReplyLine(t *testing.T) {
	compose := Composer(mailmsg.Address{Name: "Referee", Addr: "referee@example.test"})
	seen := map[string]bool{}
	for _, lang := range append(append([]string{}, templates.Languages...), "", "de") {
		m := &Outgoing{Game: "g42", Seat: 1, Kind: "update", To: "anna@example.org", Tag: SeatTag("g42", 1, "k7x9q2abcd3e"),
			Subject: "Dice Brewing", MessageID: "<rf.g42.1.57.n1@example.test>", Date: time.Date(2026, 12, 7, 3, 0, 0, 0, time.UTC),
			Body: "Your options:\n  1) PLACE MH1 SEED\n  2) PASS\n", Lang: lang, AutoSubmitted: "auto-generated"}
		raw, err := compose(m)
		if err != nil {
			t.Fatal(err)
		}
		msg, err := mailmsg.Parse(raw, mailmsg.Options{})
		if err != nil {
			t.Fatal(err)
		}
		first, _, _ := strings.Cut(msg.Text, "\n")
		want := templates.ReplyLine(lang)
		if !templates.IsLanguage(lang) {
			want = mailmsg.DefaultReplyLine
		}
		if first != want {
			t.Errorf("%q: the mail starts with %q, want %q", lang, first, want)
		}
		if lang == "en" && first != mailmsg.DefaultReplyLine {
			t.Errorf("the English line changed: %q", first)
		}
		seen[first] = true
		// A reply that quotes it without any quote header.
		reply := "2\n\n" + msg.Text
		if got, _ := mailfmt.ExtractCommands(reply, mailmsg.Address{Addr: "anna@example.org"}); got != "2" {
			t.Errorf("%q: a reply quoting the mail reads %q", lang, got)
		}
	}
	if len(seen) != len(templates.Languages) {
		t.Errorf("%d different lines for %d languages: %v", len(seen), len(templates.Languages), seen)
	}
}
