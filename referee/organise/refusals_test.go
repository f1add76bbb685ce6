package organise

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/pbem-referee/referee/referee/reading"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/enginetest"
	"github.com/pbem-referee/referee/referee/failure"
	"github.com/pbem-referee/referee/referee/rigs/testkit"
	"github.com/pbem-referee/referee/referee/seating"
	"github.com/pbem-referee/referee/referee/tell"
	"github.com/pbem-referee/referee/referee/tournament/bymail"
	"github.com/pbem-referee/referee/templates"
)

// warnDesk is a desk that names no tournament and keeps what the door
// logs.
type warnDesk struct {
	fakeDesk
	warned *[]string
}

func (d warnDesk) Warn(msg string, kv ...any) {
	*d.warned = append(*d.warned, fmt.Sprint(append([]any{msg}, kv...)...))
}

// wordsHost is fakeHost with the core's words (the tell stage's renderer)
// and a desk that logs.
type wordsHost struct {
	Templates
	*fakeHost
	warned []string
}

func (h *wordsHost) Desk() bymail.Host { return warnDesk{warned: &h.warned} }

func newWordsHost(t *testing.T) *wordsHost {
	t.Helper()
	rn, err := tell.NewRenderer()
	if err != nil {
		t.Fatal(err)
	}
	return &wordsHost{Templates: Templates{R: rn, Read: reading.Vocab{T: rn.T, Name: Scope, Referee: tableWords}.Line},
		fakeHost: &fakeHost{}}
}

// numeric are the parameters the templates count or compare as numbers.
var numeric = map[string]bool{"invitees": true, "seats": true, "max": true, "unread": true, "line": true,
	"move": true, "now": true}

// refusalParams are a refusal's parameters, every name a template of
// org.error reads, each the hostile value v (a number where one is
// counted), why and cause as given.
func refusalParams(v, why, cause string, n int) map[string]any {
	p := map[string]any{"why": why, "cause": cause, "status": "running"}
	for _, k := range []string{"game", "seat", "name", "value", "option", "id", "address", "keyword", "list",
		"keys", "hook", "want", "day", "tournament"} {
		p[k] = v
	}
	for k := range numeric {
		p[k] = n
	}
	return p
}

// checkAnswer checks one answer line as the organiser reads it, framed
// in their mail: within 80 columns, no Go-ish text, no English word in
// it/fr/nl (the reader's values taken out).
func checkAnswer(t *testing.T, h *wordsHost, lang, name, line string, values ...string) {
	t.Helper()
	_, body, err := h.Mail(lang, []string{line})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if !templates.Fits(body) {
		t.Errorf("%s: a line past 80 columns:\n%s", name, body)
	}
	testkit.CheckWords(t, lang, name, line, values...)
}

// TestEveryRefusalInWords_Issue24 (doc.go): every refusal an organiser's
// game command answers with is worded by its template, never by the
// error's text. The code table is walked both ways: every code the door,
// the seating, the hooks and the deadline policies (and the core, through
// Fail) refuse with in their sources is in Codes or seating.Codes, and
// every code of those renders in every language (a code without words
// would answer with org.error.internal and log, which fails here).
// Generated: 4 languages x every code x 7 hostile values (quotes, a
// 70-character name, Cyrillic, CJK, a bad verb, a nil, a map) x every
// reason of a data file refused and both classes of failure: within 80
// columns in the organiser's mail, no Go-ish text, no English word in
// it/fr/nl.
func TestEveryRefusalInWords_Issue24(t *testing.T) {
	var written []string
	for _, src := range [][2]string{{"*.go", "fail"}, {"../hooks/*.go", "fail"}, {"../deadline/*.go", "fail"},
		{"../*.go", "organise.Fail"}, {"../seating/*.go", "refuse"}} {
		written = append(written, enginetest.SourceStrings(t, src[0], regexp.MustCompile(`\b`+src[1]+`\("([a-z_]+)"`))...)
	}
	if len(written) < 30 {
		t.Fatalf("only %d codes found in the sources: the walk reads little", len(written))
	}
	codes := append(append([]string(nil), Codes...), seating.Codes...)
	for _, c := range written {
		if c != "usage" && !slices.Contains(codes, c) {
			t.Errorf("refusal code %q is written in the sources but in no code table (Codes, seating.Codes)", c)
		}
	}
	whys := []string{"syntax", "keys", "game", "version", "position", "data"}
	h := newWordsHost(t)
	checked := 0
	for _, lang := range templates.Languages {
		for _, code := range codes {
			for i, v := range testkit.HostileValues {
				checked++
				why, cause := whys[i%len(whys)], []string{"transient", "permanent"}[i%2]
				name := fmt.Sprintf("%s/%s/%d", lang, code, i)
				h.warned = nil
				c := &Call{h: h, lang: lang}
				line := c.errLine("KICK "+v, &Error{Code: code, Params: refusalParams(v, why, cause, 100000+i)})
				if len(h.warned) > 0 && code != "internal" {
					t.Errorf("%s: no words, told as a failure of the core's: %q", name, h.warned)
				}
				checkAnswer(t, h, lang, name, line, v)
			}
		}
	}
	if want := len(templates.Languages) * 30 * 7; checked < want {
		t.Fatalf("only %d answers checked, want at least %d (4 languages x 30 codes x 7 values)", checked, want)
	}
}

// TestCoreFailuresInWords_Issue24 (doc.go): an error that is no refusal
// (a failure of the core's: a store error, a template that would not
// render) reaches the organiser as org.error.internal, its class in words
// (passing, or permanent: package failure), and its own text goes to the
// log. A data file a game refuses is told why and where (the line the
// TOML reader stopped at), never in the reader's English. Generated: 4
// languages x raw texts carrying a map, a bad verb, a nil, a pointer and
// an error's prefix x passing or permanent, wrapped or not; real data
// files broken five ways through the engine's reader.
func TestCoreFailuresInWords_Issue24(t *testing.T) {
	raws := []string{"bbolt: tx closed: map[cup:1]", "open game: %!d(string=x) <nil>",
		"seat 0xc000123456: broken", "error: referee: invitee \"x\" has no valid address"}
	causes := map[string][2]string{
		"en": {"try again later", "will not pass by itself"},
		"it": {"riprova più tardi", "non passerà da sola"},
		"fr": {"réessayez plus tard", "ne passera pas d'elle-même"},
		"nl": {"probeer het later opnieuw", "gaat niet vanzelf over"},
	}
	h := newWordsHost(t)
	for _, lang := range templates.Languages {
		for _, raw := range raws {
			for k, permanent := range []bool{false, true} {
				for _, wrapped := range []bool{false, true} {
					name := fmt.Sprintf("%s/%q/permanent=%v/wrapped=%v", lang, raw, permanent, wrapped)
					err := errors.New(raw)
					if permanent {
						err = failure.Permanent("%s", raw)
					}
					if wrapped {
						err = fmt.Errorf("referee: kick: %w", err)
					}
					h.warned = nil
					line := (&Call{h: h, lang: lang}).errLine("KICK g1", err)
					checkAnswer(t, h, lang, name, line)
					if strings.Contains(line, raw) || strings.Contains(line, "referee:") {
						t.Errorf("%s: the error's own text reaches the organiser:\n%s", name, line)
					}
					flat := strings.Join(strings.Fields(line), " ")
					if !strings.Contains(flat, causes[lang][k]) || strings.Contains(flat, causes[lang][1-k]) {
						t.Errorf("%s: the failure's class is not told:\n%s", name, line)
					}
					if len(h.warned) != 1 || !strings.Contains(h.warned[0], raw) {
						t.Errorf("%s: the raw error is not logged once: %q", name, h.warned)
					}
				}
			}
		}
	}
	// Data files refused by the engine's reader, five ways.
	files := []struct {
		why, data string
		line      int
	}{
		{"syntax", "game = \"toy\"\nversion = \"1\"\n\nx = = 1\n", 4},
		{"keys", "game = \"toy\"\nversion = \"1\"\nmap_of_nil = 3\n", 0},
		{"game", "game = \"%!d(other)\"\nversion = \"1\"\n", 0},
		{"version", "game = \"toy\"\n", 0},
		{"data", "", 0},
	}
	for _, lang := range templates.Languages {
		for _, f := range files {
			var err error
			if f.why == "data" {
				err = engine.BadRuleset("value %v out of range: map[x:1]", nil)
			} else {
				var v struct {
					Game    string `toml:"game"`
					Version string `toml:"version"`
				}
				_, err = engine.DecodeRuleset("toy", []byte(f.data), &v)
			}
			re, ok := engine.AsRuleError(err)
			if !ok || re.Params["why"] != f.why {
				t.Fatalf("%s: the engine's refusal %v has no why %q", f.why, err, f.why)
			}
			h.warned = nil
			name := lang + "/" + f.why
			line := (&Call{h: h, lang: lang}).errLine("ERRATUM g1", err)
			checkAnswer(t, h, lang, name, line, "%!d(other)", "map_of_nil")
			if raw, _ := re.Params["error"].(string); raw == "" || strings.Contains(line, raw) {
				t.Errorf("%s: the reader's own text %q reaches the organiser:\n%s", name, raw, line)
			}
			if f.line > 0 && !strings.Contains(line, fmt.Sprint(f.line)) {
				t.Errorf("%s: the line %d is not named:\n%s", name, f.line, line)
			}
			if len(h.warned) != 1 {
				t.Errorf("%s: the reader's text is not logged: %q", name, h.warned)
			}
		}
	}
}
