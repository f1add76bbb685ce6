package bymail

// REPAIR <tournament> [round]: the director draws the open round again
// before its games start (issue 24).

import (
	"slices"
	"strconv"

	"github.com/pbem-referee/referee/referee/tournament"
)

// orgRepair is REPAIR <tournament> [round]. Rules it keeps:
//   - only the open round is drawn again (round, when given, must be it),
//     and only while none of its games has a move (GameInfo.Moves) or a
//     result other than a forfeit: once a game is under way its pairing
//     stands;
//   - the round is drawn again from the record as it stands
//     (tournament.Withdraw): a late entry made during the round plays in
//     it, a player who withdrew during it does not; the draw is the
//     seed's, so Replay replays it;
//   - the old games are closed, the new ones opened (all or none, as any
//     opening), every entrant gets the round mail, and the players whose
//     game changed get the audit line (audit.repair), as the organiser's
//     answer says.
func orgRepair(c *orgCmd) (string, error) {
	if len(c.f) < 2 || len(c.f) > 3 {
		return "", c.usage()
	}
	t, err := c.tour(nil)
	if err != nil {
		return "", err
	}
	n, r := len(t.Rounds), len(t.Rounds)
	if len(c.f) == 3 {
		if r, err = strconv.Atoi(c.f[2]); err != nil {
			return "", c.usage()
		}
	}
	if n == 0 || t.Status != tournament.StatusRunning || t.Rounds[n-1].Complete() {
		return "", fail("no_open_round", "id", t.ID)
	}
	if r != n {
		return "", fail("repair_round", "round", r, "id", t.ID)
	}
	var open []string
	for _, m := range t.Rounds[n-1].Matches {
		if m.GameID == "" || m.State == tournament.MatchBye {
			continue
		}
		gi, err := c.d.h.Game(m.GameID)
		if err != nil {
			return "", err
		}
		if gi.Moves > 0 {
			return "", fail("repair_started", "round", n, "game", m.GameID)
		}
		if gi.Running() {
			open = append(open, m.GameID)
		}
	}
	old, err := t.Withdraw()
	if err != nil {
		return "", err
	}
	for _, gid := range open {
		if err := c.d.h.CloseGame(gid, "repaired"); err != nil {
			return "", err
		}
	}
	if err := c.d.openRound(t); err != nil {
		return "", err
	}
	who := changedSeats(old, t.Rounds[n-1])
	return c.corrected(t, "repair", who, map[string]any{"round": n, "games": len(t.Rounds[n-1].Matches)})
}

// changedSeats are the entrants whose table (its other seats) differs
// between two draws of a round, or who are in one draw only.
func changedSeats(old, now tournament.Round) []int {
	tables := func(rd tournament.Round) map[int][]int {
		at := map[int][]int{}
		for _, m := range rd.Matches {
			for _, s := range m.Seats {
				at[s] = m.Seats
			}
		}
		return at
	}
	a, b := tables(old), tables(now)
	var who []int
	for e, seats := range a {
		if !slices.Equal(seats, b[e]) {
			who = append(who, e)
		}
	}
	for e := range b {
		if _, ok := a[e]; !ok {
			who = append(who, e)
		}
	}
	slices.Sort(who)
	return who
}
