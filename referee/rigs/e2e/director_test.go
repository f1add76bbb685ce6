package e2e_test

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/emersion/go-imap/v2"

	"github.com/pbem-referee/referee/mailfmt/mailmsg"
	"github.com/pbem-referee/referee/referee/rigs/mailstack"
	"github.com/pbem-referee/referee/referee/rigs/testkit"
	"github.com/pbem-referee/referee/referee/tournament"
	"github.com/pbem-referee/referee/referee/wiring/daemon"
)

// ourMX is the authserv-id of the Authentication-Results the director
// test's receiving server writes (the players' REGISTER is answered only
// for an authenticated sender, issue 23).
const ourMX = "mx.director.test"

// person is someone who reads their mailbox over IMAP, as a mail client
// shows it: every mail they got, in order.
type person struct {
	user, name string
	got        []*mailmsg.Message
	raw        [][]byte
	used       []bool
	last       imap.UID
	sent       int
}

// await returns the first mail not yet looked at that matches, waiting
// for it (20 s at most).
func (p *person) await(t *testing.T, ms *mailstack.Stack, what string, match func(m *mailmsg.Message) bool) (*mailmsg.Message, []byte) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		for i, m := range p.got {
			if !p.used[i] && match(m) {
				p.used[i] = true
				return m, p.raw[i]
			}
		}
		if time.Now().After(deadline) {
			var subjects []string
			for _, m := range p.got {
				subjects = append(subjects, m.Subject)
			}
			t.Fatalf("%s never got %s; got %q", p.user, what, subjects)
		}
		p.fetch(t, ms)
		time.Sleep(50 * time.Millisecond)
	}
}

// fetch reads what arrived since the last look.
func (p *person) fetch(t *testing.T, ms *mailstack.Stack) {
	t.Helper()
	for _, m := range ms.MessagesAfter(t, p.user, "INBOX", p.last) {
		pm, err := mailmsg.Parse(m.Raw, mailmsg.Options{})
		if err != nil {
			t.Fatalf("%s: unparseable mail: %v", p.user, err)
		}
		p.got, p.raw, p.used, p.last = append(p.got, pm), append(p.raw, m.Raw), append(p.used, false), m.UID
	}
}

// id is the Message-ID local part of the person's next mail.
func (p *person) id() string { p.sent++; return fmt.Sprintf("%s.%d", p.user, p.sent) }

// subjectHas matches a mail whose subject holds every word. A
// tournament's round mail and the game mails it opens go out together,
// and Postfix delivers them in any order, so a round mail is matched by
// its whole subject ("tournament cup: round 1"), never by words a game
// mail's subject may also hold (its game id "cupr1t1", its "Round 1").
func subjectHas(words ...string) func(m *mailmsg.Message) bool {
	return func(m *mailmsg.Message) bool {
		for _, w := range words {
			if !strings.Contains(m.Subject, w) {
				return false
			}
		}
		return true
	}
}

// mustContain fails unless text holds every word.
func mustContain(t *testing.T, who, text string, words ...string) {
	t.Helper()
	flat := strings.Join(strings.Fields(text), " ") // lines wrap anywhere
	for _, w := range words {
		if !strings.Contains(flat, w) {
			t.Errorf("%s's mail lacks %q:\n%s", who, w, text)
		}
	}
}

// tourSubject finds the tournament's own mails (not its games', cupr1t1).
var tourSubject = regexp.MustCompile(`\bcup\b`)

// englishTournamentWords are words of the English tournament mails that
// an Italian reader must never see.
var englishTournamentWords = regexp.MustCompile(`\b(Hello|round|tournament|correction|standings|Standings|organiser|points|entered|You play|against)\b`)

// Issue 24, the director's commands tested for real: through Postfix and
// Dovecot, an organiser (Gmail) runs a small Swiss tournament of Dice
// Brewing by mail. Two players sign up themselves (REGISTER, then a reply
// with JOIN: Ann in Thunderbird, Carla in Outlook, in Italian, with her
// own Italian keywords), two are entered by the organiser (Bob, Dave);
// START; a result set by the organiser on a game still played and later
// changed, each time with its audit line mailed to that game's players
// (and only to them); Dave's requested bye for round 2, announced to him
// before the round; Erin's late entry, paired from round 2; the
// standings asked by Carla (in Italian) and by the organiser; the final
// standings to everyone. Each person's mails are checked: who got what,
// in which language, within 80 columns.
func TestDirectorCommandsThroughDovecotAndPostfix(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	start := time.Now()
	ms, d, orgTo := startRefereeWith(t, "[auth]\ntrusted_authserv_id = \""+ourMX+"\"\n", "ann", "bob", "carla", "dave", "erin")
	addr := ms.Address
	olga := &person{user: "olga", name: "Olga"}
	ann := &person{user: "ann", name: "Ann"}
	bob := &person{user: "bob", name: "Bob"}
	carla := &person{user: "carla", name: "Carla"}
	dave := &person{user: "dave", name: "Dave"}
	erin := &person{user: "erin", name: "Erin"}
	everyone := []*person{olga, ann, bob, carla, dave, erin}
	olgaSig := "Olga Bianchi\r\nClub secretary, Brewers' Circle"
	orgMail := func(subject, text string) *mailmsg.Message {
		t.Helper()
		id := olga.id()
		ms.Send(t, addr("olga"), []string{orgTo}, testkit.GmailNew(addr("olga"), "Olga Bianchi", orgTo, subject, id, text, olgaSig))
		m, _ := olga.await(t, ms, "the answer to "+subject, func(m *mailmsg.Message) bool {
			return slices.Contains(m.InReplyTo, "<"+id+"@mail.gmail.example.test>")
		})
		return m
	}

	// The tournament, from Gmail.
	ans := orgMail("our winter cup", "Hi referee,\r\n\r\nNEW TOURNAMENT cup game=dicebrewing format=swiss rounds=2\r\n\r\nThanks!")
	mustContain(t, "olga", ans.Text, "NEW TOURNAMENT cup", "swiss")

	// Sign-up: Ann (Thunderbird) and Carla (Outlook, Italian) register at
	// the plain address and answer the confirmation with JOIN.
	authed := func(raw []byte) []byte {
		return append([]byte("Authentication-Results: "+ourMX+"; dkim=pass header.d="+mailstack.Domain+" header.s=s1\r\n"), raw...)
	}
	plain := addr("referee")
	ms.Send(t, addr("ann"), []string{plain}, authed(testkit.GmailNew(addr("ann"), "Ann Example", plain, "sign me up", ann.id(), "REGISTER Ann en", "Ann")))
	ms.Send(t, addr("carla"), []string{plain}, authed(testkit.GmailNew(addr("carla"), "Carla Rossi", plain, "iscrizione", carla.id(), "REGISTER Carla it", "Carla")))
	_, confA := ann.await(t, ms, "the registration", func(*mailmsg.Message) bool { return true })
	_, confC := carla.await(t, ms, "the registration", func(*mailmsg.Message) bool { return true })
	to, raw := thunderbirdReply(t, confA, addr("ann"), ann.id(), "JOIN cup")
	ms.Send(t, addr("ann"), []string{to}, raw)
	to, raw = testkit.OutlookReply(t, confC, addr("carla"), "Carla Rossi", carla.id(), "Ciao!\r\nENTRA cup\r\nGrazie", "Carla Rossi\r\nCircolo dei Birrai")
	ms.Send(t, addr("carla"), []string{to}, raw)
	joinA, _ := ann.await(t, ms, "the JOIN answer", subjectHas("cup", "you are in"))
	mustContain(t, "ann", joinA.Text, "Hello Ann", "you are entered in the Dice Brewing tournament cup", "STANDINGS cup")
	joinC, _ := carla.await(t, ms, "the ENTRA answer", subjectHas("cup", "sei iscritto"))
	mustContain(t, "carla", joinC.Text, "Ciao Carla", "sei iscritto al torneo di Dice Brewing cup", "CLASSIFICA cup")

	// Bob and Dave entered by the organiser, who asks the standings too.
	ans = orgMail("two more", "ENTER cup "+addr("bob")+" Bob en\r\nENTER cup "+addr("dave")+" Dave en")
	mustContain(t, "olga", ans.Text, addr("bob")+" entered in cup", "(4 entrants)")
	for _, p := range []*person{bob, dave} {
		m, _ := p.await(t, ms, "the entry confirmation", subjectHas("cup", "you are in"))
		mustContain(t, p.user, m.Text, "Hello "+p.name, "you are entered in")
	}

	// START, in a Gmail reply to the organiser's last answer.
	last := olga.raw[len(olga.raw)-1]
	startID := olga.id()
	to, raw = testkit.GmailReply(t, last, addr("olga"), "Olga Bianchi", startID, "START cup", olgaSig)
	ms.Send(t, addr("olga"), []string{to}, raw)
	ans, _ = olga.await(t, ms, "the START answer", func(m *mailmsg.Message) bool {
		return slices.Contains(m.InReplyTo, "<"+startID+"@mail.gmail.example.test>")
	})
	mustContain(t, "olga", ans.Text, "cup started: round 1 of 2 open, 2 games")
	tr := record(t, d, "cup")
	rd1 := tr.Rounds[0]
	for _, p := range []*person{ann, bob, dave} {
		m, _ := p.await(t, ms, "round 1", subjectHas("tournament cup: round 1"))
		mustContain(t, p.user, m.Text, "You play game")
	}
	r1C, _ := carla.await(t, ms, "turno 1", subjectHas("cup: turno 1"))
	mustContain(t, "carla", r1C.Text, "Giochi la partita")

	// Dave asks for a bye in round 2 (by mail to the organiser); Erin comes
	// late. Each is told, with the audit line; the organiser's answer
	// names whom it told.
	ans = orgMail("Dave is away next week", "Dave is away next week.\r\nBYE cup Dave 2\r\nENTER cup "+addr("erin")+" Erin en\r\nSee you")
	mustContain(t, "olga", ans.Text, "Told by mail:")
	byeD, _ := dave.await(t, ms, "the bye's correction", subjectHas("cup", "correction"))
	mustContain(t, "dave", byeD.Text, "Round 2: Dave sits out, as asked")
	lateE, _ := erin.await(t, ms, "the late entry", subjectHas("cup"))
	mustContain(t, "erin", lateE.Text, "Hello Erin", "Erin enters late and is paired from round 2")

	// The result of game 1 (still played) set by the organiser: its two
	// players are told, in their language, the others not.
	g1, g2 := rd1.Matches[0], rd1.Matches[1]
	players := func(m tournament.Match) []*person {
		var out []*person
		for _, s := range m.Seats {
			for _, p := range everyone {
				if tr.Entrants[s].Address == addr(p.user) {
					out = append(out, p)
				}
			}
		}
		return out
	}
	ans = orgMail("result of "+g1.GameID, "RESULT "+g1.GameID+" 1,2")
	mustContain(t, "olga", ans.Text, g1.GameID, "Told by mail:")
	for _, p := range players(g1) {
		m, _ := p.await(t, ms, "the result's correction", func(m *mailmsg.Message) bool {
			return strings.Contains(m.Text, g1.GameID) && (strings.Contains(m.Subject, "correction") || strings.Contains(m.Subject, "correzione"))
		})
		if p == carla {
			mustContain(t, "carla", m.Text, "Partita "+g1.GameID+" (turno 1): l'organizzatore ha fissato il risultato")
		} else {
			mustContain(t, p.user, m.Text, "Game "+g1.GameID+" (round 1): the organiser set the result to")
		}
	}
	// Game 2 finished by the bots: round 2 opens, with Dave's bye and Erin.
	orgMail("adjudicate", "ADJUDICATE "+g2.GameID)
	r2D, _ := dave.await(t, ms, "round 2", subjectHas("tournament cup: round 2"))
	mustContain(t, "dave", r2D.Text, "You have the bye you asked for")
	r2E, _ := erin.await(t, ms, "round 2", subjectHas("tournament cup: round 2"))
	mustContain(t, "erin", r2E.Text, "You play game")

	// The result of game 1 changed after round 2 was drawn: the mail names
	// the one it replaced.
	orgMail("correction", "Sorry, I swapped them.\r\nRESULT "+g1.GameID+" 2,1")
	for _, p := range players(g1) {
		m, _ := p.await(t, ms, "the changed result", func(m *mailmsg.Message) bool {
			return strings.Contains(m.Text, g1.GameID) && (strings.Contains(m.Subject, "correction") || strings.Contains(m.Subject, "correzione"))
		})
		if p == carla {
			mustContain(t, "carla", m.Text, "(era ")
		} else {
			mustContain(t, p.user, m.Text, "Hello "+p.name, "set the result to", "(it was ")
		}
	}

	// Standings: Carla asks in Italian (Outlook), the organiser in English.
	askID := carla.id()
	to, raw = testkit.OutlookReply(t, confC, addr("carla"), "Carla Rossi", askID, "CLASSIFICA cup", "Carla Rossi\r\nCircolo dei Birrai")
	ms.Send(t, addr("carla"), []string{to}, raw)
	stC, _ := carla.await(t, ms, "the standings", func(m *mailmsg.Message) bool {
		return len(m.InReplyTo) > 0 && m.InReplyTo[0] == "<"+askID+"@outlook.example.test>"
	})
	mustContain(t, "carla", stC.Text, "cup dopo il turno", "Nome", "Punti")
	for _, p := range []string{"Ann", "Bob", "Carla", "Dave", "Erin"} {
		mustContain(t, "carla", stC.Text, p)
	}
	ans = orgMail("standings", "STANDINGS cup")
	mustContain(t, "olga", ans.Text, "cup after round", "Name", "Points", "Erin")

	// Round 2 finished by the bots: everyone gets the final standings.
	tr = record(t, d, "cup")
	var adj strings.Builder
	for _, m := range tr.Rounds[1].Matches {
		if m.State != tournament.MatchBye && !m.Requested {
			fmt.Fprintf(&adj, "ADJUDICATE %s\r\n", m.GameID)
		}
	}
	orgMail("the end", adj.String())
	for _, p := range []*person{ann, bob, dave, erin} {
		m, _ := p.await(t, ms, "the final standings", subjectHas("cup", "final standings"))
		mustContain(t, p.user, m.Text, "Carla")
	}
	carla.await(t, ms, "la classifica finale", subjectHas("cup", "classifica finale"))
	if tr = record(t, d, "cup"); tr.Status != tournament.StatusOver {
		t.Fatalf("the tournament is %s", tr.Status)
	}
	if err := tournament.Replay(tr); err != nil {
		t.Fatal(err)
	}

	// Each correction reached the players it concerns and nobody else.
	concerned := map[string][]*person{
		"Game " + g1.GameID + " (round 1)": players(g1), "Partita " + g1.GameID + " (turno 1)": players(g1),
		"sits out, as asked": {dave}, "riposa, come ha chiesto": {dave},
		"enters late and is paired": {erin}, "si iscrive in ritardo": {erin},
	}
	for phrase, want := range concerned {
		for _, p := range everyone[1:] {
			n := 0
			for _, m := range p.got {
				if strings.Contains(strings.Join(strings.Fields(m.Text), " "), phrase) {
					n++
				}
			}
			if wanted := slices.Contains(want, p) && (p == carla) == !isEnglish(phrase); wanted != (n > 0) {
				t.Errorf("%s got %d mails with %q", p.user, n, phrase)
			}
		}
	}

	// What each person received: within 80 columns; Carla's tournament
	// mails all in Italian.
	for _, p := range everyone {
		p.fetch(t, ms)
		for _, m := range p.got {
			if !tourSubject.MatchString(m.Subject) && m != stC {
				continue // the games' own mails are tested with the games
			}
			for _, l := range strings.Split(m.Text, "\n") {
				if n := utf8.RuneCountInString(l); n > 80 {
					t.Errorf("%s: %q has a line of %d columns: %s", p.user, m.Subject, n, l)
				}
			}
			// The command line that replays the draws is a command, not prose.
			words := strings.ReplaceAll(m.Subject+"\n"+m.Text, "referee tournament replay", "")
			if p == carla && englishTournamentWords.MatchString(words) {
				t.Errorf("carla: English (%q) in %q:\n%s", englishTournamentWords.FindString(words), m.Subject, m.Text)
			}
		}
	}
	var counts []string
	for _, p := range everyone {
		counts = append(counts, fmt.Sprintf("%s %d", p.user, len(p.got)))
	}
	t.Logf("the director's tournament by mail took %v; mails received: %s", time.Since(start).Round(time.Millisecond), strings.Join(counts, ", "))
}

// isEnglish tells the English audit phrases from the Italian ones.
func isEnglish(phrase string) bool {
	return strings.HasPrefix(phrase, "Game ") || strings.Contains(phrase, "as asked") || strings.Contains(phrase, "late")
}

// record reads a tournament's record from the daemon's core.
func record(t *testing.T, d *daemon.Daemon, id string) *tournament.Tournament {
	t.Helper()
	tr, err := d.Referee.TournamentRecord(id)
	if err != nil || tr == nil {
		t.Fatalf("tournament %s: %v", id, err)
	}
	return tr
}
