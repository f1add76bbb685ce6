package referee

import (
	"regexp"
	"strings"
	"testing"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/templates"
)

// TestHeavenAleMailsCarryNoInternalCode (issue 22: "no internal code ever
// reaches a player; codes that players type are explained once per mail in
// a legend"): whole bot games of Heaven & Ale in every language, and not
// one line of any mail a player gets may carry an internal id (a code with
// an underscore), nor a data-file id that is not also its code; a summary
// that shows a privilege card's code (CASH, BREW, COLOR, LOW, BARREL: what
// a player types in PRIV) explains it in the same mail ("CASH (+12
// ducats)", the summary's legend); a barrel goal shows by its condition,
// never by its id (G01).
func TestHeavenAleMailsCarryNoInternalCode(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	if raceEnabled {
		t.Skip("a whole-game content check in one goroutine: make check runs it without -race (make content)")
	}
	for _, lang := range templates.Languages {
		t.Run(lang, func(t *testing.T) { playHAWithoutCodes(t, lang) })
	}
}

func playHAWithoutCodes(t *testing.T, lang string) {
	h := newHarness(t)
	h.org("NEW heavenale id=h1 deadline=48h seed=codes22" + lang +
		"\nPLAYER ann@example.test Ann " + lang + "\nPLAYER bob@example.test Bob " + lang)
	h.send("h1", ann, "JOIN", -1)
	h.send("h1", bob, "JOIN", -1)
	h.send("h1", bob, "PREF GARDEN COMPACT", -1)
	var ids []*regexp.Regexp
	for _, c := range h.table("h1").State.(engine.Carder).Cards() {
		// A barrel goal's id (G01) is no code a player types: the
		// summary's "Barrels taken" says the goal in words.
		if c.ID != c.Code || c.Kind == "goal" {
			ids = append(ids, codeWord(c.ID))
		}
	}
	cards := map[string]*regexp.Regexp{}
	for _, c := range []string{"CASH", "BREW", "COLOR", "LOW", "BARREL"} {
		cards[c] = codeWord(c)
	}
	// Issue 22: the start spaces (FIRST BREW RES CASH: what a player types
	// in GO HOME) and the barrel spaces of the track (BARREL1) that a
	// summary shows are explained in its legend ("BREW brewmaster +1",
	// "BARREL barrel spaces"), in the wide and in the narrow summary (Bob
	// reads the narrow one: PREF GARDEN COMPACT).
	starts := map[string]*regexp.Regexp{}
	for _, c := range []string{"FIRST", "BREW", "RES", "CASH", "BARREL"} {
		starts[c] = regexp.MustCompile(`(^|[^A-Z0-9_])` + c + `[0-9]*($|[^A-Z0-9_(])`)
	}
	told := regexp.MustCompile(`(^|[^A-Z0-9_])(FIRST|BREW|RES|CASH|BARREL) ([a-zà-ÿ]|\+)`)
	startsExplained, narrow := 0, 0
	summaries, explained := 0, 0
	check := func(what string) {
		for _, m := range h.mails() {
			flat := strings.Join(strings.Fields(m.Body), " ") // a legend's line may fold
			inSummary := false
			for _, l := range strings.Split(m.Body, "\n") {
				switch {
				case strings.HasPrefix(l, "Heaven & Ale - "):
					inSummary = true
					summaries++
				case l == "Heaven & Ale": // the narrow summary
					inSummary = true
					summaries++
					narrow++
				case l == "--":
					inSummary = false
				}
				if strings.Contains(l, "@") {
					continue // addresses and links
				}
				if x := internalID.FindString(l); x != "" {
					t.Fatalf("%s: a mail to %s shows %s in %q:\n%s", what, m.To, x, l, m.Body)
				}
				for _, re := range ids {
					if re.MatchString(l) {
						t.Fatalf("%s: a mail to %s shows the data-file id in %q:\n%s", what, m.To, l, m.Body)
					}
				}
				if !inSummary {
					continue
				}
				for c, re := range starts {
					if re.MatchString(l) {
						ok := false
						for _, m := range told.FindAllStringSubmatch(flat, -1) {
							ok = ok || m[2] == c
						}
						if !ok {
							t.Fatalf("%s: a mail to %s shows %s in its summary and never explains it:\n%s", what, m.To, c, m.Body)
						}
						startsExplained++
					}
				}
				for c, re := range cards {
					if re.MatchString(l) {
						if !strings.Contains(flat, c+" (") {
							t.Fatalf("%s: a mail to %s shows the card %s in its summary and never explains it:\n%s", what, m.To, c, m.Body)
						}
						explained++
					}
				}
			}
		}
	}
	check("setup")
	bg := h.newBotGame("h1", 1, 22, uint64(len(lang)))
	bg.Moves = 3000
	bg.After = func(tn *botTurn, out Outcome) {
		if out.Status != "applied" && out.Status != "queued" {
			t.Fatalf("%q: %+v\n%s", tn.Line, out, h.mailTo(h.mails(), tn.Addr).Body)
		}
		check(tn.Line)
	}
	n := bg.play()
	if h.game("h1").Status == StatusRunning {
		t.Fatalf("the game did not end in %d answers", n)
	}
	if startsExplained < 10 || narrow < 5 {
		t.Errorf("only %d start or barrel spaces shown and explained, %d narrow summaries read", startsExplained, narrow)
	}
	if summaries < 10 || explained < 10 {
		t.Errorf("only %d summaries read, %d card codes explained", summaries, explained)
	}
	t.Logf("%d answers, %d summaries (%d narrow), %d card codes and %d start or barrel spaces shown and explained", n, summaries, narrow, explained, startsExplained)
}
