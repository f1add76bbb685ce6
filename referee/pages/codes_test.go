package pages

import (
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/templates"
)

// dataCodes are the codes of every game's data file that stand for a
// name (issue 24: names in the reader's language everywhere on pages):
// the code of each card (engine.Carder, every variant) made of letters
// only, three or more (DRYHOPSPECIALIST, STOREHOUSE, COFFEE), and every
// id with an underscore (DRYHOP_SPECIALIST, an internal id). A code with
// a digit (M8, HO5, MON4, BARREL1) is a reference a player types: a page
// may show it, explained in the board's key or next to its name.
func dataCodes(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{}
	letters := regexp.MustCompile(`^[A-Z]{3,}$`)
	for _, g := range engine.Games() {
		info := g.Info()
		for _, v := range info.Variants {
			seats := []string{"a", "b", "c"}[:max(info.MinPlayers, 2)]
			st, _, err := g.NewState(engine.Config{Seats: seats, Seed: "codes", Variant: v.Name})
			if err != nil {
				t.Fatalf("%s %s: %v", info.Name, v.Name, err)
			}
			cr, ok := st.(engine.Carder)
			if !ok {
				continue
			}
			for _, c := range cr.Cards() {
				if letters.MatchString(c.Code) {
					out[c.Code] = info.Name + " " + c.Kind
				}
				if strings.Contains(c.ID, "_") {
					out[c.ID] = info.Name + " " + c.Kind
				}
			}
		}
	}
	return out
}

// codeRe finds a word in capitals (with underscores) in a page's text: a
// whole word, not the letters of a reference (ABC1).
var codeRe = regexp.MustCompile(`\b[A-Z][A-Z_]{2,}\b`)

// quotedRe are the parts of a game's page quoted from its mails (its
// text table and log, in <pre>): the mails' words, whose codes are what
// a player types, under the mails' own legend and checks (issue 22).
var quotedRe = regexp.MustCompile(`(?s)<pre[^>]*>.*?</pre>`)

// pageCodes are the data codes a page's own text (its HTML without tags
// and without what it quotes from the mails; the boards' text included)
// shows, each once.
func pageCodes(page string, codes map[string]string) []string {
	text := tagRe.ReplaceAllString(quotedRe.ReplaceAllString(styleRe.ReplaceAllString(page, " "), " "), " ")
	seen := map[string]bool{}
	var out []string
	for _, w := range codeRe.FindAllString(text, -1) {
		if kind, ok := codes[w]; ok && !seen[w] {
			seen[w] = true
			out = append(out, w+" ("+kind+")")
		}
	}
	sort.Strings(out)
	return out
}

// TestPagesShowNoDataCode (issue 24): every kind of page (the index, a
// tournament of each game, its crosstable, a player's page, a game of
// each game) in every language names things, never by a data file's code.
func TestPagesShowNoDataCode(t *testing.T) {
	s := newSite(t)
	if _, err := s.r.Organise(org, "PUBLISH cup1 listed"); err != nil {
		t.Fatal(err)
	}
	codes := dataCodes(t)
	if len(codes) < 50 || codes["DRYHOPSPECIALIST"] == "" {
		t.Fatalf("%d data codes, DRYHOPSPECIALIST %q", len(codes), codes["DRYHOPSPECIALIST"])
	}
	urls := []string{s.srv.URL + "/t/"}
	for game := range s.tours {
		u := s.tourURL(t, game)
		urls = append(urls, u, u+"/crosstable", u+"/p/1")
	}
	for _, g := range s.gamePages(t) {
		urls = append(urls, s.srv.URL+g)
	}
	sort.Strings(urls)
	left := map[string]bool{}
	for _, lang := range templates.Languages {
		for _, u := range urls {
			var bad []string
			for _, c := range pageCodes(fetchLang(t, u, lang), codes) {
				code, _, _ := strings.Cut(c, " ")
				if pendingCodes[code] != "" {
					left[code] = true
					continue
				}
				bad = append(bad, c)
			}
			if len(bad) > 0 {
				t.Errorf("%s in %s shows data codes: %v", u[len(s.srv.URL):], lang, bad)
			}
		}
	}
	// The list of codes still shown only shrinks: a code no page shows
	// any more leaves it.
	for code := range pendingCodes {
		if !left[code] {
			t.Errorf("%s is no longer shown: take it off pendingCodes", code)
		}
	}
}

// pendingCodes are the data codes the boards still show, each with its
// reason: a ratchet (TestPagesShowNoDataCode fails on any other code,
// and on one of these no page shows any more). Dice Brewing's ingredients
// and action tokens, Heaven & Ale's start spaces and privilege cards, and
// Brew Crafters' brewing-line slots (PUB) and Collaboration portions (ADV)
// left it (issue 22): their boards name them in the reader's language.
// The list is empty; it stays so that a code shown for a reason the key
// explains is written down here, with that reason.
var pendingCodes = map[string]string{}

// The check finds what it is for.
func TestPageCodesFinds(t *testing.T) {
	codes := map[string]string{"DRYHOPSPECIALIST": "w", "DRYHOP_SPECIALIST": "w", "COLLAB_M": "p", "ABC": "d"}
	for page, want := range map[string]int{
		"<p>workers: DRYHOPSPECIALIST</p>":                1,
		"<text>DRYHOP_SPECIALIST</text>":                  1,
		"<p>Dry-hop specialist, M8, HO5</p>":              0,
		"<style>p{}</style><p>COLLAB_M, a portion</p>":    1,
		"<p>ABC1, ABC2: ABC</p>":                          1,
		"<pre>Workers: DRYHOPSPECIALIST</pre><p>Dry</p>":  0,
		"<p title=\"DRYHOPSPECIALIST\">Dry-hop spec.</p>": 0,
	} {
		if got := len(pageCodes(page, codes)); got != want {
			t.Errorf("%q: %d codes found, want %d", page, got, want)
		}
	}
}
