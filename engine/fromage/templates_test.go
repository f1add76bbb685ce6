package fromage

import (
	"encoding/json"
	"flag"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/enginetest"
	"github.com/pbem-referee/referee/engine/fromage/catalog"
	"github.com/pbem-referee/referee/engine/fromage/notation"
	"github.com/pbem-referee/referee/templates"
)

var update = flag.Bool("update", false, "rewrite the golden files of the templates test")

// samplePositions returns real game positions covering every phase and decision
// kind, with the events that led to them.
func samplePositions(t *testing.T) ([]*State, []engine.Event) {
	t.Helper()
	var out []*State
	var evs []engine.Event
	seen := map[string]bool{}
	add := func(s *State) {
		out = append(out, s.Clone().(*State))
	}
	for k, cfg := range []engine.Config{
		arrangeA(4, "mode", "advanced"), arrangeA(1, "level", "4", "mode", "advanced"), arrangeA(3, "city_side", "II"),
		arrangeA(2, "festival_side", "II", "dairy_side", "II", "bistro_side", "II"), arrangeA(1, "level", "2"),
	} {
		cfg.Seed = cfg.Seed + string(rune('a'+k))
		st, setup, err := Game{}.NewState(cfg)
		if err != nil {
			t.Fatal(err)
		}
		evs = append(evs, setup...)
		s := st.(*State)
		rng := rand.New(rand.NewPCG(uint64(k), 1))
		enginetest.Play{Name: cfg.Seed,
			Done: func(engine.State) bool { return s.Phase == phaseOver },
			At: func(n int, _ engine.State, pend []engine.Decision) {
				if key := s.Phase + "/" + pend[0].Kind; !seen[key] || n%251 == 0 {
					seen[key] = true
					add(s)
				}
			},
			Choose: func(n int, _ engine.State, d engine.Decision, opts []engine.Option) int {
				if n%3 == 0 {
					return rng.IntN(len(opts))
				}
				return Greedy{}.Choose(s, d, opts, rng)
			},
			Applied: func(_ int, _ engine.Decision, _ string, e []engine.Event) { evs = append(evs, e...) },
		}.Run(t, s)
		add(s)
	}
	return out, evs
}

// TestTemplatesRender renders, in every language, the summary of every
// seat and of an observer, the prompt of every pending decision with its
// numbered options, every event, every error code, the help of every
// command and the rule texts, from real positions; all must render
// without error and fit the mail width.
func TestTemplatesRender(t *testing.T) {
	set, err := templates.Load()
	if err != nil {
		t.Fatal(err)
	}
	states, evs := samplePositions(t)
	kinds := map[string]bool{}
	for _, lang := range templates.Languages {
		for si, s := range states {
			ctx := templates.Ctx{Lang: lang, Game: catalog.GameName, Seats: s.H.Seats}
			for seat := -1; seat < len(s.Players); seat++ {
				c := ctx
				c.Seat = seat
				out := render(t, set, lang, "summary", c.With(s.View(seat)))
				checkWidth(t, lang, "summary", out)
				if seat == 0 && si == 0 && lang == "en" && *update {
					t.Log(out)
				}
			}
			for _, d := range s.Pending() {
				kinds[d.Kind] = true
				opts := s.Legal(d)
				p := engine.Prompt{Decision: d, Options: opts, Numbered: len(opts) <= engine.MaxNumbered, Count: len(opts)}
				c := ctx
				c.Seat = d.Seat
				out := render(t, set, lang, "prompt."+d.Kind, c.With(templates.PromptData{Prompt: p, View: s.View(d.Seat)}))
				checkWidth(t, lang, "prompt."+d.Kind, out)
				if set.Has(catalog.GameName, lang, "option."+d.Kind) {
					for i, o := range opts {
						render(t, set, lang, "option."+d.Kind, c.With(templates.OptionData{N: i + 1, Option: o, Decision: d, View: s.View(d.Seat)}))
					}
				}
				// Prompts stored by the Table come back from JSON.
				js, _ := json.Marshal(p)
				var back engine.Prompt
				_ = json.Unmarshal(js, &back)
				render(t, set, lang, "prompt."+d.Kind, c.With(templates.PromptData{Prompt: back, View: s.View(d.Seat)}))
			}
		}
		// Every event, as each seat and an observer may see it, fresh and
		// after a JSON round trip (numbers become float64).
		enginetest.RenderEvents(t, set, catalog.GameName, lang, evs, seatNames, nil)
	}
	// Every error code, help text and rule, in every language.
	params := map[string]any{"column": "II", "zone": 2, "zones": 4, "cost": 3, "have": 1, "space": "F22", "spaces": []string{"F22", "F42"},
		"venue": "festival", "icon": "jam", "worker": "blue", "returns": 5, "resource": "cattle", "until": 4, "by": "ST05",
		"type": "soft", "aging": "bronze", "card": "O12", "cards": []string{"O05", "O30"}, "choice": "CHOOSE 3", "tile": "ST08",
		"hand": []string{"ST01", "ST02"}, "word": "xyz", "name": "Barn", "want": 2, "got": 1, "kind": "take",
		"waiting_for": []int{1, 2}, "line": "MAKE X", "expected": "MAKE <space>"}
	for _, lang := range templates.Languages {
		c := templates.Ctx{Lang: lang, Game: catalog.GameName, Seat: 0, Seats: seatNames}
		for _, code := range errorCodes {
			render(t, set, lang, "error."+code, c.With(&engine.RuleError{Code: code, Params: params}))
		}
		out := render(t, set, lang, "help", c)
		checkWidth(t, lang, "help", out)
		for _, cmd := range (Game{}).Info().Commands {
			render(t, set, lang, "help."+cmd, c)
		}
		for _, r := range citedRules(t) {
			render(t, set, lang, "rule."+r, c)
		}
	}
	for _, k := range []string{kindTurn, kindOrder, kindTake, kindTrade, kindDispatch, kindCorp, kindDraft, kindTiles} {
		if !kinds[k] && k != kindOrder && k != kindDispatch {
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

// TestTemplatesComplete: every event type, error code, decision kind,
// command and cited rule of the engine has its template in every language.
func TestTemplatesComplete(t *testing.T) {
	set, err := templates.Load()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, typ := range eventTypes {
		names = append(names, "event."+typ)
	}
	for _, code := range errorCodes {
		names = append(names, "error."+code)
	}
	for _, k := range []string{kindTurn, kindOrder, kindTake, kindTrade, kindDispatch, kindCorp, kindDraft, kindTiles} {
		names = append(names, "prompt."+k)
	}
	names = append(names, "summary", "help")
	for _, c := range (Game{}).Info().Commands {
		names = append(names, "help."+c)
	}
	for _, r := range citedRules(t) {
		names = append(names, "rule."+r)
	}
	enginetest.AllDefined(t, set, catalog.GameName, names)
	// Aliases: each language's words map to known keywords.
	for _, lang := range templates.Languages[1:] {
		for _, w := range map[string][]string{"it": {"RACCOGLI", "PRODUCI", "MUNGI"}, "fr": {"RECOLTER", "PRODUIRE", "TRAIRE"}, "nl": {"VERZAMEL", "MAAK", "MELK"}}[lang] {
			if kw := set.Alias(catalog.GameName, lang, w); kw == w {
				t.Errorf("%s: no alias %s", lang, w)
			}
		}
	}
}

// The event types and error codes the engine emits (kept in step with the
// code by TestTemplatesEngineLists).
var eventTypes = []string{"fr.setup", "fr.gain", "fr.corp_setup", "fr.hand", "fr.pick", "fr.draft_done", "fr.place_tile",
	"fr.ready", "fr.tiles", "fr.turn", "fr.retrieve", "fr.corp_draw", "fr.corp_card", "fr.corp_place", "fr.corp_idle",
	"fr.end_trigger", "fr.reshuffle", "fr.policy", "fr.gather", "fr.make", "fr.milk", "fr.build", "fr.barn",
	"fr.dispatch", "fr.fruit", "fr.complete", "fr.take", "fr.trade", "fr.notrade", "fr.done", "fr.report", engine.EvGameOver}

var errorCodes = []string{"already_built", "already_gathered", "already_produced", "autodone_always", "barn_busy",
	"barn_no_args", "barn_no_space", "card_not_pending", "column_covered", "corp_space", "no_cheese", "no_fruit", "no_zone",
	"not_built", "not_current_venue", "not_drawn", "not_enough_cattle", "not_enough_structures", "not_solo",
	"nothing_to_give", "plan_not_routed", "press_mismatch", "press_needs_space", "space_blocked", "space_crossed",
	"space_taken", "standing_not_planned", "take_count", "take_different", "tile_not_in_hand", "tile_not_kept",
	"trade_same_type", "undo_sealed", "unknown_card", "unknown_resource", "unknown_space", "unknown_tile",
	"unknown_worker", "worker_busy", "worker_needed", "zone_mismatch", "zone_used", "not_your_turn", "wrong_decision"}

// citedRules lists the rule ids the engine cites in its errors.
func citedRules(t *testing.T) []string {
	return enginetest.CitedRules(t, []string{"rule = \"", "rule := \""}, "FR-4", "FR-5.11.1", "FR-5.11.2")
}

// TestTemplatesEngineLists: the lists above match the code.
func TestTemplatesEngineLists(t *testing.T) {
	var src strings.Builder
	entries, _ := os.ReadDir(".")
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".go") && !strings.HasSuffix(e.Name(), "_test.go") {
			b, _ := os.ReadFile(e.Name())
			src.Write(b)
		}
	}
	code := src.String()
	for _, part := range strings.Split(code, `NewEvent("fr.`)[1:] {
		typ := "fr." + part[:strings.IndexByte(part, '"')]
		if !slices.Contains(eventTypes, typ) {
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
}

// TestTemplatesGolden compares two English renderings with golden files
// (go test -run Golden -update rewrites them).
func TestTemplatesGolden(t *testing.T) {
	set, err := templates.Load()
	if err != nil {
		t.Fatal(err)
	}
	s := newA(t, 4)
	do(t, s, 0, "MAKE C03")
	do(t, s, 1, "GATHER 2 soft")
	endTurn(t, s)
	do(t, s, 2, "MAKE F21")
	ctx := templates.Ctx{Lang: "en", Game: catalog.GameName, Seat: 2, Seats: s.H.Seats}
	summary := render(t, set, "en", "summary", ctx.With(s.View(2)))
	d, _ := s.decisionAny(2)
	opts := s.Legal(d)
	prompt := render(t, set, "en", "prompt.turn", ctx.With(templates.PromptData{Prompt: engine.Prompt{Decision: d, Options: opts, Count: len(opts)}, View: s.View(2)}))
	for name, got := range map[string]string{"testdata/golden-summary.en.txt": summary, "testdata/golden-prompt.en.txt": prompt} {
		enginetest.Golden(t, name, got, *update)
	}
}

// TestAliasesKnownToParser: every alias of the template files means the
// same keyword to the parser (needed after "PLAN T<n>" and "NEXT", where
// the referee does not translate the word).
func TestAliasesKnownToParser(t *testing.T) {
	for _, lang := range templates.Languages {
		b, err := os.ReadFile("../../templates/fromage/" + lang + "/aliases.txt")
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
