package referee

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/pbem-referee/referee/mailfmt"
	"github.com/pbem-referee/referee/templates"
)

// TestOrganiserMailQuotesUnreadLines_Issue25: by the core, an organiser's
// mail in each language's words (NEW with a PLAYER, LIST, START of a
// tournament that does not exist, STATUS) between a greeting and a
// sign-off of each language, with hostile lines among the commands: the
// game is created, START keeps its own refusal, and the answer quotes
// exactly the hostile lines, once each, in order, within 80 columns; the
// greeting and the sign-off are not named.
func TestOrganiserMailQuotesUnreadLines_Issue25(t *testing.T) {
	wraps := [][2]string{{"Hi all,", "Thanks\nOlga"}, {"Ciao!", "Grazie mille\nOlga"}, {"Bonjour,", "Cordialement,\nOlga"},
		{"Hoi,", "Met vriendelijke groet,\nOlga"}, {"Hallo zusammen,", "Mit freundlichen Grüßen\nOlga"}}
	hostile := []string{"Olga's note | FROBNICATE g1", "FROBNICATE g1", "zz\u202eevil line", "g1 STATUS please"}
	for _, lang := range templates.Languages {
		for _, wr := range wraps {
			h := newHarness(t)
			w := func(kw string) string { return orgWord(h, lang, kw) }
			cmds := []string{w("NEW") + " toy id=g1", w("PLAYER") + " ann@p.test Ann", w("PLAYER") + " bob@p.test Bob",
				w("LIST"), w("START") + " spring",
				w("STATUS") + " g1"}
			var body []string
			for i, c := range cmds {
				body = append(body, c)
				if i > 1 && i-2 < len(hostile) { // not inside the NEW block
					body = append(body, hostile[i-2])
				}
			}
			h.org(wr[0] + "\n" + strings.Join(body, "\n") + "\n" + wr[1])
			res := orgResults(t, h)
			what := lang + " " + wr[0]
			if g := h.game("g1"); len(g.Seats) != 2 || g.Organiser != org {
				t.Errorf("%s: game g1 %+v:\n%s", what, g.Seats, res)
			}
			var quoted []string
			for _, l := range strings.Split(res, "\n") {
				if q, ok := strings.CutPrefix(l, "  > "); ok {
					quoted = append(quoted, q)
				}
				if utf8.RuneCountInString(l) > 80 {
					t.Errorf("%s: a line of %d columns: %s", what, utf8.RuneCountInString(l), l)
				}
			}
			var want []string
			for _, l := range hostile {
				want = append(want, mailfmt.QuoteLine(l, 76))
			}
			if !slices.Equal(quoted, want) {
				t.Errorf("%s: quoted %q, want %q:\n%s", what, quoted, want, res)
			}
			if !strings.Contains(res, w("START")+": ") && !strings.Contains(res, "START: ") {
				t.Errorf("%s: START's own refusal missing:\n%s", what, res)
			}
			if n := strings.Count(res, "NEW TOURNAMENT"); n != 1 {
				t.Errorf("%s: the command list %d times:\n%s", what, n, res)
			}
		}
	}
}
