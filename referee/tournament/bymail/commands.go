package bymail

// The desk's commands, as rows of the core's command table (package
// referee builds its "org-tournaments" family and the tournament rows of
// its "player" family from OrgCommands and PlayerCommands), and one
// handler a keyword (orgHandlers, playerHandlers). A usage error is
// always the row's syntax (orgCmd.usage): never written by hand.

import (
	"errors"
	"strings"

	"github.com/pbem-referee/referee/referee/tournament"
)

// Command is one of the desk's commands: its keyword (English; its words
// in the other languages are the aliases of
// templates/referee/<lang>/aliases.txt), its syntax as a usage error
// quotes it, its place in the organiser's help list (its row is the
// template org.help.tournament.<KEYWORD>), whether the keyword is written
// in every language (Aliased), the error templates a player's command
// may answer with, and whether an organiser's command may run while the
// tournament's round is still opening (Opening).
type Command struct {
	Keyword string
	Usage   string
	Row     int
	Aliased bool
	Errors  []string
	// Opening: the command changes neither the entrants nor the open
	// round's draw, so it runs while that round is still opening. Every
	// organiser's row without it is refused then (orgCmd.tour checks
	// notOpening once the tournament is loaded): a new command is refused
	// by default, and cannot forget the check.
	Opening bool
}

// OrgCommands are the organiser's tournament commands, in the order of
// the list an unknown command is answered with. A row whose line names no
// tournament (EXTEND, REPLACE or PUBLISH of a game, a NEW without
// TOURNAMENT, a HELP without the word) is the game command of the same
// keyword.
var OrgCommands = []Command{
	{Keyword: "NEW", Row: 1, Opening: true, Usage: "NEW TOURNAMENT <id> game=<game> [format=swiss|roundrobin|knockout|tables] [rounds=N] [table=K] [cap=N] [deadline=7d] [points=1,0.5,0] [tiebreaks=buchholz,sb,score,h2h] [close=YYYY-MM-DD] [start=YYYY-MM-DD every=7d | dates=YYYY-MM-DD,...] [open=schedule|complete] [public|listed] [lang=en|it|fr|nl]"},
	{Keyword: "ENTER", Row: 2, Aliased: true, Usage: "ENTER <tournament> <address> <name> [lang] [Area/City]"},
	{Keyword: "START", Row: 3, Aliased: true, Opening: true, Usage: "START <tournament>"},
	{Keyword: "STANDINGS", Row: 4, Aliased: true, Opening: true, Usage: "STANDINGS <tournament>"},
	{Keyword: "WITHDRAW", Row: 5, Aliased: true, Usage: "WITHDRAW <tournament> <address>"},
	{Keyword: "LATE", Row: 6, Aliased: true, Opening: true, Usage: "LATE <tournament>"},
	{Keyword: "EXTEND", Row: 7, Opening: true, Usage: "EXTEND <tournament> <hours>"},
	{Keyword: "REPLACE", Row: 8, Usage: "REPLACE <tournament> <old address> <new address> <name> [lang]"},
	{Keyword: "PUBLISH", Row: 11, Aliased: true, Opening: true, Usage: "PUBLISH <tournament> [listed|off]"},
	{Keyword: "FORFEIT", Row: 10, Aliased: true, Opening: true, Usage: "FORFEIT <game> <player>"},
	{Keyword: "ADJUDICATE", Row: 9, Aliased: true, Opening: true, Usage: "ADJUDICATE <game>"},
	{Keyword: "SCHEDULE", Row: 12, Aliased: true, Opening: true, Usage: "SCHEDULE <tournament> [start=<date>] [every=7d] [dates=<date>,<date>...] [open=schedule|complete] [warn=24h|off] [tz=<Area/City>]"},
	// HELP TOURNAMENT [lang] (the word in any language, tourHelpWords);
	// any other HELP is the organiser's general help.
	{Keyword: "HELP", Row: 13, Opening: true, Usage: "HELP TOURNAMENT [en|it|fr|nl]"},
	// The director's corrections (corrections.go), each told by mail to
	// the players it concerns; a late entry is ENTER after the start.
	{Keyword: "RESULT", Row: 14, Opening: true, Usage: "RESULT <game> <place of each seat: 1,2 | 2,1 | 1,1>"},
	{Keyword: "DOUBLEFORFEIT", Row: 15, Opening: true, Usage: "DOUBLEFORFEIT <game>"},
	{Keyword: "SWAP", Row: 16, Usage: "SWAP <tournament> <player> <player>"},
	{Keyword: "BYE", Row: 17, Usage: "BYE <tournament> <player> [round]"},
	// REPAIR draws the open round again before its games start (repair.go).
	{Keyword: "REPAIR", Row: 18, Aliased: true, Usage: "REPAIR <tournament> [round]"},
}

// PlayerCommands are a registered player's tournament commands at their
// own address (their help is the player's help, help.player). A JOIN that
// names no tournament is the JOIN of a game.
var PlayerCommands = []Command{
	{Keyword: "JOIN", Usage: "JOIN <tournament>", Errors: []string{"no_tournament"}},
	{Keyword: "WITHDRAW", Usage: "WITHDRAW <tournament>", Errors: []string{"no_tournament", "not_entered"}},
	{Keyword: "STANDINGS", Usage: "STANDINGS <tournament>", Errors: []string{"no_tournament"}},
	{Keyword: "RATING", Usage: "RATING [game]"},
}

// errNotMine: the line is not the desk's (it is the core's command of the
// same keyword).
var errNotMine = errors.New("not a tournament command")

// orgCmd is one line of an organiser's mail, as a handler sees it.
type orgCmd struct {
	d   *desk
	org string
	cmd *Command
	f   []string // the words of the line, the keyword first
	// lang is the language its failure is worded in: the answer's
	// (Host.AnswerLang), else the organiser's of the tournament the line
	// names (lang= of NEW TOURNAMENT), else English.
	lang string
}

// setLang words the line's failure in t's organiser's language, unless
// the answer has a language.
func (c *orgCmd) setLang(t *tournament.Tournament) {
	if c.d.h.AnswerLang() == "" {
		c.lang = orgLang(t)
	}
}

// arg is the i-th word of the line in lower case ("" when absent).
func (c *orgCmd) arg(i int) string {
	if i < len(c.f) {
		return strings.ToLower(c.f[i])
	}
	return ""
}

// usage is the usage error of the command: its row's syntax.
func (c *orgCmd) usage() error { return &usageError{"usage: " + c.cmd.Usage} }

// tour loads the tournament the line names (its first argument) and checks
// that it is the organiser's, and that the command may run now: a row
// without Opening is refused while the tournament's round is still
// opening (notOpening). A line naming no tournament is answered by orElse
// (nil: "no tournament", or the usage when it names nothing).
func (c *orgCmd) tour(orElse func() error) (*tournament.Tournament, error) {
	id := c.arg(1)
	if id == "" && orElse == nil {
		return nil, c.usage()
	}
	if !c.d.rec.HasTournament(id) {
		if orElse != nil {
			return nil, orElse()
		}
		return nil, fail("no_tournament", "id", id)
	}
	t, err := c.d.load(id)
	if err != nil {
		return nil, err
	}
	if t.Organiser != c.org {
		return nil, fail("not_yours", "id", t.ID)
	}
	c.setLang(t)
	if !c.cmd.Opening {
		if err := notOpening(t); err != nil {
			return nil, err
		}
	}
	return t, nil
}

// notMine: a line naming no tournament is the game command.
func notMine() error { return errNotMine }

// saved stores the tournament a command changed and answers res.
func (c *orgCmd) saved(t *tournament.Tournament, res string) (string, error) {
	return res, c.d.saveTour(t)
}

// orgHandlers run the organiser's commands, one a keyword (org.go,
// rounds.go).
var orgHandlers = map[string]func(*orgCmd) (string, error){
	"NEW": orgNewTournament, "ENTER": orgEnter, "START": orgStart, "STANDINGS": orgStandings,
	"WITHDRAW": orgWithdraw, "LATE": orgLate, "EXTEND": orgExtend, "REPLACE": orgReplace,
	"PUBLISH": orgPublish, "FORFEIT": orgForfeit, "ADJUDICATE": orgAdjudicate, "SCHEDULE": orgSchedule,
	"HELP": orgHelp, "RESULT": orgResult, "DOUBLEFORFEIT": orgDoubleForfeit, "SWAP": orgSwap, "BYE": orgBye,
	"REPAIR": orgRepair,
}

// Org runs an organiser's tournament command (the words of one line, the
// keyword first, in English). ok is false when the line is not one (it is
// then a game command of the same keyword).
func Org(h Host, org string, f []string) (res string, ok bool, err error) {
	kw := strings.ToUpper(f[0])
	run := orgHandlers[kw]
	if run == nil {
		return "", false, nil
	}
	c := &orgCmd{d: newDesk(h), org: org, cmd: command(OrgCommands, kw), f: f, lang: h.AnswerLang()}
	if c.lang == "" {
		c.lang = "en"
	}
	res, err = run(c)
	if errors.Is(err, errNotMine) {
		return "", false, nil
	}
	return res, true, c.d.word(c.lang, err)
}

// playerCmd is one line of a player's mail to their own address.
type playerCmd struct {
	d   *desk
	p   *Player
	cmd *Command
	id  string   // the first argument, lower case
	f   []string // the line's words, the keyword first
}

// playerHandlers run the players' commands, one a keyword (player.go,
// ratings.go).
var playerHandlers = map[string]func(*playerCmd) (string, error){
	"JOIN": playerJoin, "WITHDRAW": playerWithdraw, "STANDINGS": playerStandings, "RATING": playerRating,
}

// PlayerCommand runs a registered player's tournament command at their
// own address; ok is false when the line is not one (a JOIN of a game).
// An answer "" means the tournament's own mail answers.
func PlayerCommand(h Host, p Player, kw string, f []string) (answer string, ok bool, err error) {
	run := playerHandlers[kw]
	if run == nil {
		return "", false, nil
	}
	// A command that failed is undone (all or none) and answered, in
	// the unit of work run again without it, with its failure in words.
	key := "player " + strings.Join(f, " ")
	if msg, undone := h.Undone(key); undone {
		return msg, true, nil
	}
	c := &playerCmd{d: newDesk(h), p: &p, cmd: command(PlayerCommands, kw), f: f}
	if len(f) > 1 {
		c.id = strings.ToLower(f[1])
	}
	answer, err = run(c)
	if errors.Is(err, errNotMine) {
		return "", false, nil
	}
	if err != nil {
		return "", true, c.d.playerFailed(key, p.Lang, err)
	}
	return fitLines(answer), true, nil
}

// command is the row of a keyword.
func command(rows []Command, kw string) *Command {
	for i := range rows {
		if rows[i].Keyword == kw {
			return &rows[i]
		}
	}
	return nil
}
