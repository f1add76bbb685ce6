package referee

import (
	"strings"
	"testing"

	"github.com/pbem-referee/referee/referee/deadline"
	"github.com/pbem-referee/referee/referee/hooks"
	"github.com/pbem-referee/referee/templates"
)

// orgCoreCodes are the codes of the core's refusals of HOOK, UNHOOK,
// PUBLISH and of a deadline policy, each with parameters as the core
// gives them.
var orgCoreCodes = map[string]map[string]any{
	"no_hook":         {"hook": "abc123"},
	"tournament_game": {"game": "t1r1a", "tournament": "t1"},
	"hook_url":        {"value": "ftp://x"},
	"hook_event":      {"value": "loud", "want": strings.Join(hooks.Kinds, ",")},
	"policy_at":       {"value": "25:99"},
	"policy_remind":   {"value": "150%"},
	"policy_misses":   {"value": "many"},
	"policy_vacation": {"value": "lots"},
	"policy_duration": {"value": "soon"},
	"policy_day":      {"value": "mon-xyz", "day": "xyz"},
}

// orgCoreDone is data for each of the core's answers to HOOK, UNHOOK and
// PUBLISH.
var orgCoreDone = map[string]map[string]any{
	"org.done.HOOK":        {"hook": "abc123", "format": "discord", "secret": "s3cr3t"},
	"org.done.UNHOOK":      {"hook": "abc123"},
	"org.done.PUBLISH.off": {"game": "g1"},
	"org.done.PUBLISH":     {"game": "g1", "listed": true, "url": "https://example.test/g/g1"},
}

// orgCoreSample is the data of a template of the core's answers and
// refusals (orgCoreCodes, orgCoreDone), or nil (orgAnswerSample).
func orgCoreSample(name string) any {
	if d, ok := orgCoreDone[name]; ok {
		return d
	}
	if d, ok := orgCoreCodes[strings.TrimPrefix(name, "org.error.")]; ok && strings.HasPrefix(name, "org.error.") {
		return d
	}
	return nil
}

// TestOrgCoreWordsEveryLanguage (issue 22): every code of the core's
// refusals (HOOK, UNHOOK, PUBLISH, a deadline policy) and every answer of
// HOOK, UNHOOK and PUBLISH has its template in every language, and in
// it, fr and nl carries no English word.
func TestOrgCoreWordsEveryLanguage(t *testing.T) {
	h := newHarness(t)
	done := map[string]map[string]any{
		"org.done.HOOK":        {"hook": "abc123", "format": "discord", "secret": "s3cr3t"},
		"org.done.UNHOOK":      {"hook": "abc123"},
		"org.done.PUBLISH.off": {"game": "g1"},
		"org.done.PUBLISH":     {"game": "g1", "listed": true, "url": "https://example.test/g/g1"},
		"org.done.PUBLISH ":    {"game": "g1", "listed": false, "url": "https://example.test/g/g1"},
	}
	for _, lang := range templates.Languages {
		c := &langChecker{logf: t.Logf, lang: lang, names: []string{"discord", "generic"}, found: map[string]int{}}
		render := func(name string, data map[string]any) {
			s, err := h.r.render.T.Render("referee", lang, name, h.r.render.ctx(Reader{Game: "referee", Lang: lang, Seat: -1}, data))
			if err != nil || strings.TrimSpace(s) == "" {
				t.Errorf("%s %s: %q, %v", lang, name, s, err)
			}
			if lang != "en" {
				c.check(name, s)
			}
		}
		for code, p := range orgCoreCodes {
			render("org.error."+code, p)
		}
		for name, p := range done {
			render(strings.TrimSpace(name), p)
		}
		c.report(t)
	}
}

// TestPolicyErrorsTyped: every way a policy fails to read is a
// *deadline.Error whose code has its template (orgCoreCodes).
func TestPolicyErrorsTyped(t *testing.T) {
	for text, want := range map[string]string{
		"at=25:99": "policy_at", "remind=150%": "policy_remind", "remind=soon": "policy_duration",
		"misses=many": "policy_misses", "vacation=lots": "policy_vacation", "soon": "policy_duration",
		"place=never": "policy_duration", "days=mon-xyz": "policy_day", "days=xyz": "policy_day",
	} {
		_, err := ParsePolicy(text)
		e, ok := err.(*deadline.Error)
		if !ok || e.Code != want {
			t.Errorf("ParsePolicy(%q): %v, want code %s", text, err, want)
			continue
		}
		if orgCoreCodes[e.Code] == nil {
			t.Errorf("code %s not in orgCoreCodes", e.Code)
		}
	}
}

// TestOrgCoreAnswersInTheirLanguage (issue 22): HOOK, UNHOOK, PUBLISH
// and POLICY answer, and refuse, in the language of the organiser's mail:
// in English as before, word for word; in it, fr and nl with no English
// word (langChecker), for every command, in every language's keyword.
func TestOrgCoreAnswersInTheirLanguage(t *testing.T) {
	kw := map[string]map[string]string{
		"en": {"HOOK": "HOOK", "UNHOOK": "UNHOOK", "PUBLISH": "PUBLISH", "POLICY": "POLICY"},
		"it": {"HOOK": "AGGANCIA", "UNHOOK": "SGANCIA", "PUBLISH": "PUBBLICA", "POLICY": "SCADENZE"},
		"fr": {"HOOK": "BRANCHER", "UNHOOK": "DÉBRANCHER", "PUBLISH": "PUBLIER", "POLICY": "DÉLAIS"},
		"nl": {"HOOK": "KOPPEL", "UNHOOK": "ONTKOPPEL", "PUBLISH": "PUBLICEREN", "POLICY": "TERMIJNEN"},
	}
	// English, as it read before the templates.
	english := map[string]string{
		"HOOK g1 https://hooks.example.test/x discord moves": `verify the "X-Referee-Signature" header with the secret`,
		"HOOK g1 ftp://x":                      `"ftp://x" is not an http(s) URL`,
		"HOOK g1 https://h.example.test/ loud": `unknown hook event "loud" (want moves,turn,end,org,chat)`,
		"UNHOOK g1 nohook":                     `no hook "nohook"`,
		"PUBLISH g1":                           "the page of g1 (the spectators' view; unlisted: share the address as you like):",
		"PUBLISH g1 listed":                    "listed on the index of the pages",
		"PUBLISH g1 off":                       "the page of g1 is off",
		"POLICY g1 at=25:99":                   "at=25:99: want HH:MM",
		"POLICY g1 days=mon-xyz":               `days=mon-xyz: unknown day "xyz"`,
		"POLICY g1 soon":                       `"soon" is not a duration (write 48h, 2d or 90m)`,
		"POLICY g1 misses=many":                "misses=many: want a number",
		"POLICY g1 vacation=lots":              "vacation=lots: want days",
		"POLICY g1 remind=150%":                "remind=150%: bad percentage",
	}
	for lang, words := range kw {
		t.Run(lang, func(t *testing.T) {
			h := newHarness(t)
			h.newToyGame("g1", "ann@example.test", "bob@example.test")
			h.mails()
			c := &langChecker{logf: t.Logf, lang: lang, names: []string{"Ann", "Bob", "discord", "generic"}, found: map[string]int{}}
			for line, en := range english {
				f := strings.Fields(line)
				f[0] = words[f[0]]
				h.org(strings.Join(f, " "))
				body := orgBody(t, h)
				if lang == "en" {
					if !strings.Contains(strings.Join(strings.Fields(body), " "), en) {
						t.Errorf("%q: want %q in:\n%s", line, en, body)
					}
					continue
				}
				if strings.Contains(body, en) {
					t.Errorf("%s %q: the English answer %q in:\n%s", lang, line, en, body)
				}
				c.check(line, body)
			}
			// A hook added can be removed by its id, in the language too.
			h.org(words["HOOK"] + " g1 https://hooks.example.test/y")
			body := orgBody(t, h)
			g := h.game("g1")
			if len(g.Hooks) == 0 {
				t.Fatalf("no hook added:\n%s", body)
			}
			h.org(words["UNHOOK"] + " g1 " + g.Hooks[len(g.Hooks)-1].ID)
			body = orgBody(t, h)
			if lang != "en" {
				c.check("UNHOOK", body)
			}
			if n := len(h.game("g1").Hooks); n != len(g.Hooks)-1 {
				t.Errorf("UNHOOK left %d hooks:\n%s", n, body)
			}
			c.report(t)
		})
	}
}

// TestOrgAnswersFitWithLongIDs (issue 22: every line within 80 columns):
// the core's organiser answers for a game whose id is as long as an id may
// be (24 characters), in every language's keywords: every line of the
// organiser's mail fits 80 columns (orgBody fails on a longer one). An
// answer names the id once or twice and a language's words are longer
// than English's, so a short id hid lines of 90 columns.
func TestOrgAnswersFitWithLongIDs(t *testing.T) {
	id := "g" + strings.Repeat("x", 23)
	kw := map[string][3]string{
		"en": {"PUBLISH", "POLICY", "listed"}, "it": {"PUBBLICA", "SCADENZE", "elencata"},
		"fr": {"PUBLIER", "DÉLAIS", "listée"}, "nl": {"PUBLICEREN", "TERMIJNEN", "opgenomen"},
	}
	for lang, w := range kw {
		t.Run(lang, func(t *testing.T) {
			h := newHarness(t)
			h.newToyGame(id, "ann@example.test", "bob@example.test")
			h.mails()
			for _, line := range []string{w[0] + " " + id, w[0] + " " + id + " " + w[2], w[0] + " " + id + " off",
				w[1] + " " + id + " at=25:99", w[1] + " " + id + " days=mon-xyz", "STATUS " + id, "EXTEND " + id + " Ann 12h"} {
				h.org(line)
				orgBody(t, h)
			}
		})
	}
}
