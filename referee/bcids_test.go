package referee

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
	"time"

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
				ids = append(ids, regexp.MustCompile(`(^|[^A-Z0-9_])`+regexp.QuoteMeta(id)+`($|[^A-Z0-9_])`))
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
	// check reads every mail queued since the last call; sent is the line
	// the player wrote, which the echo quotes as written (the player's own
	// words) before its canonical line.
	summaries := 0
	check := func(what, sent string) {
		for _, m := range h.mails() {
			inSummary := false
			for _, l := range strings.Split(m.Body, "\n") {
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
	eg, _ := engine.Lookup("brewcrafters")
	bot, err := eg.(engine.BotMaker).NewBot(eg.Info().Bots[1])
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(21, uint64(len(lang))))
	echoed, refused := 0, 0
	n := 0
	for ; n < 2000 && h.game("i1").Status == StatusRunning; n++ {
		tb := h.table("i1")
		d := tb.Prompts[tb.Waiting()[0].Seat].Decision
		gm := h.game("i1")
		addr := gm.Seats[d.Seat].Address
		opts := tb.State.Legal(d)
		i := bot.Choose(tb.State, d, opts, rng)
		if n%3 == 0 {
			// Every third answer in the id form when one is legal: the
			// count does not hang on the bot's path (nor Legal's order).
			for k, o := range opts {
				if mv, err := tb.State.Parse(d.Seat, o.Cmd); err == nil {
					if l, ok := mv.(interface{ Legacy() string }); ok && l.Legacy() != o.Cmd {
						i = k
						break
					}
				}
			}
		}
		cmd := opts[i].Cmd
		mv, err := tb.State.Parse(d.Seat, cmd)
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
		h.clock.Advance(2 * time.Minute)
		if len(opts) > 2 && n%5 == 0 {
			j := (i + 1) % len(opts)
			out := h.send("i1", addr, fmt.Sprintf("%d) %s", j+1, opts[i].Cmd), tb.Token())
			if out.Status != "rejected" {
				t.Fatalf("copied line %d) %s with option %d's command: %+v", j+1, opts[i].Cmd, i+1, out)
			}
			refused++
			check("copied-line refusal", "")
		}
		out := h.send("i1", addr, cmd, tb.Token())
		if out.Status != "applied" && out.Status != "queued" {
			t.Fatalf("%q: %+v\n%s", cmd, out, h.mailTo(h.mails(), addr).Body)
		}
		check(cmd, cmd)
	}
	if h.game("i1").Status == StatusRunning {
		t.Fatalf("the game did not end in %d answers", n)
	}
	if summaries < 10 {
		t.Errorf("only %d summaries read", summaries)
	}
	if echoed < 5 || refused < 5 {
		t.Errorf("only %d answers in id form and %d copied-line refusals", echoed, refused)
	}
	t.Logf("%d answers, %d in id form, %d copied-line refusals", n, echoed, refused)
}
