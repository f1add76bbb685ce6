package e2e_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pbem-referee/referee/mailfmt/mailmsg"
	"github.com/pbem-referee/referee/referee/rigs/testkit"
)

// TestOrganiserAnswerQuotesUnreadLinesInPeoplesClients_Issue25: the
// organiser's answer to lines it did not act on, through Postfix and
// Dovecot, as people write: an organiser creates a tournament from Gmail,
// then answers the referee from Outlook (the signature under no "-- ",
// with a street number and a phone number), Apple Mail and Thunderbird,
// each time a greeting, STANDINGS, a line that is no command, a sign-off
// and the signature. Each answer gives the standings, quotes exactly the
// line that is no command (once), names none of the greeting, sign-off
// or signature lines, fits 80 columns in the organiser's words (no Go
// text, no template key); a reply resent with the same Message-ID is
// neither acted on nor answered again. The core's test of the same rule
// covers the four languages (TestOrganiserMailQuotesUnreadLines_Issue25).
func TestOrganiserAnswerQuotesUnreadLinesInPeoplesClients_Issue25(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	ms, _, orgTo := startReferee(t, "ann")
	olga := &person{user: "olga", name: "Olga"}
	from := ms.Address("olga")
	sig := "Olga Bianchi\r\nVia Roma 3, 20121 Milano\r\nTel. +39 02 1234567"
	id := olga.id()
	ms.Send(t, from, []string{orgTo}, testkit.GmailNew(from, "Olga Bianchi", orgTo, "our winter cup", id,
		"Hi referee,\r\n\r\nNEW TOURNAMENT cup game=dicebrewing format=swiss rounds=2\r\n\r\nThanks!", sig))
	_, last := olga.await(t, ms, "the NEW TOURNAMENT answer", func(m *mailmsg.Message) bool {
		return slices.Contains(m.InReplyTo, "<"+id+"@mail.gmail.example.test>")
	})
	clients := []struct {
		name  string
		reply func(t testing.TB, orig []byte, from, name, id, text, sig string) (string, []byte)
	}{
		{"Outlook", testkit.OutlookReply}, {"Apple Mail", testkit.AppleMailReply}, {"Thunderbird", testkit.ThunderbirdReply},
	}
	for i, c := range clients {
		odd := []string{"FROBNICATE cup now", "Olga's note | FROBNICATE cup", "ZZTOP cup"}[i]
		text := "Hi referee,\r\n\r\nSTANDINGS cup\r\n" + odd + "\r\n\r\nThanks, see you on the 12th"
		id := olga.id()
		to, raw := c.reply(t, last, from, "Olga Bianchi", id, text, sig)
		ms.Send(t, from, []string{to}, raw)
		ans, ansRaw := olga.await(t, ms, "the answer from "+c.name, func(m *mailmsg.Message) bool {
			return slices.ContainsFunc(m.InReplyTo, func(s string) bool { return strings.Contains(s, id) })
		})
		what := c.name + " reply"
		mustContain(t, "olga", ans.Text, "cup")
		var quoted []string
		for _, l := range strings.Split(ans.Text, "\n") {
			if q, ok := strings.CutPrefix(l, "  > "); ok {
				quoted = append(quoted, q)
			}
		}
		if want := []string{mailmsg.QuoteLine(odd, 76)}; !slices.Equal(quoted, want) {
			t.Errorf("%s: quoted %q, want %q:\n%s", what, quoted, want, ans.Text)
		}
		for _, own := range []string{"Hi referee", "Thanks", "Olga Bianchi", "Via Roma", "+39"} {
			if strings.Contains(ans.Text, own) {
				t.Errorf("%s: the answer names %q (greeting, sign-off or signature):\n%s", what, own, ans.Text)
			}
		}
		testkit.CheckPersonMail(t, "en", what, ans.Subject, ans.Text, append(testkit.OwnLines(t, raw, last), "cup", "olga")...)

		// The same reply again (the same Message-ID): not answered twice.
		n := ms.Count(t, "olga", "INBOX")
		done := ms.Count(t, "referee", "Processed")
		ms.Send(t, from, []string{to}, raw)
		waitFor(t, "the resent reply to be read", func() bool { return ms.Count(t, "referee", "Processed") > done })
		time.Sleep(2 * time.Second)
		if got := ms.Count(t, "olga", "INBOX"); got != n {
			t.Errorf("%s resent: %d more mails, want none", what, got-n)
		}
		last = ansRaw
	}
}
