package tournament

import (
	"math"
)

// No Go module for Glicko-2 or Weng-Lin is served by the module proxy this
// project can reach, so both are implemented here from the published
// papers and tested against their worked examples.

// Glicko is a Glicko-2 rating on the Glicko scale (1500 / 350 / 0.06 for a
// newcomer). Glickman, "Example of the Glicko-2 system" (2013).
type Glicko struct {
	R     float64 `json:"r"`
	RD    float64 `json:"rd"`
	Sigma float64 `json:"sigma"`
}

// NewGlicko is a newcomer's rating.
func NewGlicko() Glicko { return Glicko{R: 1500, RD: 350, Sigma: 0.06} }

// GlickoResult is one game of a rating period: the opponent and the score
// (1 win, ½ draw, 0 loss).
type GlickoResult struct {
	Opponent Glicko
	Score    float64
}

const (
	glickoScale = 173.7178
	glickoTau   = 0.5
	glickoEps   = 0.000001
)

func glickoG(phi float64) float64 { return 1 / math.Sqrt(1+3*phi*phi/(math.Pi*math.Pi)) }

// Update returns the rating after a rating period with these games (step
// 6 alone, the rise of RD, when there are none).
func (p Glicko) Update(games []GlickoResult) Glicko {
	mu := (p.R - 1500) / glickoScale
	phi := p.RD / glickoScale
	if len(games) == 0 {
		return Glicko{R: p.R, RD: math.Min(350, math.Sqrt(phi*phi+p.Sigma*p.Sigma)*glickoScale), Sigma: p.Sigma}
	}
	var vinv, sum float64
	for _, g := range games {
		muj := (g.Opponent.R - 1500) / glickoScale
		phij := g.Opponent.RD / glickoScale
		gj := glickoG(phij)
		e := 1 / (1 + math.Exp(-gj*(mu-muj)))
		vinv += gj * gj * e * (1 - e)
		sum += gj * (g.Score - e)
	}
	v := 1 / vinv
	delta := v * sum
	// Step 5: the new volatility by the Illinois algorithm.
	a := math.Log(p.Sigma * p.Sigma)
	f := func(x float64) float64 {
		ex := math.Exp(x)
		d := phi*phi + v + ex
		return ex*(delta*delta-phi*phi-v-ex)/(2*d*d) - (x-a)/(glickoTau*glickoTau)
	}
	A := a
	var B float64
	if delta*delta > phi*phi+v {
		B = math.Log(delta*delta - phi*phi - v)
	} else {
		k := 1.0
		for f(a-k*glickoTau) < 0 {
			k++
		}
		B = a - k*glickoTau
	}
	fA, fB := f(A), f(B)
	for i := 0; math.Abs(B-A) > glickoEps && i < 1000; i++ {
		C := A + (A-B)*fA/(fB-fA)
		fC := f(C)
		if fC*fB <= 0 {
			A, fA = B, fB
		} else {
			fA /= 2
		}
		B, fB = C, fC
	}
	sigma := math.Exp(A / 2)
	phiStar := math.Sqrt(phi*phi + sigma*sigma)
	phiNew := 1 / math.Sqrt(1/(phiStar*phiStar)+1/v)
	muNew := mu + phiNew*phiNew*sum
	return Glicko{R: muNew*glickoScale + 1500, RD: phiNew * glickoScale, Sigma: sigma}
}

// WengLin is a Weng-Lin rating (Bayesian approximation, Plackett-Luce
// model), as OpenSkill uses: Weng & Lin, "A Bayesian Approximation Method
// for Online Ranking", JMLR 12 (2011), algorithm 4.
type WengLin struct {
	Mu    float64 `json:"mu"`
	Sigma float64 `json:"sigma"`
}

const (
	wlMu    = 25.0
	wlSigma = 25.0 / 3
	wlBeta  = wlSigma / 2
	wlKappa = 0.0001
)

// NewWengLin is a newcomer's rating (μ 25, σ 25/3).
func NewWengLin() WengLin { return WengLin{Mu: wlMu, Sigma: wlSigma} }

// Ordinal is the conservative display value μ − 3σ.
func (w WengLin) Ordinal() float64 { return w.Mu - 3*w.Sigma }

// RateTable updates the ratings of one game's players from their places
// (1 = best; equal places are ties).
func RateTable(players []WengLin, rank []int) []WengLin {
	n := len(players)
	out := make([]WengLin, n)
	var c2 float64
	for _, p := range players {
		c2 += p.Sigma*p.Sigma + wlBeta*wlBeta
	}
	c := math.Sqrt(c2)
	ex := make([]float64, n)
	for i, p := range players {
		ex[i] = math.Exp(p.Mu / c)
	}
	// sumQ[q]: the strengths of everyone placed at or below q; a[q]: how
	// many share q's place.
	sumQ := make([]float64, n)
	a := make([]int, n)
	for q := range players {
		for s := range players {
			if rank[s] >= rank[q] {
				sumQ[q] += ex[s]
			}
			if rank[s] == rank[q] {
				a[q]++
			}
		}
	}
	for i, p := range players {
		var omega, delta float64
		for q := range players {
			if rank[q] > rank[i] {
				continue
			}
			pr := ex[i] / sumQ[q]
			if q == i {
				omega += (1 - pr) / float64(a[q])
			} else {
				omega -= pr / float64(a[q])
			}
			delta += pr * (1 - pr) / float64(a[q])
		}
		s2 := p.Sigma * p.Sigma
		gamma := p.Sigma / c
		omega *= s2 / c
		delta *= gamma * s2 / c2
		out[i] = WengLin{Mu: p.Mu + omega, Sigma: p.Sigma * math.Sqrt(math.Max(1-delta, wlKappa))}
	}
	return out
}

// Rating is a player's standing in one game: Glicko-2 from two-player
// games, Weng-Lin from games of three or more.
type Rating struct {
	Game    string  `json:"game"`
	Address string  `json:"address"`
	Name    string  `json:"name,omitempty"`
	Glicko  Glicko  `json:"glicko2"`
	Duels   int     `json:"duels"`
	WengLin WengLin `json:"wenglin"`
	Tables  int     `json:"tables"`
	// Adjudicated counts the rated games (in Duels or Tables) whose
	// result was adjudicated rather than played out, so that pages can
	// mark the rating.
	Adjudicated int `json:"adjudicated,omitempty"`
}

// NewRating is a newcomer's rating in a game.
func NewRating(game, addr string) Rating {
	return Rating{Game: game, Address: addr, Glicko: NewGlicko(), WengLin: NewWengLin()}
}

// RateGame updates the ratings of one finished game's players (in seat
// order) from their places: Glicko-2 for two players (one rating period
// per game), Weng-Lin for more. One player alone changes nothing.
func RateGame(rs []Rating, rank []int) []Rating {
	out := append([]Rating(nil), rs...)
	switch {
	case len(rs) == 2:
		s := 0.5
		if rank[0] < rank[1] {
			s = 1
		} else if rank[0] > rank[1] {
			s = 0
		}
		a, b := rs[0].Glicko, rs[1].Glicko
		out[0].Glicko = a.Update([]GlickoResult{{Opponent: b, Score: s}})
		out[1].Glicko = b.Update([]GlickoResult{{Opponent: a, Score: 1 - s}})
		out[0].Duels++
		out[1].Duels++
	case len(rs) > 2:
		ws := make([]WengLin, len(rs))
		for i, r := range rs {
			ws[i] = r.WengLin
		}
		for i, w := range RateTable(ws, rank) {
			out[i].WengLin = w
			out[i].Tables++
		}
	}
	return out
}

// Rated reports whether a match's result moves ratings: every game with a
// result, played out or adjudicated; not a forfeit (no game was played)
// nor a bye.
func Rated(m Match) bool {
	return (m.State == MatchDone || m.State == MatchAdjudicated) && len(m.Seats) >= 2 && len(m.Rank) == len(m.Seats)
}

// RateMatch updates the ratings of a tournament match's players (rs in
// seat order) when the match is Rated; an adjudicated result also counts
// in Adjudicated. It reports whether anything was rated.
func RateMatch(rs []Rating, m Match) ([]Rating, bool) {
	if !Rated(m) || len(rs) != len(m.Seats) {
		return rs, false
	}
	out := RateGame(rs, m.Rank)
	if m.State == MatchAdjudicated {
		for i := range out {
			out[i].Adjudicated++
		}
	}
	return out, true
}

// RatingValue is a rating as standings show it: Glicko-2's r at
// two-player tables, Weng-Lin's μ−3σ scaled like Elo (1000 + 40×) at
// more.
func RatingValue(r Rating, table int) float64 {
	if table == 2 {
		return r.Glicko.R
	}
	return 1000 + 40*r.WengLin.Ordinal()
}
