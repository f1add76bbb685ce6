package dicebrewing

import (
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"regexp"
	"sort"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/dicebrewing/catalog"
	"github.com/pbem-referee/referee/engine/dicebrewing/position"
	"github.com/pbem-referee/referee/engine/enginetest"
	"github.com/pbem-referee/referee/templates"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// sample is what a rendering test needs from one position.
type sample struct {
	st     *state
	events []engine.Event
	errs   []*engine.RuleError
}

// sampleGames plays a few games (greedy and explorers, every player count
// and variant) and keeps positions, events and refusals met on the way.
func sampleGames(t *testing.T) []sample {
	t.Helper()
	var out []sample
	rng := rand.New(rand.NewPCG(21, 22))
	bad := []string{"PLACE MH3 Y6", "PLACE SS3 B1", "PLACE MH1+ B6", "BUY HONEY WITH B1", "BREW R24 IMPROVE SMALT B5",
		"PLAY TAKE bob:Y9@S", "STORE Y1", "PASS", "DONE", "NOBUY", "GET Q", "PLAY BLOCKB ann:MH", "BREW R99", "PLACE ZZ1 SEED",
		"PICK Y1", "REROLL", "END", "BUY APPLE", "PLAY PLUS Y6@S", "PLACE MH1 SEED, HP1 SEED, MH2 Y1", "BREW R01 USE Y1"}
	for g := 0; g < 6; g++ {
		n := 2 + g%3
		cfg := engine.Config{Seats: []string{"ann", "bob", "cat", "dan"}[:n], Seed: fmt.Sprint("render-", g),
			Options: map[string]string{position.OptUnlucky: "true"}}
		if g%2 == 1 {
			cfg.Variant = "advanced"
		}
		st0, setup, err := Game.NewState(cfg)
		if err != nil {
			t.Fatal(err)
		}
		s := st0.(*state)
		out = append(out, sample{st: s.clone(), events: setup})
		sampled := map[string]bool{}
		for moves := 0; s.Result() == nil && moves < 5000; moves++ {
			d := s.Pending()[0]
			opts := s.Legal(d)
			k := 0
			if len(opts) > 1 {
				k = explorer{Eps: 0.3}.Choose(s, d, opts, rng)
			}
			var errs []*engine.RuleError
			for _, b := range bad[moves%len(bad) : moves%len(bad)+1] {
				c := s.clone()
				if m, err := c.Parse(d.Seat, b); err != nil {
					re, _ := engine.AsRuleError(err)
					errs = append(errs, re)
				} else if _, err := c.Apply(d.Seat, m); err != nil {
					re, _ := engine.AsRuleError(err)
					errs = append(errs, re)
				}
			}
			m, _ := s.Parse(d.Seat, opts[k].Cmd)
			evs, err := s.Apply(d.Seat, m)
			if err != nil {
				t.Fatal(err)
			}
			kind := ""
			if s.Cur >= 0 {
				kind = s.kind()
			}
			if moves%90 == 0 || s.Result() != nil || !sampled[kind] {
				sampled[kind] = true
				out = append(out, sample{st: s.clone(), events: evs, errs: errs})
			} else {
				out[len(out)-1].events = append(out[len(out)-1].events, evs...)
				out[len(out)-1].errs = append(out[len(out)-1].errs, errs...)
			}
		}
	}
	return out
}

// TestRenderAllLanguages renders, for positions of real games, every
// seat's summary, the prompt of each decision met, every event as each
// seat sees it (also after a JSON round trip, as stored logs are), and the
// errors met, in the four languages, with no template error.
func TestRenderAllLanguages(t *testing.T) {
	t.Parallel()
	set, err := templates.Load()
	if err != nil {
		t.Fatal(err)
	}
	seenEvents, seenKinds, seenCodes := map[string]bool{}, map[string]bool{}, map[string]bool{}
	wide := map[string]bool{}
	samples := sampleGames(t)
	for si, sm := range samples {
		s := sm.st
		var pr *engine.Prompt
		if p := s.Pending(); len(p) > 0 {
			d := p[0]
			opts := s.Legal(d)
			pr = &engine.Prompt{Token: s.H.Moves, Decision: d, Count: len(opts)}
			if len(opts) <= engine.MaxNumbered {
				pr.Options, pr.Numbered = opts, true
			}
			seenKinds[d.Kind] = true
		}
		var stored []engine.Event // the events as a stored log holds them
		for _, e := range sm.events {
			stored = append(stored, jsonEvent(t, e))
		}
		for li, lang := range templates.Languages {
			for seat := -1; seat < s.N; seat++ {
				ctx := templates.Ctx{Lang: lang, Game: catalog.GameName, Seat: seat, Seats: s.H.Seats}
				out, err := set.Render(catalog.GameName, lang, "summary", ctx.With(s.View(seat)))
				if err != nil || out == "" {
					t.Fatalf("sample %d %s seat %d summary: %v", si, lang, seat, err)
				}
				for _, l := range strings.Split(out, "\n") {
					if utf8.RuneCountInString(l) > templates.Width && !wide[lang+l] {
						wide[lang+l] = true
						t.Errorf("%s summary line over %d columns: %q", lang, templates.Width, l)
					}
				}
				for ei, e := range sm.events {
					seenEvents[e.Type] = true
					evs := []engine.Event{e}
					if (li+seat)%2 == 0 {
						evs = []engine.Event{stored[ei]}
					}
					for _, ev := range evs {
						re, ok := ev.For(seat)
						if !ok {
							continue
						}
						out, err := set.Render(catalog.GameName, lang, "event."+re.Type, ctx.With(re))
						if err != nil || out == "" || strings.Contains(out, "\n") {
							t.Fatalf("%s event %s for seat %d: %q %v (%v)", lang, re.Type, seat, out, err, re.Params)
						}
					}
				}
			}
			if pr != nil {
				d := pr.Decision
				ctx := templates.Ctx{Lang: lang, Game: catalog.GameName, Seat: d.Seat, Seats: s.H.Seats}
				name := "prompt." + d.Kind
				if !set.Has(catalog.GameName, lang, name) {
					t.Fatalf("no %s", name)
				}
				out, err := set.Render(catalog.GameName, lang, name, ctx.With(templates.PromptData{Prompt: *pr, View: s.View(d.Seat)}))
				if err != nil {
					t.Fatalf("%s %s: %v", lang, name, err)
				}
				for _, l := range strings.Split(out, "\n") {
					if utf8.RuneCountInString(l) > templates.Width && !wide[lang+l] {
						wide[lang+l] = true
						t.Errorf("%s %s line over %d columns: %q", lang, name, templates.Width, l)
					}
				}
			}
			for _, re := range sm.errs {
				seenCodes[re.Code] = true
				ctx := templates.Ctx{Lang: lang, Game: catalog.GameName, Seat: 0, Seats: s.H.Seats}
				if _, err := set.Render(catalog.GameName, lang, "error."+re.Code, ctx.With(re)); err != nil {
					t.Fatalf("%s error %s: %v (%v)", lang, re.Code, err, re.Params)
				}
			}
		}
	}
	t.Logf("%d positions; %d event types, %d decision kinds, %d error codes met", len(samples), len(seenEvents), len(seenKinds), len(seenCodes))
	for _, k := range []string{position.KindWindow, position.KindPlace, position.KindSecond, position.KindReroll, position.KindBuy, position.KindBrew} {
		if !seenKinds[k] {
			t.Errorf("no position with a %s decision", k)
		}
	}
}

func jsonEvent(t *testing.T, e engine.Event) engine.Event {
	var back engine.Event
	if err := json.Unmarshal(mustMarshal(t, e), &back); err != nil {
		t.Fatal(err)
	}
	return back
}

// Every error code, event type and rule id the engine uses, every decision
// kind and every command has its template (the templates package tests the
// other languages have every English name).
func TestTemplatesCoverTheEngine(t *testing.T) {
	set, err := templates.Load()
	if err != nil {
		t.Fatal(err)
	}
	need := map[string]bool{}
	for _, c := range enginetest.SourceStrings(t, "*.go", regexp.MustCompile(`Reject\([^,]*, "([a-z_]+)"`)) {
		need["error."+c] = true
	}
	for _, c := range enginetest.SourceStrings(t, "*.go", regexp.MustCompile(`, "([a-z_]+)"(?:, "[a-z]+", [^)]*)?\)\s*$`)) {
		_ = c
	}
	for _, c := range []string{"wrong_item", "die_at_max", "blue_too_low", "no_such_die", "die_blocked", "same_die_twice"} {
		need["error."+c] = true
	}
	for _, e := range enginetest.SourceStrings(t, "*.go", regexp.MustCompile(`(?:pub|NewEvent)\("(db\.[a-z_]+)"`)) {
		need["event."+e] = true
	}
	need["event."+engine.EvGameOver] = true
	for _, id := range enginetest.SourceStrings(t, "*.go", regexp.MustCompile(`"(DB-[0-9.]+[0-9])"`)) {
		need["rule."+id] = true
	}
	for _, k := range []string{position.KindWindow, position.KindPlace, position.KindSecond, position.KindReroll, position.KindBuy, position.KindBrew, position.KindReward} {
		need["prompt."+k] = true
	}
	need["summary"], need["help"] = true, true
	for _, c := range Game.Info().Commands {
		need["help."+c] = true
	}
	var missing []string
	for name := range need {
		if !set.Has(catalog.GameName, "en", name) {
			missing = append(missing, name)
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("no English template for: %s", strings.Join(missing, ", "))
	}
	// Every rule of the help and rule texts renders.
	for _, lang := range templates.Languages {
		for _, name := range set.Defined(catalog.GameName, "en") {
			if strings.HasPrefix(name, "help") || strings.HasPrefix(name, "rule.") {
				out, err := set.Render(catalog.GameName, lang, name, templates.Ctx{Lang: lang, Game: catalog.GameName, Seat: -1})
				if err != nil || out == "" {
					t.Errorf("%s %s: %v", lang, name, err)
				}
				for _, l := range strings.Split(out, "\n") {
					if strings.HasPrefix(name, "help") && utf8.RuneCountInString(l) > templates.Width {
						t.Errorf("%s %s: line over %d columns: %q", lang, name, templates.Width, l)
					}
				}
			}
		}
	}
}

// TestRenderGolden keeps the English rendering of a fixed position (the
// summary, the prompt and the log of the last mail) in golden files.
// Run with -update to rewrite them.
func TestRenderGolden(t *testing.T) {
	set, err := templates.Load()
	if err != nil {
		t.Fatal(err)
	}
	s := vectorState(t, "SETUP ann bob cat first=1 unlucky_roll=true", "ROUND 3",
		"DISPLAY R24 R11 R02",
		"HOLD ann AR=Y2,K1,B5 ST=Y3,Y5,K5,G4,B4 coins=5 tokens=TAKE,PLUS ingr=SMALT seeds=1 xp=4",
		"HOLD bob AR=G3,B6 ST=Y4,K2,G4 coins=3 tokens=BLOCKR xp=2",
		"HOLD cat AR=Y1,Y1 ST=K3 coins=0",
		"PHASE place ann")
	var evs []engine.Event
	for _, c := range []struct {
		seat int
		cmd  string
	}{{0, "PLACE MH3 K1, MH3+ B5"}, {1, "PLACE SS3 B6"}, {2, "PLACE MH2 Y1"}} {
		m, err := s.Parse(c.seat, c.cmd)
		if err != nil {
			t.Fatal(err)
		}
		e, err := s.Apply(c.seat, m)
		if err != nil {
			t.Fatalf("%s: %v", c.cmd, err)
		}
		evs = append(evs, e...)
	}
	ctx := templates.Ctx{Lang: "en", Game: catalog.GameName, Seat: 0, Seats: s.H.Seats}
	var b strings.Builder
	d := s.Pending()[0]
	opts := s.Legal(d)
	pr := engine.Prompt{Decision: d, Count: len(opts)}
	out, err := set.Render(catalog.GameName, "en", "prompt."+d.Kind, ctx.With(templates.PromptData{Prompt: pr, View: s.View(0)}))
	if err != nil {
		t.Fatal(err)
	}
	b.WriteString(out + "\n\n")
	out, err = set.Render(catalog.GameName, "en", "summary", ctx.With(s.View(0)))
	if err != nil {
		t.Fatal(err)
	}
	b.WriteString(out + "\n\n")
	for _, e := range evs {
		re, _ := e.For(0)
		out, err := set.Render(catalog.GameName, "en", "event."+re.Type, ctx.With(re))
		if err != nil {
			t.Fatal(err)
		}
		b.WriteString("* " + out + "\n")
	}
	golden(t, "testdata/golden-mail-ann.en.txt", b.String())
	// An observer's summary: no private data.
	out, err = set.Render(catalog.GameName, "en", "summary", templates.Ctx{Lang: "en", Game: catalog.GameName, Seat: -1, Seats: s.H.Seats}.With(s.View(-1)))
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "testdata/golden-summary-observer.en.txt", out+"\n")
}

func golden(t *testing.T, path, got string) {
	t.Helper()
	enginetest.Golden(t, path, got, *update)
}
