package referee

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/pbem-referee/referee/templates"
)

// mailCode finds what a player may type back or look up in a mail: a
// code with a number (HO5, M8, MH1+, G01, S15, C03), or an upper-case word
// of two letters or more (a command keyword, a legend's code: WO, BUY).
var mailCode = regexp.MustCompile(`(^|[^\pL\pN_-])([A-Z][A-Z]*[0-9]+\+?|[A-Z][A-Z]+)($|[^\pL\pN_])`)

// notCodes are upper-case words a mail shows that are not codes a player
// looks up: time zones and the points' abbreviations of each language.
var notCodes = map[string]bool{"UTC": true, "CET": true, "CEST": true, "VP": true, "PV": true, "OP": true, "XP": true, "PE": true, "MP": true, "PP": true}

// mailCodes are the codes of a mail's text: every code (mailCode) on a
// line that is not a heading (a line of upper-case words only), but those
// inside a rule id (DB-7.2) or an address.
func mailCodes(body string) (codes, lines []string) {
	for _, l := range strings.Split(body, "\n") {
		t := strings.TrimSpace(l)
		if t == "" || strings.Contains(t, "@") {
			continue // an address
		}
		t = heading.ReplaceAllString(t, "") // a heading: WHAT YOU NEED TO DO NOW, THE GAME IS OVER.
		if t == l {
			t = oneWordHeading.ReplaceAllString(t, "") // DISPLAY, NEXT:, YOU (Ann):
		}
		t = ruleID.ReplaceAllString(t, " ")
		for _, m := range mailCode.FindAllStringSubmatch(" "+t+" ", -1) {
			if c := m[2]; !notCodes[c] {
				codes, lines = append(codes, c), append(lines, strings.TrimSpace(l))
			}
		}
	}
	return codes, lines
}

// heading is two upper-case words or more that open a line: a heading
// or a shouted sentence (YOU CAN BREW IT with..., À VOUS DE JOUER).
var heading = regexp.MustCompile(`^[A-ZÀ-Ý'&-]+(?:\s+[A-ZÀ-Ý'&-]+)+(?:$|[\s.:(!])`)

// oneWordHeading is an upper-case word that opens a line at its first
// column, alone or before a colon, a parenthesis or a lower-case word
// (STANDING if the game ended now...).
var oneWordHeading = regexp.MustCompile(`^[A-ZÀ-Ý'&-]{2,}(?:$|\s*[:(]|\s+[a-zà-ÿ])`)

var ruleID = regexp.MustCompile(`\b[A-Z]{1,3}-[0-9][0-9.]*[a-z]?\b|<[^>]*>`)

// TestHelpEveryCodeAMailShows_Issue22 (issue 22, "HELP for everything a
// mail shows"): whole bot games of the four games, by mail, a seat in each
// of our languages; every code a mail of the game shows a player (the
// menus' commands and codes, the legends' codes, card, space, building and
// tile codes; every upper-case word but headings and units) is asked with
// HELP <code> by that player, in their language, when it first shows. The
// answer must be there and must not be "no help".
func TestHelpEveryCodeAMailShows_Issue22(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	if raceEnabled {
		t.Skip("a whole-game content check in one goroutine: make check runs it without -race (make content)")
	}
	noHelp := map[string]string{}
	{
		h := newHarness(t)
		for _, lang := range templates.Languages {
			s, err := h.r.render.T.Render("referee", lang, "info.no_help", h.r.render.ctx(Reader{Game: "dicebrewing", Lang: lang}, map[string]any{"topic": "\x00"}))
			if err != nil {
				t.Fatal(err)
			}
			noHelp[lang], _, _ = strings.Cut(s, "\x00")
			if len(noHelp[lang]) < 8 {
				t.Fatalf("%s: no_help %q", lang, s)
			}
		}
	}
	for _, game := range []string{"dicebrewing", "fromage", "heavenale", "brewcrafters"} {
		t.Run(game, func(t *testing.T) {
			asked, missing := 0, map[string][]string{}
			h := newHarness(t)
			names := []string{"ann", "bob", "cat", "dan"}
			text := "NEW " + game + " id=c1 deadline=48h seed=codes1\n"
			for i, n := range names {
				text += "PLAYER " + n + "@example.test " + strings.ToUpper(n[:1]) + n[1:] + " " + templates.Languages[i] + "\n"
			}
			h.org(text)
			lang := map[string]string{}
			for i, n := range names {
				lang[n+"@example.test"] = templates.Languages[i]
				h.send("c1", n+"@example.test", "JOIN\nNOTIFY every", -1)
			}
			seen := map[string]bool{}
			ask := func(m *Outgoing) {
				lg, ok := lang[m.To]
				if !ok || m.Kind == "org" {
					return
				}
				codes, lines := mailCodes(m.Body)
				for k, c := range codes {
					if seen[lg+" "+c] {
						continue
					}
					seen[lg+" "+c] = true
					asked++
					h.clock.Advance(61 * time.Second) // within the rate limit: 60 answers an hour
					out := h.send("c1", m.To, "HELP "+c, -1)
					var answer *Outgoing
					for _, a := range h.mails() {
						if a.To == m.To {
							answer = a
						}
					}
					switch {
					case answer == nil:
						missing[lg] = append(missing[lg], c+" (no answer: "+string(out.Status)+" "+fmt.Sprint(out.Reason)+")")
					case strings.Contains(answer.Body, noHelp[lg]):
						missing[lg] = append(missing[lg], fmt.Sprintf("%s (in %q)", c, lines[k]))
					}
				}
			}
			bg := h.newBotGame("c1", 1, 22, 4)
			bg.Mails = func(ms []*Outgoing) {
				for _, m := range ms {
					ask(m)
				}
			}
			bg.play()
			t.Logf("%d codes asked", asked)
			if asked < 40 {
				t.Errorf("only %d codes asked: the test shows little", asked)
			}
			for _, lg := range templates.Languages {
				if m := missing[lg]; len(m) > 0 {
					sort.Strings(m)
					t.Errorf("%s: %d codes a mail shows have no help:\n%s", lg, len(m), strings.Join(m, "\n"))
				}
			}
		})
	}
}
