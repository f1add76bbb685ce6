package bymail

// The rounds: sign-up closing, a round's games opened through the core,
// results as games end, forfeits and adjudication, the clock.

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/pbem-referee/referee/referee/failure"
	"github.com/pbem-referee/referee/referee/tournament"
	"github.com/pbem-referee/referee/referee/tournament/bymail/tourrec"
)

// errNoRound: the next round could not be drawn (nothing was created).
var errNoRound = errors.New("no round drawn")

// tourStart closes sign-up and opens round 1 now (the organiser's START).
func (d *desk) tourStart(t *tournament.Tournament) error {
	if len(t.Entrants) < max(2, t.MinTable) {
		return fail("too_few", "entrants", len(t.Entrants), "id", t.ID, "min", max(2, t.MinTable))
	}
	t.Status, t.Started = tournament.StatusRunning, d.now
	return d.openRound(t)
}

// tourClose closes sign-up at its date: round 1 opens now, or on its date
// in the calendar when that is later (the organiser is told).
func (d *desk) tourClose(t *tournament.Tournament) error {
	if len(t.Entrants) < max(2, t.MinTable) {
		return fail("too_few", "entrants", len(t.Entrants), "id", t.ID, "min", max(2, t.MinTable))
	}
	t.Status, t.Started = tournament.StatusRunning, d.now
	if at, wait := t.Waiting(d.now); wait {
		d.tourOrgMail(t, d.orgText(t, "closed", map[string]any{"entrants": len(t.Entrants), "opens": d.orgTime(t, at)}))
		return nil
	}
	return d.openRound(t)
}

// gameSeed is a tournament game's seed: derived one-way from the
// tournament's, so revealing a game's seed at its end reveals nothing of
// the rounds to come, and the tournament's seed (revealed at the end)
// accounts for every game.
func gameSeed(t *tournament.Tournament, gameID string) string {
	sum := sha256.Sum256([]byte(t.Seed + "/game/" + gameID))
	return hex.EncodeToString(sum[:])
}

// openRound draws the next round, records it and opens its first batch
// of games (openBatch); the rest follow in units of work of their own.
func (d *desk) openRound(t *tournament.Tournament) error {
	// All or none: a game of the first batch that cannot be opened undoes
	// the round (and everything else this unit of work did); the next run
	// leaves the round out, as a round that could not be drawn.
	key := fmt.Sprintf("open %s round %d", t.ID, len(t.Rounds)+1)
	if msg, undone := d.h.Undone(key); undone {
		return noRound(msg)
	}
	rd, err := d.draw(t) // outside the write lock when it could be (draw.go)
	if err != nil {
		return noRound(err)
	}
	rd.Opened = d.now
	rd.Due = t.RoundDue(rd.N, d.now)
	rd.Warned = rd.Due.IsZero() || !t.WarnAt(rd).After(d.now)
	t.Rounds = append(t.Rounds, rd)
	if d.repair != nil {
		d.repair.drawn(rd)
	}
	return d.openBatch(t, key)
}

// defaultBatch is how many games of a round one unit of work opens
// (Host.OpenBatch 0).
const defaultBatch = 250

// pendingAt is the index of the first match of round rd whose game is
// not open yet (a match that is no bye and has no game: the round is
// opening), or -1 when every game of the round is open.
func pendingAt(rd *tournament.Round) int {
	for k := range rd.Matches {
		if m := &rd.Matches[k]; m.State != tournament.MatchBye && m.GameID == "" {
			return k
		}
	}
	return -1
}

// opening reports whether t's last round is still opening (pendingAt).
func opening(t *tournament.Tournament) bool {
	return len(t.Rounds) > 0 && pendingAt(&t.Rounds[len(t.Rounds)-1]) >= 0
}

// notOpening refuses an organiser's change to t's entrants or to its
// round while that round is still opening (openBatch): the batches to
// come open its games as drawn, and tell the entrants of the draw.
func notOpening(t *tournament.Tournament) error {
	if t.Opening && opening(t) {
		return fail("opening", "id", t.ID, "round", len(t.Rounds))
	}
	return nil
}

// openBatch opens the next batch of the last round's games, seats in the
// drawn order, and tells their entrants whom they play: from the first
// match without a game, Host.OpenBatch games (REPAIR: all of them), and
// the byes up to the next game. While games are left, the round stays
// opening (Tournament.Opening, its wake entry due now) and the core runs
// the next batch once this unit of work commits (Host.OpenLater), or the
// next Tick does (OpenDue). Each batch's games, their round mails and the
// record's progress commit together: a batch is done once or not at all.
// undoKey is the operation a failure undoes in the unit of work that drew
// the round (the whole round goes); a later batch that fails rolls back
// alone, and the next Tick runs it again.
func (d *desk) openBatch(t *tournament.Tournament, undoKey string) error {
	r := len(t.Rounds) - 1
	rd := &t.Rounds[r]
	from := 0 // the first batch: from the round's first match, byes too
	batchKey := fmt.Sprintf("batch %s round %d", t.ID, rd.N)
	later := undoKey == ""
	if later {
		// A later batch: from the first game not open (the batch before
		// ended at it, having told the byes ahead of it).
		if from = pendingAt(rd); from < 0 {
			t.Opening, t.Stuck = false, nil
			return nil
		}
		if msg, undone := d.h.Undone(batchKey); undone {
			d.stuck(t, rd, from, msg)
			return nil
		}
	}
	size := d.h.OpenBatch()
	if size <= 0 {
		size = defaultBatch
	}
	if d.repair != nil {
		size = len(rd.Matches) // REPAIR: all or none, in its unit of work
	}
	to, opened := from, 0
	for ; to < len(rd.Matches); to++ {
		m := &rd.Matches[to]
		if m.State == tournament.MatchBye {
			continue
		}
		if opened == size {
			break
		}
		opened++
		if err := d.openMatch(t, rd, m); err != nil {
			// The error's words go to the log only; the organiser reads the
			// table and the failure's class.
			d.h.Warn("tournament round opening: a batch failed", "tournament", t.ID, "round", rd.N, "table", m.Table, "err", err)
			if later { // stuck: tried again later (stuck)
				return d.undo(batchKey, batchCause{m.Table, failure.IsPermanent(err)})
			}
			return d.undo(undoKey, d.word(orgLang(t), fail("table_failed", "round", rd.N, "table", m.Table, "cause", causeClass(err))))
		}
	}
	if s := t.Stuck; s != nil && (s.Round != rd.N || !later) {
		t.Stuck = nil // a round drawn since
	} else if s != nil && to == len(rd.Matches) {
		// The round is open: the organiser, told it was stuck, hears so.
		t.Stuck = nil
		d.tourOrgMail(t, d.orgText(t, "batch_recovered", map[string]any{"round": rd.N, "tries": s.Tries + 1}))
	}
	t.Opening = to < len(rd.Matches)
	if t.Opening {
		d.h.OpenLater(t.ID, false)
		if later {
			// Only the games of matches [from, to) changed (Kept.NoteBatch;
			// a stuck mark stays until the round is open).
			d.batch = &tourrec.Batch{R: r, From: from, To: to}
		}
	}
	d.roundMails(t, r, from, to)
	return nil
}

// batchCause is why a later batch of a round opening failed, as the
// organiser reads it (org.batch_failed): the table whose game did not
// open and the failure's class (package failure: permanent, or passing),
// never the error's own words, which the log keeps. It travels through
// Host.Undo as its message and is read back by readCause.
type batchCause struct {
	table     int
	permanent bool
}

func (c batchCause) Error() string {
	if c.permanent {
		return fmt.Sprintf("permanent table %d", c.table)
	}
	return fmt.Sprintf("transient table %d", c.table)
}

// readCause reads a batchCause's message back (the class and the table;
// a message of another shape reads as passing, at no table).
func readCause(msg string) (class string, table int) {
	if _, err := fmt.Sscanf(msg, "%s table %d", &class, &table); err != nil || class != "permanent" {
		class = "transient"
	}
	return class, table
}

// stuckRetry is how long a stuck round opening waits before its next try
// after tries failed ones: a minute, doubling, at most an hour.
func stuckRetry(tries int) time.Duration {
	return min(time.Minute<<min(tries-1, 6), time.Hour)
}

// stuck notes that round rd's batch from match from failed to open (msg,
// in the organiser's language): that batch was rolled back alone, the
// round stays opening and is tried again after stuckRetry (the
// tournament's wake entry, Tournament.Wake). The organiser is told once,
// at the first failure, what failed, how far the round got and what to
// do; the tries after it mail nobody, and the one that opens the rest
// says so (batch_recovered).
func (d *desk) stuck(t *tournament.Tournament, rd *tournament.Round, from int, msg string) {
	s := t.Stuck
	if s == nil || s.Round != rd.N {
		s = &tournament.Stuck{Round: rd.N}
		t.Stuck = s
	}
	s.Tries++
	s.Error, s.Retry = msg, d.now.Add(stuckRetry(s.Tries))
	if s.Tries > 1 {
		return
	}
	open, games := 0, 0
	for k := range rd.Matches {
		if m := &rd.Matches[k]; m.State != tournament.MatchBye {
			games++
			if k < from && m.GameID != "" {
				open++
			}
		}
	}
	class, table := readCause(msg)
	d.tourOrgMail(t, d.orgText(t, "batch_failed", map[string]any{"round": rd.N, "cause": class, "table": table,
		"open": open, "games": games, "retry": d.orgTime(t, s.Retry)}))
}

// openMatch opens match m's game (its id taken now, in its batch).
func (d *desk) openMatch(t *tournament.Tournament, rd *tournament.Round, m *tournament.Match) error {
	m.GameID = fmt.Sprintf("%sr%dt%d", t.ID, rd.N, m.Table)
	for k := 0; d.h.GameExists(m.GameID); k++ {
		m.GameID = fmt.Sprintf("%sr%dt%dx%d", t.ID, rd.N, m.Table, k) // an organiser's game took the id
	}
	ng := NewGame{ID: m.GameID, Game: t.Game, Variant: t.Variant, Options: t.Options,
		Organiser: t.Organiser, Seed: gameSeed(t, m.GameID), Tournament: t.ID}
	ng.Seats = make([]Invitee, 0, len(m.Seats))
	for _, e := range m.Seats {
		en := t.Entrants[e]
		ng.Seats = append(ng.Seats, Invitee{Address: en.Address, Name: en.Name, Lang: en.Lang})
	}
	// Entrants signed up for the whole tournament: no invitation to
	// accept, the game starts at once.
	return d.h.OpenGame(ng)
}

// roundMails sends round r's mail to the entrants seated at its matches
// [from, to), a game or a bye: a round mail depends on the round, never
// on how its opening was batched, and an entrant the round seats nowhere
// (withdrawn, entered for a later round, out of a knockout) gets none.
func (d *desk) roundMails(t *tournament.Tournament, r, from, to int) {
	rd := &t.Rounds[r]
	rm := d.newRoundMailer(t, r)
	if from == 0 && to == len(rd.Matches) {
		at := seats(*rd)               // one pass, not one a mail (issue 24)
		for _, e := range t.Entrants { // one batch: in the entrants' order
			if k, seated := at[e.ID]; seated {
				rm.mail(e, k)
			}
		}
		return
	}
	// A batch of several: its matches' entrants, each at their match (no
	// map of the whole round, once a batch).
	for k := from; k < to; k++ {
		for _, e := range rd.Matches[k].Seats {
			rm.mail(t.Entrants[e], k)
		}
	}
}

// doneStandings are the standings of t's first n rounds for the round
// mails of round n+1: those a batch before computed when this later batch
// took the tournament as that batch left it (tourrec.Shape.Done: an opening
// computes them once a run of batches, not once a batch, issue 24), else
// computed now (and kept for the next batch when it may take them). Each
// batch formats the rows its mails show afresh (a rating read now).
func (d *desk) doneStandings(t *tournament.Tournament, n int) *standings {
	if s := d.shaped; s != nil {
		if done, ok := s.Done.(*standings); ok && done.n == n && done.t.ID == t.ID {
			return done.fresh()
		}
	}
	c := *t
	c.Rounds = t.Rounds[:n]
	done := d.newStandings(&c)
	if d.shaped != nil {
		d.shaped.Done = done
	}
	return done
}

// seats maps each entrant of a round to their match.
func seats(rd tournament.Round) map[int]int {
	at := make(map[int]int, 2*len(rd.Matches))
	for k, m := range rd.Matches {
		for _, s := range m.Seats {
			at[s] = k
		}
	}
	return at
}

// roundDataAt describes round r to entrant e in data: their game or bye,
// and the standings so far (k: the index of e's match in the round, -1
// for none).
func (d *desk) roundDataAt(data *mailData, t *tournament.Tournament, r, e, k int) {
	rd := &t.Rounds[r]
	data.Round, data.dueAt = rd.N, rd.Due
	if t.OnSchedule() && rd.N < t.PlannedRounds() {
		data.nextAt = t.RoundDate(rd.N + 1)
	}
	if k < 0 {
		return
	}
	for _, m := range rd.Matches[k : k+1] {
		for i, s := range m.Seats {
			if s != e {
				continue
			}
			if m.State == tournament.MatchBye {
				data.Bye, data.Asked = true, m.Requested
				continue
			}
			var opp []string
			for _, o := range m.Seats {
				if o != e {
					opp = append(opp, t.Entrants[o].Name)
				}
			}
			data.Game, data.Opponents, data.Seat = m.GameID, opp, i+1
		}
	}
}

// gameEnded runs when a game ended in this transaction: the players'
// ratings move, and a tournament game's result is recorded.
func (d *desk) gameEnded(end GameEnd) error {
	rs, err := d.rateEnd(end)
	if err != nil {
		return err
	}
	tid := d.rec.GameTournament(end.ID)
	if tid == "" {
		return nil
	}
	t, err := d.load(tid)
	if err != nil {
		return err
	}
	state := tournament.MatchDone
	if end.Adjudicated {
		state = tournament.MatchAdjudicated
	}
	r, k, err := t.Record(end.ID, state, end.Rank, end.Scores)
	if err != nil {
		return err
	}
	// Issue 24: the ratings the game gave are kept with its match.
	keepRatings(t, &t.Rounds[r].Matches[k], rs)
	if err := d.tourAdvance(t); errors.Is(err, errNoRound) {
		// The game's end must not wait on the draw: the organiser hears.
		d.tourOrgMail(t, d.orgText(t, "nodraw", map[string]any{"error": d.word(orgLang(t), err).Error()}))
	} else if err != nil {
		return err
	}
	return d.saveTour(t)
}

// tourAdvance acts on a completed round: standings to everyone, then the
// next round (at once, or on its date when the calendar says so: the
// standings go out now and the round mail follows on the date), or the end
// (the seed is revealed).
func (d *desk) tourAdvance(t *tournament.Tournament) error {
	if t.Status != tournament.StatusRunning || len(t.Rounds) == 0 || !t.Rounds[len(t.Rounds)-1].Complete() {
		return nil
	}
	if t.Finished() || len(t.ActiveIn(len(t.Rounds)+1)) < max(2, t.MinTable) {
		t.Status, t.Ended = tournament.StatusOver, d.now
		// Each entrant's final mail shows their part of the table, the
		// standings computed once (issue 24: the whole table, computed
		// again for each entrant, was a quadratic 15 s of CPU at 1,000
		// entrants); the whole table is STANDINGS <id> and the page.
		final := d.newStandings(t)
		for _, e := range t.Entrants {
			d.tourMail(t, e, "final", mailData{Standings: d.excerpt(final, e.ID, e.Lang), Seed: t.Seed})
		}
		d.tourOrgMail(t, d.orgText(t, "over", map[string]any{"standings": d.tourStandingsText(t, orgLang(t))}))
		return nil
	}
	if at, wait := t.Waiting(d.now); wait {
		last := &t.Rounds[len(t.Rounds)-1]
		if !last.Told {
			last.Told = true
			now := d.newStandings(t)
			for _, e := range t.Entrants {
				if e.Withdrawn == 0 || last.N < e.Withdrawn {
					d.tourMail(t, e, "standings", mailData{Round: last.N, nextAt: at,
						Standings: d.excerpt(now, e.ID, e.Lang)})
				}
			}
			d.tourOrgMail(t, d.orgText(t, "waiting", map[string]any{"round": last.N, "next": d.orgTime(t, at)}))
		}
		return nil
	}
	// The next round is drawn outside this unit of work's write lock and
	// opened in one of its own (draw.go).
	return d.openLater(t)
}

// gameOf loads the tournament game the line names (FORFEIT, ADJUDICATE):
// it must be one of the organiser's tournaments' and still be played.
func (c *orgCmd) gameOf() (*tournament.Tournament, string, error) {
	gid := c.arg(1)
	tid := c.d.rec.GameTournament(gid)
	if tid == "" {
		return nil, "", fail("not_tour_game", "game", gid)
	}
	t, err := c.d.load(tid)
	if err != nil {
		return nil, "", err
	}
	if t.Organiser != c.org {
		return nil, "", fail("not_yours", "id", t.ID)
	}
	c.setLang(t)
	gi, err := c.d.h.Game(gid)
	if err != nil {
		return nil, "", err
	}
	if !gi.Running() {
		return nil, "", fail("game_status", "game", gid, "status", gi.Status)
	}
	return t, gid, nil
}

// orgAdjudicate ends a tournament game now: scored as it stands, or
// finished by the bots.
func orgAdjudicate(c *orgCmd) (string, error) {
	if len(c.f) < 2 {
		return "", c.usage()
	}
	t, gid, err := c.gameOf()
	if err != nil {
		return "", err
	}
	res, err := c.d.adjudicateGame(t, gid)
	if err != nil {
		return "", err
	}
	if res == nil {
		// The bots finish the game; its end records it in t. Kept as saved
		// all the same, so that the next line of the mail finds it
		// decoded (issue 24: a mail of 500 ADJUDICATE lines decoded the
		// whole record once a line, quadratic in the entrants).
		return c.saved(t, c.d.orgText(t, "adjudicate_bots", map[string]any{"game": gid}))
	}
	if err := c.d.tourAdvance(t); err != nil {
		return "", err
	}
	return c.saved(t, c.d.orgText(t, "adjudicated", map[string]any{"game": gid, "result": res.Line}))
}

// orgForfeit ends a tournament game with a player (by address or name)
// last.
func orgForfeit(c *orgCmd) (string, error) {
	if len(c.f) < 3 {
		return "", c.usage()
	}
	t, gid, err := c.gameOf()
	if err != nil {
		return "", err
	}
	who := c.f[2]
	e, err := seatNamed(t, gid, who)
	if err != nil {
		return "", err
	}
	if e == nil {
		return "", fail("no_entrant", "who", who, "id", t.ID)
	}
	if err := c.d.forfeit(t, gid, e.ID); err != nil {
		return "", err
	}
	if err := c.d.tourAdvance(t); err != nil {
		return "", err
	}
	return c.saved(t, c.d.orgText(t, "forfeited", map[string]any{"game": gid, "name": e.Name}))
}

// seatNamed is the entrant FORFEIT names in game gid: by address, else
// the one seat of the game with that name (a substitute may share another
// holder's name: two such seats are refused, the address tells them
// apart), else any entrant of that name (nil: none).
func seatNamed(t *tournament.Tournament, gid, who string) (*tournament.Entrant, error) {
	if e := t.Entrant(who); e != nil {
		return e, nil
	}
	var named *tournament.Entrant
	if r, k := matchOf(t, gid); r >= 0 {
		for _, x := range t.Rounds[r].Matches[k].Seats {
			if !strings.EqualFold(t.Entrants[x].Name, who) {
				continue
			}
			if named != nil {
				return nil, fail("same_name", "name", who, "game", gid)
			}
			named = &t.Entrants[x]
		}
	}
	if named != nil {
		return named, nil
	}
	return entrantNamed(t, who), nil
}

// adjudicateGame ends a late tournament game for ADJUDICATE and late=
// adjudicate. Where the game can score a position as it stands (every game
// of the referee, by its own final scoring), that is the result, recorded
// at once in t and returned; otherwise (a game without it, or a position
// it cannot score) the bots finish the game from the position,
// deterministically from the game's seed, and the result is recorded at
// its end (nil is returned). Either way the game is rated, marked as
// adjudicated.
func (d *desk) adjudicateGame(t *tournament.Tournament, gid string) (*Result, error) {
	res, err := d.h.Adjudicate(gid)
	if err != nil || res == nil {
		return nil, err
	}
	r, k, err := t.Record(gid, tournament.MatchAdjudicated, res.Rank, res.Scores)
	if err != nil {
		return nil, err
	}
	// The game ends here, not through GameEnded: it is rated here (issue
	// 24: adjudicated games were left out of the ratings).
	if err := d.rateAdjudicated(t, r, k, gid, res.Rank); err != nil {
		return nil, err
	}
	return res, nil
}

// forfeit ends a tournament game with entrant e last and the others level
// first; the game is closed and its seed revealed.
func (d *desk) forfeit(t *tournament.Tournament, gid string, e int) error {
	if _, err := d.h.Game(gid); err != nil {
		return err
	}
	var m *tournament.Match
	for r := range t.Rounds {
		for k := range t.Rounds[r].Matches {
			if t.Rounds[r].Matches[k].GameID == gid {
				m = &t.Rounds[r].Matches[k]
			}
		}
	}
	if m == nil {
		return t.NoGame(gid)
	}
	rank := make([]int, len(m.Seats))
	found := false
	for i, s := range m.Seats {
		rank[i] = 1
		if s == e {
			rank[i], found = len(m.Seats), true
		}
	}
	if !found {
		return fail("not_playing", "name", t.Entrants[e].Name, "game", gid)
	}
	if err := d.h.CloseGame(gid, CloseForfeit, "names", []string{t.Entrants[e].Name}); err != nil {
		return err
	}
	_, _, err := t.Record(gid, tournament.MatchForfeit, rank, nil)
	return err
}

// tourTick handles a tournament's clock: sign-up closing, a round opening
// on its date, the games not yet over listed to the organiser before the
// deadline, and the late games at the deadline (listed once, then the
// tournament's late rule).
func (d *desk) tourTick(id string) error {
	t, err := d.load(id)
	if err != nil {
		if d.h.IsNotFound(err) {
			return d.rec.SetWake(tourWakePrefix+id, time.Time{})
		}
		return err
	}
	switch t.Status {
	case tournament.StatusSignup:
		if at := t.SignupCloses(); !at.IsZero() && !d.now.Before(at) {
			// All or none: sign-up closes with round 1 open (or waiting
			// for its date), or not at all, and the organiser hears why.
			key := "close " + t.ID
			if msg, undone := d.h.Undone(key); undone {
				t.Close, t.Start, t.Dates = time.Time{}, time.Time{}, nil
				d.tourOrgMail(t, d.orgText(t, "cannot_start", map[string]any{"error": msg}))
			} else if err := d.tourClose(t); err != nil {
				return d.undo(key, d.word(orgLang(t), err))
			}
		}
	case tournament.StatusRunning:
		n := len(t.Rounds)
		if t.Opening {
			// The round due was not opened after the unit of work that
			// completed the one before (the process stopped): now.
			if err := d.openDue(t); err != nil {
				return err
			}
			break
		}
		if n == 0 {
			// Sign-up closed before round 1's date: it opens on it.
			if _, wait := t.Waiting(d.now); !wait {
				if err := d.openRound(t); err != nil {
					return err
				}
			}
			break
		}
		if t.Rounds[n-1].Complete() {
			if err := d.tourAdvance(t); err != nil && !errors.Is(err, errNoRound) {
				return err
			} else if err != nil {
				d.tourOrgMail(t, d.orgText(t, "nodraw", map[string]any{"error": d.word(orgLang(t), err).Error()}))
			}
			break
		}
		rd := &t.Rounds[n-1]
		if !rd.Warned && !rd.Due.IsZero() {
			if at := t.WarnAt(*rd); !at.IsZero() && !d.now.Before(at) {
				rd.Warned = true
				if d.now.Before(rd.Due) {
					d.tourOrgMail(t, d.tourLateText(t, "warn"))
				}
			}
		}
		if !rd.Due.IsZero() && !d.now.Before(rd.Due) && !rd.LateSent {
			rd.LateSent, rd.Warned = true, true
			d.tourOrgMail(t, d.tourLateText(t, "late"))
			if err := d.tourLate(t, n-1); err != nil {
				return err
			}
		}
	}
	return d.saveTour(t)
}

// tourLate applies the tournament's rule for the late games of round r:
// the bots finish them (their results are recorded at their end, in this
// transaction), or the seats that owe a move forfeit.
func (d *desk) tourLate(t *tournament.Tournament, r int) error {
	if t.Late == "" {
		return nil
	}
	for _, m := range t.Rounds[r].Matches {
		if m.Decided() || m.GameID == "" {
			continue
		}
		gi, err := d.h.Game(m.GameID)
		if err != nil {
			return err
		}
		if !gi.Started || !gi.Running() {
			continue
		}
		if t.Late == "adjudicate" {
			if _, err := d.adjudicateGame(t, m.GameID); err != nil {
				return err
			}
			continue
		}
		// forfeit: the seats the game waits for lose; the others share the
		// win. By seat: a substitute may share another holder's name.
		waiting := map[int]bool{}
		for _, s := range gi.WaitingSeats {
			waiting[s] = true
		}
		rank := make([]int, len(m.Seats))
		var losers []string
		for i := range m.Seats {
			rank[i] = 1
			if i < len(gi.Seats) && waiting[i] {
				rank[i] = len(m.Seats)
				losers = append(losers, gi.Seats[i])
			}
		}
		if len(losers) == 0 {
			continue
		}
		if err := d.h.CloseGame(m.GameID, CloseForfeit, "names", losers); err != nil {
			return err
		}
		if _, _, err := t.Record(m.GameID, tournament.MatchForfeit, rank, nil); err != nil {
			return err
		}
	}
	return d.tourAdvance(t)
}

// tourLateText lists the current round's unfinished games and whom they
// wait for, in the organiser's language: kind "warn" before the deadline,
// "late" at or after it.
func (d *desk) tourLateText(t *tournament.Tournament, kind string) string {
	if len(t.Rounds) == 0 {
		return d.orgText(t, "no_round", nil)
	}
	rd := t.Rounds[len(t.Rounds)-1]
	var games []map[string]any
	for _, m := range rd.Matches {
		if m.Decided() {
			continue
		}
		waiting := ""
		if gi, err := d.h.Game(m.GameID); err == nil && gi.Started {
			waiting = strings.Join(gi.Waiting, ", ")
		}
		games = append(games, map[string]any{"game": m.GameID, "waiting": waiting})
	}
	left, ago := "", ""
	if !rd.Due.IsZero() {
		left, ago = d.span(t, rd.Due) // issue 24: the time left, or how long ago
	}
	return d.orgText(t, "late", map[string]any{"kind": kind, "round": rd.N, "due": d.orgTime(t, rd.Due), "games": games,
		"late_rule": t.Late, "left": left, "ago": ago})
}
