package bymail

// What the desk writes: entrants' mails, organisers' notes, standings.

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/pbem-referee/referee/referee/tournament"
	"github.com/pbem-referee/referee/templates"
)

// tourOrgMail sends the organiser a short note.
func (d *desk) tourOrgMail(t *tournament.Tournament, text string) {
	if t.Organiser == "" {
		return
	}
	if err := d.h.MailOrganiser(t.Organiser, orgLang(t), text); err != nil {
		d.h.Warn("tournament organiser mail", "tournament", t.ID, "err", err)
	}
}

// tourText renders one of the tournament templates.
func (d *desk) tourText(lang, name string, data map[string]any) string {
	return d.h.Render(lang, name, data)
}

// readerLang is an entrant's language, English when it is none of the
// referee's.
func readerLang(lang string) string {
	if !templates.IsLanguage(lang) {
		return "en"
	}
	return lang
}

// fitLines is text within 80 columns (templates.Width), its lines that
// fit unchanged: a longer line first gives up the padding of its columns
// from the right (a standings row whose marks push it past keeps the
// columns on its left aligned), then what is still too long is folded
// (templates.Fold: a long address or date, a calendar line).
// TestEveryEntrantMailFits.
func fitLines(text string) string {
	if templates.Fits(text) {
		return text
	}
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		for utf8.RuneCountInString(l) > templates.Width {
			k := strings.LastIndex(l, "  ")
			if k < 0 || strings.TrimSpace(l[:k]) == "" {
				break // no padding left but the indentation
			}
			l = l[:k] + l[k+1:]
		}
		lines[i] = l
	}
	return templates.Fold(strings.Join(lines, "\n"))
}

func fmtPoints(ps []float64) string {
	s := make([]string, len(ps))
	for i, p := range ps {
		s[i] = fmtNum(p)
	}
	return strings.Join(s, "/")
}

// fmtNum writes 1, 1.5, 0.25 without trailing zeros.
func fmtNum(x float64) string {
	if x == math.Trunc(x) {
		return strconv.FormatFloat(x, 'f', 0, 64)
	}
	return strconv.FormatFloat(x, 'f', -1, 64)
}

// standingRow is one line of the standings for templates (at 80 columns).
type standingRow struct {
	Place     int
	Name      string
	Points    string
	Tiebreaks string
	Record    string
	Rating    string
	// Adjudicated: adjudicated games count in the rating (marked).
	Adjudicated bool
	Withdrawn   bool
	// Sub: the place changed hands (REPLACE); subs below the table say
	// who played which rounds.
	Sub bool
	// Gap stands for rows left out of an excerpt.
	Gap bool
	// entrant is the row's entrant.
	entrant int
}

// tourStandingsText renders the standings in a language.
func (d *desk) tourStandingsText(t *tournament.Tournament, lang string) string {
	return d.standingsText(t, d.tourStandingRows(t), lang)
}

// standingsText renders rows of t's standings (all of them, or an
// excerpt) in a language, with the notes on the places shown that
// changed hands (substitutes, handedOn).
func (d *desk) standingsText(t *tournament.Tournament, rows []standingRow, lang string) string {
	return fitLines(d.tourText(lang, "standings", standingsData(t, rows, anyAdjudicated(rows))))
}

// standingsData is the data of template "standings" for rows of t's
// standings (adjudicated: the note on marked ratings).
func standingsData(t *tournament.Tournament, rows []standingRow, adjudicated bool) map[string]any {
	return map[string]any{"id": t.ID, "round": len(t.Rounds), "rows": rows,
		"tiebreaks": strings.Join(t.Tiebreaks, " "), "status": t.Status, "adjudicated": adjudicated,
		"subs": substitutes(t, rows), "parts": handedOn(t, rows)}
}

// tourStandingRows are the standings, formatted.
func (d *desk) tourStandingRows(t *tournament.Tournament) []standingRow {
	var rows []standingRow
	for _, s := range t.Standings() {
		rows = append(rows, d.standingRow(t, s))
	}
	return rows
}

// standingRow is standing s formatted, its entrant's rating read (a page
// of one place formats its own row alone).
func (d *desk) standingRow(t *tournament.Tournament, s tournament.Standing) standingRow {
	tb := make([]string, len(s.Tiebreaks))
	for i, x := range s.Tiebreaks {
		tb[i] = fmtNum(x)
	}
	name := s.Name
	if r := []rune(name); len(r) > 18 { // runes: a cut never splits a letter
		name = string(r[:18])
	}
	rating, adj := d.ratingShort(t.Game, t.Entrants[s.Entrant].Address, t.Table)
	return standingRow{Place: s.Place, Name: name, Points: fmtNum(s.Points), Tiebreaks: strings.Join(tb, " "),
		Record: fmt.Sprintf("%d-%d-%d", s.Won, s.Drawn, s.Lost), Rating: rating, Adjudicated: adj,
		Withdrawn: s.Withdrawn, Sub: len(t.Entrants[s.Entrant].Before) > 0, entrant: s.Entrant}
}

// neighbours is how many rows around an entrant's own an excerpt shows on
// each side.
const neighbours = 2

// standings are a round's standings computed once for every entrant's
// mail (issue 24: each mail carried the whole table, so a round's mails
// grew with the square of the entrants): each entrant's excerpt is their
// own line and their neighbours', the rows left out marked; the whole
// table is STANDINGS <id> and the page, which the mail names. A row is
// formatted, and its entrant's rating read, when an excerpt first shows
// it: a batch of a round opening reads the rows its mails show, not the
// whole table (issue 24).
type standings struct {
	t    *tournament.Tournament
	n    int // the rounds they count
	st   []tournament.Standing
	rows []*shownRow // formatted rows, nil until shown
	at   []int       // entrant -> row
	// heads are the parts of an excerpt every mail in a language shares
	// (standingsHead), by language.
	heads map[string]*standingsHead
}

// shownRow is a row of the standings formatted, and its line of template
// "standings.row" in each language an excerpt showed it in (issue 24: a
// row is rendered once a language, not once a mail that shows it).
type shownRow struct {
	row   standingRow
	lines []langLine
}

type langLine struct{ lang, line string }

// standingsHead is what every excerpt of the standings in one language
// says alike: template "standings.head", what template "standings" adds
// after the rows (its notes: as they are, and when a rating shown is
// marked; ok false when its text with no row does not start with the
// head, and excerpts are rendered whole) and the line of the rows left
// out.
type standingsHead struct {
	head, notes, adjudicated, gap string
	ok                            bool
}

func (d *desk) newStandings(t *tournament.Tournament) *standings {
	s := &standings{t: t, n: len(t.Rounds), st: t.Standings(), at: make([]int, len(t.Entrants))}
	s.rows = make([]*shownRow, len(s.st))
	for i, x := range s.st {
		s.at[x.Entrant] = i
	}
	return s
}

// fresh are the same standings with no row formatted yet.
func (s *standings) fresh() *standings {
	return &standings{t: s.t, n: s.n, st: s.st, rows: make([]*shownRow, len(s.st)), at: s.at}
}

// shown is row i of s, formatted (standingRow) when first shown.
func (d *desk) shown(s *standings, i int) *shownRow {
	if s.rows[i] == nil {
		s.rows[i] = &shownRow{row: d.standingRow(s.t, s.st[i])}
	}
	return s.rows[i]
}

// line is row i of s as a line of the standings in lang (template
// "standings.row", within 80 columns as fitLines makes the whole text),
// rendered once a language.
func (d *desk) line(s *standings, i int, lang string) string {
	r := d.shown(s, i)
	for _, l := range r.lines {
		if l.lang == lang {
			return l.line
		}
	}
	l := fitLines(d.tourText(lang, "standings.row", map[string]any{"row": r.row}))
	r.lines = append(r.lines, langLine{lang, l})
	return l
}

// head is what the excerpts of s in lang share (standingsHead), rendered
// once a language.
func (d *desk) head(s *standings, lang string) *standingsHead {
	if h, ok := s.heads[lang]; ok {
		return h
	}
	h := &standingsHead{head: fitLines(d.tourText(lang, "standings.head", standingsData(s.t, nil, false)))}
	plain := fitLines(d.tourText(lang, "standings", standingsData(s.t, nil, false)))
	adj := fitLines(d.tourText(lang, "standings", standingsData(s.t, nil, true)))
	var ok bool
	h.notes, h.ok = strings.CutPrefix(plain, h.head)
	h.adjudicated, ok = strings.CutPrefix(adj, h.head)
	h.ok = h.ok && ok
	h.gap = fitLines(d.tourText(lang, "standings.row", map[string]any{"row": standingRow{Gap: true}}))
	if s.heads == nil {
		s.heads = map[string]*standingsHead{}
	}
	s.heads[lang] = h
	return h
}

// excerpt renders the standings around entrant e in a language: the whole
// table when it has at most 2*neighbours+1 rows. Template "standings" is
// its head, a line a row ("standings.row") and its notes: an excerpt is
// the head, its rows' lines, each rendered once a language for every mail
// that shows it, and its notes (issue 24: the whole
// template rendered once a mail was 50 MB at 10,000 entrants); one that
// shows a place that changed hands (its notes name the holders) is
// rendered whole. Either way the text is the template's for the rows
// shown (TestExcerptsEqualTheWholeTable_Issue24).
func (d *desk) excerpt(s *standings, e int, lang string) string {
	n := len(s.st)
	// A window of 2*neighbours+1 rows around theirs, moved to stay
	// within the table (the first sees places 1 to 5).
	lo := min(max(0, s.at[e]-neighbours), max(0, n-2*neighbours-1))
	hi := min(n, lo+2*neighbours+1)
	adjudicated, whole := false, false
	for i := lo; i < hi; i++ {
		r := &d.shown(s, i).row
		adjudicated = adjudicated || r.Adjudicated
		whole = whole || r.Sub
	}
	if h := d.head(s, lang); h.ok && !whole {
		var at [2*neighbours + 4]string // the head, the rows and a gap each side
		lines := append(at[:0], h.head)
		if lo > 0 {
			lines = append(lines, h.gap)
		}
		for i := lo; i < hi; i++ {
			lines = append(lines, d.line(s, i, lang))
		}
		if hi < n {
			lines = append(lines, h.gap)
		}
		notes := h.notes
		if adjudicated {
			notes = h.adjudicated
		}
		size := len(lines) - 1 + len(notes)
		for _, l := range lines {
			size += len(l)
		}
		var b strings.Builder // one allocation, of the excerpt's size
		b.Grow(size)
		for i, l := range lines {
			if i > 0 {
				b.WriteByte('\n')
			}
			b.WriteString(l)
		}
		b.WriteString(notes)
		return b.String()
	}
	rows := make([]standingRow, 0, hi-lo+2) // the rows and a gap each side
	if lo > 0 {
		rows = append(rows, standingRow{Gap: true})
	}
	for i := lo; i < hi; i++ {
		rows = append(rows, d.shown(s, i).row)
	}
	if hi < n {
		rows = append(rows, standingRow{Gap: true})
	}
	return d.standingsText(s.t, rows, lang)
}

// substitutes say, for the rows shown whose place changed hands, who
// played which rounds (rows name, old, through: the old player's last
// round, from: the new player's first).
func substitutes(t *tournament.Tournament, rows []standingRow) []map[string]any {
	var out []map[string]any
	for _, r := range rows {
		if r.Gap || !r.Sub {
			continue
		}
		e := t.Entrants[r.entrant]
		for tn := range e.Tenures() {
			if tn.K > len(e.Before) {
				break
			}
			out = append(out, map[string]any{"name": e.Holder(tn.K + 1).Name, "old": e.Holder(tn.K).Name,
				"first": tn.First, "through": tn.Through, "from": tn.Through + 1, "played": tn.Through >= tn.First})
		}
	}
	return out
}

// handedOn are, for the rows shown, the games of a place handed on after
// a move (tournament.Stint.Into): each with its round and every player
// who played it, first to last, substitutes marked (issue 24: the mails'
// standings name every holder of such a game, as the pages do).
func handedOn(t *tournament.Tournament, rows []standingRow) []map[string]any {
	var out []map[string]any
	for _, r := range rows {
		if r.Gap || !r.Sub {
			continue
		}
		e := t.Entrants[r.entrant]
		var rounds []int
		for _, b := range e.Before {
			if b.Into > b.Through && !slices.Contains(rounds, b.Into) {
				rounds = append(rounds, b.Into)
			}
		}
		for _, n := range rounds {
			out = append(out, map[string]any{"round": n, "names": playedIn(e, n)})
		}
	}
	return out
}

// heldName is one who played a place's game, in the order they played it
// (template "tour.played"); Sub marks a substitute (every holder of the
// place but its first).
type heldName struct {
	Name string
	Sub  bool
}

// playedIn are who played round n's game for the entrant, first to last
// (tournament.Entrant.PlayedHolders), each marked a substitute by their
// place in the line of holders, never by name (a substitute may bear the
// first holder's name).
func playedIn(e tournament.Entrant, n int) []heldName {
	hs := e.PlayedHolders(n)
	out := make([]heldName, len(hs))
	for i, k := range hs {
		out[i] = heldName{Name: e.Holder(k).Name, Sub: k > 1}
	}
	return out
}

// anyAdjudicated reports whether a rating among rows is marked (the
// standings then explain the mark).
func anyAdjudicated(rows []standingRow) bool {
	for _, r := range rows {
		if r.Adjudicated {
			return true
		}
	}
	return false
}

// tourPageURL is the public page of a tournament ("" if it has none).
func (d *desk) tourPageURL(t *tournament.Tournament) string {
	return d.h.PageBase() + tourPagePath(t)
}

// pageData describes a tournament's pages to the organiser: public,
// listed, page (the address).
func (d *desk) pageData(t *tournament.Tournament, data map[string]any) map[string]any {
	data["public"], data["listed"], data["page"] = t.Public, t.Listed, ""
	if t.Public {
		data["page"] = d.tourPageURL(t)
	}
	return data
}
