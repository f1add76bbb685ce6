package bymail

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pbem-referee/referee/referee/tournament"
	"github.com/pbem-referee/referee/templates"
)

// playedWords are the words tour.played joins holders with and marks a
// substitute with, by language (the test's own copy, to read the mails).
var playedWords = map[string][2]string{
	"en": {", then ", " (substitute)"},
	"it": {", poi ", " (in sostituzione)"},
	"fr": {", puis ", " (en remplacement)"},
	"nl": {", daarna ", " (invaller)"},
}

// TestMailsNameHandedOnGames_Issue24 (the rule in
// referee/tournament/bymail/doc.go): the entrants' mails name every player
// who played a game handed on after a move, first to last, each
// substitute marked, as the pages and exports do. Generated events
// (Swiss and tables, 5-8 entrants, three rounds played): a place whose
// game of a generated round is handed on once or twice during it, to
// newcomers sometimes named like another seat of the game or like the
// place's first holder, sometimes handed on again between rounds. In every
// language: the whole standings, the entrant's excerpt of a round mail
// and the audit line of a corrected result (RESULT, mailed to the
// players of the game) of every round the place played name, for the
// round handed on, every holder in order with the substitutes marked;
// for an earlier round, only who played it then (never the holder now);
// every text within 80 columns.
func TestMailsNameHandedOnGames_Issue24(t *testing.T) {
	checked := 0
	for draw := range 24 {
		rng := rand.New(rand.NewPCG(2424, uint64(draw)))
		format := []string{tournament.Swiss, tournament.Tables}[draw%2]
		n := 5 + rng.IntN(4)
		tr := threeRounds(t, format, fmt.Sprint("mails", draw), n, func(_, seats int) int { return 1 + rng.IntN(seats) })
		e, r, seats := gameToHandOn(tr, rng)
		// played[k] are who played round k+1 for the place, each with
		// whether they are a substitute (the generator's record).
		first := tr.Entrants[e].Name
		played := make([][]heldName, 3)
		for k := range played {
			played[k] = []heldName{{Name: first}}
		}
		en := &tr.Entrants[e]
		hand := func(name string, through, into int) {
			en.Before = append(en.Before, tournament.Stint{Name: en.Name, Address: en.Address, Through: through, Into: into})
			en.Name, en.Address = name, fmt.Sprintf("sub%d@x", len(en.Before))
		}
		newcomer := func(k int) string {
			switch rng.IntN(3) {
			case 0:
				return tr.Entrants[seats[rng.IntN(len(seats))]].Name // like a seat of the game
			case 1:
				return first // like the place's first holder
			}
			return fmt.Sprintf("Sub %d", k)
		}
		for k := range 1 + rng.IntN(2) {
			name := newcomer(k)
			hand(name, r-1, r)
			for x := r - 1; x < 3; x++ {
				if x == r-1 {
					played[x] = append(played[x], heldName{Name: name, Sub: true})
				} else {
					played[x] = []heldName{{Name: name, Sub: true}}
				}
			}
		}
		if r < 3 && rng.IntN(2) == 0 {
			// Handed on again between rounds r and r+1.
			name := newcomer(7)
			hand(name, r, 0)
			for x := r; x < 3; x++ {
				played[x] = []heldName{{Name: name, Sub: true}}
			}
		}
		h := newTestHost(t, time.Date(2026, 9, 16, 18, 0, 0, 0, time.UTC))
		d := newDesk(h)
		say := func(lang string, names []heldName) string {
			w := playedWords[lang]
			var b strings.Builder
			for i, x := range names {
				if i > 0 {
					b.WriteString(w[0])
				}
				b.WriteString(x.Name)
				if x.Sub {
					b.WriteString(w[1])
				}
			}
			return b.String()
		}
		flat := func(s string) string { return strings.Join(strings.Fields(s), " ") }
		for _, lang := range templates.Languages {
			want := say(lang, played[r-1])
			st := d.newStandings(tr)
			for what, text := range map[string]string{"standings": d.tourStandingsText(tr, lang), "round mail's excerpt": d.excerpt(st, e, lang)} {
				fits(t, fmt.Sprintf("draw %d %s %s", draw, lang, what), text)
				if !strings.Contains(flat(text), flat(want)) {
					t.Errorf("draw %d (%s): the %s does not name who played round %d's game (%s):\n%s", draw, lang, what, r, want, text)
				}
				checked++
			}
			for k := range 3 {
				for _, m := range tr.Rounds[k].Matches {
					i := slices.Index(m.Seats, e)
					if i < 0 || m.State == tournament.MatchBye {
						continue
					}
					res := resultOf(tr, m, k+1)
					for _, pl := range res {
						if pl.Place == m.Rank[i] && slices.Contains(pl.Names, played[k][0]) && !slices.Equal(pl.Names, played[k]) {
							t.Errorf("draw %d: round %d's result names %+v for the place, %+v played", draw, k+1, pl.Names, played[k])
						}
					}
					data := map[string]any{"game": m.GameID, "round": k + 1, "result": res, "was": res}
					text := d.tourText(lang, "audit.result", data)
					fits(t, fmt.Sprintf("draw %d %s audit", draw, lang), text)
					w := fmt.Sprintf("%d. %s", m.Rank[i], say(lang, played[k]))
					if !strings.Contains(flat(text), flat(w)) {
						t.Errorf("draw %d (%s): the correction of round %d's game does not name who played it (%s):\n%s", draw, lang, k+1, w, text)
					}
					checked++
				}
			}
		}
	}
	t.Logf("%d texts checked", checked)
}
