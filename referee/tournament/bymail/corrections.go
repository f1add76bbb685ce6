package bymail

// The director's corrections (issue 24), one handler a keyword: RESULT,
// DOUBLEFORFEIT, SWAP, BYE, and a late entry (ENTER after the start,
// org.go). Rules they keep:
//   - each is told by mail to the people it concerns (mail.correction,
//     the audit line in the reader's language: audit.<what>), and the
//     organiser's answer is the same line with whom it told: a
//     correction of a game (RESULT, DOUBLEFORFEIT) to everyone who
//     played it, a departed holder too (concerned), and to the place's
//     holder now when their standings change; SWAP and BYE, of rounds
//     not yet played, to the places' holders now;
//   - every round still replays from the seed: a changed result keeps the
//     one it replaced (Match.Changes), a SWAP is recorded with its round
//     (Round.Swaps), a bye asked and a late entry are the entrant's
//     (Entrant.Byes, Entrant.Joined), set before the round they touch is
//     drawn;
//   - a correction names a game of the organiser's tournament, or players
//     by address or name; a bye is asked for a round not yet open, a swap
//     only between two games of the open round with no result;
//   - a result the organiser set or changed is marked (Match.Corrected)
//     and, like a forfeit, rates nobody (the games' ratings stay those of
//     the games played).

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/pbem-referee/referee/referee/tournament"
)

// entrantNamed is the entrant of an address or a name (nil: none).
func entrantNamed(t *tournament.Tournament, who string) *tournament.Entrant {
	if e := t.Entrant(who); e != nil {
		return e
	}
	for i := range t.Entrants {
		if strings.EqualFold(t.Entrants[i].Name, who) {
			return &t.Entrants[i]
		}
	}
	return nil
}

// matchOf finds the match of a tournament game: its round and match index.
func matchOf(t *tournament.Tournament, gid string) (int, int) {
	for r := range t.Rounds {
		for k := range t.Rounds[r].Matches {
			if t.Rounds[r].Matches[k].GameID == gid {
				return r, k
			}
		}
	}
	return -1, -1
}

// tourGame loads the tournament of the game the line names (any state).
func (c *orgCmd) tourGame() (*tournament.Tournament, int, int, error) {
	gid := c.arg(1)
	tid := c.d.rec.GameTournament(gid)
	if tid == "" {
		return nil, 0, 0, fail("not_tour_game", "game", gid)
	}
	t, err := c.d.load(tid)
	if err != nil {
		return nil, 0, 0, err
	}
	if t.Organiser != c.org {
		return nil, 0, 0, fail("not_yours", "id", t.ID)
	}
	c.setLang(t)
	r, k := matchOf(t, gid)
	if r < 0 {
		return nil, 0, 0, tournament.AsFault(t.NoGame(gid))
	}
	return t, r, k, nil
}

// resultLine writes a match's result by place: "1. Ann, 2. Bob", each
// seat by its entrant's name now (the game's close line: the game is
// still played, by the holders now).
func resultLine(t *tournament.Tournament, m tournament.Match) string {
	if len(m.Rank) != len(m.Seats) {
		return ""
	}
	parts := make([]string, 0, len(m.Seats))
	for _, s := range byPlace(m) {
		parts = append(parts, fmt.Sprintf("%d. %s", m.Rank[s], t.Entrants[m.Seats[s]].Name))
	}
	return strings.Join(parts, ", ")
}

// resultPlace is one place of a result as the mails write it (template
// "tour.result"): Place, and who played the seat's game (playedIn).
type resultPlace struct {
	Place int
	Names []heldName
}

// resultOf is the result of round n's match m by place, each seat named
// by every player who played its game, substitutes marked (issue 24: a
// correction of an earlier round names who played it, not the place's
// holder now); nil when the match has no result.
func resultOf(t *tournament.Tournament, m tournament.Match, n int) []resultPlace {
	if len(m.Rank) != len(m.Seats) {
		return nil
	}
	out := make([]resultPlace, 0, len(m.Seats))
	for _, s := range byPlace(m) {
		out = append(out, resultPlace{Place: m.Rank[s], Names: playedIn(t.Entrants[m.Seats[s]], n)})
	}
	return out
}

// byPlace are a match's seats, the best placed first.
func byPlace(m tournament.Match) []int {
	seats := make([]int, len(m.Seats))
	for i := range seats {
		seats[i] = i
	}
	sort.SliceStable(seats, func(a, b int) bool { return m.Rank[seats[a]] < m.Rank[seats[b]] })
	return seats
}

// told is one person a correction is mailed to: holder K (from 1, as
// tournament.Entrant.Holder counts them) of entrant E's place.
type told struct{ E, K int }

// holdersNow are the places' holders now: whom a correction of the open
// round or of one not yet drawn concerns (SWAP, BYE).
func holdersNow(t *tournament.Tournament, es ...int) []told {
	out := make([]told, len(es))
	for i, e := range es {
		out[i] = told{E: e, K: len(t.Entrants[e].Before) + 1}
	}
	return out
}

// pointsOf are the points of a match's places now, by seat, and whether
// the match has a result: what concerned compares after a correction.
type pointsOf struct {
	decided bool
	points  []float64
}

func pointsNow(t *tournament.Tournament, m tournament.Match) pointsOf {
	all := t.PointTotals()
	p := pointsOf{decided: m.Decided(), points: make([]float64, len(m.Seats))}
	for i, e := range m.Seats {
		p.points[i] = all[e]
	}
	return p
}

// concerned are whom a correction of round n's match m concerns (issue
// 24): every holder who played its game for each seat, first to last
// (tournament.Entrant.PlayedHolders: a departed holder or substitute
// too), and the place's holder now when they did not play it but their
// standings change (was: the match before the correction; the match had
// no result, or the place's points moved).
func concerned(t *tournament.Tournament, m tournament.Match, n int, was pointsOf) []told {
	now := pointsNow(t, m)
	var out []told
	for i, e := range m.Seats {
		hs := t.Entrants[e].PlayedHolders(n)
		for _, k := range hs {
			out = append(out, told{E: e, K: k})
		}
		cur := len(t.Entrants[e].Before) + 1
		if !slices.Contains(hs, cur) && (!was.decided || was.points[i] != now.points[i]) {
			out = append(out, told{E: e, K: cur})
		}
	}
	return out
}

// corrected tells the people concerned a correction by mail, each once
// (by address) in their language (a departed holder's: their player
// record's), one with no address on record not at all, and answers the
// organiser with it.
func (c *orgCmd) corrected(t *tournament.Tournament, what string, who []told, data map[string]any) (string, error) {
	var names []string
	seen := map[string]bool{}
	for _, w := range who {
		en := t.Entrants[w.E]
		if h := en.Holder(w.K); w.K <= len(en.Before) {
			if h.Address == "" {
				continue
			}
			p, err := c.d.h.EnsurePlayer(h.Address, h.Name, "", "")
			if err != nil {
				return "", err
			}
			en.Name, en.Address, en.Lang = h.Name, h.Address, p.Lang
		}
		key := strings.ToLower(en.Address)
		if seen[key] {
			continue
		}
		seen[key] = true
		lang := readerLang(en.Lang)
		c.d.tourMail(t, en, "correction", mailData{Audit: c.d.tourText(lang, "audit."+what, data)})
		names = append(names, en.Name)
	}
	return c.answered(t, what, names, data)
}

// entrantNames are the names of entrants es' holders now.
func entrantNames(t *tournament.Tournament, es []int) []string {
	names := make([]string, len(es))
	for i, e := range es {
		names[i] = t.Entrants[e].Name
	}
	return names
}

// answered is a correction's answer to the organiser: its audit line and
// whom it told (their names, already mailed), once t advanced.
func (c *orgCmd) answered(t *tournament.Tournament, what string, names []string, data map[string]any) (string, error) {
	if err := c.d.tourAdvance(t); err != nil {
		return "", err
	}
	return c.saved(t, c.d.orgText(t, "corrected", map[string]any{"audit": c.d.tourText(orgLang(t), "audit."+what, data), "told": names}))
}

// orgResult is RESULT <game> <places>: the organiser sets the result of a
// game still played (it is closed, its seed revealed) or changes the
// result of one decided. Places are by seat, 1 the best: "2,1", "1,1".
func orgResult(c *orgCmd) (string, error) {
	if len(c.f) != 3 {
		return "", c.usage()
	}
	var rank []int
	for _, p := range strings.Split(c.f[2], ",") {
		n, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil {
			return "", c.usage()
		}
		rank = append(rank, n)
	}
	t, r, k, err := c.tourGame()
	if err != nil {
		return "", err
	}
	m := &t.Rounds[r].Matches[k]
	if len(rank) != len(m.Seats) {
		return "", fail("seats", "game", m.GameID, "seats", len(m.Seats))
	}
	var was []resultPlace
	if m.Decided() {
		was = resultOf(t, *m, r+1)
	}
	before := pointsNow(t, *m)
	if err := m.SetResult(rank, len(t.Rounds)); err != nil {
		return "", err
	}
	if was == nil {
		gi, err := c.d.h.Game(m.GameID)
		if err != nil {
			return "", err
		}
		if gi.Running() {
			if err := c.d.h.CloseGame(m.GameID, CloseAdjudicated, "result", resultLine(t, *m)); err != nil {
				return "", err
			}
		}
	}
	return c.corrected(t, "result", concerned(t, *m, r+1, before), map[string]any{"game": m.GameID, "round": r + 1, "result": resultOf(t, *m, r+1), "was": was})
}

// orgDoubleForfeit is DOUBLEFORFEIT <game>: every player of a game still
// played loses it (all ranked last, the last place's points each).
func orgDoubleForfeit(c *orgCmd) (string, error) {
	if len(c.f) != 2 {
		return "", c.usage()
	}
	t, r, k, err := c.tourGame()
	if err != nil {
		return "", err
	}
	m := &t.Rounds[r].Matches[k]
	if m.Decided() {
		return "", fail("has_result", "game", m.GameID)
	}
	gi, err := c.d.h.Game(m.GameID)
	if err != nil {
		return "", err
	}
	rank := make([]int, len(m.Seats))
	var names []string
	for i, e := range m.Seats {
		rank[i] = len(m.Seats)
		names = append(names, t.Entrants[e].Name)
	}
	if gi.Running() {
		if err := c.d.h.CloseGame(m.GameID, CloseForfeit, "names", names); err != nil {
			return "", err
		}
	}
	before := pointsNow(t, *m)
	if _, _, err := t.Record(m.GameID, tournament.MatchForfeit, rank, nil); err != nil {
		return "", err
	}
	m.Corrected = true
	return c.corrected(t, "doubleforfeit", concerned(t, *m, r+1, before), map[string]any{"game": m.GameID, "round": r + 1})
}

// orgSwap is SWAP <tournament> <player> <player>: two players of the open
// round's games change places (their seats in the games too).
func orgSwap(c *orgCmd) (string, error) {
	if len(c.f) != 4 {
		return "", c.usage()
	}
	t, err := c.tour(nil)
	if err != nil {
		return "", err
	}
	a, b := entrantNamed(t, c.f[2]), entrantNamed(t, c.f[3])
	if a == nil || b == nil {
		return "", fail("not_both", "a", c.f[2], "b", c.f[3], "id", t.ID)
	}
	n := len(t.Rounds)
	if n == 0 || t.Status != tournament.StatusRunning || t.Rounds[n-1].Complete() {
		return "", fail("no_open_round", "id", t.ID)
	}
	rd := &t.Rounds[n-1]
	ga, gb := gameOfEntrant(*rd, a.ID), gameOfEntrant(*rd, b.ID)
	if err := rd.Swap(a.ID, b.ID); err != nil {
		if f := tournament.AsFault(err); f != nil && f.Data["a"] != nil {
			f.Data["a"], f.Data["b"] = a.Name, b.Name // names, not entrant ids
		}
		return "", err
	}
	// The games' seats follow: a's seat to b, then b's old seat to a.
	if err := c.d.h.ReplaceSeat(ga, a.Address, Invitee{Address: b.Address, Name: b.Name, Lang: b.Lang}); err != nil {
		return "", err
	}
	if err := c.d.h.ReplaceSeat(gb, b.Address, Invitee{Address: a.Address, Name: a.Name, Lang: a.Lang}); err != nil {
		return "", err
	}
	var who []int
	for _, m := range rd.Matches {
		if m.GameID == ga || m.GameID == gb {
			who = append(who, m.Seats...)
		}
	}
	return c.corrected(t, "swap", holdersNow(t, who...), map[string]any{"round": rd.N, "a": a.Name, "b": b.Name, "game_a": gb, "game_b": ga})
}

// gameOfEntrant is the game entrant e plays in a round ("" for none).
func gameOfEntrant(rd tournament.Round, e int) string {
	for _, m := range rd.Matches {
		for _, s := range m.Seats {
			if s == e {
				return m.GameID
			}
		}
	}
	return ""
}

// orgBye is BYE <tournament> <player> [round]: the player sits out a round
// not yet open (the next by default) for half a bye's points.
func orgBye(c *orgCmd) (string, error) {
	if len(c.f) < 3 || len(c.f) > 4 {
		return "", c.usage()
	}
	t, err := c.tour(nil)
	if err != nil {
		return "", err
	}
	e := entrantNamed(t, c.f[2])
	if e == nil {
		return "", fail("no_entrant", "who", c.f[2], "id", t.ID)
	}
	round := len(t.Rounds) + 1
	if len(c.f) == 4 {
		if round, err = strconv.Atoi(c.f[3]); err != nil {
			return "", c.usage()
		}
	}
	switch {
	case t.Status == tournament.StatusOver:
		return "", fail("over", "id", t.ID)
	case t.Format != tournament.Swiss && t.Format != tournament.Tables:
		return "", fail("fixed_pairings", "id", t.ID, "format", t.Format)
	case round <= len(t.Rounds):
		return "", fail("drawn_already", "round", round, "id", t.ID)
	case round > t.PlannedRounds():
		return "", fail("rounds_count", "id", t.ID, "rounds", t.PlannedRounds())
	case e.Withdrawn > 0:
		return "", fail("withdrawn", "name", e.Name, "id", t.ID)
	case e.AskedBye(round):
		return "", fail("sits_out", "name", e.Name, "round", round)
	}
	e.Byes = append(e.Byes, round)
	return c.corrected(t, "bye", holdersNow(t, e.ID), map[string]any{"round": round, "name": e.Name, "points": fmtNum(t.Bye / 2)})
}
