package tournament

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/pbem-referee/referee/engine"
)

func newT(t testing.TB, n int, s Settings) *Tournament {
	t.Helper()
	info := engine.Info{Name: "toy", MinPlayers: 2, MaxPlayers: 5}
	if err := Defaults(&s, info); err != nil {
		t.Fatal(err)
	}
	tr := &Tournament{ID: "t", Settings: s, Seed: "seed-" + fmt.Sprint(n), Status: StatusRunning}
	tr.Commitment = engine.Commitment(tr.Seed)
	for i := 0; i < n; i++ {
		tr.Entrants = append(tr.Entrants, Entrant{ID: i, Address: fmt.Sprintf("p%d@x", i), Name: fmt.Sprintf("P%d", i)})
	}
	return tr
}

// result fixes a match's result.
func result(m *Match, rank []int, scores ...int) {
	m.State, m.Rank, m.Scores = MatchDone, rank, scores
}

// TestStandingsHandWorked is worked by hand: A beats B, C draws D; then A
// draws C, B beats D. Points A 1½, B 1, C 1, D ½. Buchholz is 2 for all;
// Sonneborn-Berger A 1½, B ½, C 1, D ½, so C is placed above B.
func TestStandingsHandWorked(t *testing.T) {
	tr := newT(t, 4, Settings{Format: Swiss, Points: []float64{1, 0.5, 0}})
	tr.Rounds = []Round{
		{N: 1, Matches: []Match{{Seats: []int{0, 1}}, {Seats: []int{2, 3}}}},
		{N: 2, Matches: []Match{{Seats: []int{0, 2}}, {Seats: []int{1, 3}}}},
	}
	result(&tr.Rounds[0].Matches[0], []int{1, 2}, 30, 20)
	result(&tr.Rounds[0].Matches[1], []int{1, 1}, 25, 25)
	result(&tr.Rounds[1].Matches[0], []int{1, 1}, 28, 28)
	result(&tr.Rounds[1].Matches[1], []int{1, 2}, 22, 18)
	st := tr.Standings()
	type row struct {
		e       int
		place   int
		pts     float64
		tb      []float64
		w, d, l int
	}
	want := []row{
		{0, 1, 1.5, []float64{2, 1.5, 58, 0}, 1, 1, 0},
		{2, 2, 1, []float64{2, 1, 53, 0}, 0, 2, 0},
		{1, 3, 1, []float64{2, 0.5, 42, 0}, 1, 0, 1},
		{3, 4, 0.5, []float64{2, 0.5, 43, 0}, 0, 1, 1},
	}
	for i, w := range want {
		s := st[i]
		if s.Entrant != w.e || s.Place != w.place || s.Points != w.pts || !reflect.DeepEqual(s.Tiebreaks, w.tb) ||
			s.Won != w.w || s.Drawn != w.d || s.Lost != w.l {
			t.Errorf("line %d: got %+v, want %+v", i+1, s, w)
		}
	}
}

// TestStandingsHeadToHead: E0 and E1 are level on 1 point; E1 beat E0, so
// head-to-head puts E1 first although E0 signed up first.
func TestStandingsHeadToHead(t *testing.T) {
	tr := newT(t, 4, Settings{Format: Swiss, Tiebreaks: []string{HeadToHead}})
	tr.Rounds = []Round{
		{N: 1, Matches: []Match{{Seats: []int{0, 1}}, {Seats: []int{2, 3}}}},
		{N: 2, Matches: []Match{{Seats: []int{0, 3}}, {Seats: []int{2, 1}}}},
	}
	result(&tr.Rounds[0].Matches[0], []int{2, 1})
	result(&tr.Rounds[0].Matches[1], []int{1, 2})
	result(&tr.Rounds[1].Matches[0], []int{1, 2})
	result(&tr.Rounds[1].Matches[1], []int{1, 2})
	st := tr.Standings()
	got := []int{st[0].Entrant, st[1].Entrant, st[2].Entrant, st[3].Entrant}
	if !reflect.DeepEqual(got, []int{2, 1, 0, 3}) {
		t.Fatalf("order %v, want [2 1 0 3]", got)
	}
	if st[1].Tiebreaks[0] != 1 || st[2].Tiebreaks[0] != 0 {
		t.Fatalf("h2h values %v %v", st[1].Tiebreaks, st[2].Tiebreaks)
	}
}

// TestTablePoints: places 2,1,2,4 with rank points 3,2,1,0: the shared
// second place shares 2 and 1.
func TestTablePoints(t *testing.T) {
	s := Settings{Format: Tables, Table: 4}
	if err := Defaults(&s, engine.Info{Name: "toy", MinPlayers: 2, MaxPlayers: 4}); err != nil {
		t.Fatal(err)
	}
	got := s.seatPoints(Match{Seats: []int{0, 1, 2, 3}, State: MatchDone, Rank: []int{2, 1, 2, 4}})
	if !reflect.DeepEqual(got, []float64{1.5, 3, 1.5, 0}) {
		t.Fatalf("got %v", got)
	}
	if s.MinTable != 3 {
		t.Fatalf("min table %d, want 3", s.MinTable)
	}
}

// TestForfeitAndWithdrawal: a forfeit counts as a loss for the forfeiter;
// a withdrawn entrant keeps their points (their opponents' Buchholz stays
// right) but is not paired again.
func TestForfeitAndWithdrawal(t *testing.T) {
	tr := newT(t, 4, Settings{Format: Swiss, NumRounds: 3})
	r1, err := tr.NextRound()
	if err != nil {
		t.Fatal(err)
	}
	tr.Rounds = append(tr.Rounds, r1)
	m0 := &tr.Rounds[0].Matches[0]
	m0.State, m0.Rank = MatchForfeit, []int{2, 1} // seat 1 forfeits
	result(&tr.Rounds[0].Matches[1], []int{1, 2})
	quitter := m0.Seats[0]
	tr.Entrants[quitter].Withdrawn = 2 // left before round 2
	st := tr.Standings()
	for _, s := range st {
		if s.Entrant == quitter && (!s.Withdrawn || s.Points != 0 || s.Lost != 1) {
			t.Fatalf("quitter %+v", s)
		}
		if s.Entrant == m0.Seats[1] && s.Points != 1 {
			t.Fatalf("forfeit winner %+v", s)
		}
	}
	r2, err := tr.NextRound()
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	for _, m := range r2.Matches {
		for _, e := range m.Seats {
			if e == quitter {
				t.Fatalf("withdrawn entrant paired: %+v", r2)
			}
			seen++
		}
	}
	if seen != 3 || len(r2.Matches) != 2 {
		t.Fatalf("round 2 %+v", r2)
	}
}

// withdrawOne withdraws an entrant drawn from r among those active in
// round, from that round on.
func withdrawOne(tr *Tournament, round int, r *rand.Rand) {
	act := tr.ActiveIn(round)
	tr.Entrants[act[r.IntN(len(act))]].Withdrawn = round
}

// play gives every open match of the last round a random result (draws
// included) drawn from r.
func play(tr *Tournament, r *rand.Rand) {
	rd := &tr.Rounds[len(tr.Rounds)-1]
	for k := range rd.Matches {
		m := &rd.Matches[k]
		if m.State == MatchBye {
			continue
		}
		rank := make([]int, len(m.Seats))
		scores := make([]int, len(m.Seats))
		for i := range scores {
			scores[i] = r.IntN(4)
		}
		for i := range rank {
			rank[i] = 1
			for j := range rank {
				if scores[j] > scores[i] {
					rank[i]++
				}
			}
		}
		result(m, rank, scores...)
	}
}

// canAvoidRematch: is there a perfect matching of these entrants without a
// pair that met (brute force)?
func canAvoidRematch(es []int, met map[[2]int]int) bool {
	if len(es) == 0 {
		return true
	}
	a := es[0]
	for i := 1; i < len(es); i++ {
		if met[pairKey(a, es[i])] == 0 {
			rest := append(append([]int{}, es[1:i]...), es[i+1:]...)
			if canAvoidRematch(rest, met) {
				return true
			}
		}
	}
	return false
}

// TestSwissProperties runs hundreds of random Swiss tournaments and checks
// every round: everyone active paired once, no rematch when one is
// avoidable, the bye to the lowest without one, seats balanced, and the
// whole record replays from the seed.
func TestSwissProperties(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	for iter := 0; iter < 300; iter++ {
		n := 2 + r.IntN(23)
		rounds := 1 + r.IntN(min(n, 9))
		tr := newT(t, n, Settings{Format: Swiss, NumRounds: rounds})
		tr.Seed = fmt.Sprint("s", iter)
		tr.Commitment = engine.Commitment(tr.Seed)
		for round := 1; round <= rounds; round++ {
			if r.IntN(10) == 0 && len(tr.ActiveIn(round)) > 2 {
				withdrawOne(tr, round, r)
			}
			met := tr.meetings()
			h := tr.seatHistories()
			st := tr.Standings()
			rd, err := tr.NextRound()
			if err != nil {
				t.Fatalf("iter %d round %d: %v", iter, round, err)
			}
			active := tr.ActiveIn(round)
			seen := map[int]int{}
			var paired []int
			var bye = -1
			for _, m := range rd.Matches {
				for _, e := range m.Seats {
					seen[e]++
				}
				if m.State == MatchBye {
					bye = m.Seats[0]
				} else {
					paired = append(paired, m.Seats...)
				}
			}
			if len(seen) != len(active) {
				t.Fatalf("iter %d round %d: %d paired of %d active", iter, round, len(seen), len(active))
			}
			for _, e := range active {
				if seen[e] != 1 {
					t.Fatalf("iter %d round %d: entrant %d appears %d times", iter, round, e, seen[e])
				}
			}
			if (len(active)%2 == 1) != (bye >= 0) {
				t.Fatalf("iter %d round %d: bye %d with %d active", iter, round, bye, len(active))
			}
			if bye >= 0 {
				// Everyone placed below the bye had one already, or
				// nobody had none.
				below := false
				for _, s := range st {
					if s.Entrant == bye {
						below = true
						continue
					}
					if below && s.Withdrawn == false && h[s.Entrant].byes < h[bye].byes && seen[s.Entrant] == 1 {
						t.Fatalf("iter %d round %d: bye to %d (byes %d) while %d below had %d", iter, round, bye, h[bye].byes, s.Entrant, h[s.Entrant].byes)
					}
				}
			}
			rem := 0
			for _, m := range rd.Matches {
				if len(m.Seats) == 2 {
					rem += met[pairKey(m.Seats[0], m.Seats[1])]
				}
			}
			if rem > 0 && len(paired) <= 14 && canAvoidRematch(paired, met) {
				t.Fatalf("iter %d round %d: %d rematches though avoidable: %+v", iter, round, rem, rd.Matches)
			}
			if rem > 0 && round-1 <= len(paired)/2-1 {
				t.Fatalf("iter %d round %d: rematch with %d paired after %d rounds (Dirac: avoidable)", iter, round, len(paired), round-1)
			}
			tr.Rounds = append(tr.Rounds, rd)
			play(tr, r)
		}
		for _, x := range tr.seatHistories() {
			// A near-complete round robin by Swiss rounds can force a
			// third imbalance (no rematch comes first).
			if abs(x.balance) > 2 && 2*rounds <= n {
				t.Errorf("iter %d: seat balance %d (firsts minus seconds)", iter, x.balance)
			}
		}
		if err := Replay(tr); err != nil {
			t.Fatalf("iter %d: replay: %v", iter, err)
		}
		if len(tr.Rounds) > 0 && len(tr.Rounds[0].Matches) > 1 {
			bad := *tr
			bad.Rounds = append([]Round(nil), tr.Rounds...)
			ms := append([]Match(nil), bad.Rounds[0].Matches...)
			ms[0], ms[1] = ms[1], ms[0]
			bad.Rounds[0].Matches = ms
			if Replay(&bad) == nil {
				t.Fatalf("iter %d: replay accepted a tampered round", iter)
			}
		}
	}
}

func TestReplayWrongSeed(t *testing.T) {
	tr := newT(t, 4, Settings{Format: Swiss})
	tr.Seed = "other"
	if err := Replay(tr); err == nil {
		t.Fatal("a seed that does not match the commitment was accepted")
	}
}

// TestTablesProperties: tables of 4 (3 allowed) seat everyone they can,
// and the rematches are no more than seating by standing alone gives.
func TestTablesProperties(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 9))
	for iter := 0; iter < 150; iter++ {
		n := 3 + r.IntN(30)
		tr := newT(t, n, Settings{Format: Tables, Table: 4, NumRounds: 5})
		for round := 1; round <= 5; round++ {
			rd, err := tr.NextRound()
			if err != nil {
				t.Fatalf("iter %d n %d round %d: %v", iter, n, round, err)
			}
			seen := map[int]bool{}
			byes := 0
			for _, m := range rd.Matches {
				if m.State == MatchBye {
					byes++
				} else if len(m.Seats) < 3 || len(m.Seats) > 4 {
					t.Fatalf("iter %d: table of %d", iter, len(m.Seats))
				}
				for _, e := range m.Seats {
					if seen[e] {
						t.Fatalf("iter %d: %d seated twice", iter, e)
					}
					seen[e] = true
				}
			}
			if len(seen) != n {
				t.Fatalf("iter %d: %d seated of %d", iter, len(seen), n)
			}
			if n >= 6 && byes > 0 {
				t.Fatalf("iter %d n %d: %d byes although tables of 3 and 4 fit", iter, n, byes)
			}
			tr.Rounds = append(tr.Rounds, rd)
			play(tr, r)
		}
		if err := Replay(tr); err != nil {
			t.Fatalf("iter %d: %v", iter, err)
		}
	}
}

// TestTablesAvoidRematch: 8 players, tables of 4, two rounds: the second
// round must hold two from each old table at each table: 4 repeated pairs,
// where seating by standing alone would repeat all 12.
func TestTablesAvoidRematch(t *testing.T) {
	tr := newT(t, 8, Settings{Format: Tables, Table: 4})
	tr.MinTable = 4
	rd, _ := tr.NextRound()
	tr.Rounds = append(tr.Rounds, rd)
	// Everyone at table 1 wins big: by standing alone they would sit
	// together again.
	for k := range tr.Rounds[0].Matches {
		result(&tr.Rounds[0].Matches[k], []int{1, 2, 3, 4}, 9, 5, 3, 1)
	}
	met := tr.meetings()
	rd2, err := tr.NextRound()
	if err != nil {
		t.Fatal(err)
	}
	rem := 0
	for _, m := range rd2.Matches {
		for i, a := range m.Seats {
			for _, b := range m.Seats[i+1:] {
				rem += met[pairKey(a, b)]
			}
		}
	}
	if rem != 4 {
		t.Fatalf("%d repeated pairs, the least possible is 4: %+v", rem, rd2.Matches)
	}
}

// TestRoundRobinCircle: everyone meets everyone exactly once; with an odd
// number, everyone has exactly one bye; seats alternate.
func TestRoundRobinCircle(t *testing.T) {
	for _, n := range []int{2, 3, 4, 5, 8, 11} {
		tr := newT(t, n, Settings{Format: RoundRobin})
		r := rand.New(rand.NewPCG(1, uint64(n)))
		for !tr.Finished() {
			rd, err := tr.NextRound()
			if err != nil {
				t.Fatalf("n %d: %v", n, err)
			}
			tr.Rounds = append(tr.Rounds, rd)
			play(tr, r)
		}
		met := tr.meetings()
		for a := 0; a < n; a++ {
			for b := a + 1; b < n; b++ {
				if met[pairKey(a, b)] != 1 {
					t.Fatalf("n %d: %d and %d met %d times", n, a, b, met[pairKey(a, b)])
				}
			}
		}
		for e, x := range tr.seatHistories() {
			if want := n % 2; x.byes != want {
				t.Fatalf("n %d: entrant %d had %d byes", n, e, x.byes)
			}
			if abs(x.balance) > 2 {
				t.Fatalf("n %d: entrant %d seat balance %d", n, e, x.balance)
			}
		}
	}
}

// TestKnockout: 6 entrants play to one champion; every round after the
// first holds only the previous round's winners.
func TestKnockout(t *testing.T) {
	tr := newT(t, 6, Settings{Format: Knockout})
	r := rand.New(rand.NewPCG(5, 5))
	for i := 0; i < 10 && !tr.Finished(); i++ {
		rd, err := tr.NextRound()
		if err != nil {
			t.Fatal(err)
		}
		if len(tr.Rounds) > 0 {
			winners := map[int]bool{}
			for _, m := range tr.Rounds[len(tr.Rounds)-1].Matches {
				winners[Winner(m)] = true
			}
			for _, m := range rd.Matches {
				for _, e := range m.Seats {
					if !winners[e] {
						t.Fatalf("round %d: %d did not win", rd.N, e)
					}
				}
			}
		}
		tr.Rounds = append(tr.Rounds, rd)
		play(tr, r)
	}
	if !tr.Finished() || len(tr.Rounds) != 3 {
		t.Fatalf("finished %v after %d rounds", tr.Finished(), len(tr.Rounds))
	}
	if err := Replay(tr); err != nil {
		t.Fatal(err)
	}
}

func TestDefaults(t *testing.T) {
	two := engine.Info{Name: "duel", MinPlayers: 2, MaxPlayers: 4}
	s := Settings{}
	if err := Defaults(&s, two); err != nil || s.Format != Swiss || s.Table != 2 || s.Bye != 1 {
		t.Fatalf("%+v %v", s, err)
	}
	multi := engine.Info{Name: "multi", MinPlayers: 3, MaxPlayers: 5}
	s = Settings{}
	if err := Defaults(&s, multi); err != nil || s.Format != Tables || s.Table != 4 || !reflect.DeepEqual(s.Points, []float64{3, 2, 1, 0}) {
		t.Fatalf("%+v %v", s, err)
	}
	s = Settings{Format: Swiss}
	if err := Defaults(&s, multi); err == nil {
		t.Fatal("swiss accepted for a game without two-player tables")
	}
	s = Settings{Points: []float64{3, 1, 0}}
	if err := Defaults(&s, two); err != nil || *s.Draw != 1 || !reflect.DeepEqual(s.Points, []float64{3, 0}) {
		t.Fatalf("%+v %v", s, err)
	}
	s = Settings{Tiebreaks: []string{"coin"}}
	if err := Defaults(&s, two); err == nil {
		t.Fatal("unknown tie-break accepted")
	}
}
