package fromage

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/pbem-referee/referee/engine/enginetest"
)

// TestVectors plays every case of testdata/*.vectors (enginetest's frame:
// CASE <name> <title> (<rule ids>) ... END; the directives are listed at
// the top of testdata/spec.vectors): the spec's test vectors (§11,
// spec.vectors), the rule cases (rules.vectors) and one case per
// advanced structure tile (tiles.vectors). engine's
// TestSpecVectorsCarried_Issue25 checks that every vector of the spec is
// carried and that every case cites rule ids of the spec.
func TestVectors(t *testing.T) { enginetest.RunVectorFiles(t, 79, runVector) }

// TestTV09ScoreSheet: the seed's score sheet adds up to 62 (FR-7.2). The
// vector is arithmetic over a score sheet, not a position: it is listed,
// with this reason, in engine/testdata/vectors-in-go.txt.
func TestTV09ScoreSheet(t *testing.T) {
	b := Breakdown{Bistro: 13, Festival: 6, Dairy: 15, City: 8, Structures: 5, Fruit: 6, Orders: 8, Unused: 1}
	if got := b.sum(); got != 62 {
		t.Fatalf("total = %d, want 62", got)
	}
	parts := b.parts()
	if len(parts) != 8 || parts[0].Name != "festival" || parts[7].Name != "unused" {
		t.Fatalf("parts = %+v (FR-7.2 order)", parts)
	}
}

// TestEveryTileHasAVector: tiles.vectors holds a case for each of the 32
// advanced structure tiles (D-15).
func TestEveryTileHasAVector(t *testing.T) {
	have := map[string]bool{}
	for _, c := range enginetest.ReadVectors(t, "testdata/tiles.vectors") {
		have[c.ID] = true
	}
	for i := 1; i <= 32; i++ {
		if id := fmt.Sprintf("ST%02d", i); !have[id] {
			t.Errorf("no vector for tile %s", id)
		}
	}
}

// runVector plays one case: its directives are listed at the top of
// testdata/spec.vectors.
func runVector(t *testing.T, c enginetest.VectorCase) {
	var s, saved *State
	for _, l := range c.Lines {
		f := strings.Fields(l.Text)
		rest := func(k int) string { return strings.Join(f[k:], " ") }
		if s == nil && f[0] != "SETUP" {
			c.Fatalf(t, l, "SETUP first")
		}
		switch f[0] {
		case "SETUP":
			n := 4
			var kv []string
			for _, a := range f[1:] {
				key, val, _ := strings.Cut(a, "=")
				if key == "players" {
					n, _ = strconv.Atoi(val)
					continue
				}
				kv = append(kv, key, val)
			}
			s = newA(t, n, kv...)
		case "CLEAR":
			clearBoard(s)
		case "TURN":
			n, _ := strconv.Atoi(f[1])
			jumpTurn(s, n)
		case "SET":
			setKey(t, s, f[1], rest(2))
		case "DRAW":
			s.H.Rand.Push("draw", f[1:]...)
		case "DO":
			do(t, s, seatOf(t, f[1]), rest(2))
		case "REJECT":
			reject(t, s, seatOf(t, f[1]), f[2], rest(3))
		case "EXPECT":
			want := ""
			if len(f) > 2 {
				want = rest(2)
			}
			if got := probe(t, s, f[1]); got != want {
				c.Fatalf(t, l, "%s = %q, want %q", f[1], got, want)
			}
		case "LEGAL":
			cmds := legalCmds(s, seatOf(t, f[1]))
			cmd := rest(3)
			found := false
			for _, c := range cmds {
				if c == cmd || (f[2] == "none" && strings.HasPrefix(c, cmd+" ")) {
					found = true
				}
			}
			if found != (f[2] == "has") {
				c.Fatalf(t, l, "options are %v", cmds)
			}
		case "RANK":
			// The ranks if the game ended now (FR-7.10), seat by seat.
			var got []string
			for _, r := range s.scoreNow().Rank {
				got = append(got, strconv.Itoa(r))
			}
			if want := rest(1); strings.Join(got, " ") != want {
				c.Fatalf(t, l, "rank %v, want %s", got, want)
			}
		case "ENDTURN":
			endTurn(t, s)
		case "CORPSTEP":
			s.corpStart()
		case "SAVE":
			saved = s.Clone().(*State)
		case "RESTORE":
			s = saved.Clone().(*State)
		default:
			c.Fatalf(t, l, "unknown directive %q", f[0])
		}
	}
}
