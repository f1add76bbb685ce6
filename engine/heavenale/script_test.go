package heavenale

import (
	"os"
	"strings"
	"testing"

	"github.com/pbem-referee/referee/engine/enginetest"
	"github.com/pbem-referee/referee/engine/heavenale/catalog"
)

// The short ruleset differs from the default only by the 2-player round
// count and stacks (and its version).
func TestShortRuleset(t *testing.T) {
	data, err := os.ReadFile("testdata/short.toml")
	if err != nil {
		t.Fatal(err)
	}
	a, b := strings.Split(string(catalog.DefaultRuleset), "\n"), strings.Split(string(data), "\n")
	if len(a) != len(b) {
		t.Fatalf("%d lines vs %d", len(a), len(b))
	}
	for i := range a {
		if a[i] != b[i] && b[i] != "rounds = 1" && b[i] != `stacks = ["I"]` && !strings.HasPrefix(b[i], "version =") {
			t.Errorf("line %d differs: %q", i+1, b[i])
		}
	}
}

// TestOfflineScriptShort2p plays testdata/short-2p.script through a Table
// (what "referee play" does): a queued turn whose first alternative failed,
// ELSE PASS not needed, a forced scoring spot, a sale, the forced FIRST.
func TestOfflineScriptShort2p(t *testing.T) {
	tb, _ := enginetest.PlayScript(t, Game{}, "testdata/short-2p.script")
	s := tb.State.(*State)
	if s.Result() == nil {
		t.Fatalf("game not over: %s %s", s.Phase, s.kind())
	}
	ann, ben := &s.Players[0], &s.Players[1]
	g := func(p *Player, id string) string { return p.Garden[s.r.CellIdx[id]] }
	if g(ann, "S7") != "M1" || g(ben, "D4") != "WA2" || g(ben, "D8") != "" {
		t.Fatalf("queued alternative: ann S7 %q, ben D4 %q D8 %q", g(ann, "S7"), g(ben, "D4"), g(ben, "D8"))
	}
	if !ann.Spots[catalog.SpotMonk] || !ben.Spots[catalog.SpotColor+3] {
		t.Fatalf("discs: ann %v ben %v", ann.Spots, ben.Spots)
	}
	if ann.hasCard("BARREL") || s.Home[catalog.HomeFirst] != 1 || s.Home[catalog.HomeBrew] != 0 {
		t.Fatalf("cards %v home %v", ann.Cards, s.Home)
	}
	if s.Final.Players[1].First != 1 {
		t.Fatalf("FIRST point missing")
	}
}
