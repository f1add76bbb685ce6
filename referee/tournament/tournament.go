package tournament

import (
	"errors"
	"iter"
	"strconv"
	"strings"
	"time"

	"github.com/pbem-referee/referee/engine"
)

// Formats.
const (
	Swiss      = "swiss"
	RoundRobin = "roundrobin"
	Knockout   = "knockout"
	Tables     = "tables"
)

// Tournament states.
const (
	StatusSignup  = "signup"
	StatusRunning = "running"
	StatusOver    = "over"
)

// Match states.
const (
	MatchPlaying     = "playing"
	MatchDone        = "done"
	MatchForfeit     = "forfeit"
	MatchAdjudicated = "adjudicated"
	MatchBye         = "bye"
)

// Whether forfeits count in the tie-breaks (Settings.Forfeits).
const (
	ForfeitsSkip  = "skip"
	ForfeitsCount = "count"
)

// Tie-break names.
const (
	Buchholz        = "buchholz"
	SonnebornBerger = "sb"
	GameScore       = "score"
	HeadToHead      = "h2h"
)

// Settings are the rules of a tournament, fixed at creation.
type Settings struct {
	Game    string            `json:"game"`
	Variant string            `json:"variant,omitempty"`
	Options map[string]string `json:"options,omitempty"`
	Format  string            `json:"format"`
	// NumRounds is the number of rounds (0: the format's natural number).
	NumRounds int `json:"num_rounds"`
	// Table is the number of seats of each game.
	Table int `json:"table"`
	// MinTable is the smallest table the game allows (tables may be one
	// short when the entrants do not divide evenly).
	MinTable int `json:"min_table"`
	// Points are tournament points by place at a table (1st, 2nd, ...);
	// seats that share a place share the points of the places they cover.
	Points []float64 `json:"points"`
	// Draw, for two-player games, overrides the points of a shared first
	// place (nil: the average of 1st and 2nd).
	Draw *float64 `json:"draw,omitempty"`
	// Bye is the points of a bye.
	Bye float64 `json:"bye"`
	// Scaled: a table smaller than Table earns points and tie-breaks
	// scaled to its size, and the small tables go to the entrants who sat
	// at one least often (doc.go). Defaults sets it; records made before
	// it existed lack it and keep the plain rule, so they still replay.
	Scaled bool `json:"scaled,omitempty"`
	// Forfeits says whether forfeited games count in the tie-breaks:
	// ForfeitsSkip (Defaults) or ForfeitsCount ("" in records made
	// before it existed: counted). The organiser sets it with
	// forfeits=skip|count, which Defaults takes out of Options.
	Forfeits  string   `json:"forfeits,omitempty"`
	Tiebreaks []string `json:"tiebreaks"`
	// Deadline is the time a round's games have (0: none).
	Deadline time.Duration `json:"deadline"`
	// Late says what happens to a round's unfinished games at its
	// deadline: "" (the organiser is told and decides), "adjudicate" (the
	// bots finish them, so rounds follow the organiser's schedule) or
	// "forfeit" (every seat still owing a move forfeits).
	Late string `json:"late,omitempty"`
	// Cap is the most entrants the organiser takes (cap=N; 0: only the
	// referee's bound): who signs up beyond it waits (Waitlist).
	Cap int `json:"cap,omitempty"`
	// Close is when sign-up closes (zero: when the organiser starts it).
	Close time.Time `json:"close,omitempty"`
	// Listed pages are linked from the index; others only by their key.
	Listed bool `json:"listed,omitempty"`
	// Public: the tournament has public pages at all.
	Public bool `json:"public,omitempty"`
	// Calendar is the rounds' schedule (calendar.go).
	Calendar
	// OrgLang is the language of the organiser's tournament mails and
	// answers (en, it, fr, nl; "" is en).
	OrgLang string `json:"org_lang,omitempty"`
}

// Entrant is one participant. Their history belongs to the entrant, so a
// replacement (a new address) keeps the standings right.
type Entrant struct {
	ID      int    `json:"id"`
	Address string `json:"address"`
	Name    string `json:"name"`
	Lang    string `json:"lang,omitempty"`
	// Withdrawn is the round after which the entrant left (0: playing).
	Withdrawn int `json:"withdrawn,omitempty"`
	// Previous addresses of the entrant (replacements).
	Previous []string `json:"previous,omitempty"`
	// Before are the players who had the place before a REPLACE, first
	// to last, each with the last round they played (issue 24: mails and
	// pages name who played which game).
	Before []Stint `json:"before,omitempty"`
	// Joined is the first round the entrant is paired in (a late entry;
	// 0: from round 1).
	Joined int `json:"joined,omitempty"`
	// Byes are the rounds the entrant asked to sit out, announced before
	// the round opens: a requested bye scores half a bye (Match.Requested).
	Byes []int `json:"byes,omitempty"`
}

// Stint is a player who held an entrant's place: their games are those of
// the rounds up to Through (after the previous stint's).
type Stint struct {
	Name    string `json:"name"`
	Address string `json:"address"`
	Through int    `json:"through"`
	// Into is the round (Through+1) whose game they left after a move
	// was played in it, so played in part (issue 24: the round's table
	// names them, then the substitute); 0: none (older records too).
	Into int `json:"into,omitempty"`
}

// Held is an earlier holder of a place who played some of its rounds:
// First through Stint.Through. K is their number in the place's line of
// holders (from 1: Before's, then the current holder's), found by
// position, never by comparing stints (two stints may be equal: one
// replaced, back, and replaced again at the same point).
type Held struct {
	Stint
	First, K int
}

// Holders are the earlier holders of the entrant's place (Before) who
// played at least one of its rounds, first to last: whole rounds First
// through Through (none when First > Through), and round Into in part
// (a game they started and left after a move). One replaced before their
// first move played none and is left out. from is the first round its
// current holder played whole. They are read off Tenures; the pages and
// the TRF export read the stints so.
func (e Entrant) Holders() (earlier []Held, from int) {
	for tn := range e.Tenures() {
		from = tn.First // the current holder's, last
		if tn.K <= len(e.Before) && (tn.Through >= tn.First || tn.Into >= tn.First) {
			earlier = append(earlier, Held{Stint: e.Before[tn.K-1], First: tn.First, K: tn.K})
		}
	}
	return earlier, from
}

// Tenure is holder K's time in a place (K as Holder counts them): First
// is the first round no holder before them finished, so they played
// rounds First through Through whole, but for Took (none when First >
// Through; the current holder's Through is 0: they hold the place still,
// through its last round). Took is the round whose game the holder
// before them began and handed on to them after a move (0: none): theirs
// in part, and First when they went on to play the rounds after it. Into
// is the round whose game they began and handed on after a move (0:
// none, and for the current holder).
type Tenure struct {
	K, First, Through, Took, Into int
}

// Tenures are every holder of the place, first to last, the current one
// last: the one walk of its line of holders (Before), which Holders and
// the pages of a person read (issue 24).
func (e Entrant) Tenures() iter.Seq[Tenure] {
	return func(yield func(Tenure) bool) {
		from, took := 1, 0
		for i, s := range e.Before {
			into := 0
			if s.Into > s.Through {
				into = s.Into
			}
			if !yield(Tenure{K: i + 1, First: from, Through: s.Through, Took: took, Into: into}) {
				return
			}
			from, took = max(from, s.Through+1), into
		}
		yield(Tenure{K: len(e.Before) + 1, First: from, Took: took})
	}
}

// Holder is holder k of the entrant's place (from 1: Before's, then the
// current holder's, as PlayedHolders counts them): their name and
// address, and for an earlier holder their stint.
func (e Entrant) Holder(k int) Stint {
	if k >= 1 && k <= len(e.Before) {
		return e.Before[k-1]
	}
	return Stint{Name: e.Name, Address: e.Address}
}

// PlayedHolders are the holders who played round n for the entrant, by
// number (from 1, as Holder and the person pages' addresses count them),
// first to last: those who began its game and handed it on after a move
// (Stint.Into == n), then the one who finished it, the first whose stint
// runs through n (else the current holder). Never empty. Who played is
// read by position in the line of holders, never by name: two holders
// may share one.
func (e Entrant) PlayedHolders(n int) []int {
	var out []int
	for i, s := range e.Before {
		if s.Into == n {
			out = append(out, i+1)
		}
	}
	by := len(e.Before) + 1
	for i, s := range e.Before {
		if n <= s.Through {
			by = i + 1
			break
		}
	}
	return append(out, by)
}

// Played are who played round n for the entrant, first to last: the
// earlier holders who played its game in part, then the one who finished
// it, the substitute when there is more than one: the names of
// PlayedHolders.
func (e Entrant) Played(n int) []string {
	hs := e.PlayedHolders(n)
	out := make([]string, len(hs))
	for i, k := range hs {
		out[i] = e.Holder(k).Name
	}
	return out
}

// Plays reports whether the entrant is paired in round n: joined by then,
// not withdrawn before it, and no bye asked for it.
func (e Entrant) Plays(n int) bool {
	return (e.Withdrawn == 0 || n < e.Withdrawn) && n >= e.Joined && !e.AskedBye(n)
}

// AskedBye reports whether the entrant asked for a bye in round n.
func (e Entrant) AskedBye(n int) bool {
	for _, r := range e.Byes {
		if r == n {
			return true
		}
	}
	return false
}

// Match is one game of a round, or a bye.
type Match struct {
	Table int `json:"table"`
	// Seats are entrant ids in seat order (seat 1 moves first).
	Seats  []int  `json:"seats"`
	GameID string `json:"game_id,omitempty"`
	State  string `json:"state"`
	// Rank (1 = best) and Scores are per seat once the match is decided.
	Rank   []int `json:"rank,omitempty"`
	Scores []int `json:"scores,omitempty"`
	// Requested: a bye the entrant asked for (Entrant.Byes), worth half
	// a bye's points.
	Requested bool `json:"requested,omitempty"`
	// Corrected: the organiser set or changed the result (RESULT,
	// DOUBLEFORFEIT); Changes are the results it replaced.
	Corrected bool     `json:"corrected,omitempty"`
	Changes   []Change `json:"changes,omitempty"`
	// Ratings are, by seat, the players' ratings in the game once it
	// was rated (RatingValue: every rated game of theirs counted),
	// stored when the game ended so that a rating history is read, not
	// recomputed; an adjudicated match's are marked by its State.
	Ratings []float64 `json:"ratings,omitempty"`
	// RatingsBefore are, by seat, the ratings the players came to the
	// game with (RatingValue, read as the game was rated: their rating
	// from every earlier rated game of theirs, in this tournament or
	// not; a newcomer's for a player never rated), stored with Ratings
	// (issue 24: a person's page shows before -> after). Records from
	// before it have none: the page shows no number it does not know.
	RatingsBefore []float64 `json:"ratings_before,omitempty"`
}

// Decided reports whether the match has a result.
func (m Match) Decided() bool {
	return m.State == MatchDone || m.State == MatchForfeit || m.State == MatchAdjudicated || m.State == MatchBye
}

// DoubleForfeit reports whether every seat of the match forfeited
// (DOUBLEFORFEIT: all ranked last, everyone loses).
func (m Match) DoubleForfeit() bool {
	if m.State != MatchForfeit || len(m.Seats) < 2 || len(m.Rank) != len(m.Seats) {
		return false
	}
	for _, r := range m.Rank {
		if r != len(m.Seats) {
			return false
		}
	}
	return true
}

// Change is a result the organiser replaced (RESULT): the match as it was
// before, and At, the number of rounds drawn when it changed (a round drawn
// before the change saw the result before it; Replay puts it back).
type Change struct {
	At     int    `json:"at"`
	State  string `json:"state"`
	Rank   []int  `json:"rank,omitempty"`
	Scores []int  `json:"scores,omitempty"`
}

// SetResult is the organiser's result for a match (RESULT): the places by
// seat; a match that had a result keeps it in Changes (drawn rounds is
// the number of rounds drawn now).
func (m *Match) SetResult(rank []int, drawn int) error {
	if len(rank) != len(m.Seats) || m.State == MatchBye {
		return fault(nil, FaultPlaces, "places", len(rank), "seats", len(m.Seats))
	}
	for _, r := range rank {
		if r < 1 || r > len(rank) {
			return fault(nil, FaultPlace, "place", r, "seats", len(rank))
		}
	}
	if m.Decided() {
		m.Changes = append(m.Changes, Change{At: drawn, State: m.State, Rank: m.Rank, Scores: m.Scores})
		m.Scores = nil
	}
	m.State, m.Rank, m.Corrected = MatchAdjudicated, append([]int(nil), rank...), true
	return nil
}

// asDrawn is the match as a draw made when drawn rounds existed saw it:
// before the first change made after that.
func (m Match) asDrawn(drawn int) Match {
	for _, c := range m.Changes {
		if c.At > drawn {
			m.State, m.Rank, m.Scores = c.State, c.Rank, c.Scores
			break
		}
	}
	return m
}

// Round is one round's matches.
type Round struct {
	N       int       `json:"n"`
	Matches []Match   `json:"matches"`
	Opened  time.Time `json:"opened"`
	Due     time.Time `json:"due,omitempty"`
	// LateSent: the organiser was sent the late games after Due.
	LateSent bool `json:"late_sent,omitempty"`
	// Warned: the organiser was sent the games not yet over before Due
	// (at WarnAt).
	Warned bool `json:"warned,omitempty"`
	// Told: the standings after this round went out when it completed
	// (the next round waiting for its date).
	Told bool `json:"told,omitempty"`
	// Pairing is how a Swiss round was paired: PairingExact ("", every
	// round of a field that fits one window, and every round recorded
	// before windows) or PairingWindows; and how a tables round was
	// seated: PairingExact (the single swaps), PairingDual (the least
	// search with lower bounds and the entrants' weights changed it),
	// PairingBound (the search before the weights did) or PairingLeast
	// (the search before lower bounds did). Replay draws it the same way.
	Pairing string `json:"pairing,omitempty"`
	// Swaps are the pairs of entrants the organiser swapped after the
	// draw (SWAP), in order: Replay draws the round, swaps them, and
	// compares.
	Swaps [][2]int `json:"swaps,omitempty"`
}

// Swap exchanges entrants a and b in the round's matches and records it
// (Round.Swaps): they must be at two different tables with no result.
func (r *Round) Swap(a, b int) error {
	ma, _ := r.seatOf(a)
	mb, _ := r.seatOf(b)
	switch {
	case ma < 0 || mb < 0:
		return fault(nil, FaultNotInRound, "a", a, "b", b, "round", r.N)
	case ma == mb:
		return fault(nil, FaultSameGame, "a", a, "b", b)
	case r.Matches[ma].Decided() || r.Matches[mb].Decided():
		return fault(nil, FaultHasResult, "round", r.N)
	}
	r.swap(a, b)
	r.Swaps = append(r.Swaps, [2]int{a, b})
	return nil
}

// swap exchanges a and b wherever they sit.
func (r *Round) swap(a, b int) {
	ma, ia := r.seatOf(a)
	mb, ib := r.seatOf(b)
	if ma >= 0 && mb >= 0 {
		r.Matches[ma].Seats[ia], r.Matches[mb].Seats[ib] = b, a
	}
}

// seatOf is the match and seat of entrant e in the round (-1, -1: none).
func (r *Round) seatOf(e int) (int, int) {
	for k, m := range r.Matches {
		for i, s := range m.Seats {
			if s == e {
				return k, i
			}
		}
	}
	return -1, -1
}

// Complete reports whether every match of the round is decided.
func (r Round) Complete() bool {
	for _, m := range r.Matches {
		if !m.Decided() {
			return false
		}
	}
	return true
}

// Tournament is the whole record.
type Tournament struct {
	ID        string `json:"id"`
	Organiser string `json:"organiser"`
	Settings
	// Seed is secret until the end; Commitment is its SHA-256.
	Seed       string `json:"seed"`
	Commitment string `json:"commitment"`
	// SeedGiven: the organiser gave the seed (NEW TOURNAMENT seed=), to
	// reproduce a draw; the same entrants in the same order and the same
	// results then draw the same rounds.
	SeedGiven bool      `json:"seed_given,omitempty"`
	Status    string    `json:"status"`
	Entrants  []Entrant `json:"entrants"`
	// Waitlist are who signed up once the tournament was full (Cap), in
	// order: the first moves in when an entrant withdraws during sign-up.
	Waitlist []Entrant `json:"waitlist,omitempty"`
	Rounds   []Round   `json:"rounds"`
	// Key makes the public pages' address unguessable.
	Key     string    `json:"key"`
	Created time.Time `json:"created"`
	Started time.Time `json:"started,omitempty"`
	Ended   time.Time `json:"ended,omitempty"`
	// Opening: the next round is due to be drawn and opened, outside the
	// unit of work that completed the one before (the caller draws it on
	// a snapshot, out of its write lock); Wake is now until it is.
	Opening bool `json:"opening,omitempty"`
	// Stuck: a later batch of the round opening failed (issue 24); the
	// opening is tried again at Stuck.Retry (Wake), not before.
	Stuck *Stuck `json:"stuck,omitempty"`
}

// Stuck is a round opening whose next batch of games failed to open:
// which round, how many tries failed, the last failure's cause (its
// class and table, "transient table 7"; a record from before issue 24's
// change holds the error's words), and when it is tried again.
type Stuck struct {
	Round int       `json:"round"`
	Tries int       `json:"tries"`
	Error string    `json:"error"`
	Retry time.Time `json:"retry"`
}

// Errors.
var (
	ErrFormat   = errors.New("tournament: bad settings")
	ErrEntrants = errors.New("tournament: not enough entrants")
)

// Defaults fills the settings a game implies: two-player games pair,
// others seat tables of the game's largest count up to 4.
func Defaults(s *Settings, info engine.Info) error {
	if s.Table == 0 {
		switch {
		case info.MinPlayers <= 2 && info.MaxPlayers >= 2 && (s.Format == "" || s.Format != Tables):
			s.Table = 2
		default:
			s.Table = min(info.MaxPlayers, 4)
		}
	}
	if !info.Allows(s.Variant, s.Table) {
		return fault(ErrFormat, FaultTable, "game", info.Name, "table", s.Table)
	}
	if s.Format == "" {
		s.Format = Swiss
		if s.Table > 2 {
			s.Format = Tables
		}
	}
	switch s.Format {
	case Swiss, RoundRobin:
		if s.Table != 2 {
			return fault(ErrFormat, FaultTwoSeats, "format", s.Format)
		}
	case Tables, Knockout:
	default:
		return fault(ErrFormat, FaultFormat, "format", s.Format)
	}
	s.MinTable = s.Table
	if s.Format == Tables && info.Allows(s.Variant, s.Table-1) && s.Table > 2 {
		s.MinTable = s.Table - 1
	}
	if len(s.Points) == 0 {
		if s.Table == 2 {
			s.Points = []float64{1, 0}
		} else {
			for k := s.Table - 1; k >= 0; k-- {
				s.Points = append(s.Points, float64(k))
			}
		}
	}
	if s.Table == 2 && len(s.Points) == 3 { // win, draw, loss
		d := s.Points[1]
		s.Draw = &d
		s.Points = []float64{s.Points[0], s.Points[2]}
	}
	if len(s.Points) < s.Table {
		return fault(ErrFormat, FaultPointsCount, "points", len(s.Points), "table", s.Table)
	}
	switch s.Late {
	case "", "adjudicate", "forfeit":
	default:
		return fault(ErrFormat, FaultLate, "late", s.Late)
	}
	if s.Bye == 0 {
		s.Bye = s.Points[0]
	}
	s.Scaled = true
	// forfeits=skip|count on NEW TOURNAMENT arrives among the game
	// options: it is the tournament's, not the game's.
	for k, v := range s.Options {
		if strings.EqualFold(k, "forfeits") {
			s.Forfeits = strings.ToLower(v)
			delete(s.Options, k)
		}
	}
	switch s.Forfeits {
	case "":
		s.Forfeits = ForfeitsSkip
	case ForfeitsSkip, ForfeitsCount:
	default:
		return fault(ErrFormat, FaultForfeits, "forfeits", s.Forfeits)
	}
	if len(s.Tiebreaks) == 0 {
		s.Tiebreaks = []string{Buchholz, SonnebornBerger, GameScore, HeadToHead}
	}
	for _, tb := range s.Tiebreaks {
		switch tb {
		case Buchholz, SonnebornBerger, GameScore, HeadToHead:
		default:
			return fault(ErrFormat, FaultTiebreak, "tiebreak", tb)
		}
	}
	return nil
}

// ParsePoints reads "1,0.5,0" (two-player: win, draw, loss) or rank points
// "4,2,1,0".
func ParsePoints(v string) ([]float64, error) {
	var out []float64
	for _, f := range strings.Split(v, ",") {
		x, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil || x < 0 || x > 1000 {
			return nil, fault(ErrFormat, FaultPoints, "points", v)
		}
		out = append(out, x)
	}
	return out, nil
}

// PlannedRounds is the number of rounds the tournament will have with n
// entrants.
func (t *Tournament) PlannedRounds() int {
	// Counted only where the entrants decide it (issue 24: every mail of
	// a round asked, so a round's mails cost the square of the entrants).
	if t.Format != RoundRobin && t.Format != Knockout && t.NumRounds > 0 {
		return t.NumRounds
	}
	n := t.active(len(t.Rounds))
	switch t.Format {
	case RoundRobin:
		if n%2 == 1 {
			return n
		}
		return n - 1
	case Knockout:
		r, size := 0, 1
		for size < len(t.Entrants) {
			size *= t.Table
			r++
		}
		return r
	}
	if t.NumRounds > 0 {
		return t.NumRounds
	}
	// Swiss: enough rounds to separate a winner.
	r := 0
	for size := 1; size < n; size *= 2 {
		r++
	}
	return max(r, 1)
}

// active counts the entrants still playing at round r.
func (t *Tournament) active(r int) int {
	n := 0
	for _, e := range t.Entrants {
		if e.Withdrawn == 0 || e.Withdrawn > r {
			n++
		}
	}
	return n
}

// Entrant returns the entrant with an address (current or previous), or
// nil.
func (t *Tournament) Entrant(addr string) *Entrant {
	for i := range t.Entrants {
		if strings.EqualFold(t.Entrants[i].Address, addr) {
			return &t.Entrants[i]
		}
	}
	return nil
}

// Finished reports whether every planned round is played.
func (t *Tournament) Finished() bool {
	if len(t.Rounds) == 0 || !t.Rounds[len(t.Rounds)-1].Complete() {
		return false
	}
	if t.Format == Knockout {
		last := t.Rounds[len(t.Rounds)-1]
		live := 0
		for _, m := range last.Matches {
			if len(m.Seats) > 0 {
				live++
			}
		}
		return live <= 1
	}
	return len(t.Rounds) >= t.PlannedRounds()
}

// Record sets the result of the match playing game id: rank and scores
// per seat. It returns the round and match index.
func (t *Tournament) Record(gameID, state string, rank, scores []int) (int, int, error) {
	for r := range t.Rounds {
		for k := range t.Rounds[r].Matches {
			m := &t.Rounds[r].Matches[k]
			if m.GameID != gameID {
				continue
			}
			if len(rank) != len(m.Seats) {
				return r, k, fault(nil, FaultPlaces, "places", len(rank), "seats", len(m.Seats))
			}
			m.State, m.Rank, m.Scores = state, append([]int(nil), rank...), append([]int(nil), scores...)
			return r, k, nil
		}
	}
	return -1, -1, t.NoGame(gameID)
}

// Full reports whether sign-up has reached the organiser's cap.
func (t *Tournament) Full() bool { return t.Cap > 0 && len(t.Entrants) >= t.Cap }

// WaitingPlace returns the place (1 first) of an address on the waiting list,
// 0 when it is not on it.
func (t *Tournament) WaitingPlace(addr string) int {
	for i, e := range t.Waitlist {
		if strings.EqualFold(e.Address, addr) {
			return i + 1
		}
	}
	return 0
}
