package e2e_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/mailfmt/mailmsg"
	"github.com/pbem-referee/referee/referee"
	"github.com/pbem-referee/referee/referee/rigs/mailstack"
	"github.com/pbem-referee/referee/referee/rigs/testkit"
)

// speaker is a seat's person of the people tests, in their language: the
// heading of their menus, the word of a refused command, and how they
// write (testkit.Writer: a layout drawn per mail).
type speaker struct {
	user, lang, todo, refused string
	json                      bool // FORMAT json: a program reading the JSON part
	w                         *testkit.Writer
}

func speakers(seed string) map[string]*speaker {
	sp := map[string]*speaker{
		"ann":   {user: "ann", lang: "en", todo: "WHAT YOU NEED TO DO NOW", refused: "REFUSED"},
		"carla": {user: "carla", lang: "it", todo: "COSA DEVI FARE ADESSO", refused: "RESPINTO"},
		"fleur": {user: "fleur", lang: "fr", todo: "À VOUS DE JOUER", refused: "REFUS"},
		"noor":  {user: "noor", lang: "nl", todo: "WAT JE NU MOET DOEN", refused: "GEWEIGERD", json: true},
	}
	for u, s := range sp {
		s.w = &testkit.Writer{User: u, Name: strings.ToUpper(u[:1]) + u[1:] + " Example", Lang: s.lang, Seed: seed}
	}
	return sp
}

// latestMenu waits for the user's latest mail with a numbered menu under
// their heading and returns it raw and parsed.
func latestMenu(t *testing.T, ms *mailstack.Stack, user, heading string) ([]byte, *mailmsg.Message) {
	t.Helper()
	var raw []byte
	var m *mailmsg.Message
	waitFor(t, user+"'s menu", func() bool {
		msgs := ms.Messages(t, user, "INBOX")
		for k := len(msgs) - 1; k >= 0; k-- {
			pm, err := mailmsg.Parse(msgs[k].Raw, mailmsg.Options{})
			if err == nil && menuLine(pm.Text, 1) != "" && strings.Contains(pm.Text, heading) {
				raw, m = msgs[k].Raw, pm
				return true
			}
		}
		return false
	})
	return raw, m
}

// Person-shaped mail through Dovecot and Postfix (issue 24, the review's
// cases left): a Dice Brewing game of four, one a language (en, it, fr,
// nl). Each seat answers its turns in turn from a phone that sends HTML
// only (no text part, quoted-printable), writing "2" (the menu's option
// 2), and in a layout drawn per mail (testkit.Writer: Gmail, Outlook,
// Apple Mail or Thunderbird; greeting, sign-off, a signature with
// non-ASCII letters, the referee's mail quoted above or below) copying a
// menu line; Noor is a program (FORMAT json) that answers with the JSON
// part's first legal command in those layouts. Every answer is played
// once for its seat, and its echo (in the seat's language: langcheck, 80
// columns, no paragraph twice, no Go text or template key) refuses
// nothing. Each seat's first reply is resent as it was (the same
// Message-ID): neither played nor answered again. Before each seat's
// first move, Eve forges a reply From that seat (a Gmail reply with her
// Reply-To) to the plain address and to the seat's plus address with a
// made-up secret, twice each: nothing is played, Eve gets no mail at
// all, the seat's holder (whose address was forged) gets at most one mail
// of each kind for the four (the plain address's help and the unknown
// code's), in their language.
func TestPhoneHTMLJSONAndForgedRepliesInPeoplesClients_Issue24(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	sp := speakers("people1")
	ms, d, orgTo := startReferee(t, "ann", "carla", "fleur", "noor", "eve")
	organise(t, ms, orgTo, "e2e-pp1", "NEW dicebrewing id=p1 deadline=none seed=people1\r\n"+
		"PLAYER ann@example.test Ann en\r\nPLAYER carla@example.test Carla it\r\n"+
		"PLAYER fleur@example.test Fleur fr\r\nPLAYER noor@example.test Noor nl\r\n")
	for u, s := range sp {
		ms.WaitCount(t, u, "INBOX", 1, 20*time.Second)
		join := "JOIN"
		if s.json {
			join = "FORMAT json\nJOIN"
		}
		to, raw, _ := s.w.Reply(t, ms.Messages(t, u, "INBOX")[0].Raw, ms.Address(u), "pp-join-"+u, join)
		ms.Send(t, ms.Address(u), []string{to}, raw)
	}
	table := func() (*referee.Game, *engine.Table) { return gameTable(t, d, "p1") }
	waitRunning(t, d, "p1")
	turns := map[string]int{}
	forged, played := 0, map[string]int{}
	for i := 0; i < 12; i++ {
		g, tb := table()
		if g.Status != referee.StatusRunning {
			break
		}
		seat := tb.Waiting()[0].Seat
		u := strings.TrimSuffix(g.Seats[seat].Address, "@example.test")
		s := sp[u]
		prompt, pm := latestMenu(t, ms, u, s.todo)
		if turns[u] == 0 {
			forged += forge(t, ms, table, s, prompt)
		}
		// The answer: "2" from the phone on even turns; else a layout's
		// copied menu line, or (FORMAT json) the first legal command.
		var to, client, answer string
		var raw []byte
		id := fmt.Sprintf("pp-%d-%s", i, u)
		switch {
		case turns[u]%2 == 0:
			answer = "2"
			if menuLine(pm.Text, 2) == "" {
				answer = "1"
			}
			client = testkit.PhoneHTML.Name
			to, raw = testkit.PhoneHTML.Reply(t, prompt, ms.Address(u), s.w.Name, id, answer, "Sent from my phone")
		case s.json:
			js := testkit.JSONPart(prompt)
			var v struct{ Legal []engine.Option }
			if err := json.Unmarshal(js, &v); err != nil || len(v.Legal) == 0 {
				t.Fatalf("%s: no legal answers in the JSON part (%v):\n%s", u, err, js)
			}
			answer = v.Legal[0].Cmd
			to, raw, client = s.w.Reply(t, prompt, ms.Address(u), id, answer)
			played["json in "+client]++
		default:
			answer = "1) " + menuLine(pm.Text, 1)
			to, raw, client = s.w.Reply(t, prompt, ms.Address(u), id, answer)
		}
		turns[u]++
		before, n := tb.Token(), ms.Count(t, u, "INBOX")
		ms.Send(t, ms.Address(u), []string{to}, raw)
		what := fmt.Sprintf("%s's %s reply %q", u, client, answer)
		waitOrShow(t, ms, u, n, what+" to be played", func() bool {
			_, tb := table()
			return tb.Token() != before
		})
		if _, tb := table(); tb.Token() != before+1 {
			t.Errorf("%s: token %d -> %d, want one move", what, before, tb.Token())
		}
		played[client]++
		_, echo := newMail(t, ms, u, n, "")
		if strings.Contains(echo, s.refused) || strings.Contains(echo, "REFUSED") {
			t.Errorf("%s: refused in the echo:\n%s", what, echo)
		}
		testkit.CheckPersonMail(t, s.lang, what, "", echo, append(testkit.OwnLines(t, raw, prompt),
			s.w.Name, "Ann", "Carla", "Fleur", "Noor", "Dice Brewing", "p1")...)
		if turns[u] == 1 {
			// The same mail again (the same Message-ID): read, neither
			// played nor answered.
			_, tb := table()
			after := tb.Token()
			done := ms.Count(t, "referee", "Processed")
			ms.Send(t, ms.Address(u), []string{to}, raw)
			waitFor(t, "the resent mail to be read", func() bool { return ms.Count(t, "referee", "Processed") > done })
			if _, tb := table(); tb.Token() != after {
				t.Errorf("%s resent was played again", what)
			}
			time.Sleep(time.Second)
			if got := ms.Count(t, u, "INBOX"); got != n+1 {
				t.Errorf("%s resent: %d mails after it, want 1 (the first's echo)", what, got-n)
			}
		}
	}
	if got := ms.Count(t, "eve", "INBOX"); got != 0 {
		t.Errorf("the forger got %d mails", got)
	}
	for u := range sp {
		if turns[u] < 2 {
			t.Errorf("%s played %d turns, want 2 at least (%v)", u, turns[u], turns)
		}
	}
	jsonPlayed := 0
	for k, n := range played {
		if strings.HasPrefix(k, "json in ") {
			jsonPlayed += n
		}
	}
	if played[testkit.PhoneHTML.Name] < 4 || jsonPlayed == 0 || forged < 16 {
		t.Errorf("%d HTML-only replies played, %d FORMAT json replies in a layout, %d forged mails sent", played[testkit.PhoneHTML.Name], jsonPlayed, forged)
	}
	t.Logf("played by client: %v; turns %v; %d forged mails", played, turns, forged)
}

// forge sends four replies to the seat's prompt as Eve forges them: From
// the seat's person, Reply-To Eve, through Eve's own mailbox, in turn to
// the plain address and to the seat's plus address with a made-up secret.
// Nothing may be played; the seat's holder gets at most two mails for the
// four, in their language; Eve nothing (checked at the end). It returns the
// mails sent.
func forge(t *testing.T, ms *mailstack.Stack, table func() (*referee.Game, *engine.Table), s *speaker, prompt []byte) int {
	t.Helper()
	m := testkit.Parse(t, prompt)
	tag, ok := mailmsg.TagFromAddress(m.ReplyTo[0].Addr, ms.Address("referee"))
	if !ok || tag.Secret == "" {
		t.Fatalf("no seat tag in %s", m.ReplyTo[0].Addr)
	}
	wrong := strings.Replace(m.ReplyTo[0].Addr, tag.Secret, strings.Repeat("a", len(tag.Secret)), 1)
	_, tb := table()
	before, n := tb.Token(), ms.Count(t, s.user, "INBOX")
	sent := 0
	var own []string
	for k, to := range []string{ms.Address("referee"), wrong, ms.Address("referee"), wrong} {
		_, raw := testkit.GmailReply(t, prompt, ms.Address(s.user), s.w.Name, fmt.Sprintf("forged-%s-%d", s.user, k), "2\r\n1) "+menuLine(m.Text, 1), "Eve")
		// Eve has not the seat's secret: her To is the address she
		// writes to.
		raw = append([]byte("Reply-To: Eve <"+ms.Address("eve")+">\r\n"), bytes.ReplaceAll(raw, []byte(m.ReplyTo[0].Addr), []byte(to))...)
		own = append(own, testkit.OwnLines(t, raw, prompt)...)
		done := ms.Count(t, "referee", "Processed")
		ms.Send(t, ms.Address("eve"), []string{to}, raw)
		waitFor(t, "the forged mail to be read", func() bool { return ms.Count(t, "referee", "Processed") > done })
		sent++
	}
	time.Sleep(time.Second)
	if _, tb := table(); tb.Token() != before {
		t.Errorf("a reply forged From %s was played", s.user)
	}
	msgs := ms.Messages(t, s.user, "INBOX")[n:]
	if len(msgs) > 2 {
		t.Errorf("%s got %d mails for %d forged replies", s.user, len(msgs), sent)
	}
	for _, raw := range msgs {
		pm, err := mailmsg.Parse(raw.Raw, mailmsg.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if slices.ContainsFunc(pm.To, func(a mailmsg.Address) bool { return strings.HasPrefix(a.Addr, "eve@") }) {
			t.Errorf("a mail about a forged reply to the forger:\n%s", pm.Text)
		}
		testkit.CheckPersonMail(t, s.lang, s.user+"'s mail after a forged reply", pm.Subject, pm.Text, append(own, s.w.Name, "Dice Brewing", "p1")...)
		t.Logf("%s's mail after the forged replies: %q\n%s", s.user, pm.Subject, pm.Text)
	}
	return sent
}

// waitOrShow waits for cond (30 s at most); on timeout it fails the test
// with the user's mails after the first n (the referee's answer tells why).
func waitOrShow(t *testing.T, ms *mailstack.Stack, user string, n int, what string, cond func() bool) {
	t.Helper()
	waitShowing(t, what, cond, func() string {
		var texts []string
		for _, m := range ms.Messages(t, user, "INBOX")[n:] {
			pm, err := mailmsg.Parse(m.Raw, mailmsg.Options{})
			if err == nil {
				texts = append(texts, pm.Subject+"\n"+pm.Text)
			}
		}
		return user + "'s mails since:\n" + strings.Join(texts, "\n-----\n")
	})
}
