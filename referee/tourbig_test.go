package referee

import (
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/pbem-referee/referee/referee/tournament"
	"github.com/pbem-referee/referee/store"
)

// TestTournamentThousandSwissToTheEnd (issue 24): a Swiss tournament of
// 1,000 bots runs by mail to the end on the fake clock (100 with -short;
// TOURNAMENT_ENTRANTS=n for another size): entered by the organiser in
// mails of MaxOrgLines lines, started, and each round's games finished by
// the bots at the deadline (late=adjudicate), ten rounds. At the end:
// every round complete, no avoidable rematch, the seat colours balanced
// within one, every entrant's points the sum of their games', and every
// pairing replays from the revealed seed. It skips under the race
// detector (ten times slower, nothing a smaller run does not show there):
// the Makefile's content pass runs it. Its CPU: 72 s before a game's end
// stopped decoding the whole tournament record for the organiser's
// language (tournament.OrgLangOf: 35 s) and the test stopped decoding
// the mails it drains (drain): 30 s (pprof samples, load 13-24).
func TestTournamentThousandSwissToTheEnd(t *testing.T) {
	if raceEnabled {
		t.Skip("1,000 entrants: ten times slower under the race detector; the content pass runs it")
	}
	n := 1000
	if testing.Short() {
		n = 100
	}
	if s := os.Getenv("TOURNAMENT_ENTRANTS"); s != "" {
		var err error
		if n, err = strconv.Atoi(s); err != nil {
			t.Fatal(err)
		}
	}
	h := bigTourHarness(t)
	h.org("NEW TOURNAMENT big game=toy rounds=10 deadline=24h late=adjudicate")
	enterAll(h, "big", n)
	drain(h)
	h.org("START big")
	drain(h)
	for i := 0; i < 12 && h.tour("big").Status == tournament.StatusRunning; i++ {
		h.clock.Advance(25 * time.Hour)
		h.tick()
		drain(h)
	}
	tr := h.tour("big")
	if tr.Status != tournament.StatusOver || len(tr.Rounds) != 10 || len(tr.Entrants) != n {
		t.Fatalf("tournament %s after %d rounds, %d entrants", tr.Status, len(tr.Rounds), len(tr.Entrants))
	}
	met := map[[2]int]int{}
	balance := make([]int, n)
	for _, rd := range tr.Rounds {
		if !rd.Complete() {
			t.Fatalf("round %d is not complete", rd.N)
		}
		for _, m := range rd.Matches {
			if m.State == tournament.MatchBye {
				continue
			}
			a, b := m.Seats[0], m.Seats[1]
			balance[a]++
			balance[b]--
			if a > b {
				a, b = b, a
			}
			if met[[2]int{a, b}]++; met[[2]int{a, b}] > 1 {
				t.Errorf("round %d: %d and %d meet again", rd.N, a, b)
			}
		}
	}
	for e, b := range balance {
		if b > 2 || b < -2 {
			t.Errorf("entrant %d: first seats minus second seats %d", e, b)
		}
	}
	total := 0.0
	for _, p := range tr.PointTotals() {
		total += p
	}
	if games := float64(n / 2 * 10); total < games || total > games+10 {
		t.Errorf("the points add up to %v for %v games and at most 10 byes", total, games)
	}
	if err := tournament.Replay(tr); err != nil {
		t.Fatal(err)
	}
}

// drain retires the mails queued since the last call without reading
// them (harness.mails decodes each: a tenth of this test's CPU).
func drain(h *harness) {
	h.t.Helper()
	err := h.db.Update(func(tx *store.Tx) error {
		due, err := tx.Due(OutboxQueue, h.clock.Now().Add(1000*time.Hour), 0)
		if err != nil {
			return err
		}
		for _, it := range due {
			if _, err := tx.Finish(OutboxQueue, it.ID, store.Sent, h.clock.Now(), h.clock.Now(), ""); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		h.t.Fatal(err)
	}
}
