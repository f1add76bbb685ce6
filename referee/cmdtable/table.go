package cmdtable

import (
	"sort"
	"strings"

	"github.com/pbem-referee/referee/referee/commands"
	"github.com/pbem-referee/referee/referee/organise"
)

// The families:
//   - referee/commands: what a seat asks to be told (the info family:
//     HELP, STATUS, RULE, LOG, OBSERVE, LIST), what a seat changes about
//     itself (the seat family: CLEAR, UNDO, SAY, VACATION, YES, NOTIFY,
//     LANG, FORMAT, RESIGN, JOIN, DECLINE, REGISTER), a registered
//     player's own address (the player family: LIST, JOIN, OBSERVE, LANG,
//     HELP; the tournaments' JOIN, WITHDRAW, STANDINGS, RATING), and the
//     plain address (REGISTER, whose handler is the core's: Anyone);
//   - referee/organise: an organiser's game commands (NEW, PLAYER,
//     RULESET, INVITE, LIST, STATUS, PAUSE, RESUME, ...) and tournament
//     commands (NEW TOURNAMENT, ENTER, START, STANDINGS, ...).

// Audience is who may use a command.
type Audience uint8

const (
	// Seat: a seat, in a game's thread (the seat's tag).
	Seat Audience = iota + 1
	// Player: a registered player, at their own address (the player's
	// tag), outside any game.
	Player
	// Organiser: an organiser (the organiser's tag, or the command line).
	Organiser
	// Anyone: whoever writes to the referee's plain address, with no tag
	// (REGISTER).
	Anyone
)

func (a Audience) String() string {
	switch a {
	case Seat:
		return "seat"
	case Player:
		return "player"
	case Organiser:
		return "organiser"
	case Anyone:
		return "anyone"
	}
	return "?"
}

// Command is one row of the table.
type Command struct {
	// Keyword is the canonical (English) keyword.
	Keyword string
	// Who may use it.
	Who Audience
	// Usage is its syntax, as a usage error quotes it.
	Usage string
	// Help names the template of the help on this command alone (HELP
	// <command>); "" when the family's list is its only help (organisers).
	Help string
	// Row is the command's place in its audience's help list (1, 2, ...);
	// its row is the template ListRow names. 0: it shares the row of
	// another command (RESUME with PAUSE) or is left out of the list.
	Row int
	// Errors are the error templates ("error.<code>") it may answer with.
	Errors []string
	// Overridable: a game may declare the keyword itself (CLEAR, UNDO), and
	// the game's command wins.
	Overridable bool
	// Unlogged: an organiser command that changes nothing, so is not
	// written to the game's log (STATUS).
	Unlogged bool
	// Aliased: an organiser's command written in every language (the
	// aliases of templates/referee/*/aliases.txt; an organiser has no
	// language of their own, so any language's word counts).
	Aliased bool
	// Once: a command that only produces text (or mail to others), answered
	// once per mail and counted against the cap of such commands.
	Once bool
	// Family is the name of the command's family.
	Family string

	// The handler, one of:
	// Door is the row of referee/commands (a seat's or a player's
	// command), whose handler runs it.
	Door *commands.Row
	// Untagged: the command of an untagged mail, which the core runs
	// itself (it writes a player's record: REGISTER).
	Untagged bool
	// Org runs an organiser's command (referee/organise); ok is false
	// when the line is not this row's, and the next row of that keyword is
	// tried.
	Org func(*organise.Call) (res string, ok bool, err error)
}

// The families' names.
const (
	FamInfo           = commands.FamilyInfo
	FamSeat           = commands.FamilySeat
	FamPlayer         = commands.FamilyPlayer
	FamOrgTournaments = "org-tournaments"
	FamOrgGames       = "org-games"
)

// ListRow is the template of the command's row in its help list ("" when
// it has none).
func (c *Command) ListRow() string {
	if c.Row == 0 {
		return ""
	}
	switch c.Family {
	case FamOrgGames:
		return "org.help." + c.Keyword
	case FamOrgTournaments:
		return "org.help.tournament." + c.Keyword
	}
	return "help.row." + c.Keyword
}

// HelpTemplate is the template of the help on the command: Help, else its
// row of the list.
func (c *Command) HelpTemplate() string {
	if c.Help != "" {
		return c.Help
	}
	return c.ListRow()
}

// Family is one family of the table, its rows in order.
type Family struct {
	Name string
	Rows []Command
}

// families is every command, family by family. A keyword may have several
// rows for one audience (the organiser's NEW TOURNAMENT before NEW); they
// are tried in this order.
var families = []Family{
	{FamInfo, doorRows(commands.SeatRows(), FamInfo)},
	{FamSeat, doorRows(commands.SeatRows(), FamSeat)},
	{FamPlayer, doorRows(commands.PlayerRows(), FamPlayer)},
	{FamOrgTournaments, orgRows(organise.FamilyTournaments)},
	{FamOrgGames, orgRows(organise.FamilyGames)},
}

// Families returns the table, family by family (the rows are the table's
// own: read, never change them).
func Families() []Family { return families }

// All returns every row of the table, family by family.
func All() []*Command {
	var out []*Command
	for f := range families {
		for i := range families[f].Rows {
			out = append(out, &families[f].Rows[i])
		}
	}
	return out
}

// doorRows makes rows of the table from a family of the seat's and
// player's door (referee/commands).
func doorRows(rows []commands.Row, family string) []Command {
	var out []Command
	for i := range rows {
		r := &rows[i]
		if r.Family != family {
			continue
		}
		c := Command{Keyword: r.Keyword, Who: Seat, Usage: r.Usage, Help: r.Help, Row: r.Row, Errors: r.Errors,
			Overridable: r.Overridable, Once: r.Once, Aliased: r.Aliased, Family: family, Door: r}
		switch {
		case r.Anyone:
			c.Who, c.Door, c.Untagged = Anyone, nil, true
		case r.Player != nil:
			c.Who = Player
		}
		out = append(out, c)
	}
	return out
}

// orgRows makes rows of the table from a family of the organiser's table
// (referee/organise: the games' family, and the tournaments' from the
// desk). Their help is their row of org.help (org.help.<KEYWORD>,
// org.help.tournament.<KEYWORD>); the order is the order of the list an
// unknown command is answered with.
func orgRows(family string) []Command {
	var rows []Command
	for _, r := range organise.Rows() {
		if r.Family == family {
			rows = append(rows, Command{Keyword: r.Keyword, Who: Organiser, Usage: r.Usage, Help: r.Help, Row: r.Row,
				Unlogged: r.Unlogged, Aliased: r.Aliased, Errors: r.Errors, Family: family, Org: r.Run})
		}
	}
	return rows
}

// byAudience indexes the table: audience -> keyword -> rows, in order.
var byAudience = func() map[Audience]map[string][]*Command {
	m := map[Audience]map[string][]*Command{}
	for _, c := range All() {
		if m[c.Who] == nil {
			m[c.Who] = map[string][]*Command{}
		}
		m[c.Who][c.Keyword] = append(m[c.Who][c.Keyword], c)
	}
	return m
}()

// Lookup returns the rows of a keyword for an audience, in the order they
// are tried (nil when it is not one of the referee's commands).
func Lookup(who Audience, kw string) []*Command {
	return byAudience[who][strings.ToUpper(kw)]
}

// Keywords returns the keywords of an audience (nil keep: all of them).
func Keywords(who Audience, keep func(*Command) bool) map[string]bool {
	out := map[string]bool{}
	for kw, rows := range byAudience[who] {
		for _, c := range rows {
			if keep == nil || keep(c) {
				out[kw] = true
			}
		}
	}
	return out
}

// The keyword sets the readers of a mail use (read them, never change
// them).
var (
	// SeatKeywords are handled by the referee in every game. A game may
	// declare the overridable ones (CLEAR, UNDO) itself; the others are
	// always the referee's.
	SeatKeywords        = Keywords(Seat, nil)
	OverridableKeywords = Keywords(Seat, func(c *Command) bool { return c.Overridable })
	// PlayerKeywords are the commands of a player's own address (outside
	// a game's thread), the referee's and the tournaments'.
	PlayerKeywords = Keywords(Player, nil)
	// OrgTourKeywords are the organiser's commands that have aliases in
	// every language (templates/referee/*/aliases.txt): the tournaments'.
	OrgTourKeywords = Keywords(Organiser, func(c *Command) bool { return c.Aliased })
	// InfoKeywords are the referee commands that only produce text (or
	// mail to others): each is answered once per mail, and at most
	// Options.MaxInfo of them.
	InfoKeywords = Keywords(Seat, func(c *Command) bool { return c.Once })
)

// Listed returns the commands of a help list (an audience's, or one
// family's when family is not ""), in row order.
func Listed(who Audience, family string) []*Command {
	var out []*Command
	for _, rows := range byAudience[who] {
		for _, c := range rows {
			if c.Row > 0 && (family == "" || c.Family == family) {
				out = append(out, c)
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Row < out[j].Row })
	return out
}
