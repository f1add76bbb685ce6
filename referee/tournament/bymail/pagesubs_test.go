package bymail

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/pbem-referee/referee/referee/tournament"
	"github.com/pbem-referee/referee/templates"
)

// TestPagesMarkPlacesThatChangedHands_Issue24 (issue 24: after a REPLACE,
// every page names who played which game): the tournament page's
// standings, the crosstable and the place's player page mark a place that changed hands with each
// earlier holder who played and their rounds (PageStint), as the mails'
// standings do; a holder replaced before playing is not named, and an
// untouched place has no mark. Swiss and tables, in every language, with
// a place passed on once after round 1, one passed on twice (after
// rounds 1 and 2), and one passed on before round 1.
func TestPagesMarkPlacesThatChangedHands_Issue24(t *testing.T) {
	for _, format := range []string{tournament.Swiss, tournament.Tables} {
		tr := &tournament.Tournament{ID: "cup", Seed: "seed", Status: tournament.StatusRunning, Key: "k",
			Settings: tournament.Settings{Format: format, Table: 2, NumRounds: 3, Points: []float64{1, 0}, MinTable: 2, Public: true}}
		if format == tournament.Tables {
			tr.Table, tr.Points = 3, []float64{2, 1, 0}
		}
		for i := 0; i < 9; i++ {
			tr.Entrants = append(tr.Entrants, tournament.Entrant{ID: i, Address: fmt.Sprintf("p%d@x", i), Name: fmt.Sprintf("P%d", i)})
		}
		for r := 1; r <= 3; r++ {
			rd, err := tr.NextRound()
			if err != nil {
				t.Fatal(err)
			}
			for k := range rd.Matches {
				m := &rd.Matches[k]
				if m.State == tournament.MatchBye {
					continue
				}
				m.GameID, m.State, m.Rank = fmt.Sprintf("g%d%d", r, k), tournament.MatchDone, make([]int, len(m.Seats))
				for i := range m.Rank {
					m.Rank[i] = i + 1
				}
			}
			tr.Rounds = append(tr.Rounds, rd)
		}
		tr.Entrants[1].Before = []tournament.Stint{{Name: "Ann", Address: "ann@x", Through: 1}}
		tr.Entrants[4].Before = []tournament.Stint{{Name: "Bob", Address: "bob@x", Through: 1}, {Name: "Cy", Address: "cy@x", Through: 2}}
		tr.Entrants[7].Before = []tournament.Stint{{Name: "Dee", Address: "dee@x", Through: 0}}
		want := map[int]string{1: "[{Ann 1 1}]", 4: "[{Bob 1 1} {Cy 2 2}]", 7: "[]"}
		h := newTestHost(t, time.Date(2026, 9, 16, 18, 0, 0, 0, time.UTC))
		raw, err := json.Marshal(tr)
		if err != nil {
			t.Fatal(err)
		}
		h.rec.tours["cup"] = raw
		check := func(where string, e int, got []PageStint) {
			w, ok := want[e]
			if !ok {
				w = "[]"
			}
			if g := fmt.Sprint(got); g != w {
				t.Errorf("%s %s: entrant %d's place marked %s, want %s", format, where, e, g, w)
			}
		}
		for _, lang := range templates.Languages {
			p, err := Page(h, "cup", "k", lang)
			if err != nil {
				t.Fatal(err)
			}
			if len(p.Standings) != len(tr.Entrants) {
				t.Fatalf("%s: %d standings for %d entrants", format, len(p.Standings), len(tr.Entrants))
			}
			for _, s := range p.Standings {
				e := -1
				for i := range tr.Entrants {
					if playerPagePath(tr, i) == s.URL {
						e = i
					}
				}
				check(lang+" standings", e, s.Replaced)
			}
		}
		for e := range tr.Entrants {
			pp, err := PlayerPageOf(h, "cup", "k", e+1)
			if err != nil {
				t.Fatal(err)
			}
			check("player page", e, pp.Replaced)
		}
		cp, err := CrossPageOf(h, "cup", "k")
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range cp.Lines {
			e := -1
			for i := range tr.Entrants {
				if playerPagePath(tr, i) == l.URL {
					e = i
				}
			}
			check("crosstable", e, l.Replaced)
		}
	}
}
