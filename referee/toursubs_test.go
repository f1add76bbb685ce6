package referee

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/pbem-referee/referee/referee/tournament"
	"github.com/pbem-referee/referee/templates"
)

// TestTournamentPagesNameWhoPlayed_Issue24 (issue 24: after a REPLACE,
// every page names who played which game): on a published Swiss and
// tables tournament, one place changes hands after round 1 and again in
// round 2. The tournament page's pairings (in every language) and the
// player pages' opponents name, for each round, who held the place then
// (tournament.Entrant.PlayedHolders): round 1 the first player, round 2 the
// one who plays it now; the standings name whoever holds the place.
func TestTournamentPagesNameWhoPlayed_Issue24(t *testing.T) {
	for _, format := range []string{"swiss", "tables"} {
		t.Run(format, func(t *testing.T) {
			h := toyTournament(t, format, 3)
			adjudicate := func(n int) {
				var adj strings.Builder
				for _, m := range h.tour("sub").Rounds[n-1].Matches {
					if m.State != tournament.MatchBye {
						fmt.Fprintf(&adj, "ADJUDICATE %s\n", m.GameID)
					}
				}
				h.org(adj.String())
				h.mails()
			}
			adjudicate(1)
			// P0's place passes to Zed (round 2 open, not started), then,
			// after round 2, to Yan.
			h.org("REPLACE sub p0@p.test zed@p.test Zed")
			contains(t, orgResults(t, h), "zed@p.test")
			adjudicate(2)
			h.org("REPLACE sub zed@p.test yan@p.test Yan")
			h.mails()
			tr := h.tour("sub")
			if len(tr.Rounds) != 3 || len(tr.Entrants[0].Before) != 2 {
				t.Fatalf("%d rounds, P0's place held before by %+v", len(tr.Rounds), tr.Entrants[0].Before)
			}
			want := map[int]string{1: "P0", 2: "Zed", 3: "Yan"}
			slug := tr.ID + "-" + tr.Key
			for _, lang := range templates.Languages {
				p, err := h.r.TournamentPage(slug, lang)
				if err != nil {
					t.Fatal(err)
				}
				seen := 0
				for _, pr := range p.Pairings {
					for j, m := range pr.Matches {
						for i, name := range m.Players {
							if tr.Rounds[pr.N-1].Matches[j].Seats[i] != 0 {
								if name == "P0" || name == "Zed" || name == "Yan" {
									t.Errorf("%s round %d table %d: %q at another entrant's seat", lang, pr.N, m.Table, name)
								}
								continue
							}
							seen++
							if name != want[pr.N] {
								t.Errorf("%s round %d table %d: the page names %q for the place, %q played it", lang, pr.N, m.Table, name, want[pr.N])
							}
						}
					}
				}
				if seen != 3 {
					t.Fatalf("%s: the place is in %d of the page's rounds, want 3", lang, seen)
				}
				found := false
				for _, s := range p.Standings {
					found = found || s.Name == "Yan"
				}
				if !found {
					t.Errorf("%s: the standings do not name Yan, who holds the place", lang)
				}
			}
			// The player pages: whoever met the place names who held it.
			checked := 0
			for _, rd := range tr.Rounds {
				for _, m := range rd.Matches {
					if m.State == tournament.MatchBye || !slices.Contains(m.Seats, 0) {
						continue
					}
					for _, x := range m.Seats {
						if x == 0 {
							continue
						}
						pp, err := h.r.PlayerPage(slug, x+1)
						if err != nil {
							t.Fatal(err)
						}
						for _, g := range pp.Games {
							if g.Round != rd.N {
								continue
							}
							named := false
							for _, o := range g.Opponents {
								named = named || o.Name == want[rd.N]
								if o.Name != want[rd.N] && (o.Name == "P0" || o.Name == "Zed" || o.Name == "Yan") {
									t.Errorf("entrant %d round %d: opponent %q, %q played", x, rd.N, o.Name, want[rd.N])
								}
							}
							if !named {
								t.Errorf("entrant %d round %d: opponents %+v do not name %q", x, rd.N, g.Opponents, want[rd.N])
							}
							checked++
						}
					}
				}
			}
			if checked < 3 {
				t.Fatalf("only %d player pages' games checked", checked)
			}
			// A page per person (issue 24): P0, Zed and Yan, the place's
			// holders 1 to 3, each list the round they played, rated once
			// adjudicated (round 3 still plays).
			for k := 1; k <= 3; k++ {
				pp, err := h.r.PersonPage(slug, 1, k)
				if err != nil {
					t.Fatal(err)
				}
				var rounds []int
				for _, g := range pp.Games {
					rounds = append(rounds, g.Round)
					if g.Place != 1 || !g.Bye && (g.RatingAfter == "") != (k == 3) {
						t.Errorf("%s's page: round %d for place %d, rated %q", pp.Name, g.Round, g.Place, g.RatingAfter)
					}
				}
				if pp.Name != want[k] || fmt.Sprint(rounds) != fmt.Sprint([]int{k}) || len(pp.Held) != 1 || pp.Held[0].Substitute != (k > 1) {
					t.Errorf("holder %d's page: %s played rounds %v, held %+v; want %s, round %d", k, pp.Name, rounds, pp.Held, want[k], k)
				}
			}
		})
	}
}

// toyTournament is a harness with a published toy tournament "sub" of
// six entrants (p0..p5@p.test, named P0..P5) over rounds rounds, Swiss
// or in tables of 3 (format "tables"), started, its mails read.
func toyTournament(t *testing.T, format string, rounds int) *harness {
	h := newHarness(t)
	table := ""
	if format == "tables" {
		table = " table=3"
	}
	h.org(fmt.Sprintf("NEW TOURNAMENT sub game=toy format=%s%s rounds=%d public", format, table, rounds))
	var enter strings.Builder
	for i := 0; i < 6; i++ {
		fmt.Fprintf(&enter, "ENTER sub p%d@p.test P%d\n", i, i)
	}
	h.org(enter.String() + "START sub")
	h.mails()
	return h
}
