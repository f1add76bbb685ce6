package referee

import (
	"strings"
	"testing"

	_ "github.com/pbem-referee/referee/engine/fromage"
	"github.com/pbem-referee/referee/referee/tournament"
)

// TestTournamentAdjudicateScoresFromage: Fromage can score a position as it
// stands (FR-7.2..7.10), so the organiser's ADJUDICATE of a late game ends
// it at once with that score and the round goes on; no bot plays it.
func TestTournamentAdjudicateScoresFromage(t *testing.T) {
	h := newHarness(t)
	h.org("NEW TOURNAMENT fc game=fromage rounds=1 table=3")
	players := []string{"ann@p.test", "bob@p.test", "cat@p.test"}
	for _, p := range players {
		h.sendAs(Request{From: p, Text: "REGISTER " + strings.Split(p, "@")[0]})
	}
	h.mails()
	for _, p := range players {
		h.asPlayer(p, "JOIN fc")
	}
	h.org("START fc")
	contains(t, orgResults(t, h), "fc started: round 1 of 1")
	tr := h.tour("fc")
	if len(tr.Rounds) != 1 || len(tr.Rounds[0].Matches) != 1 {
		t.Fatalf("round 1: %+v", tr.Rounds)
	}
	gid := tr.Rounds[0].Matches[0].GameID
	h.org("ADJUDICATE " + gid)
	contains(t, orgResults(t, h), "ADJUDICATE "+gid+": scored as it stands")
	tr = h.tour("fc")
	if m := tr.Rounds[0].Matches[0]; m.State != tournament.MatchAdjudicated {
		t.Fatalf("match %+v, want adjudicated", m)
	}
	if tr.Status != tournament.StatusOver {
		t.Fatalf("tournament %s, want over", tr.Status)
	}
	if g := h.game(gid); g.Status == StatusRunning {
		t.Fatalf("game %s still running", gid)
	}
	checkWidth(t, h.mails())
}
