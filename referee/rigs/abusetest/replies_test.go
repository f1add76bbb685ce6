package abusetest

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/pbem-referee/referee/referee/rigs/mailstack"
	"github.com/pbem-referee/referee/referee/rigs/testkit"
)

// What a reply may hide (issue 11, items 3, 4, 5 and 9): stale numbers,
// auto-responders, out-of-office subjects over real commands, hidden
// characters.

// staleNumbers (item 3): alice's "1" answers a prompt; once she is asked
// something else, the same "1" resent to the old prompt is a duplicate,
// and another number to the old prompt is refused, showing both options.
func (s *suite) staleNumbers(note func(string, string, ...any)) {
	t := s.t
	alice := s.box["alice"]
	// Alice answers a numbered prompt with "1"; then the game goes on
	// until she is asked again with numbered options that differ.
	var p0, p1 *mail
	for i := 0; p1 == nil; i++ {
		if i > 40 {
			t.Fatal("alice was never asked two different numbered questions in a row")
		}
		p := s.untilAlice()
		numbered := p.js.Prompt.Numbered
		if p0 != nil && numbered && !slicesEqualCmds(p0, p) {
			p1 = p
			break
		}
		if numbered {
			p0 = p
		} else {
			p0 = nil
		}
		s.play("alice")
	}
	alice.settle(300 * time.Millisecond)
	// The same "1", resent to the old prompt.
	s.say("alice", p0, "", "1")
	s.sync("alice")
	// Never silent (issue 20): told once that it was already applied.
	if got := alice.settle(time.Second); len(got) != 1 || !strings.Contains(got[0].text(), "already applied") {
		t.Errorf("a resent stale 1 got %d mails, want one saying it was already applied", len(got))
	}
	// Another number to the old prompt, whose option has changed.
	n := 0 // not 1: that one was played, so "1" is the resend above
	for i := 1; i < len(p0.js.Legal) && n == 0; i++ {
		if i >= len(p1.js.Legal) || p1.js.Legal[i].Cmd != p0.js.Legal[i].Cmd {
			n = i + 1
		}
	}
	if n == 0 {
		t.Fatal("the old and the new prompt agree on every number")
	}
	r := s.ask("alice", p0, "", fmt.Sprint(n))
	if !strings.Contains(r.text(), "older question") || !strings.Contains(r.text(), p0.js.Legal[n-1].Cmd) {
		t.Errorf("stale %d: the answer does not refuse it showing the old option %q:\n%s", n, p0.js.Legal[n-1].Cmd, r.m.Text)
	}
	if r.js == nil || r.js.Token != p1.js.Token {
		t.Errorf("a stale number changed the state")
	}
	note("resent \"1\" to an answered older prompt", "duplicate: nothing played, told so once")
	note(fmt.Sprintf("\"%d\" to an older prompt, option changed", n), "refused, old %q shown; state unchanged", p0.js.Legal[n-1].Cmd)
}

// autoResponders (item 4): vacation notices without automation headers, in
// six languages, and the same mail ten times.
func (s *suite) autoResponders(note func(string, string, ...any)) {
	t := s.t
	alice := s.box["alice"]
	alice.settle(300 * time.Millisecond)
	bodies := []string{
		"Ich bin bis zum 5. Dezember nicht im Büro. Ihre Nachricht wird nicht weitergeleitet.",
		"Sono fuori ufficio fino al 5 dicembre, con accesso limitato alla posta.",
		"Je suis absente du bureau jusqu'au 5 décembre. Merci de votre message.",
		"Ik ben afwezig tot en met 5 december en lees mijn mail niet.",
		"Estoy fuera de la oficina hasta el 5 de diciembre. Gracias por su mensaje.",
		"I am out of the office until 5 December with limited access to e-mail.",
	}
	for _, body := range bodies {
		s.say("alice", alice.latest, "", body)
	}
	s.sync("alice")
	got := alice.settle(time.Second)
	// A seat's first three mails a day without a command are answered
	// (a player's tries, issue 20), never with an error.
	if len(got) > 3 {
		t.Errorf("six vacation notices got %d answers", len(got))
	}
	for _, m := range got {
		if !strings.Contains(m.text(), "reads as a command") {
			t.Errorf("a vacation notice got an error reply:\n%s", m.m.Text)
		}
	}
	note("vacation bodies de/it/fr/nl/es/en, no headers", "%d answers (the first three a day: nothing read)", len(got))
	// The same mail ten times (a responder that sends back the command
	// it read): answered at most three times.
	orig := alice.latest
	for i := 0; i < 10; i++ {
		s.say("alice", orig, "", "LOG 5")
	}
	s.sync("alice")
	got = alice.settle(time.Second)
	if len(got) > 3 || len(got) == 0 {
		var what []string
		for _, m := range got {
			what = append(what, fmt.Sprintf("%v: %.300s", m.m.InReplyTo, m.text()))
		}
		t.Errorf("ten identical mails got %d answers:\n%s", len(got), strings.Join(what, "\n"))
	} else if told := slices.ContainsFunc(got, func(m *mail) bool { return strings.Contains(m.text(), "same mail") }); !told {
		t.Errorf("no answer says why the others are not answered")
	}
	note("the same LOG 5 mail ten times", "%d answers, one says it stops", len(got))
}

// outOfOfficeSubjects (item 5): real commands under vacation subjects, and
// a forged out-of-office.
func (s *suite) outOfOfficeSubjects(note func(string, string, ...any)) {
	t := s.t
	alice := s.box["alice"]
	from := time.Now().AddDate(0, 0, 7).Format("2006-01-02")
	to := time.Now().AddDate(0, 0, 9).Format("2006-01-02")
	r := s.ask("alice", alice.latest, "On vacation next week", "VACATION "+from+" "+to)
	if !strings.Contains(r.text(), "Absence registered") {
		t.Errorf("VACATION under an out-of-office subject:\n%s", r.m.Text)
	}
	r = s.ask("alice", alice.latest, "absent tomorrow", "STATUS")
	if r == nil {
		t.Error("STATUS under \"absent tomorrow\" was not answered")
	}
	note("VACATION under \"On vacation next week\"", "applied: absence registered")
	note("STATUS under \"absent tomorrow\"", "answered")
	// A forged out-of-office with a made-up secret.
	fake := "referee+g1.0.bbbbbbbbbbbbbbbb@" + mailstack.Domain
	raw := compose("alice <"+s.addr("alice")+">", fake, "Automatic reply: out of office", newID("eve"),
		[]string{"Auto-Submitted: auto-replied"}, "I am away until 30 December.")
	s.send(s.addr("eve"), []string{fake}, raw)
	s.sync("alice")
	if got := alice.settle(time.Second); len(got) != 0 {
		t.Errorf("a forged out-of-office brought alice %d mails", len(got))
	}
	note("forged out-of-office, made-up secret", "ignored: no absence offer")
}

// hiddenCharacters (item 9): PASS with a zero-width space or a bidi
// override inside is refused, not played.
func (s *suite) hiddenCharacters(note func(string, string, ...any)) {
	t := s.t
	p := s.untilAlice()
	// Issue 23: bidi controls at a word's edge and confusable letters too.
	for _, cmd := range []string{"PA\u200bSS", "PA\u202eSS", "\u202ePASS", "PASS\u2069", "P\u0410SS", "\uff30\uff21\uff33\uff33"} {
		r := s.ask("alice", p, "", cmd)
		if r.js == nil || r.js.Token != p.js.Token || strings.Contains(r.text(), "PASS:") {
			t.Errorf("%q was played:\n%s", cmd, r.m.Text)
		}
	}
	note("PA<U+200B>SS, PA<U+202E>SS, <U+202E>PASS, PASS<U+2069>, P<Cyrillic A>SS, fullwidth PASS", "refused; state unchanged (before: <U+202E>PASS played)")
}

// placedSignature (session 13, mailfmt doc.go rule 6): alice answers in
// Outlook (testkit, a person's layout: no "-- ", the header block and the
// prompt unquoted below) with a business signature and no sign-off above
// it: a company, a title, a street starting with a keyword ("Piazza" is
// PLACE in Italian) or a number. The move is played and no signature
// line comes back as ignored or refused.
func (s *suite) placedSignature(note func(string, string, ...any)) {
	s.outlookSignature("placed", "ACME GmbH\nCEO\nPiazza Duomo 1\n20121 Milano")
	note("1 above ACME GmbH / CEO / Piazza Duomo 1 (Outlook, no sign-off)", "played, no signature line quoted (before: 3 lines refused)")
}

// outlookSignature has alice answer her prompt in Outlook with sig below
// the move, no sign-off above it: the move must be played and no line of
// sig come back as ignored or refused.
func (s *suite) outlookSignature(kind, sig string) {
	t := s.t
	p := s.untilAlice()
	cmd := p.js.Legal[0].Cmd
	if p.js.Prompt.Numbered {
		cmd = "1"
	}
	id := fmt.Sprintf("alice.%s.%d", kind, time.Now().UnixNano())
	to, raw := testkit.OutlookReply(t, p.raw, s.addr("alice"), "Alice", id, cmd, sig)
	s.send(s.addr("alice"), []string{to}, raw)
	r := s.box["alice"].next("answering "+id, 60*time.Second, func(m *mail) bool { return m.answers("<" + id + "@outlook.example.test>") })
	if r.js == nil || r.js.Token <= p.js.Token {
		t.Errorf("%q above an Outlook signature %q was not played:\n%s", cmd, sig, r.m.Text)
	}
	for _, l := range strings.Split(sig, "\n") {
		if strings.Contains(r.m.Text, l) {
			t.Errorf("the answer quotes the signature line %q:\n%s", l, r.m.Text)
		}
	}
	s.genuine++
}

// keywordCompany (session 14, mailfmt doc.go rule 6): alice answers in
// Outlook with a business signature whose company's first word is a
// keyword of another game ("Birrificio", "Brew": the mail edge reads with
// every game's keywords) and a street ("Via Roma 3"), no sign-off above
// it. The move is played and no signature line comes back as ignored or
// refused (before: the company line refused, the move not played).
func (s *suite) keywordCompany(note func(string, string, ...any)) {
	s.outlookSignature("company", "Anna Keller\nBirrificio Rossi S.r.l.\nAmministratore delegato\nVia Roma 3\nBrew Co Ltd")
	note("1 above Birrificio Rossi S.r.l. / Via Roma 3 / Brew Co Ltd (Outlook)", "played, no signature line quoted (before: not played)")
}
