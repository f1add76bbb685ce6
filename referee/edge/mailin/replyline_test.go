package mailin

import (
	"fmt"
	"strings"
	"testing"

	"github.com/pbem-referee/referee/mailfmt/mailmsg"
	"github.com/pbem-referee/referee/templates"
)

// TestReplyLineOfAnyLanguageReadAtIntake: players of two languages answer
// by replies whose quote header no rule knows (the referee's mail pasted
// below, unquoted or under "| "): the quoted mail starts with the reply
// line of the player's language, with the old English line (a mail from
// before the line was translated), or with the line of the other player's
// language (a mail quoted from elsewhere); each time only the player's
// answer is read (one line), and the move is played.
func TestReplyLineOfAnyLanguageReadAtIntake(t *testing.T) {
	h := newMailHarness(t)
	orgMail := []byte("From: Olga <olga@example.test>\r\nTo: referee+org.orgsecretorgsecret@example.test\r\nSubject: new game\r\n" +
		"Message-ID: <org1@example.test>\r\nDate: Mon, 23 Nov 2026 08:00:00 +0000\r\n\r\n" +
		"NEW claim id=c1\r\nPLAYER ann@example.test Ann it\r\nPLAYER bob@example.test Bob fr\r\n")
	if out := h.handle(orgMail); out.Status != "applied" {
		t.Fatalf("organiser mail: %+v", out)
	}
	in := h.inbox()
	h.handle(h.reply(in[ann][0], ann, "JOIN"))
	h.handle(h.reply(in[bob][0], bob, "JOIN"))
	in = h.inbox()
	lang := map[string]string{ann: "it", bob: "fr"}
	other := map[string]string{ann: bob, bob: ann}
	lastOf := map[string][]byte{ann: last(in[ann]), bob: last(in[bob])}
	g := h.game("c1")
	turn := g.Seats[0].Address
	played := 0
	for i, quote := range []string{"own", "old", "other", "own", "old", "other"} {
		prompt := lastOf[turn]
		pm, err := mailmsg.Parse(prompt, mailmsg.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if first, _, _ := strings.Cut(pm.Text, "\n"); first != templates.ReplyLine(lang[turn]) {
			t.Fatalf("%s's mail starts with %q", turn, first)
		}
		quoted := pm.Text
		switch quote {
		case "old":
			quoted = strings.Replace(quoted, templates.ReplyLine(lang[turn]), mailmsg.DefaultReplyLine, 1)
		case "other":
			om, _ := mailmsg.Parse(lastOf[other[turn]], mailmsg.Options{})
			quoted = om.Text
		}
		if !strings.Contains(quoted, "CLAIM") {
			t.Fatalf("%s: the quoted mail has no command line:\n%s", quote, quoted)
		}
		if i%2 == 1 {
			quoted = "| " + strings.ReplaceAll(quoted, "\n", "\n| ")
		}
		raw := fmt.Sprintf("From: Player <%s>\r\nTo: %s\r\nSubject: Re: %s\r\nMessage-ID: <rl%d@players.test>\r\n"+
			"Date: Mon, 23 Nov 2026 10:00:00 +0000\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n"+
			"Content-Transfer-Encoding: 8bit\r\n\r\n1\r\n\r\n%s", turn, pm.ReplyTo[0].Addr, pm.Subject, i, strings.ReplaceAll(quoted, "\n", "\r\n"))
		if out := h.handle([]byte(raw)); out.Status != "applied" {
			t.Fatalf("%d %s (%s quoting %s): %+v", i, turn, lang[turn], quote, out)
		}
		played++
		in = h.inbox()
		echo, _ := mailmsg.Parse(last(in[turn]), mailmsg.Options{})
		if !strings.Contains(echo.Text, "1  =>  ") {
			t.Errorf("%d %s quoting %s: the echo does not show the answer alone:\n%s", i, turn, quote, echo.Text)
		}
		for _, p := range []string{ann, bob} {
			if len(in[p]) > 0 {
				lastOf[p] = last(in[p])
			}
		}
		g = h.game("c1")
		if g.Status != "running" {
			break
		}
		turn = other[turn]
	}
	if played < 3 {
		t.Errorf("only %d replies played", played)
	}
}
