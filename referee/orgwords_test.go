package referee

import (
	"fmt"
	"strings"
	"testing"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/referee/cmdtable"
	"github.com/pbem-referee/referee/referee/organise"
	"github.com/pbem-referee/referee/templates"
)

// Issue 22, the organiser's door: every word an organiser reads is the
// templates' (org.error.<code>, org.done.<KEYWORD>, org.word.*), in the
// language of the organiser's mail, and every keyword of the table is read
// in the four languages.

// orgAnswerSample is data for each template of the organiser's answers
// (nil for the other templates): TestGoldenEveryNameRenders renders them.
func orgAnswerSample(name string) any {
	seats := []map[string]any{
		{"N": 1, "Name": "Ann", "Address": "ann@example.test", "State": "playing", "Bot": false, "Missed": 0, "Waiting": true, "Due": "2026-11-24 09:00 UTC"},
		{"N": 2, "Name": "Bob", "Address": "bob@example.test", "State": "kicked", "Bot": true, "Missed": 2, "Waiting": false, "Due": ""},
	}
	samples := map[string]any{
		"org.error.unknown":             map[string]any{"keyword": "FROB", "list": "  NEW PLAYER\n  START"},
		"org.word.for_tournaments":      map[string]any{},
		"org.word.new_tournament":       map[string]any{},
		"org.word.status":               "running",
		"org.error.no_game":             map[string]any{"game": "g9"},
		"org.error.not_yours":           map[string]any{"game": "g9"},
		"org.error.seat_missing":        map[string]any{},
		"org.error.no_seat":             map[string]any{"seat": "zed"},
		"org.error.status":              map[string]any{"status": "running"},
		"org.error.already":             map[string]any{"status": "aborted"},
		"org.error.no_deadline":         map[string]any{"name": "Ann"},
		"org.error.token":               map[string]any{"value": "x"},
		"org.error.past":                map[string]any{"move": 9, "now": 3},
		"org.error.not_started":         map[string]any{},
		"org.error.erratum_not_started": map[string]any{},
		"org.error.started":             map[string]any{},
		"org.error.players":             map[string]any{"value": "x"},
		"org.error.option_long":         map[string]any{"option": "kkkk", "max": 200},
		"org.error.lang_zone":           map[string]any{"value": "Mars/Base"},
		"org.error.only_after_new":      map[string]any{"keyword": "PLAYER"},
		"org.error.invitees":            map[string]any{"invitees": 3, "seats": 2},
		"org.error.game_id":             map[string]any{"id": "9x"},
		"org.error.exists":              map[string]any{"game": "g1"},
		"org.error.in_game":             map[string]any{"address": "ann@example.test", "game": "g1"},
		"org.error.full":                map[string]any{"game": "g1"},
		"org.error.no_kind":             map[string]any{"game": "chess"},
		"org.error.hours":               map[string]any{"value": "xyz"},
		"org.error.too_many_lines":      map[string]any{"max": 500, "unread": 3},
		"org.error.bad_address":         map[string]any{"address": "ann.example.test"},
		"org.error.bad_ruleset":         map[string]any{"why": "syntax", "line": 4},
		"org.error.internal":            map[string]any{"cause": "transient"},
		"org.error.cause":               "permanent",
		"org.done.NEW":                  map[string]any{"game": "g1", "title": "toy", "players": 2, "commitment": "ab12"},
		"org.done.LIST":                 map[string]any{"games": []organise.Listed{{ID: "g1", Game: "toy", Status: "running", Seats: 2, Players: 2}}, "next": "g51", "more": 3, "from": ""},
		"org.done.STATUS": map[string]any{"title": "Bid & Roll", "variant": "", "status": "running", "move": 3, "taken": 2,
			"players": 2, "policy": "24h", "seats": seats},
		"org.done.PAUSE":    map[string]any{},
		"org.done.RESUME":   map[string]any{"shift": "30h0m0s"},
		"org.done.EXTEND":   map[string]any{"name": "Ann", "due": "2026-11-25T09:00:00Z"},
		"org.done.REPLACE":  map[string]any{"seat": 2, "name": "Bob", "address": "dan@example.test"},
		"org.done.KICK":     map[string]any{"name": "Bob"},
		"org.done.ROLLBACK": map[string]any{"move": 3},
		"org.done.ABORT":    map[string]any{},
		"org.done.POLICY":   map[string]any{"policy": "12h misses=5"},
		"org.done.ERRATUM":  map[string]any{"version": "1.1", "sha": "0123456789ab"},
		"org.done.INVITE":   map[string]any{"address": "dan@example.test"},
	}
	if d, ok := samples[name]; ok {
		return d
	}
	return orgCoreSample(name) // the core's answers (orgcore_test.go)
}

// orgAnswerData is the data a template of the organiser's answers is
// rendered with: a word of org.word.* is given alone, as the answers'
// templates give it, the others in a context.
func orgAnswerData(lang string, d any) any {
	if s, ok := d.(string); ok {
		return s
	}
	return templates.Ctx{Lang: lang, Seat: -1, Data: d}
}

// orgAnswerNames are the templates of the organiser's answers.
func orgAnswerNames(t *testing.T, rn *Renderer) []string {
	var out []string
	for _, n := range rn.T.Defined("referee", "en") {
		if strings.HasPrefix(n, "org.error.") || strings.HasPrefix(n, "org.done.") || strings.HasPrefix(n, "org.word.") {
			if orgAnswerSample(n) == nil {
				t.Errorf("%s: no sample in orgAnswerSample", n)
				continue
			}
			out = append(out, n)
		}
	}
	return out
}

// TestOrganiserAnswersEveryLanguage_Issue22: every code of the door's
// errors has its template, every answer template is defined in every
// language (no fallback to English) and, rendered with its sample, carries
// no English word in it, fr or nl; nor has the organiser's help.
func TestOrganiserAnswersEveryLanguage_Issue22(t *testing.T) {
	h := newHarness(t)
	rn := h.r.render
	for _, code := range organise.Codes {
		if orgAnswerSample("org.error."+code) == nil {
			t.Errorf("code %s: no template org.error.%s (or no sample)", code, code)
		}
	}
	names := orgAnswerNames(t, rn)
	if len(names) < 40 {
		t.Fatalf("only %d answer templates", len(names))
	}
	for _, lang := range templates.Languages {
		c := &langChecker{lang: lang, names: append([]string{"Ann", "Bob", "Carl", "Bid & Roll"}, dataNames()...), found: map[string]int{}}
		for _, n := range names {
			if !definedIn(rn.T, "referee", lang, n) {
				t.Errorf("%s: %s not defined", lang, n)
				continue
			}
			data := orgAnswerData(lang, orgAnswerSample(n))
			if ctx, ok := data.(templates.Ctx); ok {
				data = rn.ctx(Reader{Game: "referee", Lang: lang, Seat: -1}, ctx.Data)
			}
			out, err := rn.T.Render("referee", lang, n, data)
			if err != nil || strings.TrimSpace(out) == "" {
				t.Errorf("%s %s: %q, %v", lang, n, out, err)
			}
			c.check(n, out)
		}
		// The organiser's help (HELP, AIUTO, AIDE, HULP): its rows are the
		// table's.
		help, err := cmdtable.OrgHelp(h.r.render.Renderer, lang, "org.help", "o+org.x@r.test", []string{"toy"})
		if err != nil {
			t.Fatal(err)
		}
		// HOOK's events are codes in a comma list (the checker reads a|b
		// lists as codes, not a,b ones).
		c.check("org.help", strings.ReplaceAll(help, "[moves,turn,end,org,chat]", ""))
		c.report(t)
	}
}

// orgErrorScript is a script that walks the door's error paths (and a
// few of its answers), written with the keywords of lang; want are the
// codes it must answer with.
func orgErrorScript(h *harness, lang string) (text string, want []string) {
	w := func(kw string) string {
		if s := h.r.render.T.Word(organise.Scope, lang, kw); s != kw {
			return s
		}
		return h.r.render.T.Word("referee", lang, kw)
	}
	long := strings.Repeat("k", 201)
	lines := []string{
		w("LIST"),
		w("PLAYER") + " zoe@example.test Zoe",                  // only_after_new
		"PAUSSE g1",                                            // unknown: a keyword mistyped
		w("PAUSE") + " nosuch",                                 // no_game
		w("EXTEND") + " g1",                                    // seat_missing
		w("EXTEND") + " g1 zed 2h",                             // no_seat
		w("RESUME") + " g1",                                    // status
		w("EXTEND") + " g1 ann xyz",                            // hours
		w("EXTEND") + " g1 ann 2h", w("EXTEND") + " g1 bob 2h", // no_deadline (one of them)
		w("ROLLBACK") + " g1 x",                                              // token
		w("ROLLBACK") + " g1 99",                                             // past
		w("ROLLBACK") + " g2 0",                                              // not_started
		w("INVITE") + " g1 zoe@example.test Zoe",                             // started
		w("INVITE") + " g2 cat@example.test Cat",                             // in_game
		w("INVITE") + " g2 zoe@example.test Zoe",                             // full
		w("NEW") + " toy players=x",                                          // players
		w("NEW") + " toy " + long + "=1",                                     // option_long
		w("NEW") + " toy id=g7", w("PLAYER") + " a@example.test A Mars/Base", // lang_zone
		w("NEW") + " toy id=g8 players=2", w("PLAYER") + " a@example.test A", w("PLAYER") + " b@example.test B",
		w("PLAYER") + " c@example.test C", // invitees
		w("NEW") + " toy id=9x",           // game_id
		w("NEW") + " toy id=g1",           // exists
		w("NEW") + " chess",               // no_kind
		w("NEW") + " toy frob=1",          // a game's refusal: unknown_option
		w("STATUS") + " g1", w("PAUSE") + " g1", w("RESUME") + " g1",
		w("KICK") + " g3 dan", w("EXTEND") + " g3 dan 2h", // no_deadline
		w("ABORT") + " g3", w("ABORT") + " g3", // already
		w("ERRATUM") + " g2", // erratum_not_started (ends the script)
	}
	return strings.Join(lines, "\n"), []string{"only_after_new", "unknown", "no_game", "seat_missing", "no_seat", "status",
		"hours", "no_deadline", "token", "past", "not_started", "started", "in_game", "full", "players", "option_long",
		"lang_zone", "invitees", "game_id", "exists", "no_kind", "already", "erratum_not_started"}
}

// TestOrganiserErrorPathsEveryLanguage_Issue22 walks every error path of
// the organiser's game commands by real mail, written in each language's
// keywords: the answer is in that language, each error in its words
// (checked against the English rendering of its template), with no
// English word left in it, fr or nl.
func TestOrganiserErrorPathsEveryLanguage_Issue22(t *testing.T) {
	for _, lang := range templates.Languages {
		t.Run(lang, func(t *testing.T) {
			h := newHarness(t)
			h.newToyGame("g1", "ann@example.test", "bob@example.test")
			h.org("NEW toy id=g2 players=2\nPLAYER ann@example.test Ann\nPLAYER cat@example.test Cat")
			h.newToyGame("g3", "dan@example.test", "eve@example.test")
			h.mails()
			text, want := orgErrorScript(h, lang)
			h.org(text)
			var body string
			for _, m := range h.mails() {
				if m.To == org {
					body += m.Body
				}
			}
			if body == "" {
				t.Fatal("no answer")
			}
			lacks(t, body, "organise: ", "(org.")
			// Each error is answered in its own words: the fixed part of
			// its template in lang.
			rn := h.r.render
			for _, code := range want {
				out, err := rn.T.Render("referee", lang, "org.error."+code, rn.ctx(Reader{Game: "referee", Lang: lang, Seat: -1}, orgAnswerSample("org.error."+code)))
				if err != nil {
					t.Fatal(err)
				}
				fixed := longestFixed(out, orgAnswerSample("org.error."+code))
				// The answer's lines are folded to 80 columns: the words
				// are compared with their spaces and line breaks as one.
				if !strings.Contains(strings.Join(strings.Fields(body), " "), strings.Join(strings.Fields(fixed), " ")) {
					t.Errorf("%s: error %s (%q) not in the answer:\n%s", lang, code, fixed, body)
				}
			}
			// A game's refusal (NEW toy frob=1) in the game's words.
			rule, err := rn.Error(Reader{Game: "referee", Lang: lang, Seat: -1}, engine.Reject("", "unknown_option", "option", "frob"))
			if err != nil || !strings.Contains(body, rule) {
				t.Errorf("%s: %q (%v) not in the answer", lang, rule, err)
			}
			c := &langChecker{lang: lang, names: append([]string{"Ann", "ann", "Bob", "Cat", "Zoe", "Bid & Roll (contract test game)"}, dataNames()...), found: map[string]int{}}
			c.check("organiser's answer", body)
			c.report(t)
		})
	}
}

// longestFixed is the longest run of text of a rendered template that
// holds none of the sample's values (the words the template wrote).
func longestFixed(out string, sample any) string {
	parts := []string{out}
	if m, ok := sample.(map[string]any); ok {
		for _, v := range m {
			s := fmt.Sprint(v)
			if s == "" {
				continue
			}
			var next []string
			for _, p := range parts {
				next = append(next, strings.Split(p, s)...)
			}
			parts = next
		}
	}
	best := ""
	for _, p := range parts {
		p = strings.Trim(p, ` "()`)
		if len(p) > len(best) {
			best = p
		}
	}
	return best
}

// orgWord is a keyword as an organiser writing lang writes it: the first
// word of the organiser's aliases, else of the tournaments' and common
// ones, else the keyword.
func orgWord(h *harness, lang, kw string) string {
	if s := h.r.render.T.Word(organise.Scope, lang, kw); s != kw {
		return s
	}
	return h.r.render.T.Word("referee", lang, kw)
}

// TestOrganiserKeywordsEveryLanguageByMail_Issue22: every organiser
// keyword, written in each language, reaches its handler by real mail
// (none is answered as unknown), at each position: the first line of a
// mail and a line after others. HELP TOURNAMENT in each language's words
// (AIUTO TORNEO) answers the tournament help in that language, and NEW
// TOURNAMENT in them (NUOVA TORNEO) creates the tournament.
func TestOrganiserKeywordsEveryLanguageByMail_Issue22(t *testing.T) {
	for _, lang := range templates.Languages {
		t.Run(lang, func(t *testing.T) {
			h := newHarness(t)
			h.newToyGame("g1", "ann@p.test", "bob@p.test")
			h.mails()
			rn := h.r.render
			unknown, err := rn.T.Render("referee", lang, "org.error.unknown", rn.ctx(Reader{Game: "referee", Lang: lang, Seat: -1},
				map[string]any{"keyword": "\x00", "list": ""}))
			if err != nil {
				t.Fatal(err)
			}
			unknown, _, _ = strings.Cut(unknown, "\x00")
			if len(unknown) < 8 {
				t.Fatalf("marker %q", unknown)
			}
			var kws []string
			for _, r := range organise.Rows() {
				if r.Keyword == "RULESET" || r.Keyword == "ERRATUM" || r.Keyword == "ABORT" || r.Keyword == "KICK" {
					continue // they end the script or the game (TestCommandTableOrganiserRoutes)
				}
				kws = append(kws, r.Keyword)
			}
			// A line after others: every keyword in one mail.
			var all strings.Builder
			all.WriteString(orgWord(h, lang, "LIST") + "\n")
			for _, kw := range kws {
				all.WriteString(orgWord(h, lang, kw) + " g1\n")
			}
			h.org(all.String())
			res := orgResults(t, h)
			lacks(t, res, unknown)
			// The first line of a mail: one mail a keyword.
			for _, kw := range kws {
				h.org(orgWord(h, lang, kw) + " g1")
				if res := orgResults(t, h); strings.Contains(res, unknown) {
					t.Errorf("%s %s: answered as unknown:\n%s", lang, orgWord(h, lang, kw), res)
				}
			}
			// HELP TOURNAMENT and NEW TOURNAMENT in the language's words.
			tw := h.r.render.T.ArgWord("tournament", lang, "TOURNAMENT")
			h.org(orgWord(h, lang, "HELP") + " " + tw)
			res = orgResults(t, h)
			help, err := h.r.render.T.Render("tournament", lang, "org.help", rn.ctx(Reader{Game: "tournament", Lang: lang, Seat: -1},
				map[string]any{"games": []string{"toy"}}))
			if err != nil {
				t.Fatal(err)
			}
			first, _, _ := strings.Cut(help, "\n")
			contains(t, res, first)
			lacks(t, res, `"`+strings.ToLower(tw)+`"`) // not "no game \"torneo\""
			h.org(orgWord(h, lang, "NEW") + " " + tw + " cup" + lang + " game=toy rounds=2")
			orgResults(t, h)
			if h.tour("cup"+lang) == nil {
				t.Errorf("%s: %s %s did not create the tournament", lang, orgWord(h, lang, "NEW"), tw)
			}
		})
	}
}

// TestOrganiserCommandAllOrNone_Issue25: a game command that fails in the
// core (an error of the core's, after which the game may have changed:
// here HOOK's usage error and an ERRATUM whose data is refused) is undone
// with the whole unit of work, which runs again without it: the other
// commands of the mail are applied once, logged once, announced once, and
// the answer lists every line in order.
func TestOrganiserCommandAllOrNone_Issue25(t *testing.T) {
	h := newHarness(t)
	h.newToyGame("g1", "ann@p.test", "bob@p.test")
	h.mails()
	before := len(h.logEntries("g1"))
	h.org("PAUSE g1\nHOOK g1\nRESUME g1\nERRATUM g1\nnot = a data file\n")
	res := orgResults(t, h)
	i, j, k, l := strings.Index(res, "PAUSE g1: paused"), strings.Index(res, "HOOK: usage: HOOK"),
		strings.Index(res, "RESUME g1: resumed"), strings.Index(res, "ERRATUM: ")
	if i < 0 || j < i || k < j || l < k {
		t.Fatalf("the answer's lines (%d %d %d %d):\n%s", i, j, k, l, res)
	}
	lacks(t, res, "unknown organiser command NOT")
	var cmds []string
	for _, e := range h.logEntries("g1")[before:] {
		if e.Kind == EntryOrg {
			cmds = append(cmds, e.Params["command"].(string))
		}
	}
	if got := strings.Join(cmds, ","); got != "PAUSE,RESUME" {
		t.Errorf("logged %s, want PAUSE,RESUME once each", got)
	}
	if g := h.game("g1"); g.Status != StatusRunning || len(g.Hooks) != 0 {
		t.Errorf("game %s, %d hooks", g.Status, len(g.Hooks))
	}
}
