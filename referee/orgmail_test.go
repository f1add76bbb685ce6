package referee

import (
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// Issue 12.9: a configured organiser who writes to the referee's plain
// address gets their organiser address and the organiser help (at most
// once an hour; a forged sender gets nothing, and the answer only ever
// goes to the organiser); HELP lists every command with its syntax and an
// example; LIST in the mail of a NEW shows the new game.
func TestOrganiserGetsInByMail(t *testing.T) {
	h := newHarness(t)
	h.sendAs(Request{From: "Olga@Example.test", Text: "HELP", MessageID: "<o1@example.test>", SenderVerified: true})
	ms := h.mails()
	m := h.mailTo(ms, org)
	contains(t, m.Body, "referee+org.orgsecretorgsecret@example.test", "ORGANISER COMMANDS",
		"NEW dicebrewing id=g42 players=3 deadline=48h", "PLAYER ann@example.org Ann it Europe/Rome", "EXTEND g42 Ann 12h")
	if m.InReplyTo != "<o1@example.test>" || m.Tag.String() != "org.orgsecretorgsecret" {
		t.Errorf("answer threading %q, tag %q", m.InReplyTo, m.Tag)
	}
	if strings.Contains(m.Subject, "orgsecret") {
		t.Errorf("secret in the subject %q", m.Subject)
	}
	for _, l := range strings.Split(m.Body, "\n") {
		if utf8.RuneCountInString(l) > 80 {
			t.Errorf("line of %d columns: %s", utf8.RuneCountInString(l), l)
		}
	}
	// Again within the hour: nothing (a forger cannot make the referee mail
	// the organiser at will).
	h.clock.Advance(10 * time.Minute)
	if out := h.sendAs(Request{From: org, Text: "HELP"}); out.Status != "ignored" {
		t.Errorf("second hello within the hour: %+v", out)
	}
	h.noMailTo(h.mails(), org)
	h.clock.Advance(time.Hour)
	h.sendAs(Request{From: org, Text: "HELP"})
	h.mailTo(h.mails(), org)

	// The organiser's HELP and LIST after NEW in one mail.
	h.org("HELP\nNEW toy id=g5 rounds=1\nPLAYER ann@example.test Ann it\nPLAYER bob@example.test Bob\nLIST")
	m = h.mailTo(h.mails(), org)
	contains(t, m.Body, "ORGANISER COMMANDS", "NEW: created game g5", "LIST:\n  g5 ")
	// A stranger writing to the plain address is not answered as an organiser.
	out := h.sendAs(Request{From: "mallory@evil.test", Text: "HELP"})
	if strings.Contains(out.Detail, "organiser") {
		t.Errorf("stranger treated as organiser: %+v", out)
	}
	h.noMailTo(h.mails(), "mallory@evil.test")
}

// An organiser mail that fails sender authentication gets nothing.
func TestOrganiserHelloNeedsAuthentication(t *testing.T) {
	h := newHarness(t)
	out, err := h.r.Process(t.Context(), Request{From: org, Text: "HELP", MessageID: "<x@y>", Keys: []string{"msgid:<x@y>"}, Seat: -1, Token: -1})
	if err != nil || out.Status != "ignored" {
		t.Fatalf("%+v %v", out, err)
	}
	h.noMailTo(h.mails(), org)
}
