package referee

import (
	"strings"
	"testing"
)

// TestDefaultCapTakesTenThousandEntrants_Issue24: with no cap configured
// (Options.MaxEntrants 0: DefaultMaxEntrants, referee/guard), a
// tournament takes the 10,000 entrants organisers enter (issue 24), and
// ENTER of one more is refused with the limit's error, as under any cap
// (TestSizesBounded).
func TestDefaultCapTakesTenThousandEntrants_Issue24(t *testing.T) {
	if testing.Short() {
		t.Skip("10,000 ENTER lines")
	}
	h := bigTourHarness(t)
	h.r.opt.MaxEntrants = 0 // the default
	h.org("NEW TOURNAMENT big game=toy rounds=3\n")
	enterAll(h, "big", 10000)
	if n := len(h.tour("big").Entrants); n != 10000 {
		t.Fatalf("%d entrants of 10,000 entered", n)
	}
	lines, err := h.r.Organise(org, "ENTER big one@more.test More")
	if err != nil || !strings.Contains(strings.Join(lines, "\n"), "big is full: it takes at most 10000 entrants") {
		t.Fatalf("ENTER past the default cap: %v %v", lines, err)
	}
	if n := len(h.tour("big").Entrants); n != 10000 {
		t.Fatalf("%d entrants after ENTER past the cap", n)
	}
}
