package tournament

import (
	"math"
	"testing"
)

func near(a, b, eps float64) bool { return math.Abs(a-b) <= eps }

// TestGlickoPaperExample is the worked example of Glickman's "Example of the
// Glicko-2 system": 1500/200/0.06 beats 1400/30, loses to 1550/100 and
// 1700/300; τ = 0.5.
func TestGlickoPaperExample(t *testing.T) {
	p := Glicko{R: 1500, RD: 200, Sigma: 0.06}
	got := p.Update([]GlickoResult{
		{Opponent: Glicko{R: 1400, RD: 30, Sigma: 0.06}, Score: 1},
		{Opponent: Glicko{R: 1550, RD: 100, Sigma: 0.06}, Score: 0},
		{Opponent: Glicko{R: 1700, RD: 300, Sigma: 0.06}, Score: 0},
	})
	if !near(got.R, 1464.06, 0.01) || !near(got.RD, 151.52, 0.01) || !near(got.Sigma, 0.05999, 0.00001) {
		t.Fatalf("got %+v, want r 1464.06, RD 151.52, σ 0.05999", got)
	}
}

func TestGlickoNoGamesRaisesRD(t *testing.T) {
	p := Glicko{R: 1500, RD: 200, Sigma: 0.06}
	got := p.Update(nil)
	if got.R != 1500 || !(got.RD > 200) || got.RD > 350 {
		t.Fatalf("got %+v", got)
	}
}

// TestWengLinOneOnOne: two newcomers (μ 25, σ 25/3), the first wins; the
// published OpenSkill (Plackett-Luce) result is μ 27.63523138347365 and
// 22.36476861652635, σ 8.065506316323548 each.
func TestWengLinOneOnOne(t *testing.T) {
	got := RateTable([]WengLin{NewWengLin(), NewWengLin()}, []int{1, 2})
	if !near(got[0].Mu, 27.63523138347365, 1e-9) || !near(got[1].Mu, 22.36476861652635, 1e-9) ||
		!near(got[0].Sigma, 8.065506316323548, 1e-9) || !near(got[1].Sigma, 8.065506316323548, 1e-9) {
		t.Fatalf("got %+v", got)
	}
}

func TestWengLinTableProperties(t *testing.T) {
	in := []WengLin{NewWengLin(), NewWengLin(), NewWengLin(), NewWengLin()}
	got := RateTable(in, []int{1, 2, 3, 4})
	var sum float64
	for i := range got {
		sum += got[i].Mu - in[i].Mu
		if got[i].Sigma >= in[i].Sigma {
			t.Errorf("seat %d: σ did not shrink: %v", i, got[i].Sigma)
		}
		if i > 0 && got[i].Mu >= got[i-1].Mu {
			t.Errorf("place %d rated above place %d: %+v", i+1, i, got)
		}
	}
	if !near(sum, 0, 1e-9) {
		t.Errorf("μ changes of equal players sum to %v, want 0", sum)
	}
	// A shared first place: both tied players move the same way.
	tie := RateTable(in[:3], []int{1, 1, 3})
	if !near(tie[0].Mu, tie[1].Mu, 1e-12) || tie[0].Mu <= 25 || tie[2].Mu >= 25 {
		t.Errorf("tie: %+v", tie)
	}
}

func TestRateGame(t *testing.T) {
	rs := []Rating{NewRating("g", "a"), NewRating("g", "b")}
	out := RateGame(rs, []int{1, 2})
	if out[0].Glicko.R <= 1500 || out[1].Glicko.R >= 1500 || out[0].Duels != 1 || out[0].Tables != 0 {
		t.Fatalf("duel: %+v", out)
	}
	draw := RateGame(rs, []int{1, 1})
	if !near(draw[0].Glicko.R, 1500, 1e-9) {
		t.Fatalf("draw of equals moved the rating: %+v", draw[0])
	}
	rs3 := []Rating{NewRating("g", "a"), NewRating("g", "b"), NewRating("g", "c")}
	out3 := RateGame(rs3, []int{3, 1, 2})
	if out3[1].WengLin.Mu <= out3[2].WengLin.Mu || out3[2].WengLin.Mu <= out3[0].WengLin.Mu || out3[0].Tables != 1 || out3[0].Duels != 0 {
		t.Fatalf("table: %+v", out3)
	}
}

// TestRateMatch: a result played out or adjudicated moves the ratings
// (adjudicated ones marked); a forfeit, a bye or an open game does not.
func TestRateMatch(t *testing.T) {
	for _, seats := range []int{2, 3} {
		rs := make([]Rating, seats)
		seat := make([]int, seats)
		rank := make([]int, seats)
		for i := range rs {
			rs[i] = NewRating("toy", "p@x")
			seat[i] = i
			rank[i] = i + 1
		}
		for _, c := range []struct {
			state string
			rated bool
			adj   int
		}{
			{MatchDone, true, 0}, {MatchAdjudicated, true, 1}, {MatchForfeit, false, 0}, {MatchPlaying, false, 0},
		} {
			got, ok := RateMatch(rs, Match{Seats: seat, State: c.state, Rank: rank})
			if ok != c.rated {
				t.Fatalf("%d seats %s: rated %v", seats, c.state, ok)
			}
			games := got[0].Duels + got[0].Tables
			if (games == 1) != c.rated || got[0].Adjudicated != c.adj || (c.rated && got[0] == rs[0]) {
				t.Fatalf("%d seats %s: %+v", seats, c.state, got[0])
			}
		}
	}
	if _, ok := RateMatch([]Rating{NewRating("toy", "a")}, Match{Seats: []int{0}, State: MatchBye}); ok {
		t.Fatal("a bye was rated")
	}
}
