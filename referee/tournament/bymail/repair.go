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
//     opening), and every entrant gets one mail: the round mail, which
//     carries the audit line (audit.repair) for those whose game changed
//     or was stopped, as the organiser's answer says; a stopped game is not
//     announced in its own thread (issue 24: a REPAIR mailed a player
//     three times: the stopped game, the audit line, the round).
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
	note := &repairNote{old: old, stopped: map[int]bool{}, data: map[string]any{"round": n}}
	for _, m := range old.Matches {
		if slices.Contains(open, m.GameID) {
			for _, s := range m.Seats {
				note.stopped[s] = true
			}
		}
	}
	for _, gid := range open {
		if err := c.d.h.CloseGame(gid, CloseRepaired); err != nil {
			return "", err
		}
	}
	c.d.repair = note
	err = c.d.openRound(t)
	c.d.repair = nil
	if err != nil {
		return "", err
	}
	note.data["games"] = len(t.Rounds[n-1].Matches)
	return c.answered(t, "repair", entrantNames(t, note.told), note.data)
}

// repairNote is a REPAIR's part in the round mails of the round drawn
// again: the round before (old), the entrants whose game it stopped, the
// audit line's data, and whom the line told.
type repairNote struct {
	old     tournament.Round
	stopped map[int]bool
	data    map[string]any
	told    []int
	who     map[int]bool
}

// drawn notes the round drawn again: the audit line goes to those whose
// table changed (changedSeats) or whose game was stopped.
func (r *repairNote) drawn(now tournament.Round) {
	r.who = map[int]bool{}
	for _, e := range changedSeats(r.old, now) {
		r.who[e] = true
	}
	for e := range r.stopped {
		r.who[e] = true
	}
}

// audit is entrant e's audit line in lang ("" when e's game is as it
// was); an entrant given one is told.
func (r *repairNote) audit(d *desk, e int, lang string) string {
	if !r.who[e] {
		return ""
	}
	r.told = append(r.told, e)
	return d.tourText(lang, "audit.repair", r.data)
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
