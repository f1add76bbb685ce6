package referee

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/pbem-referee/referee/store"
)

// TestOrganiserListPaged_Issue25: the organiser's LIST answers at most
// 50 games (organise.ListPage), in id order, and when there are more a last
// line says how many and names the LIST <game> that shows the rest;
// following it page after page lists every game of the organiser once and
// no other organiser's. Generated: 4 languages (the answer in the LIST
// word's language) x 0-170 games of the organiser in random ids and
// statuses (the page's edges 49-51, 99-101 included), games of another
// organiser between them; every line within 80 columns.
func TestOrganiserListPaged_Issue25(t *testing.T) {
	const page50 = 50 // the rule's page (organise.ListPage)
	r := rand.New(rand.NewPCG(25, 8))
	kw := map[string]string{"en": "LIST", "it": "ELENCO", "fr": "LISTE", "nl": "LIJST"}
	statuses := []string{StatusRunning, StatusForming, StatusOver, StatusPaused, StatusAborted}
	sizes := []int{0, 1, 48, 49, 50, 98, 99, 100, 150, 170}
	for iter := 0; iter < 24; iter++ {
		lang := []string{"en", "it", "fr", "nl"}[iter%4]
		n := r.IntN(171)
		if iter < len(sizes) {
			n = sizes[iter]
		}
		h := newHarness(t)
		h.newToyGame("tmpl", ann, bob)
		h.mails()
		tmpl := h.game("tmpl")
		want := []string{"tmpl"}
		err := h.db.Update(func(tx *store.Tx) error {
			for i := 0; len(want) < n+1; i++ {
				g := *tmpl
				g.ID = fmt.Sprintf("%c%d", 'a'+r.IntN(26), r.IntN(1000))
				if tx.HasGame(g.ID) {
					continue
				}
				g.Status = statuses[r.IntN(len(statuses))]
				if r.IntN(4) == 0 {
					g.Organiser = "other@example.test"
				} else {
					want = append(want, g.ID)
				}
				if err := saveGame(tx, &g); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		slices.Sort(want)
		more := regexp.MustCompile(`(?m)^  .*\b` + kw[lang] + ` ([a-z][a-z0-9]+)\b`)
		var got []string
		cmd := kw[lang]
		for page := 0; page < 10; page++ {
			h.org(cmd)
			body := h.mailTo(h.mails(), org).Body
			for _, l := range strings.Split(body, "\n") {
				if w := utf8.RuneCountInString(l); w > 80 {
					t.Errorf("%s: a line of %d columns: %q", lang, w, l)
				}
			}
			_, list, ok := strings.Cut(body, "\n"+kw[lang])
			if !ok {
				t.Fatalf("%s: no %s answer:\n%s", lang, kw[lang], body)
			}
			shown := 0
			for _, l := range strings.Split(list, "\n") {
				if f := strings.Fields(l); len(f) > 3 && strings.HasPrefix(l, "  ") && h.db.View(func(tx *store.Tx) error {
					if !tx.HasGame(f[0]) {
						return fmt.Errorf("no game")
					}
					return nil
				}) == nil {
					got = append(got, f[0])
					shown++
				}
			}
			left := len(want) - len(got)
			if shown != min(page50, shown+left) {
				t.Errorf("%s: %d games on a page, %d left", lang, shown, left)
			}
			m := more.FindStringSubmatch(list)
			if m == nil {
				if left > 0 {
					t.Errorf("%s, %d games: %d not listed and no line naming the rest:\n%s", lang, len(want), left, list)
				}
				break
			}
			if left <= 0 || m[1] != want[min(len(got), len(want)-1)] {
				t.Errorf("%s, %d games: the rest named from %s after %d listed:\n%s", lang, len(want), m[1], len(got), list)
				break
			}
			if left > 1 && !strings.Contains(m[0], strconv.Itoa(left)) {
				t.Errorf("%s: %d left, the line says %q", lang, left, m[0])
			}
			cmd = kw[lang] + " " + m[1]
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: listed %d games %v..., want %d %v...", lang, len(got), got[:min(3, len(got))], len(want), want[:min(3, len(want))])
		}
	}
}

// TestOrganiserListPastTheLastGame_Issue25: LIST from a game after the
// organiser's last says there is none from there on and how to list from
// the first, never "no games yet" (the organiser has games); a long name
// is clipped so every line stays within 80 columns. 4 languages x names
// short, long and of 40 letters.
func TestOrganiserListPastTheLastGame_Issue25(t *testing.T) {
	kw := map[string]string{"en": "LIST", "it": "ELENCO", "fr": "LISTE", "nl": "LIJST"}
	yet := map[string]string{"en": "no games yet", "it": "ancora nessuna", "fr": "encore aucune", "nl": "nog geen"}
	for _, lang := range []string{"en", "it", "fr", "nl"} {
		for _, from := range []string{"zzz", "zz9999999", strings.Repeat("z", 40)} {
			h := newHarness(t)
			h.newToyGame("tmpl", ann, bob)
			h.mails()
			h.org(kw[lang] + " " + from)
			body := h.mailTo(h.mails(), org).Body
			_, list, ok := strings.Cut(body, "\n"+kw[lang])
			if !ok {
				t.Fatalf("%s: no %s answer:\n%s", lang, kw[lang], body)
			}
			if strings.Contains(list, yet[lang]) || !strings.Contains(list, from[:3]) || !strings.Contains(list, "\n  "+kw[lang]+" ") {
				t.Errorf("%s, LIST %s: want the name and how to list from the first, not %q:\n%s", lang, from, yet[lang], list)
			}
			for _, l := range strings.Split(body, "\n") {
				if w := utf8.RuneCountInString(l); w > 80 {
					t.Errorf("%s: a line of %d columns: %q", lang, w, l)
				}
			}
		}
	}
}
