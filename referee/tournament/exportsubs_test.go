package tournament

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"math/rand"
	"strconv"
	"strings"
	"testing"
)

// TestExportsNameWhoPlayed_Issue24 (issue 24: after a REPLACE, every page
// and mail names who played which game): P0's place passed to Zed after
// round 1 and to Yan after round 2. results.csv and each round's
// pairings.csv name, for each round, who held the place then; the
// entrant's number stays the place's.
func TestExportsNameWhoPlayed_Issue24(t *testing.T) {
	for _, format := range []string{Swiss, Tables} {
		s := Settings{Format: format}
		if format == Tables {
			s.Table = 3
		}
		tr := newT(t, 6, s)
		for n := 1; n <= 3; n++ {
			var ms []Match
			if format == Tables {
				ms = []Match{{Table: 1, Seats: []int{0, 1, 2}}, {Table: 2, Seats: []int{3, 4, 5}}}
			} else {
				ms = []Match{{Table: 1, Seats: []int{0, n}}, {Table: 2, Seats: []int{(n % 5) + 1, ((n + 1) % 5) + 1}}, {Table: 3, Seats: []int{((n + 2) % 5) + 1, ((n + 3) % 5) + 1}}}
			}
			for i := range ms {
				r := make([]int, len(ms[i].Seats))
				for k := range r {
					r[k] = k + 1
				}
				result(&ms[i], r)
			}
			tr.Rounds = append(tr.Rounds, Round{N: n, Matches: ms})
		}
		tr.Entrants[0].Before = []Stint{{Name: "P0", Address: "p0@x", Through: 1}, {Name: "Zed", Address: "zed@x", Through: 2}}
		tr.Entrants[0].Name, tr.Entrants[0].Address = "Yan", "yan@x"
		want := map[string]string{"1": "P0", "2": "Zed", "3": "Yan"}
		check := func(what string, b []byte) int {
			rows, err := csv.NewReader(bytes.NewReader(b)).ReadAll()
			if err != nil {
				t.Fatal(err)
			}
			col := map[string]int{}
			for i, h := range rows[0] {
				col[h] = i
			}
			n := 0
			for _, r := range rows[1:] {
				if r[col["entrant"]] != "1" {
					continue
				}
				n++
				if got := r[col["name"]]; got != want[r[col["round"]]] {
					t.Errorf("%s %s round %s: name %q, %q played", format, what, r[col["round"]], got, want[r[col["round"]]])
				}
			}
			return n
		}
		b, err := ResultsCSV(tr)
		if err != nil {
			t.Fatal(err)
		}
		if n := check("results.csv", b); n != 3 {
			t.Fatalf("%s results.csv: the place in %d rounds, want 3", format, n)
		}
		for n := 1; n <= 3; n++ {
			b, err := PairingsCSV(tr, n)
			if err != nil {
				t.Fatal(err)
			}
			if check("pairings.csv", b) != 1 {
				t.Fatalf("%s pairings.csv of round %d: the place is not in it", format, n)
			}
		}
	}
}

// TestTRFNamesWhoPlayed_Issue24: a TRF line is a person, so after a
// REPLACE each player who held a place has a line with only the rounds
// they played, opponents are numbered by the line of whoever held the
// opponent's place that round, and the lines of a place add up to its
// standing. Varied: Swiss and round robin, 5 to 8 entrants, random
// results (forfeits, byes), random places replaced once or twice at
// random rounds (0: before round 1), a last round still playing; tables
// have no TRF, replaced or not.
func TestTRFNamesWhoPlayed_Issue24(t *testing.T) {
	for seed := int64(0); seed < 40; seed++ {
		rng := rand.New(rand.NewSource(seed))
		format := []string{Swiss, RoundRobin}[seed%2]
		n := 5 + rng.Intn(4)
		tr := newT(t, n, Settings{Format: format, NumRounds: 4})
		rounds := 3
		for r := 1; r <= rounds+1; r++ {
			rd, err := tr.NextRound()
			if err != nil {
				t.Fatal(err)
			}
			tr.Rounds = append(tr.Rounds, rd)
			if r > rounds {
				break // still playing: left out of the TRF
			}
			ms := tr.Rounds[r-1].Matches
			for k := range ms {
				if ms[k].State == MatchBye {
					continue
				}
				switch rng.Intn(4) {
				case 0:
					ms[k].State, ms[k].Rank = MatchForfeit, []int{2, 1}
				case 1:
					result(&ms[k], []int{1, 1})
				default:
					a := rng.Intn(2) + 1
					result(&ms[k], []int{a, 3 - a})
				}
			}
		}
		// Unique names: a line's name says whose it is.
		owner := map[string]int{}
		for e := range tr.Entrants {
			tr.Entrants[e].Name = fmt.Sprintf("E%d", e)
			owner[tr.Entrants[e].Name] = e
			if rng.Intn(2) == 0 {
				continue
			}
			through := rng.Intn(rounds)
			for k := 0; k < 1+rng.Intn(2) && through < rounds; k++ {
				name := fmt.Sprintf("E%dwas%d", e, k)
				tr.Entrants[e].Before = append(tr.Entrants[e].Before, Stint{Name: name, Through: through})
				owner[name] = e
				through += 1 + rng.Intn(2)
			}
		}
		if seed == 0 {
			stints := 0
			for _, en := range tr.Entrants {
				stints += len(en.Before)
			}
			if stints == 0 {
				t.Fatal("seed 0 replaces no one: the test checks nothing it is for")
			}
		}
		held := func(name string, r int) bool { return tr.Entrants[owner[name]].PlayedBy(r) == name }
		want := map[string]bool{} // every player who played a complete round
		for e, en := range tr.Entrants {
			for r := 1; r <= rounds; r++ {
				want[en.PlayedBy(r)] = true
			}
			want[tr.Entrants[e].Name] = true
		}
		b, err := TRF(tr)
		if err != nil {
			t.Fatal(err)
		}
		complete := *tr
		complete.Rounds = tr.Rounds[:rounds]
		standing := map[int]float64{}
		for _, s := range complete.Standings() {
			standing[s.Entrant] = s.Points
		}
		col := func(line string, from, to int) string {
			r := []rune(line + strings.Repeat(" ", 200))
			return strings.TrimSpace(string(r[from-1 : to]))
		}
		nameOf := map[string]string{} // starting rank -> name
		var players []string
		for _, line := range strings.Split(string(b), "\r\n") {
			if strings.HasPrefix(line, "001") {
				nameOf[col(line, 5, 8)] = col(line, 15, 47)
				players = append(players, line)
			}
			if strings.HasPrefix(line, "062 ") && line != fmt.Sprintf("062 %d", len(want)) {
				t.Errorf("seed %d: %q for %d players", seed, line, len(want))
			}
		}
		if len(players) != len(want) {
			t.Fatalf("seed %d %s: %d player lines for the %d players %v", seed, format, len(players), len(want), want)
		}
		sum := map[int]float64{}
		for _, line := range players {
			name := col(line, 15, 47)
			e, ok := owner[name]
			if !ok || !want[name] {
				t.Fatalf("seed %d: a line for %q", seed, name)
			}
			delete(want, name)
			p, _ := strconv.ParseFloat(col(line, 81, 84), 64)
			sum[e] += p
			var own float64
			for r := 1; r <= rounds; r++ {
				at := 92 + 10*(r-1)
				opp, res := col(line, at, at+3), col(line, at+7, at+7)
				if !held(name, r) {
					if opp != "0000" || res != "Z" {
						t.Errorf("seed %d: %s did not play round %d, has %q", seed, name, r, col(line, at, at+7))
					}
					continue
				}
				for _, m := range complete.Rounds[r-1].Matches {
					for i, x := range m.Seats {
						if x != e {
							continue
						}
						own += tr.seatPoints(m)[i]
						if m.State == MatchBye {
							continue
						}
						if o := tr.Entrants[m.Seats[1-i]].PlayedBy(r); nameOf[opp] != o {
							t.Errorf("seed %d: %s's round %d opponent is line %s (%s), %s played", seed, name, r, opp, nameOf[opp], o)
						}
						if res != cellResult(m, i) {
							t.Errorf("seed %d: %s round %d result %q", seed, name, r, res)
						}
					}
				}
			}
			if name != tr.Entrants[e].Name {
				if p != own {
					t.Errorf("seed %d: %s's points %v, their rounds earned %v", seed, name, p, own)
				}
				if col(line, 86, 89) != "" {
					t.Errorf("seed %d: %s, who left the place, is ranked %q", seed, name, col(line, 86, 89))
				}
			}
		}
		for e, p := range standing {
			if sum[e] != p {
				t.Errorf("seed %d: place %d's lines add up to %v, its standing %v", seed, e+1, sum[e], p)
			}
		}
	}
	tb := tablesFixture(t)
	tb.Entrants[0].Before = []Stint{{Name: "Ann", Through: 1}}
	if _, err := TRF(tb); !errors.Is(err, ErrExport) {
		t.Fatalf("TRF of tables with a substitute: %v", err)
	}
}
