package referee

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/pbem-referee/referee/mailfmt"
	"github.com/pbem-referee/referee/mailfmt/mailmsg"

	"github.com/pbem-referee/referee/templates"
)

// TestEveryMailStartsWithTheReadersReplyLine (issue 25, every word in the
// reader's language): every mail the referee composes (the organiser's
// answers, invitations, game mails, a sign-up's confirmation, tournament
// mails) starts with the reply line of its reader's language
// (templates.ReplyLine through Composer), and a reply quoting any of them
// under no quote header yields only the player's line.
func TestEveryMailStartsWithTheReadersReplyLine(t *testing.T) {
	h := newHarness(t)
	compose := Composer(mailmsg.Address{Name: "Referee", Addr: "referee@example.test"})
	byLang := map[string]int{}
	kinds := map[string]bool{}
	h.r.opt.Compose = func(m *Outgoing) ([]byte, error) {
		raw, err := compose(m)
		if err != nil {
			return nil, err
		}
		msg, err := mailmsg.Parse(raw, mailmsg.Options{})
		if err != nil {
			t.Fatal(err)
		}
		first, _, _ := strings.Cut(msg.Text, "\n")
		lang := m.Lang
		if !templates.IsLanguage(lang) {
			lang = "en"
		}
		if first != templates.ReplyLine(lang) {
			t.Errorf("%s mail to %s [%s]: starts with %q, want %q", m.Kind, m.To, m.Lang, first, templates.ReplyLine(lang))
		}
		if got, _ := mailfmt.ExtractCommands("PASS\n\n"+msg.Text, mailmsg.Address{Addr: m.To}); got != "PASS" {
			t.Errorf("%s mail to %s [%s]: a reply quoting it reads %q", m.Kind, m.To, m.Lang, got)
		}
		byLang[lang]++
		kinds[m.Kind] = true
		return json.Marshal(m)
	}
	h.org("NEW dicebrewing id=rl1 seed=rl1\nPLAYER ann@example.test Ann it\nPLAYER bob@example.test Bob fr\nPLAYER cat@example.test Cat nl")
	for _, p := range []string{ann, bob, "cat@example.test"} {
		h.send("rl1", p, h.r.render.T.Word("referee", h.game("rl1").Seats[h.game("rl1").SeatOfAddress(p)].Lang, "JOIN"), -1)
	}
	h.send("rl1", ann, "STATUS", -1)
	h.send("rl1", bob, "NOSUCHWORD", -1)
	h.sendAs(Request{From: "dora@example.test", Text: "REGISTER Dora nl"})
	h.org("NEW TOURNAMENT tf game=dicebrewing rounds=2 lang=fr start=2026-12-01T20:00 every=7d\nENTER tf eve@example.test Eve fr\nENTER tf fay@example.test Fay it")
	h.org("STANDINGS tf")
	h.mails()
	for _, lang := range templates.Languages {
		if byLang[lang] == 0 {
			t.Errorf("no mail in %s (%v)", lang, byLang)
		}
	}
	if len(kinds) < 4 {
		t.Errorf("only the kinds %v", kinds)
	}
	t.Logf("mails by language %v, kinds %v", byLang, kinds)
}
