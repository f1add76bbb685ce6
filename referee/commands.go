package referee

import (
	"sort"
	"strings"

	"github.com/pbem-referee/referee/referee/commands"
	"github.com/pbem-referee/referee/referee/organise"
)

// The referee's own commands, as one table: a command is a keyword (in
// English; its words in the other languages are the aliases of
// templates/{common,referee}/<lang>/aliases.txt), who may use it, its
// handler, the templates of its help and the errors it may answer with.
// Adding a command touches one family (a sub-package's rows) and its
// templates; the dispatchers (seatMail.command, playerCall.run,
// organise.Script), the help lists and the keyword sets are all read from
// here.
//
// The families:
//   - referee/commands (rows made here by doorRows; the core is its host in
//     commands_seat.go and commands_player.go): what a seat asks to be
//     told (the info family: HELP, STATUS, RULE, LOG, OBSERVE, LIST), what
//     a seat changes about itself (the seat family: CLEAR, UNDO, SAY,
//     VACATION, YES, NOTIFY, LANG, FORMAT, RESIGN, JOIN, DECLINE,
//     REGISTER), a registered player's own address (the player family:
//     LIST, JOIN, OBSERVE, LANG, HELP; the tournaments' JOIN, WITHDRAW,
//     STANDINGS, RATING), and the plain address (REGISTER, whose handler
//     is the core's anyoneRegister);
//   - referee/organise (rows made here by commands_org.go): an
//     organiser's game commands (NEW, PLAYER, RULESET, INVITE, LIST,
//     STATUS, PAUSE, RESUME, ...) and tournament commands (NEW
//     TOURNAMENT, ENTER, START, STANDINGS, ...).

// audience is who may use a command.
type audience uint8

const (
	// bySeat: a seat, in a game's thread (the seat's tag).
	bySeat audience = iota + 1
	// byPlayer: a registered player, at their own address (the player's
	// tag), outside any game.
	byPlayer
	// byOrganiser: an organiser (the organiser's tag, or the command line).
	byOrganiser
	// byAnyone: whoever writes to the referee's plain address, with no tag
	// (REGISTER).
	byAnyone
)

func (a audience) String() string {
	switch a {
	case bySeat:
		return "seat"
	case byPlayer:
		return "player"
	case byOrganiser:
		return "organiser"
	case byAnyone:
		return "anyone"
	}
	return "?"
}

// command is one row of the table.
type command struct {
	// Keyword is the canonical (English) keyword.
	Keyword string
	// Who may use it.
	Who audience
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
	// once per mail and counted against the cap of such commands (abuse.go).
	Once bool
	// family is the name of the command's family (set by init).
	family string

	// The handler, one of:
	// door is the row of referee/commands (a seat's or a player's
	// command), whose handler runs it.
	door *commands.Row
	// anyone runs the command of an untagged mail (f: the words of its
	// first line, the keyword first).
	anyone func(w *work, req *Request, out *Outcome, f []string) error
	// org runs an organiser's command (referee/organise); ok is false
	// when the line is not this row's, and the next row of that keyword is
	// tried.
	org func(*organise.Call) (res string, ok bool, err error)
}

// The families' names.
const (
	famInfo           = commands.FamilyInfo
	famSeat           = commands.FamilySeat
	famPlayer         = commands.FamilyPlayer
	famOrgTournaments = "org-tournaments"
	famOrgGames       = "org-games"
)

// ListRow is the template of the command's row in its help list ("" when
// it has none).
func (c *command) ListRow() string {
	if c.Row == 0 {
		return ""
	}
	switch c.family {
	case famOrgGames:
		return "org.help." + c.Keyword
	case famOrgTournaments:
		return "org.help.tournament." + c.Keyword
	}
	return "help.row." + c.Keyword
}

// HelpTemplate is the template of the help on the command: Help, else its
// row of the list.
func (c *command) HelpTemplate() string {
	if c.Help != "" {
		return c.Help
	}
	return c.ListRow()
}

// commandTable lists every command, family by family. A keyword may have
// several rows for one audience (the organiser's NEW TOURNAMENT before
// NEW); they are tried in this order.
func commandTable() []struct {
	name string
	rows []command
} {
	return []struct {
		name string
		rows []command
	}{{famInfo, infoFamily}, {famSeat, seatFamily}, {famPlayer, playerFamily},
		{famOrgTournaments, orgTourFamily}, {famOrgGames, orgGameFamily}}
}

// The seat's door's families (referee/commands), made once.
var (
	infoFamily   = doorRows(commands.SeatRows(), famInfo)
	seatFamily   = doorRows(commands.SeatRows(), famSeat)
	playerFamily = doorRows(commands.PlayerRows(), famPlayer)
)

// doorRows makes rows of the command table from a family of the seat's
// and player's door (referee/commands).
func doorRows(rows []commands.Row, family string) []command {
	var out []command
	for i := range rows {
		r := &rows[i]
		if r.Family != family {
			continue
		}
		c := command{Keyword: r.Keyword, Who: bySeat, Usage: r.Usage, Help: r.Help, Row: r.Row, Errors: r.Errors,
			Overridable: r.Overridable, Once: r.Once, Aliased: r.Aliased, door: r}
		switch {
		case r.Anyone:
			c.Who, c.door, c.anyone = byAnyone, nil, anyoneRegister
		case r.Player != nil:
			c.Who = byPlayer
		}
		out = append(out, c)
	}
	return out
}

// byAudience indexes the table: audience -> keyword -> rows, in order.
// It and the keyword sets below are built by init (the handlers read the
// table, so a variable's initialiser would be a cycle).
var byAudience map[audience]map[string][]*command

func init() {
	byAudience = map[audience]map[string][]*command{}
	for _, fam := range commandTable() {
		for i := range fam.rows {
			c := &fam.rows[i]
			c.family = fam.name
			if byAudience[c.Who] == nil {
				byAudience[c.Who] = map[string][]*command{}
			}
			byAudience[c.Who][c.Keyword] = append(byAudience[c.Who][c.Keyword], c)
		}
	}
	refereeCommands = keywordSet(bySeat, nil)
	overridable = keywordSet(bySeat, func(c *command) bool { return c.Overridable })
	playerCommands = keywordSet(byPlayer, nil)
	orgTourKeywords = keywordSet(byOrganiser, func(c *command) bool { return c.Aliased })
	infoCommands = keywordSet(bySeat, func(c *command) bool { return c.Once })
}

// lookupCommands returns the rows of a keyword for an audience (nil when it
// is not one of the referee's commands).
func lookupCommands(who audience, kw string) []*command {
	return byAudience[who][strings.ToUpper(kw)]
}

// keywordSet returns the keywords of an audience as a set.
func keywordSet(who audience, keep func(*command) bool) map[string]bool {
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

// listed returns the commands of a help list (an audience's, or one
// family's when family is not ""), in row order.
func listed(who audience, family string) []*command {
	var out []*command
	for _, rows := range byAudience[who] {
		for _, c := range rows {
			if c.Row > 0 && (family == "" || c.family == family) {
				out = append(out, c)
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Row < out[j].Row })
	return out
}

var (
	// refereeCommands are handled by the referee in every game. A game
	// may declare the overridable ones (CLEAR, UNDO) itself; the others
	// are always the referee's.
	refereeCommands map[string]bool
	overridable     map[string]bool
	// playerCommands are the commands of a player's own address (outside
	// a game's thread), the referee's and the tournaments'.
	playerCommands map[string]bool
	// orgTourKeywords are the organiser's commands that have aliases in
	// every language (templates/referee/*/aliases.txt): the tournaments'.
	orgTourKeywords map[string]bool
	// infoCommands are the referee commands that only produce text (or
	// mail to others): each is answered once per mail, and at most MaxInfo
	// of them.
	infoCommands map[string]bool
)

// helpRows renders the rows of a help list for a reader: the commands the
// table lists for an audience (and family, when not ""), in order.
func (rn *Renderer) helpRows(rd Reader, who audience, family string, data map[string]any) ([]string, error) {
	var rows []string
	for _, c := range listed(who, family) {
		t, err := rn.T.Render("referee", rd.Lang, c.ListRow(), rn.ctx(rd, data))
		if err != nil {
			return nil, err
		}
		rows = append(rows, t)
	}
	return rows, nil
}
