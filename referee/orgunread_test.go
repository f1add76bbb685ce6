package referee

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/pbem-referee/referee/mailfmt/mailmsg"
	"github.com/pbem-referee/referee/referee/commands"
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
				want = append(want, mailmsg.QuoteLine(l, 76))
			}
			if !slices.Equal(quoted, want) {
				t.Errorf("%s: quoted %q, want %q:\n%s", what, quoted, want, res)
			}
			if !strings.Contains(res, w("START")+": ") && !strings.Contains(res, "START: ") {
				t.Errorf("%s: START's own refusal missing:\n%s", what, res)
			}
			marker, err := h.r.render.T.Render("referee", lang, "org.word.new_tournament", templates.Ctx{Lang: lang})
			if err != nil {
				t.Fatal(err)
			}
			if n := strings.Count(res, marker); n != 1 {
				t.Errorf("%s: the command list %d times:\n%s", what, n, res)
			}
		}
	}
}

// TestOrganiserMailQuotesAtMostFiveUnreadLines_Issue25: by the core, an
// organiser's mail with more unread lines than the answer quotes (in each
// language): the first commands.MaxUnread are quoted in the mail's order
// and the answer says how many more there were; the command before them
// still runs.
func TestOrganiserMailQuotesAtMostFiveUnreadLines_Issue25(t *testing.T) {
	for _, lang := range templates.Languages {
		for extra := 2; extra <= 4; extra++ { // from 2: one is a word ("and one more line")
			h := newHarness(t)
			w := func(kw string) string { return orgWord(h, lang, kw) }
			var hostile []string
			for i := range commands.MaxUnread + extra {
				hostile = append(hostile, fmt.Sprintf("FROBNICATE g%d", i+1))
			}
			h.org(w("NEW") + " toy id=g1\n" + w("PLAYER") + " ann@p.test Ann\n" + w("PLAYER") + " bob@p.test Bob\n\n" +
				strings.Join(hostile, "\n"))
			res := orgResults(t, h)
			what := fmt.Sprintf("%s, %d unread", lang, len(hostile))
			if g := h.game("g1"); len(g.Seats) != 2 {
				t.Errorf("%s: game g1 %+v:\n%s", what, g.Seats, res)
			}
			var quoted []string
			for _, l := range strings.Split(res, "\n") {
				if q, ok := strings.CutPrefix(l, "  > "); ok {
					quoted = append(quoted, q)
				}
			}
			if !slices.Equal(quoted, hostile[:commands.MaxUnread]) {
				t.Errorf("%s: quoted %q, want the first %d:\n%s", what, quoted, commands.MaxUnread, res)
			}
			// The line after the last quoted one counts the rest, in words
			// and a number ("and 2 more lines", "e altre 2 righe").
			lines := strings.Split(res, "\n")
			last := slices.Index(lines, "  > "+hostile[commands.MaxUnread-1])
			if last < 0 || last+1 >= len(lines) || !strings.Contains(lines[last+1], strconv.Itoa(extra)) {
				t.Errorf("%s: the count of the %d more lines missing:\n%s", what, extra, res)
			}
		}
	}
}
