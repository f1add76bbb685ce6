package tournament

// Exports: pure functions from the record to the files a tournament
// director reaches for. Column names are field names for programs, not
// words for players; whatever a player reads (an event's title) comes
// from the caller, in the reader's language.

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode"

	ics "github.com/arran4/golang-ical"
)

// ErrExport is returned for an export the tournament cannot have (the
// TRF of an event that is not two-player, a round that does not exist).
var ErrExport = fmt.Errorf("tournament: export")

// num writes a point total without trailing zeros: 1, 1.5, 2.25.
func num(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }

func writeCSV(rows [][]string) ([]byte, error) {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	if err := w.WriteAll(rows); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// StandingsCSV is the standings as CSV: one line per entrant in standing
// order, with the tie-breaks under their names (Settings.Tiebreaks); name
// is the place's holder now, and held_before the earlier holders who
// played for it (heldBefore).
func StandingsCSV(t *Tournament) ([]byte, error) {
	head := []string{"place", "entrant", "name", "points"}
	head = append(head, t.Tiebreaks...)
	head = append(head, "played", "won", "drawn", "lost", "byes", "forfeits", "game_score", "withdrawn", "held_before")
	rows := [][]string{head}
	for _, s := range t.Standings() {
		row := []string{strconv.Itoa(s.Place), strconv.Itoa(s.Entrant + 1), s.Name, num(s.Points)}
		for _, x := range s.Tiebreaks {
			row = append(row, num(x))
		}
		row = append(row, strconv.Itoa(s.Played), strconv.Itoa(s.Won), strconv.Itoa(s.Drawn), strconv.Itoa(s.Lost),
			strconv.Itoa(s.Byes), strconv.Itoa(s.Forfeits), strconv.Itoa(s.Score), strconv.FormatBool(s.Withdrawn),
			heldBefore(t.Entrants[s.Entrant]))
		rows = append(rows, row)
	}
	return writeCSV(rows)
}

// heldBefore are the earlier holders of a place who played for it
// (Entrant.Holders), first to last, joined by " | ": each is the name,
// a colon and their rounds, "1-2" or "3" played whole and "~4" a round
// whose game they began and handed on after a move, comma-separated:
// "Ann:1-2,~3 | Bob:~3". Empty for a place that never changed hands.
func heldBefore(e Entrant) string {
	held, _ := e.Holders()
	var out []string
	for _, h := range held {
		var rs []string
		switch {
		case h.First == h.Through:
			rs = append(rs, strconv.Itoa(h.First))
		case h.First < h.Through:
			rs = append(rs, strconv.Itoa(h.First)+"-"+strconv.Itoa(h.Through))
		}
		if h.Into > h.Through {
			rs = append(rs, "~"+strconv.Itoa(h.Into))
		}
		out = append(out, h.Name+":"+strings.Join(rs, ","))
	}
	return strings.Join(out, " | ")
}

// ResultsCSV is every seat of every match as CSV: round, table, game,
// state, seat (1 moves first), entrant (sign-up number), name (who played
// the seat's game: who finished it), rank and game score once decided,
// the tournament points the seat earned, and started_by: who played the
// game in part before name took the seat over (a REPLACE after a move:
// name is then the substitute), first to last, joined by " | "; empty
// for most.
func ResultsCSV(t *Tournament) ([]byte, error) {
	rows := [][]string{{"round", "table", "game", "state", "seat", "entrant", "name", "rank", "score", "points", "started_by"}}
	for _, rd := range t.Rounds {
		for _, m := range rd.Matches {
			rows = append(rows, t.seatRows(rd.N, m)...)
		}
	}
	return writeCSV(rows)
}

// seatRows are the CSV lines of one match's seats.
func (t *Tournament) seatRows(round int, m Match) [][]string {
	var pts []float64
	if m.Decided() && (m.State == MatchBye || len(m.Rank) == len(m.Seats)) {
		pts = t.seatPoints(m)
	}
	var rows [][]string
	for i, e := range m.Seats {
		rank, score, p := "", "", ""
		if i < len(m.Rank) {
			rank = strconv.Itoa(m.Rank[i])
		}
		if i < len(m.Scores) {
			score = strconv.Itoa(m.Scores[i])
		}
		if pts != nil {
			p = num(pts[i])
		}
		name, part := "", []string(nil)
		if who := t.whoPlayed(e, round); len(who) > 0 {
			name, part = who[len(who)-1], who[:len(who)-1]
		}
		rows = append(rows, []string{strconv.Itoa(round), strconv.Itoa(m.Table), m.GameID, m.State, strconv.Itoa(i + 1),
			strconv.Itoa(e + 1), name, rank, score, p, strings.Join(part, " | ")})
	}
	return rows
}

// whoPlayed are who played round's game for entrant e (Entrant.Played):
// those who played it in part, then the one who finished it (after a
// REPLACE, the one who held the place then); none for an entrant out of
// range.
func (t *Tournament) whoPlayed(e, round int) []string {
	if e < 0 || e >= len(t.Entrants) {
		return nil
	}
	return t.Entrants[e].Played(round)
}

// PairingsCSV is round n's pairings (1-based) as CSV, one line per seat in
// table order, with each entrant's points before the round; the results
// columns fill in as games end; started_by as ResultsCSV's.
func PairingsCSV(t *Tournament, n int) ([]byte, error) {
	if n < 1 || n > len(t.Rounds) {
		return nil, fmt.Errorf("%w: no round %d (%d drawn)", ErrExport, n, len(t.Rounds))
	}
	before := *t
	before.Rounds = t.Rounds[:n-1]
	pts := before.PointTotals()
	rows := [][]string{{"round", "table", "game", "state", "seat", "entrant", "name", "points_before", "rank", "score", "points", "started_by"}}
	for _, m := range t.Rounds[n-1].Matches {
		for _, r := range t.seatRows(n, m) {
			e, _ := strconv.Atoi(r[5])
			rows = append(rows, append(r[:7:7], num(pts[e-1]), r[7], r[8], r[9], r[10]))
		}
	}
	return writeCSV(rows)
}

// CrossCell is one entrant's round in the crosstable.
type CrossCell struct {
	// Opponents are the crosstable lines (1-based) of the others at the
	// table; none for a bye or a round not paired.
	Opponents []int `json:"opponents,omitempty"`
	// Seat is 1-based (1 moves first); 0 for a bye or not paired.
	Seat int `json:"seat,omitempty"`
	// Result: two-player "1" win, "=" draw, "0" loss, "+"/"-" forfeit
	// won/lost; tables "p/k" (place p of k seats, "p=/k" shared), "+p/k"
	// or "-p/k" by forfeit; "U" a bye; "*" still playing; "" not paired.
	Result string `json:"result"`
	// Points earned in the round (0 until decided).
	Points float64 `json:"points"`
	// Adjudicated: the result was adjudicated, not played out.
	Adjudicated bool `json:"adjudicated,omitempty"`
	// Players are who played the round for the line when not its
	// current holder alone, first to last (Entrant.Played): an earlier
	// holder's round names them (even one of the same name); a game
	// handed on after a move names who started it, then who finished it
	// (the substitute). Nil for most.
	Players []string `json:"players,omitempty"`
}

// CrossRow is one entrant's line of the crosstable, in standing order.
type CrossRow struct {
	Line      int         `json:"line"`
	Place     int         `json:"place"`
	Entrant   int         `json:"entrant"`
	Name      string      `json:"name"`
	Points    float64     `json:"points"`
	Tiebreaks []float64   `json:"tiebreaks"`
	Rounds    []CrossCell `json:"rounds"`
}

// Crosstable is every entrant's rounds, lines in standing order, each
// opponent named by their line.
func Crosstable(t *Tournament) []CrossRow {
	st := t.Standings()
	line := make([]int, len(t.Entrants))
	rows := make([]CrossRow, len(st))
	for i, s := range st {
		line[s.Entrant] = i + 1
		rows[i] = CrossRow{Line: i + 1, Place: s.Place, Entrant: s.Entrant, Name: s.Name, Points: s.Points,
			Tiebreaks: s.Tiebreaks, Rounds: make([]CrossCell, len(t.Rounds))}
	}
	// from[e]: the first round place e's holder now played (an earlier
	// round was someone else's, whatever their name).
	from := make([]int, len(t.Entrants))
	for e, en := range t.Entrants {
		_, from[e] = en.Holders()
	}
	for r, rd := range t.Rounds {
		for _, m := range rd.Matches {
			pts := cellPoints(t, m)
			for i, e := range m.Seats {
				c := &rows[line[e]-1].Rounds[r]
				*c = t.cell(rd.N, m, i, pts, from[e])
				if m.State == MatchBye {
					continue
				}
				for _, o := range m.Seats {
					if o != e {
						c.Opponents = append(c.Opponents, line[o])
					}
				}
			}
		}
	}
	return rows
}

// Cell is seat i's cell of match m of round n, as Crosstable's line of
// the entrant at that seat has it, but for its opponents' lines
// (Opponents is nil: the lines are the standings'): a page of one place
// reads its own cells so, without the whole table (issue 24).
func (t *Tournament) Cell(n int, m Match, i int) CrossCell {
	_, from := t.Entrants[m.Seats[i]].Holders()
	return t.cell(n, m, i, cellPoints(t, m), from)
}

// cellPoints are the points of match m's seats once it is decided (nil
// before).
func cellPoints(t *Tournament, m Match) []float64 {
	if m.Decided() && (m.State == MatchBye || len(m.Rank) == len(m.Seats)) {
		return t.seatPoints(m)
	}
	return nil
}

// cell is Cell, given the match's points (cellPoints) and the first
// round the seat's holder now played whole (Entrant.Holders' from).
func (t *Tournament) cell(n int, m Match, i int, pts []float64, from int) CrossCell {
	var c CrossCell
	if who := t.Entrants[m.Seats[i]].Played(n); len(who) > 1 || n < from {
		c.Players = who
	}
	if m.State == MatchBye {
		c.Result, c.Points = "U", pts[i]
		return c
	}
	c.Seat = i + 1
	if pts == nil {
		c.Result = "*"
		return c
	}
	c.Points, c.Adjudicated = pts[i], m.State == MatchAdjudicated
	c.Result = cellResult(m, i)
	return c
}

// cellResult is seat i's result code in a decided game (CrossCell).
func cellResult(m Match, i int) string {
	forfeit := m.State == MatchForfeit
	if len(m.Seats) == 2 {
		o := m.Rank[1-i]
		switch {
		case forfeit && m.Rank[i] <= o:
			return "+"
		case forfeit:
			return "-"
		case m.Rank[i] < o:
			return "1"
		case m.Rank[i] == o:
			return "="
		}
		return "0"
	}
	same := 0
	for _, q := range m.Rank {
		if q == m.Rank[i] {
			same++
		}
	}
	s := strconv.Itoa(m.Rank[i])
	if same > 1 {
		s += "="
	}
	s += "/" + strconv.Itoa(len(m.Seats))
	if forfeit {
		if m.Rank[i] == 1 {
			return "+" + s
		}
		return "-" + s
	}
	return s
}

// CrosstableCSV is the crosstable as CSV: line, place, entrant, name,
// points, the tie-breaks, then one column per round whose cell is the
// opponents' lines, the seat (w first, b second; s1, s2... at tables)
// and the result (CrossCell), e.g. "5w1", "3b=", "2 7 s3 2/4", "U";
// an adjudicated result ends in "a". A round the line's name did not play
// alone ends in who played it, first to last, between brackets and
// joined by ">" (CrossCell.Players): "5w1 [Ann]" for an earlier holder's
// round, "5w1 [Ann>Zed]" for a game Ann started and Zed, the substitute,
// finished.
func CrosstableCSV(t *Tournament) ([]byte, error) {
	head := []string{"line", "place", "entrant", "name", "points"}
	head = append(head, t.Tiebreaks...)
	for r := range t.Rounds {
		head = append(head, "r"+strconv.Itoa(r+1))
	}
	rows := [][]string{head}
	for _, cr := range Crosstable(t) {
		row := []string{strconv.Itoa(cr.Line), strconv.Itoa(cr.Place), strconv.Itoa(cr.Entrant + 1), cr.Name, num(cr.Points)}
		for _, x := range cr.Tiebreaks {
			row = append(row, num(x))
		}
		for _, c := range cr.Rounds {
			row = append(row, crossText(c))
		}
		rows = append(rows, row)
	}
	return writeCSV(rows)
}

func crossText(c CrossCell) string {
	s := crossCode(c)
	if c.Players != nil {
		s += " [" + strings.Join(c.Players, ">") + "]"
	}
	return s
}

// crossCode is a cell's opponents, seat and result.
func crossCode(c CrossCell) string {
	if c.Seat == 0 {
		return c.Result
	}
	var b strings.Builder
	for i, o := range c.Opponents {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(strconv.Itoa(o))
	}
	switch {
	case len(c.Opponents) == 1 && c.Seat == 1:
		b.WriteString("w")
	case len(c.Opponents) == 1:
		b.WriteString("b")
	default:
		b.WriteString(" s" + strconv.Itoa(c.Seat) + " ")
	}
	b.WriteString(c.Result)
	if c.Adjudicated {
		b.WriteString("a")
	}
	return b.String()
}

// TRF is the FIDE Tournament Report File (TRF16) of a two-player event:
// the tournament lines (012 name, 042/052 dates, 062 players, 092 type,
// 132 round dates) and a 001 line per entrant (starting rank = sign-up
// number; name, points and rank, then per complete round the opponent,
// the colour (w: first seat) and the result: 1 = 0 won, drawn, lost
// (adjudicated games too), + - by forfeit, U a pairing-allocated bye,
// Z not paired). Rounds still playing are left out. Fields the record
// does not have (sex, title, FIDE rating, federation, FIDE number, birth
// date) are blank. Lines end in CR LF.
//
// A place that changed hands (REPLACE, Entrant.Before): a TRF line is a
// person, whose games a rating program credits to them, so each player
// who held the place has a line of their own with only the rounds they
// played (issue 24). The entrant's line (starting rank = sign-up number)
// is the current holder's; each earlier holder who played a complete
// round has a line after the entrants' (starting ranks N+1, N+2, ... in
// sign-up then stint order), with the points of their own rounds and a
// blank rank (the place's rank is its current holder's). The current
// holder's points are the place's less the earlier holders', so the
// lines of a place add up to its standing. A round a line's player did
// not play is Z (not paired), and every opponent number is the line of
// whoever held the opponent's place that round. 062 counts the lines.
//
// A game handed on after a move (Stint.Into): TRF16 has one opponent a
// cell and no partial game, so the game is written on the line of who
// finished it (the substitute: who held the place at the result, whose
// line carries the place's points), and the opponent's cell names that
// line; the one who started it has Z for the round on their line (a line
// only if they played a complete round: a holder whose only game was
// handed on has none, as one replaced before playing). Its result is
// written W, D or L (TRF16: win, draw, loss not rated) on both sides: FIDE
// rates a game between two persons, and this one had three; a forfeit
// keeps + or - (not rated anyway). TestExportsNameHandedOnGames_Issue24.
func TRF(t *Tournament) ([]byte, error) {
	if t.Table != 2 {
		return nil, fmt.Errorf("%w: TRF is for two-player events (tables of %d)", ErrExport, t.Table)
	}
	rounds := t.Rounds
	for len(rounds) > 0 && !rounds[len(rounds)-1].Complete() {
		rounds = rounds[:len(rounds)-1]
	}
	view := *t
	view.Rounds = rounds
	var b strings.Builder
	line := func(s string) { b.WriteString(strings.TrimRight(s, " ") + "\r\n") }
	title := t.ID
	if t.Game != "" {
		title += " (" + t.Game + ")"
	}
	line("012 " + trfText(title, 0))
	if !t.Started.IsZero() {
		line("042 " + t.Started.UTC().Format("2006/01/02"))
	}
	if !t.Ended.IsZero() {
		line("052 " + t.Ended.UTC().Format("2006/01/02"))
	}
	lines := trfLines(t, len(rounds))
	line(fmt.Sprintf("062 %d", len(lines)))
	line("092 " + map[string]string{Swiss: "Swiss", RoundRobin: "Round robin", Knockout: "Knockout"}[t.Format])
	dates := []byte(fmt.Sprintf("%-91s", "132"))
	for _, rd := range rounds {
		d := "        "
		if !rd.Opened.IsZero() {
			d = rd.Opened.UTC().Format("06/01/02")
		}
		dates = append(dates, d+"  "...)
	}
	line(string(dates))
	st := view.Standings()
	place := make([]int, len(t.Entrants))
	pts := make([]float64, len(t.Entrants))
	for _, s := range st {
		place[s.Entrant], pts[s.Entrant] = s.Place, s.Points
	}
	// who[e][r] is the line of whoever held place e in round r+1.
	who := make([][]int, len(t.Entrants))
	for e := range who {
		who[e] = make([]int, len(rounds))
		for r := range who[e] {
			who[e][r] = e
		}
	}
	for l := len(t.Entrants); l < len(lines); l++ {
		for r := lines[l].from; r <= lines[l].through && r <= len(rounds); r++ {
			who[lines[l].entrant][r-1] = l
		}
	}
	cells := make([][]string, len(lines))
	for r, rd := range rounds {
		for l := range cells {
			cells[l] = append(cells[l], "0000 - Z")
		}
		for _, m := range rd.Matches {
			if m.State == MatchBye {
				for _, e := range m.Seats {
					cells[who[e][r]][r] = "0000 - U"
					lines[who[e][r]].points += t.seatPoints(m)[0]
				}
				continue
			}
			if len(m.Seats) != 2 || len(m.Rank) != 2 {
				continue
			}
			p := t.seatPoints(m)
			handed := len(t.whoPlayed(m.Seats[0], rd.N)) > 1 || len(t.whoPlayed(m.Seats[1], rd.N)) > 1
			for i, e := range m.Seats {
				colour := "w"
				if i == 1 {
					colour = "b"
				}
				res := cellResult(m, i)
				if handed {
					res = trfUnrated(res)
				}
				cells[who[e][r]][r] = fmt.Sprintf("%4d %s %s", who[m.Seats[1-i]][r]+1, colour, res)
				lines[who[e][r]].points += p[i]
			}
		}
	}
	// A current holder's points are the place's less its earlier holders'.
	for _, tl := range lines[len(t.Entrants):] {
		pts[tl.entrant] -= tl.points
	}
	for l, tl := range lines {
		// 001, rank, sex+title, name (15-47), rating, federation, FIDE
		// number, birth date, points (81-84), rank (86-89).
		p, rank := pts[tl.entrant], strconv.Itoa(place[tl.entrant])
		if l >= len(t.Entrants) {
			p, rank = tl.points, ""
		}
		s := fmt.Sprintf("001 %4d %1s%3s %-33s %4s %3s %11s %10s %4.1f %4s", l+1, "", "", trfText(tl.name, 33), "", "", "", "", p, rank)
		for _, c := range cells[l] {
			s += "  " + c
		}
		line(s)
	}
	return []byte(b.String()), nil
}

// trfLine is one person's 001 line: the entrant's place they held, from
// round from through round through (for the current holder, through is
// the last round).
type trfLine struct {
	entrant, from, through int
	name                   string
	points                 float64
}

// trfLines are the TRF's player lines: the entrants' (current holders)
// in sign-up order, then each earlier holder who played one of the first
// complete rounds.
func trfLines(t *Tournament, complete int) []trfLine {
	var ls, earlier []trfLine
	for e, en := range t.Entrants {
		held, from := en.Holders()
		for _, h := range held {
			if h.First <= complete && h.First <= h.Through {
				earlier = append(earlier, trfLine{entrant: e, from: h.First, through: h.Through, name: h.Name})
			}
		}
		ls = append(ls, trfLine{entrant: e, from: from, through: complete, name: en.Name})
	}
	return append(ls, earlier...)
}

// trfUnrated is a played game's TRF16 result as not rated: W, D, L for
// 1, =, 0 (a forfeit is not rated anyway and keeps + or -).
func trfUnrated(res string) string {
	switch res {
	case "1":
		return "W"
	case "=":
		return "D"
	case "0":
		return "L"
	}
	return res
}

// trfText is a name for a fixed-width field: control characters become
// spaces, and it is cut to width runes (0: no limit) and padded by the
// caller's format, which counts runes.
func trfText(s string, width int) string {
	r := []rune(strings.Map(func(c rune) rune {
		if unicode.IsControl(c) {
			return ' '
		}
		return c
	}, s))
	if width > 0 && len(r) > width {
		r = r[:width]
	}
	return string(r)
}

// ICS is the calendar of the rounds as an iCalendar feed (RFC 5545): one
// event per round from its opening to its deadline (the record's for a
// round already drawn, the calendar's for one to come; an event without
// a deadline has a start alone). Rounds with no date yet are left out.
// title names round n in the reader's language; url (may be empty) is
// the tournament's page; stamp is the feed's DTSTAMP (the record's
// last change), so the same record gives the same bytes.
func ICS(t *Tournament, stamp time.Time, title func(n int) string, url string) []byte {
	cal := ics.NewCalendarFor("pbem-referee")
	cal.SetMethod(ics.MethodPublish)
	cal.SetXWRCalName(t.ID)
	if t.TZ != "" {
		cal.SetXWRTimezone(t.TZ)
	}
	for n := 1; n <= t.PlannedRounds(); n++ {
		var start, end time.Time
		if n <= len(t.Rounds) {
			start, end = t.Rounds[n-1].Opened, t.Rounds[n-1].Due
		} else {
			start = t.RoundDate(n)
			if !start.IsZero() {
				end = t.RoundDue(n, start)
			}
		}
		if start.IsZero() {
			continue
		}
		ev := cal.AddEvent(fmt.Sprintf("%s-round-%d@pbem-referee", t.ID, n))
		ev.SetDtStampTime(stamp.UTC())
		ev.SetStartAt(start.UTC())
		if !end.IsZero() && end.After(start) {
			ev.SetEndAt(end.UTC())
		}
		ev.SetSummary(title(n))
		if url != "" {
			ev.SetURL(url)
		}
	}
	return []byte(cal.Serialize(ics.WithNewLine("\r\n")))
}
