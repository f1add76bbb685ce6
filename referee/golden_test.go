package referee

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"text/template/parse"
	"time"
	"unicode/utf8"

	"github.com/pbem-referee/referee/mailfmt/mailmsg"
	"github.com/pbem-referee/referee/referee/cmdtable"
	"github.com/pbem-referee/referee/referee/tell"
	"github.com/pbem-referee/referee/templates"
)

// The golden tests drive small games through the harness in each language
// and compare the mails (subject and body) with the files under
// testdata/golden/<scenario>.<lang>.txt. They are the proof that the mails
// read well in every language: review the files after
//
//	go test ./referee -run Golden -update
var updateGolden = flag.Bool("update", false, "rewrite the golden files of the Golden tests")

// golden records the mails of one scenario in one language.
type golden struct {
	t    *testing.T
	h    *harness
	lang string
	b    strings.Builder
	n    int
}

func newGolden(t *testing.T, lang string) *golden {
	return &golden{t: t, h: newHarness(t), lang: lang}
}

// pick returns the only mail to addr among ms whose kind is one of kinds
// (any kind when none is given).
func (g *golden) pick(ms []*Outgoing, addr string, kinds ...string) *Outgoing {
	g.t.Helper()
	var found []*Outgoing
	for _, m := range ms {
		if m.To == addr && (len(kinds) == 0 || slices.Contains(kinds, m.Kind)) {
			found = append(found, m)
		}
	}
	if len(found) != 1 {
		var got []string
		for _, m := range ms {
			got = append(got, m.To+"/"+m.Kind)
		}
		g.t.Fatalf("%s: want one mail to %s %v, have %v", g.lang, addr, kinds, got)
	}
	return found[0]
}

// record adds a mail to the scenario's golden text under a caption.
func (g *golden) record(caption string, m *Outgoing) {
	g.t.Helper()
	g.n++
	g.check(caption, m)
	fmt.Fprintf(&g.b, "======== %d. %s\n", g.n, caption)
	fmt.Fprintf(&g.b, "To: %s", m.To)
	if m.ToName != "" {
		fmt.Fprintf(&g.b, " (%s)", m.ToName)
	}
	fmt.Fprintf(&g.b, " [%s, %s]\n", m.Lang, m.Kind)
	fmt.Fprintf(&g.b, "Tag: %s\n", tagText(m.Tag))
	fmt.Fprintf(&g.b, "Subject: %s\n", m.Subject)
	if m.InReplyTo != "" || len(m.References) > 0 {
		fmt.Fprintf(&g.b, "In-Reply-To: %s\nReferences: %s\n", m.InReplyTo, strings.Join(m.References, " "))
	}
	for _, a := range m.Attachments {
		fmt.Fprintf(&g.b, "Attachment: %s (%s)\n", a.Name, a.ContentType)
	}
	fmt.Fprintf(&g.b, "\n%s\n\n", m.Body)
}

// take records the only mail to addr (of one of kinds) among the mails
// queued since the last call, and returns all of them.
func (g *golden) take(caption, addr string, kinds ...string) []*Outgoing {
	g.t.Helper()
	ms := g.h.mails()
	g.record(caption, g.pick(ms, addr, kinds...))
	return ms
}

// check insists that the mail is in the reader's language, that no template
// error leaked into it and that its lines fit 80 columns (but for lines
// that cannot be broken: a single token too long for any line).
func (g *golden) check(caption string, m *Outgoing) {
	g.t.Helper()
	for _, bad := range []string{"templates:", "template:", "<no value>", "%!", "map[", "(error.", "(info.", "(note.", "(mail."} {
		if strings.Contains(m.Body, bad) || strings.Contains(m.Subject, bad) {
			g.t.Errorf("%s/%s: %q leaked into the mail:\n%s", g.lang, caption, bad, m.Body)
		}
	}
	if strings.Contains(m.Subject, "\n") || utf8.RuneCountInString(m.Subject) > 200 {
		g.t.Errorf("%s/%s: bad subject %q", g.lang, caption, m.Subject)
	}
	if m.Kind == "org" {
		// Organiser mails are English only, and their result lines
		// (built by the referee's code) are not wrapped.
		return
	}
	for _, l := range strings.Split(m.Body, "\n") {
		if utf8.RuneCountInString(l) <= templates.Width || unbreakable(l) {
			continue
		}
		g.t.Errorf("%s/%s: line of %d columns:\n%s", g.lang, caption, utf8.RuneCountInString(l), l)
	}
}

// unbreakable reports whether a line is too long only because of a single
// token (a seed, an address, a player's own text) that wrapping at spaces
// could not fit either.
func unbreakable(l string) bool {
	ind := len(l) - len(strings.TrimLeft(l, " "))
	for _, f := range strings.Fields(l) {
		if ind+2+utf8.RuneCountInString(f) > templates.Width {
			return true
		}
	}
	return false
}

// compare checks the recorded text against the golden file.
func (g *golden) compare(scenario string) {
	g.t.Helper()
	path := filepath.Join("testdata", "golden", scenario+"."+g.lang+".txt")
	got := g.b.String()
	if *updateGolden {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			g.t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			g.t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		g.t.Fatalf("%v (run go test ./referee -run Golden -update)", err)
	}
	if got != string(want) {
		g.t.Errorf("%s differs from the mails rendered now (run go test ./referee -run Golden -update and review the diff):\n%s",
			path, firstDiff(string(want), got))
	}
}

// firstDiff shows the first differing line of two texts, with context.
func firstDiff(want, got string) string {
	wl, gl := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(wl) || i < len(gl); i++ {
		var w, g string
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if w != g || i >= len(wl) || i >= len(gl) {
			return fmt.Sprintf("line %d:\nwant: %q\n got: %q", i+1, w, g)
		}
	}
	return "(equal)"
}

// playOthers plays the default move of one seat waiting in game id, other
// than the seat of addr; it reports whether it found one.
func (g *golden) playOthers(id, addr string) bool {
	g.t.Helper()
	gm := g.h.game(id)
	for _, d := range g.h.table(id).Waiting() {
		if gm.Seats[d.Seat].Address != addr && gm.Seats[d.Seat].Bot == "" {
			g.h.send(id, gm.Seats[d.Seat].Address, d.Default, -1)
			g.h.mails()
			return true
		}
	}
	return false
}

// sendUntokened sends a seat's message without a state token (as a new
// mail to the seat's address would), for games whose ruleset the harness's
// send cannot load (after an ERRATUM).
func (g *golden) sendUntokened(id, addr, text string) {
	g.t.Helper()
	gm := g.h.game(id)
	seat := gm.SeatOfAddress(addr)
	g.h.sendAs(Request{From: addr, Kind: "seat", Game: id, Seat: seat, Secret: gm.Seats[seat].Secret, Token: -1, Text: text})
}

// eachLanguage runs a scenario in every language and compares its golden
// file.
func eachLanguage(t *testing.T, scenario string, run func(g *golden)) {
	for _, lang := range templates.Languages {
		t.Run(lang, func(t *testing.T) {
			g := newGolden(t, lang)
			run(g)
			g.compare(scenario)
		})
	}
}

// Invitations, a join, a decline, a move sent too early, the start with a
// prompt and numbered options.
func TestGoldenInvitations(t *testing.T) {
	eachLanguage(t, "invitations", func(g *golden) {
		h, l := g.h, g.lang
		h.org("NEW toy id=g1 rounds=1 seed=golden1 deadline=24h\n" +
			"PLAYER ann@example.test Ann " + l + " Europe/Rome\n" +
			"PLAYER bob@example.test Bob " + l + "\n" +
			"PLAYER cat@example.test Cat " + l)
		ms := h.mails()
		g.record("the organiser's answer to NEW", g.pick(ms, org))
		g.record("an invitation", g.pick(ms, ann))

		h.send("g1", bob, "NOTIFY every", -1)
		h.mails()
		h.send("g1", ann, "JOIN", -1)
		ms = g.take("JOIN answered", ann)
		g.record("another player joined (to a player with NOTIFY every)", g.pick(ms, bob))
		h.noMailTo(ms, cat) // the default NOTIFY: no mail of its own for a join

		h.send("g1", bob, "BID 2", -1)
		g.take("a move before the start is refused", bob)

		h.send("g1", cat, "DECLINE", -1)
		ms = g.take("DECLINE answered", cat)
		g.record("the organiser hears of the decline", g.pick(ms, org))

		h.org("INVITE g1 dan@example.test Dan " + l)
		h.mails()
		h.send("g1", dan, "JOIN", -1)
		h.mails()
		h.send("g1", bob, "JOIN", -1)
		ms = h.mails()
		g.record("the start: announcement, prompt, numbered options", g.pick(ms, ann))
		g.record("the start, to Bob, whose JOIN started the game", g.pick(ms, bob))
		g.record("the start, to Dan", g.pick(ms, dan))
	})
}

// A sequential game: a numbered reply, accepted, queued and refused lines,
// a halted queue, a stale reply, the end with the result and the seed.
func TestGoldenClaim(t *testing.T) {
	eachLanguage(t, "claim", func(g *golden) {
		h, l := g.h, g.lang
		h.org("NEW claim id=c1 seed=golden2 deadline=48h\n" +
			"PLAYER ann@example.test Ann " + l + "\n" +
			"PLAYER bob@example.test Bob " + l + "\n" +
			"PLAYER cat@example.test Cat " + l)
		for _, p := range []string{ann, bob, cat} {
			h.send("c1", p, "JOIN", -1)
		}
		h.mails()
		gm := h.game("c1")
		p0, p1, p2 := gm.Seats[0].Address, gm.Seats[1].Address, gm.Seats[2].Address
		old := h.table("c1").Token()

		h.send("c1", p0, "2", -1)
		ms := g.take("a numbered reply", p0)
		g.record("the next player's turn", g.pick(ms, p1))

		h.send("c1", p1, "CLAIM 9", -1)
		g.take("a refused line: nothing applied", p1)

		h.send("c1", p1, "CLAIM 1\nCLAIM 5\nCLAIM 4 | PASS\nNOTE hello", -1)
		g.take("applied, queued and immediate lines", p1)

		h.send("c1", p2, "CLAIM 2 | CLAIM 3 ELSE PASS", old)
		g.take("a stale reply, checked again", p2)

		h.send("c1", p0, "CLAIM 5", -1)
		g.take("a halted queue", p1)

		h.send("c1", p1, "CLAIM 4", -1)
		ms = h.mails()
		g.record("the final result with the seed", g.pick(ms, p0))
		g.record("the organiser hears of the end", g.pick(ms, org))
	})
}

// A simultaneous game: a sealed answer, UNDO, reminders, a missed deadline,
// the bot taking over and the player coming back, SAY, the informational
// commands.
func TestGoldenDeadlines(t *testing.T) {
	eachLanguage(t, "deadlines", func(g *golden) {
		h, l := g.h, g.lang
		h.org("NEW toy id=g1 rounds=3 seed=golden3 deadline=24h,misses=2,vacation=3\n" +
			"PLAYER ann@example.test Ann " + l + "\n" +
			"PLAYER bob@example.test Bob " + l + "\n" +
			"PLAYER cat@example.test Cat " + l)
		for _, p := range []string{ann, bob, cat} {
			h.send("g1", p, "JOIN", -1)
		}
		h.mails()

		h.send("g1", ann, "BID 3\nFLY", -1)
		g.take("a refused sealed answer", ann)
		h.send("g1", ann, "BID 3", -1)
		g.take("a sealed answer", ann)
		h.send("g1", ann, "UNDO", -1)
		g.take("UNDO of a sealed line", ann)
		h.send("g1", ann, "BID 4\nBID 2", -1)
		g.take("a sealed answer with a queued line", ann)

		h.send("g1", bob, "SAY ann, cat: who rolls first?", -1)
		ms := g.take("SAY answered", bob)
		g.record("SAY relayed", g.pick(ms, cat))
		h.send("g1", cat, "SAY all: not me", -1)
		ms = h.mails()
		g.record("SAY to all relayed", g.pick(ms, ann))

		h.send("g1", bob, "BID 1", -1)
		h.mails()
		h.clock.Advance(12*time.Hour + time.Minute)
		h.tick()
		g.take("a reminder", cat)
		h.clock.Advance(12 * time.Hour)
		h.tick()
		ms = g.take("a missed deadline", cat)
		g.record("the others after the missed deadline", g.pick(ms, ann))

		h.send("g1", cat, "HELP\nHELP SAY\nHELP FLY\nLOG 6\nRULE TOY-9", -1)
		g.take("HELP, LOG and RULE answered", cat)
		h.send("g1", cat, "VACATION 2026-11-25 2026-11-25\nNOTIFY turn\nFORMAT json\nLANG "+l+"\nCLEAR\nSTATUS", -1)
		g.take("VACATION, NOTIFY, FORMAT, LANG, CLEAR answered", cat)
		h.send("g1", cat, "", -1)
		g.take("a mail without commands", cat)

		// Ann misses her moves until the bot takes over; the others play.
		botted := func() bool { gm := h.game("g1"); return gm.Seats[gm.SeatOfAddress(ann)].Bot != "" }
		for i := 0; i < 20 && !botted(); i++ {
			if g.playOthers("g1", ann) {
				continue
			}
			h.clock.Advance(25 * time.Hour)
			h.tick()
			ms = h.mails()
		}
		if !botted() {
			g.t.Fatal("the bot never took over")
		}
		g.record("the bot takes over", g.pick(ms, ann))
		g.record("the organiser hears of the bot", g.pick(ms, org))
		h.send("g1", ann, "HOLD", -1)
		ms = h.mails()
		g.record("the player is back", g.pick(ms, ann))
		g.record("the others hear it", g.pick(ms, bob))
	})
}

// A player outside games: REGISTER, LIST, JOIN of an open game, OBSERVE,
// mistakes, an untagged mail, an unknown token and a spoofed player token.
func TestGoldenPlayer(t *testing.T) {
	eachLanguage(t, "player", func(g *golden) {
		h, l := g.h, g.lang
		h.sendAs(Request{From: dan, FromName: "Dan", Text: "REGISTER Dan " + l})
		welcome := g.take("REGISTER answered", dan)[0]
		secret := welcome.Tag.Secret
		player := func(text string) { h.sendAs(Request{From: dan, Kind: "player", Secret: secret, Text: text}) }

		h.org("NEW toy id=open1 players=2 open seed=golden4 deadline=48h\nPLAYER ann@example.test Ann " + l +
			"\nNEW toy id=closed seed=golden5\nPLAYER ann@example.test Ann " + l + "\nPLAYER bob@example.test Bob " + l)
		h.mails()
		player("LIST\nJOIN\nJOIN nosuch\nJOIN closed\nFLY")
		g.take("LIST and mistakes answered", dan)
		h.send("open1", ann, "JOIN", -1)
		h.mails()
		player("JOIN open1")
		g.take("JOIN of an open game: the game's mail", dan)
		player("JOIN open1\nLANG " + l)
		g.take("JOIN of a game already joined, LANG", dan)
		player("OBSERVE open1")
		g.take("OBSERVE: the public view", dan, "observe")

		h.sendAs(Request{From: dan, Text: "hello?"})
		g.take("an untagged mail", dan)
		h.sendAs(Request{From: dan, Kind: "seat", Game: "open1", Secret: "nosuchsecret", Token: -1, Text: "HOLD"})
		g.take("an unknown game token", dan)
		h.sendAs(Request{From: "mallory@evil.test", Kind: "player", Secret: secret, Text: "LIST"})
		g.take("a spoofed player token", dan)
	})
}

// The organiser's commands as the players see them, a resignation, a
// spoofed seat token, the game's log, and the organiser's own mails.
func TestGoldenOrganiser(t *testing.T) {
	eachLanguage(t, "organiser", func(g *golden) {
		h, l := g.h, g.lang
		h.org("NEW toy id=g1 rounds=2 seed=golden6 deadline=24h,misses=2,vacation=3\n" +
			"PLAYER ann@example.test Ann " + l + "\n" +
			"PLAYER bob@example.test Bob " + l + "\n" +
			"PLAYER cat@example.test Cat " + l)
		for _, p := range []string{ann, bob, cat} {
			h.send("g1", p, "JOIN", -1)
		}
		h.mails()
		h.send("g1", ann, "BID 2", -1)
		h.send("g1", bob, "BID 1", -1)
		h.send("g1", cat, "BID 0\nVACATION 2026-12-01 2026-12-02", -1)
		h.mails()

		h.org("STATUS g1\nLIST\nPAUSE g1")
		ms := h.mails()
		g.record("the organiser's answer to STATUS, LIST and PAUSE", g.pick(ms, org))
		g.record("PAUSE", g.pick(ms, ann))
		h.send("g1", ann, "ROLL", -1)
		g.take("a move while paused", ann)
		h.clock.Advance(30 * time.Hour)
		h.tick()
		h.org("RESUME g1\nEXTEND g1 ann 12h")
		g.take("RESUME and EXTEND", bob)

		h.send("g1", ann, "ROLL", -1)
		h.mails()
		h.org("ROLLBACK g1 3\nPOLICY g1 12h misses=5")
		g.take("ROLLBACK and POLICY", ann)
		good := strings.Replace(string(toyData(t)), `version = "1"`, `version = "1.1"`, 1)
		h.org("ERRATUM g1\n" + good)
		g.take("ERRATUM", cat)

		h.org("REPLACE g1 bob dan@example.test Dan " + l)
		ms = h.mails()
		g.record("REPLACE: the newcomer's hand-over", g.pick(ms, dan))
		g.record("REPLACE: the player replaced", g.pick(ms, bob))
		g.record("REPLACE: the others", g.pick(ms, cat))

		gm := h.game("g1")
		ai := gm.SeatOfAddress(ann)
		h.sendAs(Request{From: "mallory@evil.test", Kind: "seat", Game: "g1", Seat: ai, Secret: gm.Seats[ai].Secret, Token: -1, Text: "HOLD"})
		g.take("a spoofed seat token", ann)

		g.sendUntokened("g1", cat, "RESIGN")
		ms = g.take("RESIGN answered", cat)
		g.record("a resignation", g.pick(ms, ann))
		g.record("the organiser hears of the resignation", g.pick(ms, org))

		h.org("KICK g1 dan@example.test")
		g.take("KICK", ann, "update")
		g.sendUntokened("g1", ann, "LOG 30")
		g.take("the game's log", ann)
		h.org("ABORT g1")
		g.take("ABORT", ann)

		// Issue 25: the lines of no command are quoted once with the list
		// of commands; the chat (thanks, a name, a greeting) is not, nor
		// a signature line with '|' (no part of it can be a command).
		thanks := map[string]string{"en": "Thanks", "it": "Grazie", "fr": "Merci", "nl": "Bedankt"}[l]
		h.org(orgWord(h, l, "STATUS") + " g1\nFROBNICATE g1\n" + thanks + "\nOlga Bianchi\nBrewers' Circle | Milano\nCiao!")
		g.record("an organiser's mail with a line of no command", g.pick(h.mails(), org))
	})
}

// The command overview is laid out as a table: in every language its lines
// must fit as they are (inside a mail, fold would break the table).
func TestGoldenHelpFits(t *testing.T) {
	r, err := NewRenderer()
	if err != nil {
		t.Fatal(err)
	}
	for _, lang := range templates.Languages {
		// The list's rows are the command table's (package referee/cmdtable).
		rows, err := cmdtable.HelpRows(r.Renderer, Reader{Game: "referee", Lang: lang, Seat: -1}, cmdtable.Seat, "", nil)
		if err != nil || len(rows) == 0 {
			t.Fatalf("%s: help rows %v, %v", lang, rows, err)
		}
		for _, name := range []string{"help", "help.player"} {
			out, err := r.T.Render("referee", lang, name, templates.Ctx{Lang: lang, Seat: -1, Data: map[string]any{"rows": rows}})
			if err != nil {
				t.Fatalf("%s %s: %v", lang, name, err)
			}
			for _, l := range strings.Split(out, "\n") {
				if n := utf8.RuneCountInString(l); n > templates.Width {
					t.Errorf("%s %s: line of %d columns:\n%s", lang, name, n, l)
				}
			}
		}
	}
}

// No placeholder copy of the English templates is left in the translations.
func TestGoldenNoPlaceholders(t *testing.T) {
	for _, lang := range templates.Languages[1:] {
		files, err := filepath.Glob(filepath.Join("..", "templates", "referee", lang, "*.tmpl"))
		if err != nil || len(files) == 0 {
			t.Fatalf("%s: no templates (%v)", lang, err)
		}
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(string(b), "TODO(translate") {
				t.Errorf("%s is still a placeholder", f)
			}
		}
	}
}

// templateFields parses the referee templates of one language (without
// executing them) and returns, per defined name, the data fields it reads:
// .Field chains, $.Field chains and the keys of index calls.
func templateFields(t *testing.T, lang string) map[string]map[string]bool {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("..", "templates", "referee", lang, "*.tmpl"))
	if err != nil || len(files) == 0 {
		t.Fatalf("%s: no templates (%v)", lang, err)
	}
	out := map[string]map[string]bool{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		tr := parse.New(f)
		tr.Mode = parse.SkipFuncCheck
		trees := map[string]*parse.Tree{}
		if _, err := tr.Parse(string(b), "", "", trees); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for name, tree := range trees {
			if name == f || tree.Root == nil {
				continue
			}
			fields := map[string]bool{}
			collectFields(tree.Root, fields)
			out[name] = fields
		}
	}
	return out
}

func collectFields(n parse.Node, fields map[string]bool) {
	switch n := n.(type) {
	case *parse.ListNode:
		if n == nil {
			return
		}
		for _, c := range n.Nodes {
			collectFields(c, fields)
		}
	case *parse.ActionNode:
		collectFields(n.Pipe, fields)
	case *parse.PipeNode:
		if n == nil {
			return
		}
		for _, c := range n.Cmds {
			collectFields(c, fields)
		}
	case *parse.CommandNode:
		if len(n.Args) == 3 {
			if id, ok := n.Args[0].(*parse.IdentifierNode); ok && id.Ident == "index" {
				if s, ok := n.Args[2].(*parse.StringNode); ok {
					fields["["+s.Text+"]"] = true
				}
			}
		}
		for _, a := range n.Args {
			collectFields(a, fields)
		}
	case *parse.FieldNode:
		fields["."+strings.Join(n.Ident, ".")] = true
	case *parse.VariableNode:
		fields[strings.Join(n.Ident, ".")] = true
	case *parse.ChainNode:
		collectFields(n.Node, fields)
		fields["."+strings.Join(n.Field, ".")] = true
	case *parse.IfNode:
		collectFields(n.Pipe, fields)
		collectFields(n.List, fields)
		collectFields(n.ElseList, fields)
	case *parse.RangeNode:
		collectFields(n.Pipe, fields)
		collectFields(n.List, fields)
		collectFields(n.ElseList, fields)
	case *parse.WithNode:
		collectFields(n.Pipe, fields)
		collectFields(n.List, fields)
		collectFields(n.ElseList, fields)
	case *parse.TemplateNode:
		fields["template "+n.Name] = true
		collectFields(n.Pipe, fields)
	}
}

// A translation reads exactly the data fields its English original reads:
// only the words change.
func TestGoldenSameFields(t *testing.T) {
	en := templateFields(t, "en")
	for _, lang := range templates.Languages[1:] {
		tr := templateFields(t, lang)
		for name, want := range en {
			got, ok := tr[name]
			if !ok {
				t.Errorf("%s: %s is not defined", lang, name)
				continue
			}
			var diff []string
			for f := range want {
				if !got[f] {
					diff = append(diff, "-"+f)
				}
			}
			for f := range got {
				// $.Kw, $.KwLine and $.Ar are not data: they write a
				// keyword or an argument word as the reader types it
				// (English needs none).
				if !want[f] && f != "$.Kw" && f != "$.KwLine" && f != "$.Ar" {
					diff = append(diff, "+"+f)
				}
			}
			if len(diff) > 0 {
				sort.Strings(diff)
				t.Errorf("%s %s reads other fields than English: %v", lang, name, diff)
			}
		}
	}
}

// Every referee template renders in every language, on every branch the
// golden scenarios may miss (missingkey=error catches a misspelt field).
func TestGoldenEveryNameRenders(t *testing.T) {
	r, err := NewRenderer()
	if err != nil {
		t.Fatal(err)
	}
	base := func() map[string]any {
		return map[string]any{
			"Params": map[string]any{"budget": 3.0, "name": "Zed", "rule": "DB-1", "usage": "SAY <player|all>: text"},
			"params": map[string]any{"args": []string{"g1", "ann"}, "back": false, "cmds": []string{"PASS"}, "command": "EXTEND",
				"commitment": "c0ffee", "from": "2026-12-01", "name": "Ann", "order": []string{"Ann", "Bob"}, "to": "2026-12-02", "version": "1.1"},
			"address": "ann@example.test", "cmds": []string{"PASS"}, "commitment": "c0ffee", "format": "json", "from": "Bob",
			"game": "g1", "games": []map[string]any{{"id": "g2", "title": "Fromage", "variant": "base", "seats": 1, "players": 4, "policy": DefaultPolicy().View()}},
			"hours": 12.0, "joined": 1, "kind": "registered", "known": true, "left": 2.5, "limit": 3, "line": "BID 2",
			"lines": []string{"one", "two"}, "max": 1000, "missed": 2, "mode": "every", "n": 5, "name": "Ann", "old": "Bob",
			"order": []string{"Ann", "Bob"}, "organiser": org, "player_address": "referee+p.x@example.test", "player_token": "tok",
			"players": 4, "policy": DefaultPolicy().View(), "reason": "550 no such user", "results": []string{"NEW: created"}, "seat": 0,
			"seed": "s33d", "shift": 1.5, "text": "hello", "title": "Fromage", "to": []string{"Ann"}, "topic": "FLY",
			"until": "2026-12-01", "verified": false, "version": "1.1", "status": "running", "summary": "SUMMARY",
			"waiting": []string{"Ann"}, "sha": "abc", "minutes": 60, "kb": 128, "quoted": []string{"550 5.1.1 no such user"},
			"result": "1. Ann 12 / 2. Bob 9", "names": []string{"Bob"}, "more": 2, "list": "  NEW PLAYER",
			// How single lines were read (referee/reading, issue 20).
			"raw": "opzione 2", "typo": "paas", "kw": "PASS", "candidates": []string{"HOLD", "ROLL"}, "hint": "2",
			"notes": []string{`line 1: I read "paas" as PASS.`}, "token": 7,
			"read": &ReadInfo{Lines: 2, Markers: true, Outside: 1, Quote: true, QuoteHeader: "On Mon, Ann wrote:", Signature: true, SignatureLine: "--", Forwarded: true},
			// The rows of the help lists (the command table's, package referee/cmdtable).
			"rows": []string{"HELP [command]      this help"}, "tour_rows": []string{"START <tournament>        close sign-up"},
		}
	}
	variants := []map[string]any{{},
		{"kind": "untagged", "mode": "turn", "format": "text", "verified": true, "known": false, "status": "forming", "limit": 0, "to": nil, "games": nil, "lines": nil, "waiting": nil, "summary": ""},
		{"kind": "unknown_token", "mode": "digest", "status": "paused"},
		{"kind": "spoof", "status": "over"},
		{"kind": "player", "status": "aborted"},
		{"kind": "too_large", "status": "other"},
	}
	mail := func(kind, status string, full bool) *tell.MailData {
		d := &tell.MailData{Game: "g1", Title: "Fromage", Tag: tell.SeatTag("g1", 0, "x"), Name: "Ann", Token: 7, Status: status, Kind: kind,
			Commitment: "c0ffee", Waiting: []string{"Bob"}}
		if full {
			d.Reply = &tell.ReplyView{Rejected: true, Stale: true, Lines: []tell.ReplyLineView{
				{Status: "applied", Text: "2", Cmds: []string{"CLAIM 2"}}, {Status: "rejected", Text: "FLY", Errors: []string{"no"}}}}
			d.Info, d.Notes, d.Log, d.Summary = []string{"info"}, []string{"note"}, []string{"log"}, "SUMMARY"
			d.Prompt, d.Deadline = "Ann: claim\n\n   1) PASS", "Tue 24 Nov 2026 09:00 UTC"
			d.Halt = &tell.HaltView{Line: "CLAIM 5", Errors: []string{"taken"}, SetAside: []string{"CLAIM 4"}}
			d.Sealed, d.Complete, d.Queued, d.Bot = []string{"BID 2"}, true, []string{"HOLD"}, true
			d.Result = &tell.ResultView{Lines: []tell.ResultLine{{Rank: 1, Name: "Ann", Total: 7, Parts: "points 7", Me: true}}}
			d.Seed = "s33d"
		}
		return d
	}
	mails := []*tell.MailData{mail("reply", "running", true), mail("end", "over", false), mail("update", "forming", false)}
	for _, lang := range templates.Languages {
		for _, name := range r.T.Defined("referee", "en") {
			var datas []any
			switch name {
			case "mail.game", "subject.game":
				for _, d := range mails {
					datas = append(datas, templates.Ctx{Lang: lang, Seat: 0, Seats: []string{"Ann", "Bob"}, Data: d})
				}
			case "mail.echo":
				for _, d := range mails {
					if d.Reply != nil {
						datas = append(datas, d)
					}
				}
			case "status":
				for _, s := range []string{"applied", "queued", "sealed", "halted", "else_pass", "rejected", "skipped", "failed", "dropped", "done", "", "other"} {
					datas = append(datas, s)
				}
			case "org.usage":
				for _, lead := range []string{"", "ENTER: "} {
					for _, not := range []string{"", `"loudly"`} {
						datas = append(datas, templates.Ctx{Lang: lang, Seat: -1, Data: map[string]any{"lead": lead,
							"syntax": "ENTER <tournament> <address> <name> [lang] [Area/City]", "not": not}})
					}
				}
			case "org.placeholder":
				for _, p := range []string{"tournament", "old address", "=game", "unknown"} {
					datas = append(datas, templates.Ctx{Lang: lang, Seat: -1, Data: p})
				}
			case "policy":
				none, _ := ParsePolicy("none misses=0")
				full, _ := ParsePolicy("48h place=24h brew=12h at=20:00 days=mon-fri remind=50%+25%+4h misses=3 vacation=14")
				for _, p := range []Policy{DefaultPolicy(), none, full} {
					datas = append(datas, p.View())
				}
			default:
				if d := orgAnswerSample(name); d != nil {
					datas = append(datas, orgAnswerData(lang, d))
					break
				}
				for _, v := range variants {
					m := base()
					for k, x := range v {
						m[k] = x
					}
					datas = append(datas, templates.Ctx{Lang: lang, Seat: 0, Seats: []string{"Ann", "Bob"}, Data: m})
				}
			}
			for i, d := range datas {
				out, err := r.T.Render("referee", lang, name, d)
				if err != nil || strings.TrimSpace(out) == "" && name != "status" {
					t.Errorf("%s %s (data %d): %q, %v", lang, name, i, out, err)
				}
			}
		}
	}
}

// tagText is a tag as the Reply-To plus part carries it, without the
// checks of mailmsg.Tag.String (the test secrets are short).
func tagText(t mailmsg.Tag) string {
	switch t.Kind {
	case mailmsg.TagSeat:
		return fmt.Sprintf("%s.%d.%s", t.Game, t.Seat, t.Secret)
	case mailmsg.TagPlayer:
		return "p." + t.Secret
	case mailmsg.TagOrg:
		return "org." + t.Secret
	}
	return ""
}
