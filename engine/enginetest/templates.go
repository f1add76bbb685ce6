package enginetest

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/templates"
)

// The template runners every game's templates_test.go shares: a render
// that fails on a missing template or value, the mail-width check, the
// events of a game rendered as every seat sees them, the completeness of
// a game's names in every language, the rule ids a game cites, and the
// golden files of testdata/golden-*.txt.

// Render renders a game's template and fails the test when the template
// is missing, does not execute, or shows a missing value.
func Render(t testing.TB, set *templates.Set, game, lang, name string, c templates.Ctx) string {
	t.Helper()
	if !set.Has(game, lang, name) {
		t.Fatalf("%s: no template %s", lang, name)
	}
	out, err := set.Render(game, lang, name, c)
	if err != nil {
		t.Fatalf("%s %s: %v", lang, name, err)
	}
	if strings.Contains(out, "<no value>") || strings.Contains(out, "%!") {
		t.Fatalf("%s %s renders a missing value:\n%s", lang, name, out)
	}
	return out
}

// CheckWidth reports every line of out wider than a mail's lines
// (templates.Width).
func CheckWidth(t testing.TB, lang, name, out string) {
	t.Helper()
	for _, l := range strings.Split(out, "\n") {
		if n := utf8.RuneCountInString(l); n > templates.Width {
			t.Errorf("%s %s: line of %d runes: %q", lang, name, n, l)
		}
	}
}

// RenderEvents renders every event as each seat (0 to 3) and an observer
// may see it, fresh and after a JSON round trip (numbers become float64);
// each must render on one line.
func RenderEvents(t testing.TB, set *templates.Set, game, lang string, evs []engine.Event, seats []string, word func(string) string) {
	t.Helper()
	var back []engine.Event
	js, _ := json.Marshal(evs)
	_ = json.Unmarshal(js, &back)
	for _, list := range [][]engine.Event{evs, back} {
		for _, e := range list {
			for seat := -1; seat < 4; seat++ {
				ev, ok := e.For(seat)
				if !ok {
					continue
				}
				c := templates.Ctx{Lang: lang, Game: game, Seat: seat, Seats: seats, Word: word}
				out := Render(t, set, game, lang, "event."+ev.Type, c.With(ev))
				if strings.Contains(out, "\n") {
					t.Errorf("%s event.%s is not one line: %q", lang, ev.Type, out)
				}
			}
		}
	}
}

// AllDefined checks that every name is defined for the game in every
// language (names the common scope defines count: they render through the
// fallback).
func AllDefined(t testing.TB, set *templates.Set, game string, names []string) {
	t.Helper()
	for _, lang := range templates.Languages {
		have := map[string]bool{}
		for _, n := range set.Defined(game, lang) {
			have[n] = true
		}
		for _, n := range names {
			if !have[n] && !set.Has("common", lang, n) {
				t.Errorf("%s: %s is missing", lang, n)
			}
		}
	}
}

// CitedRules lists the rule ids the game's code cites (Reject("<id>", and,
// with markers, every `<marker>"<id>"` such as `rule = "`), read from the
// package's Go files, with extra ids (those only a template mentions).
func CitedRules(t testing.TB, markers []string, extra ...string) []string {
	t.Helper()
	seen := map[string]bool{}
	for _, id := range extra {
		seen[id] = true
	}
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		b, _ := os.ReadFile(e.Name())
		for _, m := range append([]string{"Reject(\""}, markers...) {
			for _, part := range strings.Split(string(b), m)[1:] {
				if id := part[:strings.IndexByte(part, '"')]; id != "" {
					seen[id] = true
				}
			}
		}
	}
	var out []string
	for id := range seen {
		out = append(out, id)
	}
	return out
}

// Golden compares got with the golden file at path, which holds got and
// one newline; with update it rewrites the file instead. Golden files live
// in testdata/golden-<what>.<lang>.txt.
func Golden(t testing.TB, path, got string, update bool) {
	t.Helper()
	got = strings.TrimRight(got, "\n") + "\n"
	if update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update)", err)
	}
	if string(want) != got {
		t.Errorf("%s differs (run with -update to accept):\n--- got\n%s--- want\n%s", path, got, want)
	}
}
