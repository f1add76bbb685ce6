package tournament

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestOrgLangOfReadsTheHead: OrgLangOf agrees with decoding the whole
// record, over generated records (every language or none, options, byes,
// entrants and rounds of any size, an org_lang-like text inside an
// entrant's name), and stops before the entrants: a record cut after its
// settings reads the same.
func TestOrgLangOfReadsTheHead(t *testing.T) {
	rng := rand.New(rand.NewPCG(24, 1))
	for i := 0; i < 300; i++ {
		tr := Tournament{ID: fmt.Sprint("t", i), Organiser: "org@p.test", Seed: "s", Status: StatusRunning}
		tr.Format, tr.NumRounds, tr.Points, tr.Tiebreaks = Swiss, 5, []float64{1, 0}, []string{"buchholz"}
		tr.OrgLang = []string{"", "en", "it", "fr", "nl"}[rng.IntN(5)]
		if rng.IntN(2) == 0 {
			tr.Options = map[string]string{"org_lang": "xx", "rounds": "3"}
		}
		for e := 0; e < rng.IntN(50); e++ {
			tr.Entrants = append(tr.Entrants, Entrant{ID: e, Address: fmt.Sprint(e, "@p.test"), Name: `"org_lang": "zz"`})
		}
		for r := 0; r < rng.IntN(5); r++ {
			tr.Rounds = append(tr.Rounds, Round{N: r + 1, Matches: []Match{{Table: 1, Seats: []int{0, 1}, State: MatchDone}}})
		}
		raw, err := json.Marshal(tr)
		if err != nil {
			t.Fatal(err)
		}
		var whole Tournament
		if err := json.Unmarshal(raw, &whole); err != nil {
			t.Fatal(err)
		}
		if got := OrgLangOf(raw); got != whole.OrgLang || got != tr.OrgLang {
			t.Fatalf("record %d: OrgLangOf %q, the whole record says %q", i, got, whole.OrgLang)
		}
		cut := raw[:bytes.Index(raw, []byte(`"entrants"`))+len(`"entrants"`)]
		if got := OrgLangOf(cut); got != tr.OrgLang {
			t.Fatalf("record %d cut before its entrants: %q, want %q", i, got, tr.OrgLang)
		}
	}
	for _, bad := range []string{"", "[]", "{", `{"org_lang": 3}`, "null"} {
		if got := OrgLangOf([]byte(bad)); got != "" {
			t.Errorf("%q: %q", bad, got)
		}
	}
}
