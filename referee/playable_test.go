package referee

import (
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/pbem-referee/referee/referee/tell"

	"github.com/pbem-referee/referee/engine"
)

// mailStats counts the mails of a scripted game per player and round.
type mailStats struct {
	perRound map[string]map[int]int // address -> round -> mails
	lines    []int                  // lines per mail
	action   int                    // mails asking for a move
	news     int
	aLines   []int // lines per action mail
	nLines   []int // lines per other mail
}

// playScripted plays a 2-player Dice Brewing game to the end through the
// referee, the greedy bot choosing every answer, and returns the figures.
// Every mail is handed to seen.
func playScripted(t *testing.T, langs [2]string, seen func(m *Outgoing, round int)) *mailStats {
	t.Helper()
	return playScriptedNotify(t, langs, "", seen)
}

// playScriptedNotify is playScripted with both players' NOTIFY setting
// ("" keeps the default).
func playScriptedNotify(t *testing.T, langs [2]string, notify string, seen func(m *Outgoing, round int)) *mailStats {
	t.Helper()
	h := newHarness(t)
	h.org("NEW dicebrewing id=db1 deadline=48h seed=scripted1\n" +
		"PLAYER ann@example.test Ann " + langs[0] + "\n" +
		"PLAYER bob@example.test Bob " + langs[1] + "\n")
	join := "JOIN"
	if notify != "" {
		join += "\nNOTIFY " + notify
	}
	h.send("db1", ann, join, -1)
	h.send("db1", bob, join, -1)
	st := &mailStats{perRound: map[string]map[int]int{}}
	round := func() int {
		tb := h.table("db1")
		if tb == nil {
			return 0
		}
		b, _ := json.Marshal(tb.State.View(-1))
		var v struct{ Round int }
		_ = json.Unmarshal(b, &v)
		return v.Round
	}
	count := func(ms []*Outgoing) {
		r := round()
		for _, m := range ms {
			if m.To == org {
				continue
			}
			if st.perRound[m.To] == nil {
				st.perRound[m.To] = map[int]int{}
			}
			st.perRound[m.To][r]++
			n := strings.Count(m.Body, "\n") + 1
			st.lines = append(st.lines, n)
			g := h.game("db1")
			tb := h.table("db1")
			if p := tb.Prompts[g.SeatOfAddress(m.To)]; p != nil && !p.Complete && g.Status == StatusRunning && m.Kind != "end" {
				st.action++
				st.aLines = append(st.aLines, n)
			} else {
				st.news++
				st.nLines = append(st.nLines, n)
			}
			if seen != nil {
				seen(m, r)
			}
		}
	}
	bg := h.newBotGame("db1", 1, 1, 2)
	bg.Mails = count
	bg.play()
	return st
}

func (st *mailStats) report(t *testing.T) {
	var addrs []string
	for a := range st.perRound {
		addrs = append(addrs, a)
	}
	sort.Strings(addrs)
	for _, a := range addrs {
		var rounds []int
		for r := range st.perRound[a] {
			rounds = append(rounds, r)
		}
		sort.Ints(rounds)
		var parts []string
		total := 0
		for _, r := range rounds {
			total += st.perRound[a][r]
			parts = append(parts, strings.Repeat(" ", 0)+itoa(r)+":"+itoa(st.perRound[a][r]))
		}
		t.Logf("%s: %d mails; per round %s", a, total, strings.Join(parts, " "))
	}
	t.Logf("%d mails (%d asking for a move, %d others); lines per mail: %s", len(st.lines), st.action, st.news, spread(st.lines))
	t.Logf("lines per action mail: %s; per other mail: %s", spread(st.aLines), spread(st.nLines))
}

func spread(xs []int) string {
	if len(xs) == 0 {
		return "none"
	}
	xs = append([]int(nil), xs...)
	sort.Ints(xs)
	sum := 0
	for _, n := range xs {
		sum += n
	}
	return fmt.Sprintf("min %d, median %d, mean %d, max %d", xs[0], xs[len(xs)/2], sum/len(xs), xs[len(xs)-1])
}

// rawCode matches an engine's internal code (error codes, score parts) in
// a mail: lower-case words joined by underscores.
var rawCode = regexp.MustCompile(`\b[a-z]+_[a-z_]+\b`)

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// The figures of issue 12: mails per player per round and lines per mail in
// a scripted 2-player Dice Brewing game.
func TestScriptedDiceBrewingFigures(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	long, late := 0, 0
	st := playScripted(t, [2]string{"en", "it"}, func(m *Outgoing, round int) {
		lines := strings.Split(m.Body, "\n")
		for _, l := range lines {
			if utf8.RuneCountInString(l) > 80 {
				long++
			}
		}
		// The first screen (24 lines, 2 of them the reply line the
		// composer puts on top) holds the prompt of an action mail.
		if strings.Contains(m.Subject, "Your move") || strings.Contains(m.Subject, "Tocca a te") {
			first := strings.Join(lines[:min(22, len(lines))], "\n")
			if !strings.Contains(first, "WHAT YOU NEED TO DO NOW") && !strings.Contains(first, "COSA DEVI FARE ADESSO") {
				late++
				if late < 3 {
					t.Errorf("the prompt is not on the first screen:\n%s", m.Body)
				}
			}
		}
	})
	st.report(t)
	t.Logf("lines over 80 columns: %d; action mails without the prompt on the first screen: %d", long, late)
	if long > 0 {
		t.Errorf("%d lines over 80 columns", long)
	}
}

// playWhole plays a whole game of one of the real games with every player
// in lang, through the referee, the greedy bot choosing each answer, with
// a refused line, HELP and STATUS sent now and then; every mail goes to
// seen.
func playWhole(t *testing.T, game, lang string, players int, notify string, seen func(m *Outgoing)) {
	t.Helper()
	h := newHarness(t)
	names := []string{"ann", "bob", "cat", "dan"}[:players]
	text := "NEW " + game + " id=w1 deadline=48h seed=width1\n"
	for _, n := range names {
		text += "PLAYER " + n + "@example.test " + strings.ToUpper(n[:1]) + n[1:] + " " + lang + "\n"
	}
	h.org(text)
	for _, n := range names {
		h.send("w1", n+"@example.test", "JOIN\nNOTIFY "+notify, -1)
	}
	bg := h.newBotGame("w1", 1, 3, 4)
	bg.Mails = func(ms []*Outgoing) {
		for _, m := range ms {
			seen(m)
		}
	}
	bg.Before = func(tn *botTurn) bool {
		switch tn.N % 37 {
		case 5:
			h.send("w1", tn.Addr, "FLY 9", tn.Table.Token())
		case 11:
			h.send("w1", tn.Addr, "HELP\nSTATUS", tn.Table.Token())
		case 23:
			h.send("w1", tn.Addr, "LOG 5\nRULE "+strings.ToUpper(game[:2])+"-1", tn.Table.Token())
		default:
			return false
		}
		return true
	}
	bg.play()
}

// Issue 12.4: every line of every mail of whole games of every game, in
// every language, fits 80 columns, and no internal code shows.
func TestEveryMailOfWholeGamesFits(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	if raceEnabled {
		t.Skip("a whole-game content check in one goroutine: make check runs it without -race (make content)")
	}
	for _, c := range []struct {
		game    string
		players int
	}{{"dicebrewing", 2}, {"fromage", 3}, {"heavenale", 4}, {"brewcrafters", 3}} {
		for _, lang := range []string{"en", "it", "fr", "nl"} {
			t.Run(c.game+"/"+lang, func(t *testing.T) {
				bad := 0
				mails := 0
				playWhole(t, c.game, lang, c.players, "every", func(m *Outgoing) {
					mails++
					if m.Kind == "org" {
						return
					}
					for _, l := range strings.Split(m.Body, "\n") {
						if utf8.RuneCountInString(l) > 80 && !unbreakable(l) {
							bad++
							if bad <= 8 {
								t.Errorf("%s %s: line of %d columns:\n%s", m.To, m.Kind, utf8.RuneCountInString(l), l)
							}
						}
					}
					if c := rawCode.FindString(m.Body); c != "" {
						bad++
						t.Errorf("%s %s: internal code %q shows:\n%s", m.To, m.Kind, c, m.Body)
					}
					if n := utf8.RuneCountInString(m.Subject); n > tell.SubjectWidth {
						t.Errorf("subject of %d runes: %s", n, m.Subject)
					}
				})
				if bad > 8 {
					t.Errorf("%d lines too long in all", bad)
				}
				t.Logf("%d mails", mails)
			})
		}
	}
}

// Issue 12.3: the state in a mail is compact; STATUS FULL (in any language)
// gives all of it.
func TestStatusFull(t *testing.T) {
	h := newHarness(t)
	h.org("NEW dicebrewing id=db2 deadline=48h seed=full1\nPLAYER ann@example.test Ann en\nPLAYER bob@example.test Bob it\n")
	h.send("db2", ann, "JOIN", -1)
	h.send("db2", bob, "JOIN", -1)
	h.mails()
	h.send("db2", ann, "STATUS", -1)
	short := h.mailTo(h.mails(), ann).Body
	lacks(t, short, "rules data", "     reward ")
	contains(t, short, "BLACK MARKET (opens in round 3)\n")
	h.send("db2", ann, "STATUS FULL", -1)
	full := h.mailTo(h.mails(), ann).Body
	contains(t, full, "rules data", "     reward ", "BLACK MARKET (opens in round 3), price (stock):")
	h.send("db2", bob, "STATO COMPLETO", -1)
	contains(t, h.mailTo(h.mails(), bob).Body, "ricompensa")
	if strings.Count(full, "\n") <= strings.Count(short, "\n") {
		t.Errorf("STATUS FULL (%d lines) is not longer than STATUS (%d)", strings.Count(full, "\n"), strings.Count(short, "\n"))
	}
}

// Issue 12.6: an event that carries a rule error shows its translated
// sentence, never the raw code.
func TestEventErrorsTranslated(t *testing.T) {
	r, err := NewRenderer()
	if err != nil {
		t.Fatal(err)
	}
	ev := engine.NewEvent("db.item_dropped", 0, engine.Public, "item", "MH3 G4", "code", "wrong_item", "rule", "DB-5.5.3",
		"params", map[string]any{"space": "MH3", "need": "Y/K", "item": "G4"})
	for _, lang := range []string{"en", "it", "fr", "nl"} {
		s, ok, err := r.Event(Reader{Game: "dicebrewing", Lang: lang, Seat: 0, Seats: []string{"Ann", "Bob"}}, ev)
		if err != nil || !ok || strings.Contains(s, "wrong_item") || !strings.Contains(s, "MH3") || !strings.Contains(s, "G4") {
			t.Errorf("%s: %q %v %v", lang, s, ok, err)
		}
	}
}

// Issue 12.7: ELSE PASS and HELP topics in the reader's language.
func TestLocalElsePassAndHelpTopic(t *testing.T) {
	h := newHarness(t)
	h.org("NEW claim id=c9 seed=loc1\nPLAYER ann@example.test Ann it\nPLAYER bob@example.test Bob fr\n")
	h.send("c9", ann, "JOIN", -1)
	h.send("c9", bob, "JOIN", -1)
	h.mails()
	g := h.game("c9")
	first, second := g.Seats[0].Address, g.Seats[1].Address
	h.send("c9", first, "CLAIM 2", -1)
	h.mails()
	out := h.send("c9", second, "CLAIM 2 SINON PASSE # déjà pris ?", -1)
	m := h.mailTo(h.mails(), second)
	if out.Status != "applied" || strings.Contains(m.Body, "REFUS") {
		t.Fatalf("SINON PASSE refused (%+v):\n%s", out, m.Body)
	}
	// The echo quotes the line as written, read as ELSE PASS (=> PASS),
	// with the rule that made it pass (issue 12.6).
	contains(t, m.Body, "CLAIM 2 SINON PASSE  =>  PASS", "(CL-2)")

	h.org("NEW dicebrewing id=d9 seed=loc2\nPLAYER ann@example.test Ann it\nPLAYER bob@example.test Bob nl\n")
	h.send("d9", ann, "JOIN", -1)
	h.send("d9", bob, "JOIN", -1)
	h.mails()
	h.send("d9", ann, "AIUTO PIAZZA", -1)
	body := h.mailTo(h.mails(), ann).Body
	lacks(t, body, "Non c'è un aiuto")
	// The topic in the reader's words (issue 12.7).
	contains(t, body, "PIAZZA <spazio>", "PIAZZA MH1 SEME")
}

// Issue 12.7: PLAYER ... it sets the language of that game even for a
// player who exists (in English) already; without a language the player's
// own stays.
func TestPlayerLanguagePerGame(t *testing.T) {
	h := newHarness(t)
	h.org("NEW toy id=l1\nPLAYER ann@example.test Ann en\nPLAYER bob@example.test Bob\n")
	h.org("NEW toy id=l2\nPLAYER ann@example.test Ann it\nPLAYER bob@example.test Bob\n")
	g1, g2 := h.game("l1"), h.game("l2")
	if g1.Seats[0].Lang != "en" || g2.Seats[0].Lang != "it" || g2.Seats[1].Lang != "en" {
		t.Fatalf("languages: l1 %s, l2 %s/%s", g1.Seats[0].Lang, g2.Seats[0].Lang, g2.Seats[1].Lang)
	}
}

// Issue 12.4: a halt notice is told once, not repeated in the next mail.
func TestHaltToldOnce(t *testing.T) {
	h := newHarness(t)
	h.org("NEW claim id=c1 seed=golden2 deadline=48h\nPLAYER ann@example.test Ann\nPLAYER bob@example.test Bob\nPLAYER cat@example.test Cat")
	for _, p := range []string{ann, bob, cat} {
		h.send("c1", p, "JOIN", -1)
	}
	h.mails()
	gm := h.game("c1")
	p0, p1, p2 := gm.Seats[0].Address, gm.Seats[1].Address, gm.Seats[2].Address
	h.send("c1", p0, "2", -1)
	h.send("c1", p1, "CLAIM 1\nCLAIM 5\nCLAIM 4 | PASS", -1)
	h.send("c1", p2, "CLAIM 3", -1)
	h.mails()
	h.send("c1", p0, "CLAIM 5", -1)
	contains(t, h.mailTo(h.mails(), p1).Body, `Your queued line "CLAIM 5" could not be played`)
	h.send("c1", p1, "SAY all: oops", -1)
	lacks(t, h.mailTo(h.mails(), p1).Body, `could not be played`)
}

// Issue 12.8: a Fromage sealed step says the turn goes on after the reveal
// unless it ends with DONE.
func TestSealedStepWording(t *testing.T) {
	h := newHarness(t)
	h.org("NEW fromage id=f1 seed=seal1\nPLAYER ann@example.test Ann\nPLAYER bob@example.test Bob\nPLAYER cat@example.test Cat\n")
	for _, p := range []string{ann, bob, cat} {
		h.send("f1", p, "JOIN", -1)
	}
	h.mails()
	tb := h.table("f1")
	seat := h.game("f1").SeatOfAddress(ann)
	d := tb.Prompts[seat].Decision
	cmd := ""
	for _, o := range tb.State.Legal(d) {
		if o.Cmd != "DONE" {
			cmd = o.Cmd
			break
		}
	}
	h.send("f1", ann, cmd, -1)
	body := h.mailTo(h.mails(), ann).Body
	contains(t, body, "That settles this step", "Your\nturn goes on after the reveal")
	lacks(t, body, "Your turn is complete")
	h.send("f1", bob, "DONE", -1)
	// A lone DONE is not "a sealed answer so far" (issue 12.8).
	body = h.mailTo(h.mails(), bob).Body
	contains(t, body, "You ended your turn with DONE: it is complete.")
	lacks(t, body, "Your sealed answer so far")
}

// Issue 12.7: prompts show the keywords in the reader's language, and the
// example a prompt gives works when sent back as it is.
func TestPromptKeywordsInReadersLanguage(t *testing.T) {
	for _, c := range []struct{ lang, label, word string }{
		{"it", "Esempio: ", "Rispondi "}, {"fr", "Exemple : ", "Répondez "}, {"nl", "Voorbeeld: ", "Antwoord "},
	} {
		h := newHarness(t)
		h.org("NEW dicebrewing id=k1 seed=kw1\nPLAYER ann@example.test Ann " + c.lang + "\nPLAYER bob@example.test Bob " + c.lang + "\n")
		h.send("k1", ann, "JOIN", -1)
		h.send("k1", bob, "JOIN", -1)
		for n := 0; n < 6; n++ {
			ms := h.mails()
			tb := h.table("k1")
			w := tb.Waiting()
			addr := h.game("k1").Seats[w[0].Seat].Address
			var body string
			for _, m := range ms {
				if m.To == addr {
					body = m.Body
				}
			}
			i := strings.Index(body, "\n"+c.label)
			if i < 0 {
				t.Fatalf("%s: no example in:\n%s", c.lang, body)
			}
			example := strings.SplitN(body[i+1+len(c.label):], "\n", 2)[0]
			if strings.Contains(body, c.word+"PLACE ") || strings.Contains(body, c.word+"BUY ") || strings.Contains(body, c.word+"PLAY ") {
				t.Errorf("%s: an English keyword in the prompt:\n%s", c.lang, body)
			}
			if out := h.send("k1", addr, example, tb.Token()); out.Status != "applied" && out.Status != "queued" { // queued: a sealed answer (issue 11)
				t.Fatalf("%s: the example %q does not work: %+v", c.lang, example, out)
			}
		}
	}
}
