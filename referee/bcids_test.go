package referee

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/templates"
)

// Issue 21: Brew Crafters' canonical commands are written in the codes the
// menus show (engine/brewcrafters doc.go "Canonical commands"). Whole bot
// games in every language, each answer sent in the data-file id form
// (HIRE BREWPUB_MANAGER, B RESEARCH OPS SPACE_YEASTLAB) so that the echo
// shows its canonical command, every few turns a copied menu line whose
// number is another option's (refused, naming both), and not one line of
// any mail a player gets (echo, refusal, menu, log, summary) may carry a
// data-file id that is not also its code: every such id of the data file
// is looked for. Issue 22: nor may a summary show a worker's, building's,
// partnership's or Market space's code: it names them in words.
func TestBrewCraftersMailsCarryNoDataID(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	if raceEnabled {
		t.Skip("a whole-game content check in one goroutine: make check runs it without -race (make content)")
	}
	for _, lang := range templates.Languages {
		for _, variant := range []string{"first", "complex"} {
			t.Run(lang+"/"+variant, func(t *testing.T) { playBCWithoutIDs(t, lang, variant) })
		}
	}
}

// codeWord matches code as a whole word of a mail line: not inside a
// longer code (letters, digits, underscores on either side).
func codeWord(code string) *regexp.Regexp {
	return regexp.MustCompile(`(^|[^A-Z0-9_])` + regexp.QuoteMeta(code) + `($|[^A-Z0-9_])`)
}

func playBCWithoutIDs(t *testing.T, lang, variant string) {
	h := newHarness(t)
	h.org("NEW brewcrafters id=i1 deadline=48h variant=" + variant + " seed=ids21" + lang +
		"\nPLAYER ann@example.test Ann " + lang + "\nPLAYER bob@example.test Bob " + lang)
	h.send("i1", ann, "JOIN", -1)
	h.send("i1", bob, "JOIN", -1)
	var ids []*regexp.Regexp
	for _, c := range h.table("i1").State.(engine.Carder).Cards() {
		for _, id := range []string{c.ID, strings.TrimPrefix(c.ID, "COLLAB_")} {
			if strings.Contains(id, "_") && id != c.Code {
				ids = append(ids, codeWord(id))
			}
		}
	}
	if len(ids) < 20 {
		t.Fatalf("only %d data-file ids to look for", len(ids))
	}
	// Issue 22: the summary names every worker, building, partnership and
	// Market space in words; their codes (what a player types) stay in
	// the menus, the echoes and the legend. PUB is also the Brewpub's slot
	// of the brewing line, which the legend explains.
	var named []*regexp.Regexp
	for _, c := range h.table("i1").State.(engine.Carder).Cards() {
		switch c.Kind {
		case "worker", "building", "partner", "space":
			if len(c.Code) >= 3 && c.Code != "PUB" {
				named = append(named, regexp.MustCompile(`(^|[^A-Za-z0-9_])`+regexp.QuoteMeta(c.Code)+`($|[^A-Za-z0-9_])`))
			}
		}
	}
	if len(named) < 30 {
		t.Fatalf("only %d codes the summary must name in words", len(named))
	}
	// Issue 22: the log ("Ann takes the Everyday Ale Gold Label") and the
	// menu's facts ("token on Everyday Ale") name recipes in words; a
	// recipe's code stays in the commands a player types. IPA is also a
	// word of its name (Hop Harvest IPA).
	var recipes []*regexp.Regexp
	for _, c := range h.table("i1").State.(engine.Carder).Cards() {
		if c.Kind == "recipe" && c.Code != "IPA" {
			recipes = append(recipes, regexp.MustCompile(`(^|[^A-Za-z0-9_])`+regexp.QuoteMeta(c.Code)+`($|[^A-Za-z0-9_])`))
		}
	}
	if len(recipes) < 8 {
		t.Fatalf("only %d recipe codes to look for", len(recipes))
	}
	logHeads := map[string]bool{"SINCE YOUR LAST MAIL": true, "DALLA TUA ULTIMA MAIL": true,
		"DEPUIS LE DERNIER MESSAGE": true, "SINDS JE VORIGE MAIL": true}
	optionLine := regexp.MustCompile(`^\s*\d+\) .*? # `)
	logLines, factLines := 0, 0
	// check reads every mail queued since the last call; sent is the line
	// the player wrote, which the echo quotes as written (the player's own
	// words) before its canonical line.
	summaries := 0
	check := func(what, sent string) {
		for _, m := range h.mails() {
			inSummary, inLog, inFacts := false, false, false
			for _, l := range strings.Split(m.Body, "\n") {
				// words: the part of the line that names things in words
				// (a log line, a menu option's facts), "" elsewhere.
				words := ""
				switch {
				case logHeads[l]:
					inLog = true
				case l == "" || !strings.HasPrefix(l, "  "):
					inLog = false
				case inLog:
					words = l
					logLines++
				}
				if loc := optionLine.FindStringIndex(l); loc != nil {
					words, inFacts = l[loc[1]:], true
					factLines++
				} else if inFacts && strings.HasPrefix(l, "    ") {
					words = l
				} else {
					inFacts = false
				}
				for _, re := range recipes {
					if re.MatchString(words) {
						t.Fatalf("%s: a mail to %s shows a recipe's code, not its name, in %q:\n%s", what, m.To, l, m.Body)
					}
				}
				switch {
				case strings.HasPrefix(l, "Brew Crafters - "):
					inSummary = true
					summaries++
				case l == "--":
					inSummary = false
				}
				if inSummary {
					for _, re := range named {
						if re.MatchString(l) {
							t.Fatalf("%s: a mail to %s shows a code in its summary, not the name, in %q:\n%s", what, m.To, l, m.Body)
						}
					}
				}
				if strings.Contains(l, "@") {
					continue // addresses and links
				}
				if sent != "" {
					l = strings.Replace(l, sent+"  =>", "=>", 1)
				}
				for _, re := range ids {
					if re.MatchString(l) {
						t.Fatalf("%s: a mail to %s shows the data-file id in %q:\n%s", what, m.To, l, m.Body)
					}
				}
				if x := internalID.FindString(l); x != "" {
					t.Fatalf("%s: a mail to %s shows %s in %q:\n%s", what, m.To, x, l, m.Body)
				}
			}
		}
	}
	check("setup", "")
	echoed, refused := 0, 0
	bg := h.newBotGame("i1", 1, 21, uint64(len(lang)))
	bg.Moves = 2000
	bg.Answer = func(tn *botTurn) string {
		st, opts, i := tn.Table.State, tn.Opts, tn.Pick
		if tn.N%3 == 0 {
			// Every third answer in the id form when one is legal: the
			// count does not hang on the bot's path (nor Legal's order).
			for k, o := range opts {
				if mv, err := st.Parse(tn.D.Seat, o.Cmd); err == nil {
					if l, ok := mv.(interface{ Legacy() string }); ok && l.Legacy() != o.Cmd {
						i = k
						break
					}
				}
			}
		}
		cmd := opts[i].Cmd
		mv, err := st.Parse(tn.D.Seat, cmd)
		if err != nil {
			t.Fatalf("option %q: %v", cmd, err)
		}
		if mv.String() != cmd {
			t.Fatalf("option %q is not canonical (%q)", cmd, mv.String())
		}
		if l, ok := mv.(interface{ Legacy() string }); ok && l.Legacy() != cmd {
			cmd = l.Legacy() // the id form: the echo shows the canonical line
			echoed++
		}
		if len(opts) > 2 && tn.N%5 == 0 {
			j := (i + 1) % len(opts)
			out := h.send("i1", tn.Addr, fmt.Sprintf("%d) %s", j+1, opts[i].Cmd), tn.Table.Token())
			if out.Status != "rejected" {
				t.Fatalf("copied line %d) %s with option %d's command: %+v", j+1, opts[i].Cmd, i+1, out)
			}
			refused++
			check("copied-line refusal", "")
		}
		return cmd
	}
	bg.After = func(tn *botTurn, out Outcome) {
		if out.Status != "applied" && out.Status != "queued" {
			t.Fatalf("%q: %+v\n%s", tn.Line, out, h.mailTo(h.mails(), tn.Addr).Body)
		}
		check(tn.Line, tn.Line)
	}
	n := bg.play()
	if h.game("i1").Status == StatusRunning {
		t.Fatalf("the game did not end in %d answers", n)
	}
	if summaries < 10 {
		t.Errorf("only %d summaries read", summaries)
	}
	if logLines < 50 || factLines < 50 {
		t.Errorf("only %d log lines and %d menu lines read", logLines, factLines)
	}
	if echoed < 5 || refused < 5 {
		t.Errorf("only %d answers in id form and %d copied-line refusals", echoed, refused)
	}
	t.Logf("%d answers, %d in id form, %d copied-line refusals", n, echoed, refused)
}

// Issue 22: a placement's log line names the worker hired and the
// partnership taken in the reader's language (ingredients keep their codes,
// M Y, which the menu's legend explains), whether the
// event holds the worker's data-file id or its code (MASH_SPECIALIST or
// MASHSPECIALIST, what a player types), every language, every worker.
func TestBrewCraftersPlaceLineNamesItsArguments(t *testing.T) {
	ts, err := templates.Load()
	if err != nil {
		t.Fatal(err)
	}
	h := newHarness(t)
	h.org("NEW brewcrafters id=p1 deadline=48h variant=complex seed=place22" +
		"\nPLAYER ann@example.test Ann en\nPLAYER bob@example.test Bob en")
	h.send("p1", ann, "JOIN", -1)
	h.send("p1", bob, "JOIN", -1)
	var args []string
	for _, c := range h.table("p1").State.(engine.Carder).Cards() {
		switch c.Kind {
		case "worker":
			args = append(args, c.ID, c.Code)
		case "partner":
			args = append(args, c.Code)
		}
	}
	if len(args) < 40 {
		t.Fatalf("only %d arguments", len(args))
	}
	for _, lang := range templates.Languages {
		for _, a := range args {
			ev := map[string]any{"Seat": 0, "Params": map[string]any{"space": "X1", "kw": "WORKER", "args": []any{a}}}
			out, err := ts.Render("brewcrafters", lang, "event.bc.place", templates.Ctx{Lang: lang, Data: ev})
			if err != nil {
				t.Fatal(err)
			}
			if regexp.MustCompile(`(^|[^A-Za-z])` + regexp.QuoteMeta(a) + `($|[^A-Za-z])`).MatchString(out) {
				t.Errorf("%s: %s is not named: %q", lang, a, out)
			}
		}
	}
}
