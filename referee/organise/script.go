package organise

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/pbem-referee/referee/mailfmt"
	"github.com/pbem-referee/referee/mailfmt/mailmsg"

	"github.com/pbem-referee/referee/referee/commands"
	"github.com/pbem-referee/referee/referee/seating"
	"github.com/pbem-referee/referee/referee/tournament/bymail"
)

// The families of the table (the core's help lists are per family).
const (
	FamilyGames       = "org-games"
	FamilyTournaments = "org-tournaments"
)

// Row is one organiser's command of the table: its keyword (English,
// canonical; its words in the other languages are the templates'), its
// syntax (a usage error quotes it: none is written by hand), its place in
// the family's help list (0: none of its own), and its handler.
type Row struct {
	Family  string
	Keyword string
	Usage   string
	Row     int
	// Help is the template of its help when that is not its row of the
	// list (RESUME is helped with PAUSE).
	Help string
	// Unlogged: it changes nothing, so is not written to the game's log.
	Unlogged bool
	// Aliased: the desk's commands written in every language (the
	// tournaments' aliases of templates/referee/*/aliases.txt).
	Aliased bool
	// Errors are the desk's error templates it may answer with.
	Errors []string
	// Run runs the line; ok is false when the line is not this command (a
	// NEW without TOURNAMENT is no tournament's), and the next row of the
	// keyword is tried.
	Run func(c *Call) (res string, ok bool, err error)
}

// rows is the table, the tournaments' rows first (a keyword's rows are
// tried in this order); byKeyword indexes it. Built by init: the handlers
// read the table (a variable's initialiser would be a cycle).
var (
	rows      []Row
	byKeyword map[string][]*Row
)

func init() {
	for _, d := range bymail.OrgCommands {
		rows = append(rows, Row{Family: FamilyTournaments, Keyword: d.Keyword, Usage: d.Usage, Row: d.Row,
			Aliased: d.Aliased, Errors: d.Errors, Run: tour})
	}
	rows = append(rows, gameRows...)
	byKeyword = map[string][]*Row{}
	for i := range rows {
		r := &rows[i]
		byKeyword[r.Keyword] = append(byKeyword[r.Keyword], r)
		tableWords[r.Keyword] = true
	}
}

// Rows is the table, for the core's help lists and keyword sets.
func Rows() []Row { return rows }

// Call is one line of an organiser's script, as its handler sees it.
type Call struct {
	h     Host
	org   string
	lang  string
	kw    string
	row   *Row
	f     []string // the words of the line, the keyword first (in English)
	lines []string // the whole script
	i     int      // the line's index; a handler that reads the rest moves it to the end
	ng    *NewGame // the game the NEW above describes, not created yet
	// results are the answer's lines, in lang.
	results []string
	// err is the failure of the line's command (its answer says it).
	err error
	// key names the line for Host.Undone; failed are the lines to undo.
	key    string
	failed map[string]string
	// touched: the line's command failed in the core, which may have
	// changed something first (an error that is not the door's *Error).
	touched bool
	// ngKey and ngFrom are the NEW line of ng and its first answer line;
	// skip: the NEW above is undone, its PLAYER and RULESET lines too.
	ngKey  string
	ngFrom int
	skip   bool
}

// Script runs an organiser's commands (text: the mail's command text, or
// the lines given to `referee org`) and returns one answer line each, in
// the language of the mail (MailLang), and that language. Each command is
// all or none: one that fails after it changed something through the
// desk, or that failed in the core (which may have changed the game or
// created part of it first), rolls the unit of work back, to run again
// without it (Host.Undo): a NEW with its PLAYER and RULESET lines.
func Script(h Host, org, text string) (lines []string, lang string, err error) {
	lang = MailLang(h, h.Desk().Records(), text)
	h.AnswerIn(lang)
	c := &Call{h: h, org: org, lang: lang, lines: strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n"),
		failed: map[string]string{}}
	failed := c.failed
	read, over := 0, 0
	var unread []string
	for ; c.i < len(c.lines); c.i++ {
		line := c.lines[c.i]
		if strings.HasPrefix(strings.TrimSpace(line), "#") {
			// Issue 25: a whole line of comment runs nothing; the
			// answer quotes it with the lines not acted on, as a
			// player's (reading's Mail.Comments).
			unread = append(unread, line)
			continue
		}
		if k := strings.IndexByte(line, '#'); k >= 0 {
			line = line[:k]
		}
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		if byKeyword[keyword(h, f[0])] == nil {
			// Issue 25: no keyword of the table. Chat is not an error;
			// a line that is neither chat nor a keyword (nor one
			// mistyped, which is refused as its own line) is quoted.
			switch al := h.ReadLine(c.lines[c.i]); {
			case al.Kind == mailfmt.AnswerChat && !hidden(c.lines[c.i]):
				continue
			case al.Kind != mailfmt.AnswerAsk && al.Keyword == "":
				unread = append(unread, c.lines[c.i])
				continue
			}
		}
		if read++; read > h.MaxLines() { // issue 23: bounded per mail
			over++
			continue
		}
		c.f = canonical(h, f)
		c.kw = strings.ToUpper(c.f[0])
		block := c.kw == "PLAYER" || c.kw == "RULESET"
		if c.skip && block {
			if c.kw == "RULESET" {
				c.rest()
			}
			continue
		}
		c.skip = false
		if !block {
			c.finish()
		}
		key := fmt.Sprintf("org line %d", c.i)
		if msg, undone := h.Undone(key); undone {
			c.results = append(c.results, msg)
			c.skip = c.kw == "NEW" && !(len(c.f) > 1 && c.f[1] == "TOURNAMENT")
			if c.kw == "ERRATUM" {
				c.rest() // its data file is not commands
			}
			continue
		}
		before, n := h.Writes(), len(c.results)
		c.err, c.touched, c.key = nil, false, key
		if res := c.run(); res != "" {
			c.results = append(c.results, res)
		}
		if h.IsUndo(c.err) {
			return nil, lang, h.Undo(failed, c.err) // a step of the desk's failed midway
		}
		if c.err != nil && (h.Writes() != before || c.touched) {
			failed[key] = strings.Join(c.results[n:], "\n")
		}
	}
	c.finish()
	if over > 0 {
		c.results = append(c.results, c.text("org.error.too_many_lines", "max", h.MaxLines(), "unread", over))
	}
	c.unread(unread)
	if len(failed) > 0 {
		return nil, lang, h.Undo(failed, nil)
	}
	return c.results, lang, nil
}

// unread ends the answer with the lines of the mail that are neither a
// keyword of the table (nor one mistyped) nor chat (issue 25): org.unread
// quotes them by the player's rule (commands.QuoteUnread: each once, as
// written, at most commands.MaxUnread then how many more), and lists the
// commands once: not when the answer lists them already (a mistyped
// keyword's org.error.unknown; TestCommandListOnceWithTypoAndUnread_Issue25).
func (c *Call) unread(lines []string) {
	shown, n := commands.QuoteUnread(lines)
	if n == 0 {
		return
	}
	list := c.commandList()
	if slices.ContainsFunc(c.results, func(r string) bool { return strings.Contains(r, list) }) {
		list = ""
	}
	c.results = append(c.results, c.text("org.unread", "n", n, "lines", shown, "more", n-len(shown), "list", list))
}

// hidden reports a line with characters a quote removes (controls,
// invisible format characters: mailmsg.QuoteLine): a disguised line is
// never chat.
func hidden(line string) bool {
	return mailmsg.QuoteLine(line, len(line)+4) != strings.Join(strings.Fields(line), " ")
}

// run runs the line through the keyword's rows, in order; a keyword that
// is none of the organiser's still names a game (its checks come first).
func (c *Call) run() string {
	for _, r := range byKeyword[c.kw] {
		c.row = r
		if res, ok, err := r.Run(c); ok {
			if err != nil {
				res, c.err = c.errLine(c.kw, err), err
			}
			return res
		}
	}
	c.row = &Row{Keyword: c.kw}
	res, err := c.onGame(func(*Call, Game, []string) (string, error) {
		return "", fail("unknown", "keyword", c.kw, "list", c.commandList())
	})
	if err != nil {
		res, c.err = c.errLine(c.kw, err), err
	}
	return res
}

// finish creates the game the NEW above describes.
func (c *Call) finish() {
	ng := c.ng
	if ng == nil {
		return
	}
	c.ng = nil
	g, err := c.create(*ng)
	if err != nil {
		c.results = append(c.results, c.errLine("NEW "+ng.Game, err))
		if !doorError(err) {
			c.failed[c.ngKey] = strings.Join(c.results[c.ngFrom:], "\n")
		}
		return
	}
	c.results = append(c.results, c.text("org.done.NEW", "game", g.ID, "title", g.Game, "players", g.Players, "commitment", g.Commitment))
}

// create checks a NEW the core would refuse, in the organiser's words,
// then has the core create it.
func (c *Call) create(ng NewGame) (Created, error) {
	k, ok := c.h.Kind(ng.Game)
	if !ok {
		return Created{}, fail("no_kind", "game", ng.Game)
	}
	n := seating.Seats(ng.Players, len(ng.Invite), k.MinPlayers)
	if len(ng.Invite) > n {
		return Created{}, fail("invitees", "invitees", len(ng.Invite), "seats", n)
	}
	if ng.ID != "" {
		if !gameIDRe.MatchString(ng.ID) {
			return Created{}, fail("game_id", "id", ng.ID)
		}
		if _, ok, err := c.h.Game(ng.ID); err != nil || ok {
			return Created{}, cmp.Or[error](err, fail("exists", "game", ng.ID))
		}
	}
	seen := map[string]bool{}
	for _, inv := range ng.Invite {
		addr := strings.ToLower(strings.TrimSpace(inv.Address))
		if seen[addr] {
			return Created{}, fail("in_game", "address", addr, "game", cmp.Or(ng.ID, "NEW"))
		}
		seen[addr] = true
	}
	return c.h.CreateGame(ng)
}

// rest is the rest of the script after this line, which ends the script.
func (c *Call) rest() []byte {
	rest := strings.Join(c.lines[c.i+1:], "\n")
	c.i = len(c.lines)
	return []byte(rest)
}

// usage is the line's usage error, from its row (a keyword of no row
// names a game: "<KW> <game> ...").
func (c *Call) usage() error {
	if c.row.Usage == "" {
		return fail("usage", "syntax", c.kw+" <game> ...")
	}
	return fail("usage", "syntax", c.row.Usage)
}

// ownUsage is err, but a usage error of a parser that rows share
// (ParseInvitee quotes PLAYER's syntax) is the line's own row's.
func (c *Call) ownUsage(err error) error {
	if e, ok := err.(*Error); ok && e.Code == "usage" {
		return c.usage()
	}
	return err
}

// tour runs a tournament command through the desk; ok is false when the
// line names no tournament (it is then a game command). Its answer is a
// result line even when empty.
func tour(c *Call) (string, bool, error) {
	res, ok, err := bymail.Org(c.h.Desk(), c.org, c.f)
	if !ok {
		return "", false, nil
	}
	if err != nil {
		res = c.kw + ": " + err.Error()
	}
	c.results = append(c.results, Local(c.h, c.lang, res))
	c.err = err
	return "", true, nil
}

// commandList lists the organiser's keywords, the games' then the
// tournaments' (NEW TOURNAMENT for the tournaments' NEW), once each in
// table order, each as the organiser writes it in the answer's language
// (localWord, org.word.new_tournament: NUOVO TORNEO in Italian), in lines of at most 72 columns.
func (c *Call) commandList() string {
	var games, tours []string
	seen := map[string]bool{}
	for _, r := range rows {
		switch {
		case r.Family == FamilyGames && !seen[r.Keyword]:
			seen[r.Keyword] = true
			games = append(games, localWord(c.h, c.lang, r.Keyword))
		case r.Family == FamilyTournaments && r.Keyword == "NEW":
			tours = append(tours, c.text("org.word.new_tournament"))
		case r.Family == FamilyTournaments:
			tours = append(tours, localWord(c.h, c.lang, r.Keyword))
		}
	}
	games[len(games)-1] += c.text("org.word.for_tournaments")
	return wrapWords(games, 72, "  ") + "\n" + wrapWords(tours, 72, "  ")
}

// wrapWords writes words in lines of at most width columns, each line
// starting with indent.
func wrapWords(words []string, width int, indent string) string {
	var b strings.Builder
	col := 0
	for i, w := range words {
		n := utf8.RuneCountInString(w)
		switch {
		case i == 0:
			b.WriteString(indent)
			col = len(indent)
		case col+1+n > width:
			b.WriteString("\n" + indent)
			col = len(indent)
		default:
			b.WriteByte(' ')
			col++
		}
		b.WriteString(w)
		col += n
	}
	return b.String()
}
