package tournament

import (
	"crypto/sha256"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestDrawsUnchanged pins the draws of fixed tournaments (Swiss fields
// paired exactly and by windows, tables of 4 with small tables) to a
// golden digest. Replay checks stored records by drawing them again, so
// a change here breaks every record drawn before it: a new pairing method
// must be recorded with its rounds (Round.Pairing, Settings.Scaled) and
// leave the old ones drawing as they did. (The Swiss digest of fields up
// to 400 entrants equals the one of the code before windows; the tables
// line draws by the single swaps, PairingExact, as every tables round
// recorded before the least search, and equals the digest of the code
// before it; the least line draws by the least search, PairingLeast, and
// equals the digest of the code before lower bounds; the bound line draws
// by PairingBound and equals the digest of the code before the weights;
// the dual line pins the newest tables draw, PairingDual, with a field
// of 23 where one round is seated otherwise than by PairingBound.)
func TestDrawsUnchanged(t *testing.T) {
	searched := map[string]int{}
	digest := func(format string, sizes []int, pairing string) string {
		h := sha256.New()
		for _, n := range sizes {
			s := Settings{Format: format, NumRounds: 6}
			if format == Tables {
				s.Table = 4
			}
			tr := newT(t, n, s)
			r := rand.New(rand.NewPCG(9, uint64(n)))
			for round := 1; round <= 6; round++ {
				rd, err := tr.nextRound(pairing)
				if err != nil {
					t.Fatal(err)
				}
				fmt.Fprint(h, rd.Pairing, pinned(rd.Matches))
				searched[rd.Pairing]++
				tr.Rounds = append(tr.Rounds, rd)
				play(tr, r)
			}
		}
		return fmt.Sprintf("%x", h.Sum(nil))
	}
	got := strings.Join([]string{
		"swiss " + digest(Swiss, []int{13, 40, 77, 200}, pairingNewest),
		"windows " + digest(Swiss, []int{450}, pairingNewest),
		"tables " + digest(Tables, []int{13, 40, 77}, PairingExact),
		"least " + digest(Tables, []int{9, 13, 40, 77}, PairingLeast),
		"bound " + digest(Tables, []int{9, 13, 40, 77}, PairingBound),
		"dual " + digest(Tables, []int{9, 13, 23, 40, 77}, pairingNewest),
	}, "\n") + "\n"
	for _, m := range []string{PairingLeast, PairingBound, PairingDual} {
		if searched[m] == 0 {
			t.Fatalf("no round recorded %q: its line pins only the swaps", m)
		}
	}
	golden(t, "draws.sha256", []byte(got))
}

// pinned writes matches as the digest has them: the fields a draw sets,
// printed as the struct printed before Match had Requested and Corrected
// (the organiser's, never the draw's).
func pinned(ms []Match) string {
	parts := make([]string, len(ms))
	for i, m := range ms {
		parts[i] = fmt.Sprintf("{%v %v %v %v %v %v}", m.Table, m.Seats, m.GameID, m.State, m.Rank, m.Scores)
	}
	return "[" + strings.Join(parts, " ") + "]"
}
