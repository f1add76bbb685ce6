package bymail

import (
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/pbem-referee/referee/engine/enginetest"
	"github.com/pbem-referee/referee/referee/tournament"
	"github.com/pbem-referee/referee/templates"
)

// failKeys are the keys of the Errors the desk makes (fail("<key>", ...)
// in its sources) and the codes of package tournament's Faults (its
// Fault* constants), read from the sources so that a new one cannot be
// left without words.
func failKeys(t *testing.T) (keys, codes []string) {
	t.Helper()
	keys = enginetest.SourceStrings(t, "*.go", regexp.MustCompile(`fail\("([a-z_]+)"`))
	b, err := os.ReadFile("../fault.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range regexp.MustCompile(`(?m)^\tFault[A-Za-z]+ += "([a-z_]+)"`).FindAllStringSubmatch(string(b), -1) {
		codes = append(codes, m[1])
	}
	if len(keys) < 30 || len(codes) < 20 {
		t.Fatalf("%d keys and %d codes found: the sources changed shape", len(keys), len(codes))
	}
	return keys, codes
}

// TestEveryFailureWorded (issue 24): every Error key and Fault code has
// its words in every language (err.<key>, err.t.<code>), rendered with
// every value set, without a template error, and differently from the
// English ones; a value that is itself a failure is worded in the same
// language.
func TestEveryFailureWorded(t *testing.T) {
	keys, codes := failKeys(t)
	set, err := templates.Load()
	if err != nil {
		t.Fatal(err)
	}
	d := newDesk(newTestHost(t, time.Date(2026, 9, 16, 18, 0, 0, 0, time.UTC)))
	// Every value a template may name.
	data := func() map[string]any {
		m := map[string]any{}
		for _, k := range []string{"id", "game", "games", "who", "a", "b", "name", "address", "arg", "value", "key", "date",
			"format", "status", "tz", "open", "late", "forfeits", "tiebreak", "points", "every", "usage"} {
			m[k] = "x" + k
		}
		for _, k := range []string{"round", "rounds", "seats", "min", "max", "entrants", "table", "place", "places", "prev"} {
			m[k] = 7
		}
		m["status"] = "running"
		m["cause"] = "permanent"
		return m
	}
	for _, lang := range templates.Languages {
		for _, k := range keys {
			if !set.Has("tournament", lang, "err."+k) {
				t.Errorf("%s: no err.%s", lang, k)
			}
		}
		for _, c := range codes {
			if !set.Has("tournament", lang, "err.t."+c) {
				t.Errorf("%s: no err.t.%s", lang, c)
			}
		}
	}
	for _, k := range keys {
		en := ""
		for _, lang := range templates.Languages {
			dt := data()
			dt["error"] = &tournament.Fault{Code: tournament.FaultDuration, Data: map[string]any{"value": "soon"}}
			e := &Error{Key: k, Data: dt}
			got := d.word(lang, e).Error()
			fits(t, lang+" err."+k, got)
			if strings.Contains(got, "tournament:") || strings.Contains(got, "desk:") {
				t.Errorf("%s err.%s: a value left unworded: %s", lang, k, got)
			}
			if lang == "en" {
				en = got
			} else if got == en && k != "setting" {
				t.Errorf("%s err.%s is the English text: %s", lang, k, got)
			}
		}
	}
	for _, c := range codes {
		en := ""
		for _, lang := range templates.Languages {
			got := d.word(lang, &tournament.Fault{Code: c, Data: data()}).Error()
			fits(t, lang+" err.t."+c, got)
			if lang == "en" {
				en = got
			} else if got == en {
				t.Errorf("%s err.t.%s is the English text: %s", lang, c, got)
			}
		}
	}
}
