package heavenale

import (
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/enginetest"
	"github.com/pbem-referee/referee/engine/heavenale/catalog"
	"github.com/pbem-referee/referee/engine/heavenale/notation"
	"github.com/pbem-referee/referee/templates"
)

var update = flag.Bool("update", false, "rewrite the golden files of the templates test")

// samplePositions plays whole games (greedy and random moves mixed) and
// returns positions covering every decision kind, and every event.
func samplePositions(t *testing.T) ([]*State, []engine.Event) {
	t.Helper()
	var out []*State
	var evs []engine.Event
	seen := map[string]bool{}
	for k, n := range []int{2, 3, 4} {
		st, setup, err := Game{}.NewState(engine.Config{Seats: seatNames[:n], Seed: fmt.Sprintf("tmpl%d", k),
			Options: map[string]string{"show_pile_contents": fmt.Sprint(k != 1)}})
		if err != nil {
			t.Fatal(err)
		}
		evs = append(evs, setup...)
		s := st.(*State)
		rng := rand.New(rand.NewPCG(uint64(k), 1))
		enginetest.Play{Name: fmt.Sprintf("tmpl%d", k),
			Done: func(engine.State) bool { return s.Phase == phaseOver },
			At: func(m int, _ engine.State, pend []engine.Decision) {
				if d := pend[0]; !seen[d.Kind] || m%97 == 0 {
					seen[d.Kind] = true
					out = append(out, s.Clone().(*State))
				}
			},
			Choose: func(m int, _ engine.State, d engine.Decision, opts []engine.Option) int {
				if m%3 == 0 {
					return rng.IntN(len(opts))
				}
				return Greedy{}.Choose(s, d, opts, rng)
			},
			Applied: func(_ int, _ engine.Decision, _ string, e []engine.Event) { evs = append(evs, e...) },
		}.Run(t, s)
		out = append(out, s.Clone().(*State))
	}
	return out, evs
}

// TestTemplatesRender renders, in every language, the summary for every
// seat and an observer, every prompt with its options, every event, error,
// help and rule text, from real positions of whole games; every line fits
// 80 columns.
func TestTemplatesRender(t *testing.T) {
	set, err := templates.Load()
	if err != nil {
		t.Fatal(err)
	}
	states, evs := samplePositions(t)
	kinds := map[string]bool{}
	for _, lang := range templates.Languages {
		for _, s := range states {
			ctx := templates.Ctx{Lang: lang, Game: catalog.GameName, Seats: s.H.Seats, Word: wordsOf(set, lang)}
			for seat := -1; seat < len(s.Players); seat++ {
				c := ctx
				c.Seat = seat
				checkWidth(t, lang, "summary", render(t, set, lang, "summary", c.With(s.View(seat))))
			}
			for _, d := range s.Pending() {
				kinds[d.Kind] = true
				opts := s.Legal(d)
				// Like the Table: options only when numbered.
				p := engine.Prompt{Decision: d, Numbered: len(opts) <= engine.MaxNumbered, Count: len(opts)}
				if p.Numbered {
					p.Options = opts
				}
				c := ctx
				c.Seat = d.Seat
				checkWidth(t, lang, "prompt."+d.Kind, render(t, set, lang, "prompt."+d.Kind, c.With(templates.PromptData{Prompt: p, View: s.View(d.Seat)})))
				if set.Has(catalog.GameName, lang, "option."+d.Kind) {
					for i, o := range opts {
						out := render(t, set, lang, "option."+d.Kind, c.With(templates.OptionData{N: i + 1, Option: o, Decision: d}))
						checkWidth(t, lang, "option."+d.Kind, "          "+out)
					}
				}
				js, _ := json.Marshal(p)
				var back engine.Prompt
				_ = json.Unmarshal(js, &back)
				render(t, set, lang, "prompt."+d.Kind, c.With(templates.PromptData{Prompt: back, View: s.View(d.Seat)}))
			}
		}
		enginetest.RenderEvents(t, set, catalog.GameName, lang, evs, seatNames, nil)
	}
	// A final scoring with a long run of exchanges, in every language.
	for _, lang := range templates.Languages {
		s := states[len(states)-1].Clone().(*State)
		fp := &s.Final.Players[0]
		fp.Exchanges = nil
		for k := 0; k < 40; k++ {
			fp.Exchanges = append(fp.Exchanges, "HO+1 WO-1 YE-1")
		}
		c := templates.Ctx{Lang: lang, Game: catalog.GameName, Seat: 0, Seats: s.H.Seats, Word: wordsOf(set, lang)}
		checkWidth(t, lang, "summary (final)", render(t, set, lang, "summary", c.With(s.View(0))))
	}
	// Every shed type and a long site name, in every language.
	for _, lang := range templates.Languages {
		s := states[0]
		for typ := 1; typ <= 4; typ++ {
			d := engine.Decision{Seat: 0, Kind: kindShed, Params: map[string]any{"site": "SH7", "type": typ, "round": 1, "rounds": 3}}
			c := templates.Ctx{Lang: lang, Game: catalog.GameName, Seat: 0, Seats: s.H.Seats, Word: wordsOf(set, lang)}
			for _, numbered := range []bool{false, true} {
				p := engine.Prompt{Decision: d, Count: 15, Numbered: numbered}
				checkWidth(t, lang, "prompt.shed", render(t, set, lang, "prompt.shed", c.With(templates.PromptData{Prompt: p, View: s.View(0)})))
			}
		}
	}
	params := map[string]any{"token": "XX", "space": 12, "from": 14, "card": "LOW", "tile": "HO5", "price": 10, "ducats": 4,
		"spot": "S7", "site": "SH2", "type": 2, "count": 2, "colour": "WA", "n": 3, "kind": "buy", "cmd": "BUY",
		"waiting_for": []int{1}, "line": "GO", "expected": "GO <n>", "word": "FLY", "seat": 1}
	for _, lang := range templates.Languages {
		c := templates.Ctx{Lang: lang, Game: catalog.GameName, Seat: 0, Seats: seatNames, Word: wordsOf(set, lang)}
		for _, code := range errorCodes {
			out := render(t, set, lang, "error."+code, c.With(&engine.RuleError{Code: code, Params: params}))
			checkWidth(t, lang, "error."+code, out)
		}
		checkWidth(t, lang, "help", render(t, set, lang, "help", c))
		for _, cmd := range (Game{}).Info().Commands {
			checkWidth(t, lang, "help."+cmd, render(t, set, lang, "help."+cmd, c))
		}
		for _, r := range citedRules(t) {
			checkWidth(t, lang, "rule."+r, render(t, set, lang, "rule."+r, c))
		}
	}
	for _, k := range []string{kindSetup, kindMove, kindBuy, kindShed, kindScore, kindPriv, kindHome} {
		if !kinds[k] {
			t.Errorf("no position with a %s decision", k)
		}
	}
}

// render renders a template of the game (enginetest.Render).
func render(t *testing.T, set *templates.Set, lang, name string, c templates.Ctx) string {
	t.Helper()
	return enginetest.Render(t, set, catalog.GameName, lang, name, c)
}

var checkWidth = enginetest.CheckWidth

var eventTypes = []string{"ha.setup", "ha.deal", "ha.round", "ha.round_end", "ha.home", "ha.move", "ha.barrel", "ha.buy",
	"ha.shed", "ha.shed_activate", "ha.done", "ha.score", "ha.priv", "ha.sell", "ha.undo", "ha.pref", "ha.final", engine.EvGameOver}

var errorCodes = []string{"bad_colour", "bad_tile", "res_needs_colour", "no_space", "must_move", "backwards", "cannot_buy",
	"no_disc", "space_empty", "no_card", "no_barrel", "home_needs_space", "home_taken", "first_forced", "must_buy",
	"tile_not_here", "too_expensive", "bad_spot", "buy_interrupted", "spot_taken", "bad_shed_choice", "spot_twice",
	"bad_scoring_spot", "spot_not_here", "x_needs_number", "no_usable_spot", "spot_unusable", "spot_used", "bad_card",
	"bad_pref_card", "card_needs_colour", "not_lowest", "nothing_to_undo", "use_clear", "not_your_turn", "wrong_decision", "turn_over"}

// citedRules lists the rule ids the engine cites in its errors, and the
// few the summary mentions.
func citedRules(t *testing.T) []string {
	return enginetest.CitedRules(t, nil, "HA-5.5.3", "HA-7.3", "HA-7.4")
}

// TestTemplatesComplete: every event type, error code, decision kind,
// command and cited rule has its template in every language, and the
// lists above match the code.
func TestTemplatesComplete(t *testing.T) {
	set, err := templates.Load()
	if err != nil {
		t.Fatal(err)
	}
	names := []string{"summary", "help"}
	for _, typ := range eventTypes {
		names = append(names, "event."+typ)
	}
	for _, c := range errorCodes {
		names = append(names, "error."+c)
	}
	for _, k := range []string{kindSetup, kindMove, kindBuy, kindShed, kindScore, kindPriv, kindHome} {
		names = append(names, "prompt."+k)
	}
	for _, c := range (Game{}).Info().Commands {
		names = append(names, "help."+c)
	}
	for _, r := range citedRules(t) {
		names = append(names, "rule."+r)
	}
	enginetest.AllDefined(t, set, catalog.GameName, names)
	var src strings.Builder
	entries, _ := os.ReadDir(".")
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".go") && !strings.HasSuffix(e.Name(), "_test.go") {
			b, _ := os.ReadFile(e.Name())
			src.Write(b)
		}
	}
	code := src.String()
	for _, part := range strings.Split(code, `NewEvent("ha.`)[1:] {
		if typ := "ha." + part[:strings.IndexByte(part, '"')]; !slices.Contains(eventTypes, typ) {
			t.Errorf("event type %s is not in eventTypes", typ)
		}
	}
	for _, part := range strings.Split(code, `Reject(`)[1:] {
		args := strings.SplitN(part, ",", 3)
		if len(args) < 2 {
			continue
		}
		c := strings.TrimSpace(args[1])
		if strings.HasPrefix(c, `"`) {
			c = c[1:]
			c = c[:strings.IndexByte(c, '"')]
			if !slices.Contains(errorCodes, c) && c != "bad_ruleset" && c != "bad_option_value" {
				t.Errorf("error code %s is not in errorCodes", c)
			}
		}
	}
	for _, lang := range templates.Languages[1:] {
		for _, w := range map[string][]string{"it": {"VAI", "COMPRA"}, "fr": {"ALLER", "ACHETER"}, "nl": {"GA", "KOOP"}}[lang] {
			if kw := set.Alias(catalog.GameName, lang, w); kw == w {
				t.Errorf("%s: no alias %s", lang, w)
			}
		}
	}
}

// TestAliasesKnownToParser: every alias of the template files means the
// same keyword to the parser (needed inside NEXT blocks).
func TestAliasesKnownToParser(t *testing.T) {
	for _, lang := range templates.Languages {
		b, err := os.ReadFile("../../templates/heavenale/" + lang + "/aliases.txt")
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(string(b), "\n") {
			if i := strings.IndexByte(line, '#'); i >= 0 {
				line = line[:i]
			}
			alias, kw, ok := strings.Cut(line, "=")
			if !ok {
				continue
			}
			alias, kw = strings.ToUpper(strings.TrimSpace(alias)), strings.ToUpper(strings.TrimSpace(kw))
			if got := notation.Keyword(alias); got != notation.Keyword(kw) {
				t.Errorf("%s alias %s = %s, but the parser reads %s", lang, alias, kw, got)
			}
		}
	}
}

// TestTemplatesGolden compares the English summary and move prompt of a
// fixed position with golden files (go test -run Golden -update rewrites them).
func TestTemplatesGolden(t *testing.T) {
	set, err := templates.Load()
	if err != nil {
		t.Fatal(err)
	}
	s := newGame(t, 3)
	bare(s)
	s.Spaces[2] = []string{"HO2", "WA1"}
	s.Spaces[5] = []string{"BA3"}
	s.Spaces[10] = []string{"M3", "M1"}
	s.Discs[12], s.Discs[16] = 1, 1
	put(s, 0, "S4", "HO3", "S7", "HO3", "S9", "BA5", "S8", "WA2", "S6", "YE1", "D2", "WA3", "D5", "M2")
	put(s, 1, "D1", "BA2")
	must(t, s, 0, "GO 2", "BUY HO2 S1", "DONE")
	ctx := templates.Ctx{Lang: "en", Game: catalog.GameName, Seat: 1, Seats: s.H.Seats}
	summary := render(t, set, "en", "summary", ctx.With(s.View(1)))
	d := s.Pending()[0]
	opts := s.Legal(d)
	prompt := render(t, set, "en", "prompt.move", ctx.With(templates.PromptData{Prompt: engine.Prompt{Decision: d, Options: opts, Count: len(opts), Numbered: len(opts) <= engine.MaxNumbered}, View: s.View(1)}))
	var optLines []string
	for i, o := range opts {
		optLines = append(optLines, fmt.Sprintf("%d. %s", i+1, render(t, set, "en", "option.move", ctx.With(templates.OptionData{N: i + 1, Option: o, Decision: d}))))
	}
	prompt += "\n" + strings.Join(optLines, "\n")
	s.Cur, s.Sub = 0, subMove
	garden := strings.Join(s.gardenRows(0, false), "\n") + "\n\n" + strings.Join(s.gardenRows(0, true), "\n")
	for name, got := range map[string]string{"testdata/golden-summary.en.txt": summary, "testdata/golden-prompt.en.txt": prompt,
		"testdata/golden-garden.txt": garden} {
		checkWidth(t, "en", name, got)
		enginetest.Golden(t, name, got, *update)
	}
	// The move prompt in the other languages, with the reader's keywords
	// (issue 14.1).
	for _, lang := range templates.Languages[1:] {
		c := templates.Ctx{Lang: lang, Game: catalog.GameName, Seat: 1, Seats: s.H.Seats, Word: wordsOf(set, lang)}
		s.Cur, s.Sub = 1, subMove
		got := render(t, set, lang, "prompt.move", c.With(templates.PromptData{Prompt: engine.Prompt{Decision: d, Options: opts, Count: len(opts), Numbered: len(opts) <= engine.MaxNumbered}, View: s.View(1)}))
		for i, o := range opts {
			got += fmt.Sprintf("\n%d. %s", i+1, render(t, set, lang, "option.move", c.With(templates.OptionData{N: i + 1, Option: o, Decision: d})))
		}
		name := "testdata/golden-prompt." + lang + ".txt"
		checkWidth(t, lang, name, got)
		enginetest.Golden(t, name, got, *update)
	}
	for _, l := range s.gardenRows(0, true) {
		if utf8.RuneCountInString(l) > 40 {
			t.Errorf("compact garden line over 40 columns: %q", l)
		}
	}
}
