package bymail

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/pbem-referee/referee/referee/tournament"
	"github.com/pbem-referee/referee/referee/tournament/bymail/tourrec"
)

// hostWith is a testHost whose records hold tr as tournament "cup".
func hostWith(t testing.TB, tr *tournament.Tournament) *testHost {
	h := newTestHost(t, time.Date(2026, 9, 16, 18, 0, 0, 0, time.UTC))
	raw, err := json.Marshal(tr)
	if err != nil {
		t.Fatal(err)
	}
	h.rec.tours["cup"] = raw
	return h
}

// bigPages is a published Swiss tournament "cup" of n entrants with its
// three rounds played and rated, whose place 8 changed hands twice: its
// first holder left round 2's game after a move (a substitute finished
// it), and the substitute left after round 2 to one who also holds place
// 9 (the same address: one person, two places).
func bigPages(b *testing.B, n int) *testHost {
	tr := threeRounds(b, tournament.Swiss, "bench", n, func(i, _ int) int { return 1 + i })
	for r := range tr.Rounds {
		for k := range tr.Rounds[r].Matches {
			m := &tr.Rounds[r].Matches[k]
			if m.State != tournament.MatchBye {
				m.Ratings, m.RatingsBefore = []float64{1510, 1490}, []float64{1500, 1500}
			}
		}
	}
	e := &tr.Entrants[7]
	e.Before = []tournament.Stint{{Name: e.Name, Address: e.Address, Through: 1, Into: 2},
		{Name: "Sub", Address: "sub@x", Through: 2}}
	e.Name, e.Address = "Twice", tr.Entrants[8].Address
	h := hostWith(b, tr)
	return h
}

// BenchmarkPlacePages measures the page of one person (PersonPageOf: the
// substitute of place 8) and of one place (PlayerPageOf) of a tournament
// of 5,000 entrants (issue 24: a page of one entrant computed the whole
// crosstable, and a person's page asked every seat of every round who
// played it), and the check of a game's page (GamePage: it decoded the
// whole tournament for its key). decode is the tournament's record read alone (loadTour),
// the part of each page that reads every entrant; person-kept and
// place-kept are those pages as the store serves them, the tournament
// kept decoded for the pages (pageTour, issue 24: each page decoded it).
// Run: go test -run '^$' -bench PlacePages -benchmem ./referee/tournament/bymail/
func BenchmarkPlacePages(b *testing.B) {
	h := bigPages(b, 5000)
	tr, err := tourrec.Load(h.rec, "cup")
	if err != nil {
		b.Fatal(err)
	}
	// kept: the pages as the store serves them, the tournament kept
	// decoded for the pages while its records stay (pageTour).
	kept := pageHost{h, &pageCachedRecords{memRecords: h.rec, kept: map[string]pageKept{}}}
	gid := tr.Rounds[1].Matches[7].GameID
	gkey := gamePageKey(tr, gid)
	for _, c := range []struct {
		name string
		page func() (any, error)
	}{
		{"decode", func() (any, error) { return tourrec.Load(h.rec, "cup") }},
		{"person", func() (any, error) { return PersonPageOf(h, "cup", "k", 8, 2) }},
		{"place", func() (any, error) { return PlayerPageOf(h, "cup", "k", 8) }},
		{"person-kept", func() (any, error) { return PersonPageOf(kept, "cup", "k", 8, 2) }},
		{"place-kept", func() (any, error) { return PlayerPageOf(kept, "cup", "k", 8) }},
		{"game", func() (any, error) {
			if _, ok := GamePage(h.rec, "cup", gid, gkey); !ok {
				return nil, ErrNoPage
			}
			return nil, nil
		}},
	} {
		b.Run(c.name, func(b *testing.B) {
			if _, err := c.page(); err != nil { // the kept ones: kept now
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := c.page(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
