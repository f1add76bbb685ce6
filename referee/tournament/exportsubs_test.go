package tournament

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"math/rand"
	"slices"
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
		held := func(name string, r int) bool { return finisher(tr.Entrants[owner[name]], r) == name }
		want := map[string]bool{} // every player who played a complete round
		for e, en := range tr.Entrants {
			for r := 1; r <= rounds; r++ {
				want[finisher(en, r)] = true
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
						if o := finisher(tr.Entrants[m.Seats[1-i]], r); nameOf[opp] != o {
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

// handedOn is a generated tournament whose places are handed on during
// a round's game (REPLACE after a move: Stint.Into), with who played each
// place's round by the generator's own log: played[e][r] (r from 1) are
// the holders of place e who played round r, first to last.
type handedOn struct {
	tr     *Tournament
	played [][][]string
	games  int // the games handed on
	// since[e]: the first round place e's holder now played whole;
	// finished[e]: a round whose game they took over and finished (0:
	// none).
	since, finished []int
}

// ownRound: round r of place e was its holder now's alone.
func (h handedOn) ownRound(e, r int) bool { return r >= h.since[e] }

// genHandedOn draws a tournament of format (Swiss: two-player, Tables:
// three) with 5 to 8 entrants and 3 complete rounds of random results
// (forfeits, draws), then hands 1 to 3 places on: each once or twice, at
// a generated round, twice within one game or in two rounds, some
// between rounds; a substitute is named like another holder (an entrant
// of the same game, or the one they replace) in about half the draws.
func genHandedOn(t *testing.T, seed int64, format string) handedOn {
	rng := rand.New(rand.NewSource(seed))
	s := Settings{Format: format, NumRounds: 3}
	if format == Tables {
		s.Table = 3
	}
	tr := newT(t, 5+rng.Intn(4), s)
	const rounds = 3
	for r := 1; r <= rounds; r++ {
		rd, err := tr.NextRound()
		if err != nil {
			t.Fatal(err)
		}
		for k := range rd.Matches {
			m := &rd.Matches[k]
			if m.State == MatchBye {
				continue
			}
			rank := make([]int, len(m.Seats))
			for i := range rank {
				rank[i] = 1 + rng.Intn(len(m.Seats))
			}
			result(m, rank)
			if rng.Intn(5) == 0 {
				m.State = MatchForfeit
			}
		}
		tr.Rounds = append(tr.Rounds, rd)
	}
	h := handedOn{tr: tr, played: make([][][]string, len(tr.Entrants)), since: make([]int, len(tr.Entrants)),
		finished: make([]int, len(tr.Entrants))}
	for e := range tr.Entrants {
		h.since[e] = 1
		h.played[e] = make([][]string, rounds+1)
		for r := 1; r <= rounds; r++ {
			h.played[e][r] = []string{tr.Entrants[e].Name}
		}
	}
	sameGame := func(e, r int) []int {
		for _, m := range tr.Rounds[r-1].Matches {
			if slices.Contains(m.Seats, e) {
				return m.Seats
			}
		}
		return nil
	}
	places := rng.Perm(len(tr.Entrants))[:1+rng.Intn(3)]
	for _, e := range places {
		en := &tr.Entrants[e]
		r, last, wasMid := 1+rng.Intn(rounds), 0, false
		for k := 0; k < 1+rng.Intn(2) && r <= rounds; k++ {
			name := fmt.Sprintf("Sub%d%d", e, k)
			if rng.Intn(2) == 0 {
				// Named like another holder: someone at the same table,
				// or the one they replace.
				if others := sameGame(e, r); len(others) > 0 {
					name = tr.Entrants[others[rng.Intn(len(others))]].Name
				}
			}
			mid := rng.Intn(4) != 0 && sameGame(e, r) != nil && len(sameGame(e, r)) > 1
			if r == last && wasMid {
				mid = true // the game has had its moves
			}
			last, wasMid = r, mid
			st := Stint{Name: en.Name, Address: en.Address, Through: r - 1}
			if mid {
				st.Into = r
				h.games++
			}
			en.Before = append(en.Before, st)
			en.Name, en.Address = name, fmt.Sprintf("sub%d%d@x", e, k)
			h.since[e], h.finished[e] = r, 0
			if mid {
				h.since[e], h.finished[e] = r+1, r
			}
			for x := r; x <= rounds; x++ {
				if x == r && mid {
					h.played[e][x] = append(h.played[e][x], name)
				} else {
					h.played[e][x] = []string{name}
				}
			}
			r += rng.Intn(2) // twice within one game, or in the next round
		}
	}
	return h
}

// TestExportsNameHandedOnGames_Issue24 (issue 24: every export names who
// played a game handed on mid-way, both holders, the substitute marked):
// 60 generated tournaments (genHandedOn: Swiss and tables, places handed
// on once or twice at a generated round, within a game or between rounds,
// substitutes named like another holder). results.csv and every round's
// pairings.csv name who finished each seat's game and, in started_by, who
// started it; the crosstable (data and CSV) names who played a round its
// line's holder did not play alone; the TRF of a two-player event writes
// every handed-on game not rated (W, D, L) on both sides and no other.
// The rows are found by the entrant's number, never by a name.
func TestExportsNameHandedOnGames_Issue24(t *testing.T) {
	games := 0
	for seed := int64(0); seed < 60; seed++ {
		format := []string{Swiss, Tables}[seed%2]
		h := genHandedOn(t, seed, format)
		tr := h.tr
		games += h.games
		checkRows := func(what string, b []byte) {
			rows, err := csv.NewReader(bytes.NewReader(b)).ReadAll()
			if err != nil {
				t.Fatal(err)
			}
			col := map[string]int{}
			for i, c := range rows[0] {
				col[c] = i
			}
			if _, ok := col["started_by"]; !ok {
				t.Fatalf("seed %d %s: no started_by column: %q", seed, what, rows[0])
			}
			for _, row := range rows[1:] {
				e, _ := strconv.Atoi(row[col["entrant"]])
				r, _ := strconv.Atoi(row[col["round"]])
				who := h.played[e-1][r]
				if row[col["name"]] != who[len(who)-1] || row[col["started_by"]] != strings.Join(who[:len(who)-1], " | ") {
					t.Errorf("seed %d %s: round %d place %d names %q started by %q; %q played it", seed, what, r, e,
						row[col["name"]], row[col["started_by"]], who)
				}
			}
		}
		b, err := ResultsCSV(tr)
		if err != nil {
			t.Fatal(err)
		}
		checkRows("results.csv", b)
		// standings.csv: held_before, read back into who played each
		// round, matches the log but for the rounds of the holder now.
		b, err = StandingsCSV(tr)
		if err != nil {
			t.Fatal(err)
		}
		st, err := csv.NewReader(bytes.NewReader(b)).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		for _, row := range st[1:] {
			e, _ := strconv.Atoi(row[1])
			got := map[int][]string{}
			if held := row[len(row)-1]; held != "" {
				for _, h := range strings.Split(held, " | ") {
					name, rounds, _ := strings.Cut(h, ":")
					for _, rs := range strings.Split(rounds, ",") {
						a, b, _ := strings.Cut(strings.TrimPrefix(rs, "~"), "-")
						from, _ := strconv.Atoi(a)
						to := from
						if b != "" {
							to, _ = strconv.Atoi(b)
						}
						for r := from; r <= to; r++ {
							got[r] = append(got[r], name)
						}
					}
				}
			}
			for r := 1; r <= len(tr.Rounds); r++ {
				var want []string
				if who := h.played[e-1][r]; r == h.finished[e-1] {
					want = who[:len(who)-1] // begun by them, finished by the holder now
				} else if !h.ownRound(e-1, r) {
					want = who
				}
				if fmt.Sprint(got[r]) != fmt.Sprint(want) {
					t.Errorf("seed %d standings.csv: place %d's held_before %q gives round %d to %q, want %q", seed, e, row[len(row)-1], r, got[r], want)
				}
			}
		}
		for n := 1; n <= len(tr.Rounds); n++ {
			b, err := PairingsCSV(tr, n)
			if err != nil {
				t.Fatal(err)
			}
			checkRows(fmt.Sprintf("pairings.csv %d", n), b)
		}
		cross := Crosstable(tr)
		b, err = CrosstableCSV(tr)
		if err != nil {
			t.Fatal(err)
		}
		rows, err := csv.NewReader(bytes.NewReader(b)).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		for i, cr := range cross {
			e := cr.Entrant
			for r := 1; r <= len(tr.Rounds); r++ {
				who := h.played[e][r]
				paired := cr.Rounds[r-1].Result != ""
				var want []string
				if paired && (len(who) > 1 || !h.ownRound(e, r)) {
					want = who
				}
				if fmt.Sprint(cr.Rounds[r-1].Players) != fmt.Sprint(want) {
					t.Errorf("seed %d crosstable: place %d round %d names %q, %q played", seed, e+1, r, cr.Rounds[r-1].Players, who)
				}
				cell := rows[i+1][len(rows[0])-len(tr.Rounds)+r-1]
				if tail := " [" + strings.Join(want, ">") + "]"; (want != nil) != strings.HasSuffix(cell, tail) {
					t.Errorf("seed %d crosstable.csv: place %d round %d is %q, %q played", seed, e+1, r, cell, who)
				}
			}
		}
		if format != Swiss {
			continue
		}
		b, err = TRF(tr)
		if err != nil {
			t.Fatal(err)
		}
		unrated := map[int]int{} // round -> W/D/L cells
		for _, line := range strings.Split(string(b), "\r\n") {
			if !strings.HasPrefix(line, "001") {
				continue
			}
			for r := 1; r <= len(tr.Rounds); r++ {
				at := 92 + 10*(r-1)
				if res := strings.TrimSpace(string([]rune(line + strings.Repeat(" ", 200))[at+6 : at+7])); strings.Contains("WDL", res) && res != "" {
					unrated[r]++
				}
			}
		}
		for r := 1; r <= len(tr.Rounds); r++ {
			want := 0
			for _, m := range tr.Rounds[r-1].Matches {
				if m.State == MatchBye || m.State == MatchForfeit {
					continue
				}
				if len(h.played[m.Seats[0]][r]) > 1 || len(h.played[m.Seats[1]][r]) > 1 {
					want += 2
				}
			}
			if unrated[r] != want {
				t.Errorf("seed %d TRF round %d: %d cells not rated, want %d (handed-on games played out, both sides)", seed, r, unrated[r], want)
			}
		}
	}
	if games < 30 {
		t.Fatalf("%d games handed on in all the draws: the test checks too little", games)
	}
}

// finisher names who finished round n's game for entrant e (the last of
// Entrant.Played).
func finisher(e Entrant, n int) string {
	who := e.Played(n)
	return who[len(who)-1]
}
