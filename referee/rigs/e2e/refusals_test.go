package e2e_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/pbem-referee/referee/mailfmt/mailmsg"
	"github.com/pbem-referee/referee/referee/rigs/mailstack"
	"github.com/pbem-referee/referee/referee/rigs/testkit"
)

// refusalSpeaker is an entrant of the refusal test, in their language:
// their greeting and sign-off, their word for WITHDRAW and the refusal's
// words they must read.
type refusalSpeaker struct {
	p                  *person
	lang               string
	hello, bye, word   string
	refusal, otherLang string
}

// Issue 24 (error.withdraw_other), a player's refused tournament command
// by mail as people write it: four entrants (en, it, fr, nl) of a
// tournament in sign-up each ask, from every client layout (greeting
// line, command, sign-off, signature, the referee's mail quoted above or
// below), to withdraw another entrant, with the English keyword and with
// their own language's. Each attempt is answered once, in reply to it, in
// the writer's language (no English word in it/fr/nl, no Go text, no
// template key, no paragraph twice), within 80 columns; nobody is
// withdrawn.
func TestRefusedTournamentCommandsInPeoplesClients_Issue24(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	ms, d, orgTo := startRefereeWith(t, "[auth]\ntrusted_authserv_id = \""+ourMX+"\"\n", "ann", "carla", "fleur", "noor")
	addr := ms.Address
	olga := &person{user: "olga", name: "Olga"}
	speakers := []refusalSpeaker{
		{&person{user: "ann", name: "Ann"}, "en", "Hi,", "Thanks", "WITHDRAW",
			"Only the organiser can withdraw someone else from tournament cup", ""},
		{&person{user: "carla", name: "Carla"}, "it", "Ciao!", "Grazie", "RITIRA",
			"Solo l'organizzatore può ritirare un altro giocatore dal torneo cup", ""},
		{&person{user: "fleur", name: "Fleur"}, "fr", "Bonjour,", "Merci", "RETIRER",
			"Seul l'organisateur peut retirer quelqu'un d'autre du tournoi cup", ""},
		{&person{user: "noor", name: "Noor"}, "nl", "Hallo,", "Bedankt", "TERUGTREKKEN",
			"Alleen de organisator kan iemand anders uit toernooi cup terugtrekken", ""},
	}
	for i := range speakers {
		speakers[(i+1)%len(speakers)].otherLang = speakers[i].refusal
	}

	id := olga.id()
	ms.Send(t, addr("olga"), []string{orgTo}, testkit.GmailNew(addr("olga"), "Olga Bianchi", orgTo, "our cup", id,
		"Hi referee,\r\n\r\nNEW TOURNAMENT cup game=dicebrewing format=swiss rounds=2\r\n\r\nThanks!", "Olga"))
	ans, _ := olga.await(t, ms, "the NEW TOURNAMENT answer", func(m *mailmsg.Message) bool {
		return slices.Contains(m.InReplyTo, "<"+id+"@mail.gmail.example.test>")
	})
	mustContain(t, "olga", ans.Text, "NEW TOURNAMENT cup")

	// Sign-up: each registers at the plain address in their language and
	// answers the confirmation with JOIN cup, each from another client.
	plain := addr("referee")
	authed := func(raw []byte) []byte {
		return append([]byte("Authentication-Results: "+ourMX+"; dkim=pass header.d="+mailstack.Domain+" header.s=s1\r\n"), raw...)
	}
	confirmations := make([][]byte, len(speakers))
	for i, s := range speakers {
		ms.Send(t, addr(s.p.user), []string{plain}, authed(testkit.GmailNew(addr(s.p.user), s.p.name+" Example", plain,
			"sign me up", s.p.id(), "REGISTER "+s.p.name+" "+s.lang, s.p.name)))
		_, conf := s.p.await(t, ms, "the registration", func(*mailmsg.Message) bool { return true })
		c := testkit.Clients[i%len(testkit.Clients)]
		to, raw := c.Reply(t, conf, addr(s.p.user), s.p.name+" Example", s.p.id(), s.hello+"\r\nJOIN cup\r\n"+s.bye, s.p.name)
		ms.Send(t, addr(s.p.user), []string{to}, raw)
		_, confirmations[i] = s.p.await(t, ms, "the JOIN answer", subjectHas("cup"))
	}
	if tr := record(t, d, "cup"); len(tr.Entrants) != len(speakers) {
		t.Fatalf("%d entrants, want %d", len(tr.Entrants), len(speakers))
	}

	// The refusals: every speaker x every client x both keywords.
	n := 0
	for i, s := range speakers {
		other := speakers[(i+1)%len(speakers)].p
		for _, c := range testkit.Clients {
			for _, word := range []string{"WITHDRAW", s.word} {
				id := s.p.id()
				text := fmt.Sprintf("%s\r\n%s cup %s\r\n%s", s.hello, word, addr(other.user), s.bye)
				to, raw := c.Reply(t, confirmations[i], addr(s.p.user), s.p.name+" Example", id, text, s.p.name+" Example\r\nBrewers' Circle")
				ms.Send(t, addr(s.p.user), []string{to}, raw)
				what := fmt.Sprintf("the answer to %s (%s, %s)", word, c.Name, s.lang)
				m, _ := s.p.await(t, ms, what, func(m *mailmsg.Message) bool {
					return len(m.InReplyTo) == 1 && strings.HasPrefix(m.InReplyTo[0], "<"+id+"@")
				})
				n++
				mustContain(t, s.p.user, m.Text, s.refusal)
				if flat := strings.Join(strings.Fields(m.Text), " "); strings.Contains(flat, s.otherLang) {
					t.Errorf("%s (%s, %s): another language's refusal:\n%s", s.p.user, c.Name, word, m.Text)
				}
				for _, code := range []string{"error.", "err.", "withdraw_other", "errNotMine"} {
					if strings.Contains(m.Text+m.Subject, code) {
						t.Errorf("%s (%s, %s): a code %q shown:\n%s", s.p.user, c.Name, word, code, m.Text)
					}
				}
				for _, l := range strings.Split(m.Text, "\n") {
					if w := utf8.RuneCountInString(l); w > 80 {
						t.Errorf("%s (%s, %s): a line of %d columns: %s", s.p.user, c.Name, word, w, l)
					}
				}
				// A paragraph once: the help after a signature without
				// "-- " (lines not understood) came three times.
				seen := map[string]bool{}
				for _, para := range strings.Split(m.Text, "\n\n") {
					if para = strings.TrimSpace(para); para != "" && seen[para] {
						t.Errorf("%s (%s, %s): a paragraph twice:\n%s", s.p.user, c.Name, word, m.Text)
						break
					}
					seen[para] = true
				}
				// The reply line is the reader's language's too: the
				// whole text is checked.
				testkit.CheckWords(t, s.lang, what, m.Subject+"\n"+m.Text, "cup", s.p.name, other.name,
					addr(s.p.user), addr(other.user), word, "WITHDRAW", "Dice Brewing")
			}
		}
	}

	// Each attempt answered once, and nobody withdrawn.
	for _, s := range speakers {
		s.p.fetch(t, ms)
		if extra := slices.Index(s.p.used, false); extra >= 0 {
			t.Errorf("%s: a mail nobody asked for: %q\n%s", s.p.user, s.p.got[extra].Subject, s.p.got[extra].Text)
		}
	}
	tr := record(t, d, "cup")
	for _, e := range tr.Entrants {
		if e.Withdrawn != 0 {
			t.Errorf("%s withdrawn by another's command", e.Address)
		}
	}
	if len(tr.Entrants) != len(speakers) {
		t.Errorf("%d entrants after the refusals, want %d", len(tr.Entrants), len(speakers))
	}
	t.Logf("%d refused commands answered (%d speakers x %d clients x 2 keywords)", n, len(speakers), len(testkit.Clients))
}
