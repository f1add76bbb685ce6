package tournament

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestDirectorCorrectionsReplay: the organiser's corrections between the
// draws - a bye asked for a round (half a bye's points, the entrant not
// paired), a late entry (paired from the round they joined for), a SWAP of
// two entrants after a draw - leave every round replaying from the seed,
// over random fields of both formats and every round to change.
func TestDirectorCorrectionsReplay(t *testing.T) {
	for _, format := range []string{Swiss, Tables} {
		for _, n := range []int{7, 12, 21} {
			for at := 1; at <= 4; at++ {
				t.Run(fmt.Sprintf("%s/%d/round%d", format, n, at), func(t *testing.T) {
					s := Settings{Format: format, NumRounds: 5}
					if format == Tables {
						s.Table = 3
					}
					tr := newT(t, n, s)
					r := rand.New(rand.NewPCG(uint64(n), uint64(at)))
					asker := r.IntN(n)
					for round := 1; round <= 5; round++ {
						if round == at {
							// Before round at: a bye asked, a late entrant.
							tr.Entrants[asker].Byes = append(tr.Entrants[asker].Byes, round)
							id := len(tr.Entrants)
							tr.Entrants = append(tr.Entrants, Entrant{ID: id, Address: fmt.Sprintf("late%d@x", id), Name: "Late", Joined: round})
						}
						rd, err := tr.NextRound()
						if err != nil {
							t.Fatal(err)
						}
						for _, e := range tr.Entrants {
							k, _ := rd.seatOf(e.ID)
							switch {
							case e.Joined > round && k >= 0:
								t.Fatalf("round %d: %s paired before joining for round %d", round, e.Name, e.Joined)
							case e.Joined <= round && k < 0:
								t.Fatalf("round %d: entrant %d not in the round", round, e.ID)
							case e.AskedBye(round) && !(rd.Matches[k].State == MatchBye && rd.Matches[k].Requested):
								t.Fatalf("round %d: the bye asked by %d is %+v", round, e.ID, rd.Matches[k])
							}
						}
						if round == at+1 {
							// A swap of the first two tables' first seats.
							var a, b = -1, -1
							for _, m := range rd.Matches {
								if m.State != MatchBye && a < 0 {
									a = m.Seats[0]
								} else if m.State != MatchBye && b < 0 {
									b = m.Seats[0]
								}
							}
							if err := rd.Swap(a, b); err != nil {
								t.Fatal(err)
							}
							if err := rd.Swap(a, a); err == nil {
								t.Fatal("an entrant swapped with themselves")
							}
						}
						tr.Rounds = append(tr.Rounds, rd)
						play(tr, r)
					}
					if err := Replay(tr); err != nil {
						t.Fatal(err)
					}
					asked := 0
					for _, rd := range tr.Rounds {
						for _, m := range rd.Matches {
							if m.Requested {
								asked++
								if p := tr.seatPoints(m)[0]; m.Seats[0] != asker || p != tr.Bye/2 {
									t.Fatalf("a bye asked: %+v scores %v, want entrant %d, %v", m, p, asker, tr.Bye/2)
								}
							}
						}
					}
					if asked != 1 {
						t.Fatalf("%d byes asked in the rounds, want 1", asked)
					}
					// A swap not recorded breaks the replay: the test can fail.
					last := &tr.Rounds[at]
					if len(last.Swaps) == 1 {
						sw := last.Swaps
						last.Swaps = nil
						if Replay(tr) == nil {
							t.Fatal("a swap left out of the record still replays")
						}
						last.Swaps = sw
					}
				})
			}
		}
	}
}
