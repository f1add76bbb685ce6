package referee

import (
	"fmt"
	"strings"
	"testing"

	"github.com/pbem-referee/referee/templates"
)

// standingsBlock is the standings in a tournament mail: the lines from
// the one that starts with the tournament's id up to the blank line.
func standingsBlock(body, id string) []string {
	var out []string
	in := false
	for _, l := range strings.Split(body, "\n") {
		switch {
		case !in && strings.HasPrefix(l, id+" "):
			in = true
		case in && strings.TrimSpace(l) == "":
			return out
		case in:
			out = append(out, l)
		}
	}
	return out
}

// TestTournamentRoundMailShort (issue 24: each entrant's round mail
// carried the whole standings, so a round's mails grew with the square of
// the entrants): for tournaments of every size from 2 to 13 entrants, in
// the four languages, the round mail of each entrant shows their own line
// and at most two neighbours on each side, with "..." where rows are left
// out, and names STANDINGS <id> (in the entrant's words) for the whole
// table, which the organiser's
// STANDINGS still gives; every line within 80 columns.
func TestTournamentRoundMailShort(t *testing.T) {
	for n := 2; n <= 13; n++ {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			h := newHarness(t)
			text := "NEW TOURNAMENT cup game=toy rounds=2\n"
			name := func(i int) string { return fmt.Sprintf("Name%02d", i) }
			for i := 0; i < n; i++ {
				text += fmt.Sprintf("ENTER cup p%d@p.test %s %s\n", i, name(i), templates.Languages[i%len(templates.Languages)])
			}
			h.org(text + "START cup")
			h.mails()
			var adj string
			for _, m := range h.tour("cup").Rounds[0].Matches {
				if m.GameID != "" {
					adj += "ADJUDICATE " + m.GameID + "\n"
				}
			}
			h.org(adj)
			ms := h.mails()
			checkWidth(t, ms)
			if len(h.tour("cup").Rounds) != 2 {
				t.Fatalf("round 2 is not open")
			}
			for i := 0; i < n; i++ {
				var body string
				for _, m := range ms {
					if m.To == fmt.Sprintf("p%d@p.test", i) && m.Kind == "tournament" {
						body = m.Body
					}
				}
				if body == "" {
					t.Fatalf("no round mail to %s", name(i))
				}
				block := standingsBlock(body, "cup")
				if len(block) < 2 {
					t.Fatalf("%s: no standings in the round mail:\n%s", name(i), body)
				}
				rows := block[1:] // the columns' header first
				names, gaps, own := 0, 0, false
				for _, r := range rows {
					if strings.TrimSpace(r) == "..." {
						gaps++
						continue
					}
					names++
					own = own || strings.Contains(r, name(i))
				}
				if !own || names > 5 || names > n || (n > 5 && gaps == 0) || (n <= 5 && (gaps > 0 || names != n)) {
					t.Errorf("%s, %d entrants: %d rows, %d gaps, own line %v:\n%s", name(i), n, names, gaps, own, strings.Join(block, "\n"))
				}
				lang := templates.Languages[i%len(templates.Languages)]
				contains(t, body, h.r.render.T.Word("referee", lang, "STANDINGS")+" cup")
			}
			h.org("STANDINGS cup")
			res := orgResults(t, h)
			for i := 0; i < n; i++ {
				contains(t, res, name(i))
			}
		})
	}
}
