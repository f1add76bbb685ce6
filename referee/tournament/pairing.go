package tournament

// The draw of a round: who plays in it, their order and seat history,
// byes, and Replay (Swiss in swiss.go, the other formats in formats.go).

import (
	"fmt"
	"sort"

	"github.com/pbem-referee/referee/engine"
)

// ActiveIn lists the entrants paired in round n (1-based): those who had
// not withdrawn before it opened, had joined by then (a late entry) and
// asked for no bye in it (Entrant.Plays; the byes asked are added to the
// round by nextRound).
func (t *Tournament) ActiveIn(n int) []int {
	var out []int
	for _, e := range t.Entrants {
		if e.Plays(n) {
			out = append(out, e.ID)
		}
	}
	return out
}

// rand is the draw of round n: derived from the tournament's seed, so the
// pairings can be replayed once the seed is revealed.
func (t *Tournament) rand(n int, what string) engine.Rand {
	return engine.NewRand(fmt.Sprintf("%s/tournament/round-%d/%s", t.Seed, n, what))
}

// NextRound draws the pairings of the next round from the record (it does
// not add the round: the caller opens its games and appends it). It only
// reads t, so a caller may draw on a copy of the record outside its
// write transaction and commit the round after.
func (t *Tournament) NextRound() (Round, error) {
	return t.nextRound(pairingNewest)
}

// nextRound draws the next round; a Swiss or tables round is drawn by the
// method pairing (Replay passes the one recorded with the round,
// NextRound pairingNewest).
func (t *Tournament) nextRound(pairing string) (Round, error) {
	n := len(t.Rounds) + 1
	if len(t.Rounds) > 0 && !t.Rounds[len(t.Rounds)-1].Complete() {
		return Round{}, fault(nil, FaultIncomplete, "round", n-1)
	}
	if t.Finished() {
		return Round{}, fault(nil, FaultAllPlayed, "rounds", len(t.Rounds))
	}
	var ms []Match
	var err error
	used := PairingExact
	switch t.Format {
	case Swiss:
		ms, used, err = t.swiss(n, pairing)
	case RoundRobin:
		ms, err = t.roundRobin(n)
	case Knockout:
		ms, err = t.knockout(n)
	default:
		ms, used, err = t.tables(n, t.order(n), pairing)
	}
	if err != nil {
		return Round{}, err
	}
	// The byes asked for this round, after the tables drawn.
	for _, e := range t.Entrants {
		if e.AskedBye(n) && (e.Withdrawn == 0 || n < e.Withdrawn) && n >= e.Joined {
			ms = append(ms, Match{Seats: []int{e.ID}, Requested: true})
		}
	}
	for i := range ms {
		ms[i].Table = i + 1
		if len(ms[i].Seats) == 1 {
			ms[i].State = MatchBye
		}
	}
	return Round{N: n, Matches: ms, Pairing: used}, nil
}

// order lists the entrants of round n by standing; entrants level on
// everything are ordered by the round's draw (the whole order in round 1).
func (t *Tournament) order(n int) []int {
	active := t.ActiveIn(n)
	rnd := t.rand(n, "order")
	draw := make([]int, len(t.Entrants))
	perm := make([]int, len(t.Entrants))
	for i := range perm {
		perm[i] = i
	}
	rnd.Shuffle(len(perm), func(i, j int) { perm[i], perm[j] = perm[j], perm[i] })
	for pos, e := range perm {
		draw[e] = pos
	}
	place := make([]int, len(t.Entrants))
	for _, s := range t.Standings() {
		place[s.Entrant] = s.Place
	}
	sort.SliceStable(active, func(i, j int) bool {
		a, b := active[i], active[j]
		if place[a] != place[b] {
			return place[a] < place[b]
		}
		return draw[a] < draw[b]
	})
	return active
}

// seatHistory is an entrant's past seats: firsts minus seconds (two-player
// games), the last seat, and the sum of lateness (0 first .. 1 last).
type seatHistory struct {
	balance  int
	last     int // 0 none, 1 first, 2 not first
	lateness float64
	byes     int
	short    int // seats at a table smaller than Settings.Table
}

func (t *Tournament) seatHistories() []seatHistory {
	h := make([]seatHistory, len(t.Entrants))
	for _, rd := range t.Rounds {
		for _, m := range rd.Matches {
			if m.State == MatchBye {
				for _, e := range m.Seats {
					h[e].byes++
				}
				continue
			}
			for i, e := range m.Seats {
				if i == 0 {
					h[e].balance++
					h[e].last = 1
				} else {
					h[e].balance--
					h[e].last = 2
				}
				if len(m.Seats) > 1 {
					h[e].lateness += float64(i) / float64(len(m.Seats)-1)
				}
				if len(m.Seats) < t.Table {
					h[e].short++
				}
			}
		}
	}
	return h
}

// takeByes removes k entrants from the bottom of order: the lowest who had
// no bye yet, then the lowest.
func takeByes(order []int, k int, h []seatHistory) (rest, byes []int) {
	rest = append([]int(nil), order...)
	for round := 0; k > 0 && len(rest) > 0; round++ {
		for i := len(rest) - 1; i >= 0 && k > 0; i-- {
			if h[rest[i]].byes <= round {
				byes = append(byes, rest[i])
				rest = append(rest[:i:i], rest[i+1:]...)
				k--
			}
		}
	}
	return rest, byes
}

// Replay checks every round's pairings against a fresh draw from the seed
// and the results of the rounds before it; it returns the first
// difference.
func Replay(t *Tournament) error {
	if engine.Commitment(t.Seed) != t.Commitment {
		return fmt.Errorf("tournament %s: the seed does not match the commitment %s", t.ID, t.Commitment)
	}
	for r := range t.Rounds {
		c := *t
		c.Rounds = t.Rounds[:r]
		// The entrants of the draw: late entries (appended, Joined in
		// order) came after it.
		k := len(c.Entrants)
		for k > 0 && c.Entrants[k-1].Joined > r+1 {
			k--
		}
		c.Entrants = c.Entrants[:k]
		// The results as the draw saw them (RESULT changed some since).
		if changed(c.Rounds) {
			c.Rounds = asDrawn(c.Rounds, r)
		}
		got, err := c.nextRound(t.Rounds[r].Pairing)
		if err != nil {
			return fmt.Errorf("round %d: %w", r+1, err)
		}
		for _, sw := range t.Rounds[r].Swaps { // the organiser's SWAPs
			got.swap(sw[0], sw[1])
		}
		want := t.Rounds[r].Matches
		if len(got.Matches) != len(want) {
			return fmt.Errorf("round %d: %d matches drawn, %d recorded", r+1, len(got.Matches), len(want))
		}
		for k := range want {
			if fmt.Sprint(got.Matches[k].Seats) != fmt.Sprint(want[k].Seats) {
				return fmt.Errorf("round %d table %d: drawn %v, recorded %v", r+1, k+1, got.Matches[k].Seats, want[k].Seats)
			}
		}
	}
	return nil
}

// changed reports whether a result of rounds was changed (Match.Changes).
func changed(rounds []Round) bool {
	for _, rd := range rounds {
		for _, m := range rd.Matches {
			if len(m.Changes) > 0 {
				return true
			}
		}
	}
	return false
}

// asDrawn copies rounds with their matches as a draw made when drawn
// rounds existed saw them.
func asDrawn(rounds []Round, drawn int) []Round {
	out := make([]Round, len(rounds))
	for q, rd := range rounds {
		out[q] = rd
		out[q].Matches = make([]Match, len(rd.Matches))
		for k, m := range rd.Matches {
			out[q].Matches[k] = m.asDrawn(drawn)
		}
	}
	return out
}

// permute is a permutation of 0..n-1 drawn from rnd.
func permute(rnd *engine.Rand, n int) []int {
	p := make([]int, n)
	for i := range p {
		p[i] = i
	}
	rnd.Shuffle(n, func(i, j int) { p[i], p[j] = p[j], p[i] })
	return p
}

// firstOf chooses who of a and b takes the first seat: the one who had it
// less often, else the one who did not have it last, else a (b if swap).
func firstOf(h []seatHistory, a, b int, swap bool) int {
	switch {
	case h[a].balance < h[b].balance:
		return a
	case h[a].balance > h[b].balance:
		return b
	case h[a].last == 2 && h[b].last != 2:
		return a
	case h[b].last == 2 && h[a].last != 2:
		return b
	case swap:
		return b
	}
	return a
}

// Withdraw takes the open round n out of the record so that it is drawn
// again (the director's REPAIR, before its games start): the entrants who
// entered late during it (Joined n+1) are paired in it, and those who
// withdrew during it (Withdrawn n+1) are not. It returns the round taken
// out. It refuses when no round is open (FaultNoOpenRound) and when a
// game of the round has a result other than a forfeit (FaultHasResult);
// whether a game has a move is the caller's to check. NextRound then
// draws the round again, and Replay replays it as drawn again.
func (t *Tournament) Withdraw() (Round, error) {
	n := len(t.Rounds)
	if n == 0 || t.Rounds[n-1].Complete() {
		return Round{}, fault(nil, FaultNoOpenRound, "id", t.ID)
	}
	rd := t.Rounds[n-1]
	for _, m := range rd.Matches {
		if m.Decided() && m.State != MatchForfeit && m.State != MatchBye {
			return Round{}, fault(nil, FaultHasResult, "round", n)
		}
	}
	for i := range t.Entrants {
		e := &t.Entrants[i]
		if e.Joined == n+1 {
			e.Joined = n
		}
		if e.Withdrawn == n+1 {
			e.Withdrawn = n
		}
	}
	t.Rounds = t.Rounds[:n-1]
	return rd, nil
}
