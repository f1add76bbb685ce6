package referee

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/referee/tournament"
	"github.com/pbem-referee/referee/store"
)

// TestTournamentSeedGiven (issue 24): NEW TOURNAMENT seed=<text> lets a
// director reproduce a draw. Two tournaments given the same seed and the
// same entrants draw the same round 1 (whatever their ids), one given
// another seed draws its own, the commitment is the given seed's SHA-256,
// the answer says the seed was given (in the organiser's language), the
// entrants' confirmations that the organiser chose it (in theirs), and
// the record replays; without seed= the seed is random and the answer
// says nothing of it. An empty seed or one longer than an option may be
// is refused, in the organiser's language. For each language, Swiss and
// tables.
func TestTournamentSeedGiven(t *testing.T) {
	given := map[string]string{"en": "The seed is the one given (seed=)", "it": "Il seme è quello dato (seed=)",
		"fr": "La graine est celle donnée (seed=)", "nl": "Het zaad is het opgegeven zaad (seed=)"}
	chose := map[string]string{"en": "The organiser chose this seed (seed=).", "it": "Il seme l'ha scelto l'organizzatore (seed=).",
		"fr": "L'organisateur a choisi cette graine (seed=).", "nl": "De organisator koos dit zaad (seed=)."}
	refused := map[string]string{"en": "a seed of 1 to", "it": "un seme da 1 a", "fr": "une graine de 1 à", "nl": "een zaad van 1 tot"}
	for _, lang := range []string{"en", "it", "fr", "nl"} {
		for _, format := range []string{"swiss", "tables"} {
			t.Run(lang+"/"+format, func(t *testing.T) {
				h := newHarness(t)
				confirms := map[string]string{} // tournament id: p0's confirmation
				create := func(id, seed string) string {
					text := fmt.Sprintf("NEW TOURNAMENT %s game=toy format=%s rounds=3 lang=%s%s\n", id, format, lang, seed)
					for i := 0; i < 13; i++ {
						text += fmt.Sprintf("ENTER %s p%d@p.test P%d %s\n", id, i, i, lang)
					}
					h.org(text)
					ms := h.mails()
					confirms[id] = h.mailTo(ms, "p0@p.test").Body
					h.org("START " + id)
					h.mails()
					return h.mailTo(ms, org).Body
				}
				flat := func(s string) string { return strings.Join(strings.Fields(s), " ") }
				a := create("ta", " seed=director-7")
				b := create("tb", " seed=director-7")
				create("tc", " seed=director-8")
				r := create("tr", "")
				contains(t, flat(a), given[lang])
				contains(t, flat(b), given[lang])
				if strings.Contains(flat(r), given[lang]) {
					t.Errorf("a random seed said given:\n%s", r)
				}
				// The entrants know the organiser chose the seed.
				contains(t, flat(confirms["ta"]), chose[lang])
				if strings.Contains(flat(confirms["tr"]), chose[lang]) {
					t.Errorf("a random seed said chosen:\n%s", confirms["tr"])
				}
				ta, tb, tc, tr := h.tour("ta"), h.tour("tb"), h.tour("tc"), h.tour("tr")
				if ta.Seed != "director-7" || ta.Commitment != engine.Commitment("director-7") || !ta.SeedGiven {
					t.Fatalf("seed %q, commitment %s, given %v", ta.Seed, ta.Commitment, ta.SeedGiven)
				}
				if tr.SeedGiven || len(tr.Seed) != 64 {
					t.Fatalf("random seed %q, given %v", tr.Seed, tr.SeedGiven)
				}
				seats := func(x *tournament.Tournament) [][]int {
					var out [][]int
					for _, m := range x.Rounds[0].Matches {
						out = append(out, m.Seats)
					}
					return out
				}
				same := func(x, y [][]int) bool { return slices.EqualFunc(x, y, slices.Equal[[]int]) }
				if !same(seats(ta), seats(tb)) {
					t.Fatalf("the same seed drew two rounds:\n%v\n%v", seats(ta), seats(tb))
				}
				if same(seats(ta), seats(tc)) {
					t.Fatalf("two seeds drew the same round: %v", seats(ta))
				}
				for _, x := range []*tournament.Tournament{ta, tb, tc, tr} {
					if err := tournament.Replay(x); err != nil {
						t.Fatalf("%s: %v", x.ID, err)
					}
				}
				for _, bad := range []string{"seed=", "seed=" + strings.Repeat("x", MaxOptionBytes+1)} {
					h.org(fmt.Sprintf("NEW TOURNAMENT tz game=toy lang=%s %s", lang, bad))
					contains(t, flat(orgResults(t, h)), refused[lang])
					exists := false
					if err := h.db.View(func(tx *store.Tx) error { exists = tx.HasTournament("tz"); return nil }); err != nil {
						t.Fatal(err)
					}
					if exists {
						t.Fatalf("%s: the tournament was created", bad)
					}
				}
			})
		}
	}
}
