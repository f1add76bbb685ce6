package tournament

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/pbem-referee/referee/engine"
)

// TestScaledSmallTablePoints: the points of a table one short, worked by
// hand (doc.go): the first earns the first place's points, the last the
// last place's, the places between are read off the full table's scale.
func TestScaledSmallTablePoints(t *testing.T) {
	cases := []struct {
		table  int
		points []float64
		rank   []int
		want   []float64
		legacy []float64
	}{
		{3, []float64{2, 1, 0}, []int{1, 2}, []float64{2, 0}, []float64{2, 1}},
		{3, []float64{2, 1, 0}, []int{2, 1}, []float64{0, 2}, []float64{1, 2}},
		{3, []float64{2, 1, 0}, []int{1, 1}, []float64{1, 1}, []float64{1.5, 1.5}},
		{4, []float64{3, 2, 1, 0}, []int{1, 2, 3}, []float64{3, 1.5, 0}, []float64{3, 2, 1}},
		{4, []float64{3, 2, 1, 0}, []int{1, 1, 3}, []float64{2.25, 2.25, 0}, []float64{2.5, 2.5, 1}},
		{4, []float64{4, 2, 1, 0}, []int{3, 1, 2}, []float64{0, 4, 1.5}, []float64{1, 4, 2}},
		{5, []float64{4, 3, 2, 1, 0}, []int{1, 2, 3, 4}, []float64{4, 8.0 / 3, 4.0 / 3, 0}, []float64{4, 3, 2, 1}},
		// A full table is unchanged.
		{3, []float64{2, 1, 0}, []int{1, 2, 3}, []float64{2, 1, 0}, []float64{2, 1, 0}},
	}
	for _, c := range cases {
		for _, scaled := range []bool{true, false} {
			s := Settings{Format: Tables, Table: c.table, Points: c.points, Scaled: scaled}
			seats := make([]int, len(c.rank))
			got := s.seatPoints(Match{Seats: seats, State: MatchDone, Rank: c.rank})
			want := c.want
			if !scaled {
				want = c.legacy
			}
			for i := range got {
				if !near(got[i], want[i], 1e-9) {
					t.Errorf("table %d points %v rank %v scaled %v: got %v, want %v", c.table, c.points, c.rank, scaled, got, want)
					break
				}
			}
		}
	}
}

// TestScaledNeitherFavouredNorPunished: for every table size with the
// default (evenly spaced) points, a seat at a table one or two short
// expects, over every order of finish, the same points as a seat at a
// full table, and the same Buchholz share per game from opponents of
// equal strength; the unscaled rule favours it.
func TestScaledNeitherFavouredNorPunished(t *testing.T) {
	for table := 3; table <= 6; table++ {
		s := Settings{Format: Tables, Table: table}
		if err := Defaults(&s, engine.Info{Name: "toy", MinPlayers: 2, MaxPlayers: 6}); err != nil {
			t.Fatal(err)
		}
		mean := func(k int, scaled bool) float64 {
			s.Scaled = scaled
			sum, n := 0.0, 0
			permutations(k, func(rank []int) {
				for _, p := range s.seatPoints(Match{Seats: make([]int, k), State: MatchDone, Rank: rank}) {
					sum += p
					n++
				}
			})
			return sum / float64(n)
		}
		full := mean(table, true)
		for k := max(2, table-2); k < table; k++ {
			if got := mean(k, true); !near(got, full, 1e-9) {
				t.Errorf("table %d, %d seats: mean %v, a full table %v", table, k, got, full)
			}
			if got := mean(k, false); got <= full {
				t.Errorf("table %d, %d seats unscaled: mean %v not above %v (the old rule favoured them)", table, k, got, full)
			}
			s.Scaled = true
			sc := s.tiebreakScale(Match{Seats: make([]int, k)})
			if !near(sc*float64(k-1), float64(table-1), 1e-9) {
				t.Errorf("table %d, %d seats: Buchholz scale %v", table, k, sc)
			}
		}
	}
}

// permutations calls fn with every finishing order of k seats (ranks
// 1..k, no ties).
func permutations(k int, fn func(rank []int)) {
	rank := make([]int, k)
	used := make([]bool, k+1)
	var rec func(i int)
	rec = func(i int) {
		if i == k {
			fn(rank)
			return
		}
		for r := 1; r <= k; r++ {
			if !used[r] {
				used[r] = true
				rank[i] = r
				rec(i + 1)
				used[r] = false
			}
		}
	}
	rec(0)
}

// TestStandingsSmallTableHandWorked: tables of 3 (points 2,1,0) and one
// of 2, two rounds, worked by hand (the values are in the comments of
// doc.go's example):
//
//	round 1: 0>1>2, 3>4>5, 6>7
//	round 2: 7>0>3, 1=4>6, 5>2
//
// Points 0:3, 1:2½, 4:2½, 3:2, 5:2, 6:2, 7:2, 2:0. Buchholz counts a game
// at the table of 2 twice (one opponent where a full table has two):
// 0:6½ 1:7½ 2:9½ 3:9½ 4:8½ 5:4½ 6:9 7:9. Sonneborn-Berger likewise:
// 0:4½ 1:3¼ 2:0 3:4½ 4:5¼ 5:0 6:4 7:5.
func TestStandingsSmallTableHandWorked(t *testing.T) {
	tr := newT(t, 8, Settings{Format: Tables, Table: 3, Tiebreaks: []string{Buchholz, SonnebornBerger}})
	if !tr.Scaled || tr.MinTable != 2 {
		t.Fatalf("defaults: scaled %v min table %d", tr.Scaled, tr.MinTable)
	}
	tr.Rounds = []Round{
		{N: 1, Matches: []Match{{Seats: []int{0, 1, 2}}, {Seats: []int{3, 4, 5}}, {Seats: []int{6, 7}}}},
		{N: 2, Matches: []Match{{Seats: []int{0, 3, 7}}, {Seats: []int{1, 4, 6}}, {Seats: []int{2, 5}}}},
	}
	result(&tr.Rounds[0].Matches[0], []int{1, 2, 3})
	result(&tr.Rounds[0].Matches[1], []int{1, 2, 3})
	result(&tr.Rounds[0].Matches[2], []int{1, 2})
	result(&tr.Rounds[1].Matches[0], []int{2, 3, 1})
	result(&tr.Rounds[1].Matches[1], []int{1, 1, 3})
	result(&tr.Rounds[1].Matches[2], []int{2, 1})
	type row struct {
		e       int
		pts     float64
		buch    float64
		sb      float64
		w, d, l int
	}
	want := []row{
		{0, 3, 6.5, 4.5, 1, 0, 1},
		{4, 2.5, 8.5, 5.25, 0, 1, 1},
		{1, 2.5, 7.5, 3.25, 0, 1, 1},
		{3, 2, 9.5, 4.5, 1, 0, 1},
		{7, 2, 9, 5, 1, 0, 1},
		{6, 2, 9, 4, 1, 0, 1},
		{5, 2, 4.5, 0, 1, 0, 1},
		{2, 0, 9.5, 0, 0, 0, 2},
	}
	st := tr.Standings()
	for i, w := range want {
		s := st[i]
		if s.Entrant != w.e || s.Place != i+1 || s.Points != w.pts || !reflect.DeepEqual(s.Tiebreaks, []float64{w.buch, w.sb}) ||
			s.Won != w.w || s.Drawn != w.d || s.Lost != w.l {
			t.Errorf("line %d: got %+v, want %+v", i+1, s, w)
		}
	}
	// The same record under the old rule: the loser at the table of 2
	// earns 1 of 2 points.
	tr.Scaled = false
	for _, s := range tr.Standings() {
		if s.Entrant == 7 && s.Points != 3 {
			t.Errorf("unscaled: entrant 7 has %v points, want 1+2", s.Points)
		}
	}
}

// TestSmallTablesRotate: with tables of 3 and one of 2, the table of 2
// goes to those who sat at one least often, not always to the bottom of
// the standings: over six rounds of random results the seats at it per
// entrant differ by at most 2 (the run of entrants seated there is
// consecutive in the standings), by at most 1 in most tournaments, where
// the old rule seats the same bottom entrants there again and again.
func TestSmallTablesRotate(t *testing.T) {
	spread := map[bool]int{}
	even := 0
	for _, scaled := range []bool{true, false} {
		r := rand.New(rand.NewPCG(24, 4))
		for iter := 0; iter < 40; iter++ {
			n := []int{5, 8, 11, 14}[iter%4]
			tr := newT(t, n, Settings{Format: Tables, Table: 3, NumRounds: 6})
			tr.Scaled = scaled
			for round := 1; round <= 6; round++ {
				rd, err := tr.NextRound()
				if err != nil {
					t.Fatal(err)
				}
				tr.Rounds = append(tr.Rounds, rd)
				play(tr, r)
			}
			lo, hi := 99, 0
			for _, x := range tr.seatHistories() {
				lo, hi = min(lo, x.short), max(hi, x.short)
			}
			spread[scaled] += hi - lo
			if scaled && hi-lo > 2 {
				t.Errorf("iter %d n %d: seats at the small table from %d to %d per entrant", iter, n, lo, hi)
			}
			if scaled && hi-lo <= 1 {
				even++
			}
			if err := Replay(tr); err != nil {
				t.Fatalf("iter %d: %v", iter, err)
			}
		}
	}
	t.Logf("spread of small-table seats: scaled %d, unscaled %d; even in %d of 40", spread[true], spread[false], even)
	if even < 30 || spread[true]*2 > spread[false] {
		t.Fatalf("small tables not spread: scaled %d, unscaled %d, even in %d of 40", spread[true], spread[false], even)
	}
}

// TestForfeitsInTiebreaks: A forfeits to B, and C beats D. By default the
// forfeit is no game for the tie-breaks: B's Buchholz and
// Sonneborn-Berger do not count A, and neither has played a game; with
// forfeits=count it is a game like another.
func TestForfeitsInTiebreaks(t *testing.T) {
	for _, mode := range []string{ForfeitsSkip, ForfeitsCount} {
		tr := newT(t, 4, Settings{Format: Swiss, Forfeits: mode, Tiebreaks: []string{Buchholz, SonnebornBerger}})
		tr.Rounds = []Round{
			{N: 1, Matches: []Match{{Seats: []int{0, 1}}, {Seats: []int{2, 3}}}},
			{N: 2, Matches: []Match{{Seats: []int{1, 2}}, {Seats: []int{0, 3}}}},
		}
		m := &tr.Rounds[0].Matches[0]
		m.State, m.Rank = MatchForfeit, []int{2, 1} // 0 forfeits to 1
		result(&tr.Rounds[0].Matches[1], []int{1, 2})
		result(&tr.Rounds[1].Matches[0], []int{1, 2}) // 1 beats 2
		result(&tr.Rounds[1].Matches[1], []int{1, 1}) // 0 draws 3
		// Points: 0 ½, 1 2, 2 1, 3 ½.
		by := map[int]Standing{}
		for _, s := range tr.Standings() {
			by[s.Entrant] = s
		}
		b := by[1]
		wantBuch, wantSB, played := 1.0, 1.0, 1 // only the win over 2
		if mode == ForfeitsCount {
			wantBuch, wantSB, played = 1.5, 1.5, 1
		}
		if b.Points != 2 || b.Tiebreaks[0] != wantBuch || b.Tiebreaks[1] != wantSB || b.Played != played || b.Forfeits != 1 || b.Won != 2 {
			t.Errorf("%s: entrant 1 %+v, want Buchholz %v SB %v", mode, b, wantBuch, wantSB)
		}
		a := by[0]
		if a.Played != 1 || a.Forfeits != 1 || a.Lost != 1 || a.Drawn != 1 {
			t.Errorf("%s: entrant 0 %+v", mode, a)
		}
		if mode == ForfeitsSkip && a.Tiebreaks[0] != 0.5 {
			t.Errorf("skip: entrant 0 Buchholz %v, want ½ (3 only)", a.Tiebreaks[0])
		}
	}
	duel := engine.Info{Name: "duel", MinPlayers: 2, MaxPlayers: 2}
	s := Settings{Forfeits: "maybe"}
	if err := Defaults(&s, duel); err == nil {
		t.Fatal("forfeits=maybe accepted")
	}
	// NEW TOURNAMENT ... forfeits=count arrives among the game options.
	for _, c := range []struct{ key, v, want string }{
		{"forfeits", "count", ForfeitsCount}, {"Forfeits", "SKIP", ForfeitsSkip}, {"", "", ForfeitsSkip},
	} {
		s = Settings{Options: map[string]string{"speed": "fast"}}
		if c.key != "" {
			s.Options[c.key] = c.v
		}
		if err := Defaults(&s, duel); err != nil || s.Forfeits != c.want || len(s.Options) != 1 {
			t.Errorf("%s=%s: forfeits %q, options %v, %v", c.key, c.v, s.Forfeits, s.Options, err)
		}
	}
	s = Settings{Options: map[string]string{"forfeits": "never"}}
	if err := Defaults(&s, duel); err == nil {
		t.Error("forfeits=never accepted")
	}
}
