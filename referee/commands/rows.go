package commands

import (
	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/referee/tournament/bymail"
)

// The families of this door (the core's table names them).
const (
	FamilyInfo   = "info"
	FamilySeat   = "seat"
	FamilyPlayer = "player"
)

// Row is one command of the door's families: the core's table
// (package referee/cmdtable) makes its rows from these.
type Row struct {
	// Keyword is the canonical (English) keyword.
	Keyword string
	// Family is one of the Family constants.
	Family string
	// Usage is its syntax, as a usage error quotes it.
	Usage string
	// Help names the template of the help on this command alone.
	Help string
	// Row is the command's place in its audience's help list (0: left
	// out of it).
	Row int
	// Errors are the error codes ("error.<code>") it may answer with.
	Errors []string
	// Overridable: a game may declare the keyword itself (CLEAR, UNDO).
	Overridable bool
	// Once: it only produces text, answered once per mail.
	Once bool
	// Aliased: the desk's tournament rows.
	Aliased bool
	// Anyone: the command of the plain address (REGISTER; its handler is
	// the core's).
	Anyone bool
	// Seat runs a seat's command; Player a player's (ok is false when the
	// line is not this row's, and the next row of the keyword is tried).
	Seat   func(*SeatCall) error
	Player func(*PlayerCall) (ok bool, err error)
}

// Usage is the usage error of a row: its syntax, generated from the row.
func Usage(r *Row) *engine.RuleError {
	return &engine.RuleError{Code: "usage", Params: map[string]any{"usage": r.Usage}}
}

// SeatRows are the seat's commands: the info family (what a seat asks to
// be told) and the seat family (what a seat changes about itself).
func SeatRows() []Row {
	return []Row{
		{Keyword: "HELP", Family: FamilyInfo, Once: true, Usage: "HELP [command]", Help: "help.HELP", Row: 1, Seat: seatHelp},
		{Keyword: "STATUS", Family: FamilyInfo, Once: true, Usage: "STATUS [FULL]", Help: "help.STATUS", Row: 2, Seat: seatStatus},
		{Keyword: "RULE", Family: FamilyInfo, Once: true, Usage: "RULE <id>", Help: "help.RULE", Row: 3, Seat: seatRule,
			Errors: []string{"usage", "no_rule"}},
		{Keyword: "LOG", Family: FamilyInfo, Once: true, Usage: "LOG [n]", Help: "help.LOG", Row: 4, Seat: seatLog},
		{Keyword: "OBSERVE", Family: FamilyInfo, Once: true, Usage: "OBSERVE <game>", Help: "help.OBSERVE", Row: 12, Seat: seatObserve,
			Errors: []string{"usage", "no_game"}},
		{Keyword: "LIST", Family: FamilyInfo, Once: true, Usage: "LIST", Help: "help.LIST", Seat: seatList},

		{Keyword: "CLEAR", Family: FamilySeat, Usage: "CLEAR", Help: "help.CLEAR", Row: 5, Overridable: true, Seat: seatClear},
		{Keyword: "UNDO", Family: FamilySeat, Usage: "UNDO", Help: "help.UNDO", Row: 6, Overridable: true, Seat: seatUndo,
			Errors: []string{"nothing_to_undo"}},
		{Keyword: "SAY", Family: FamilySeat, Once: true, Usage: "SAY <player|all>: text", Help: "help.SAY", Row: 7, Seat: seatSay,
			Errors: []string{"usage", "no_player", "say_too_long"}},
		{Keyword: "VACATION", Family: FamilySeat, Usage: "VACATION <YYYY-MM-DD> <YYYY-MM-DD>", Help: "help.VACATION", Row: 8,
			Seat: seatVacation, Errors: []string{"usage", "vacation_past", "vacation_budget"}},
		{Keyword: "NOTIFY", Family: FamilySeat, Usage: "NOTIFY every|turn|digest|receipts|fold|none", Help: "help.NOTIFY", Row: 9, Seat: seatNotify,
			Errors: []string{"usage"}},
		{Keyword: "LANG", Family: FamilySeat, Usage: "LANG en|it|fr|nl", Help: "help.LANG", Row: 10, Seat: seatLang,
			Errors: []string{"usage"}},
		{Keyword: "FORMAT", Family: FamilySeat, Usage: "FORMAT text|json", Help: "help.FORMAT", Row: 11, Seat: seatFormat,
			Errors: []string{"usage"}},
		{Keyword: "RESIGN", Family: FamilySeat, Usage: "RESIGN", Help: "help.RESIGN", Row: 13, Seat: seatResign,
			Errors: []string{"not_playing"}},
		{Keyword: "YES", Family: FamilySeat, Usage: "YES", Help: "help.YES", Seat: seatYes,
			Errors: []string{"nothing_to_confirm", "vacation_budget"}},
		{Keyword: "JOIN", Family: FamilySeat, Usage: "JOIN", Help: "help.JOIN", Seat: seatJoin, Errors: []string{"usage"}},
		{Keyword: "DECLINE", Family: FamilySeat, Usage: "DECLINE", Help: "help.DECLINE", Seat: seatDecline},
		{Keyword: "REGISTER", Family: FamilySeat, Usage: "REGISTER [name] [en|it|fr|nl]", Help: "help.REGISTER", Seat: seatRegister},
	}
}

// PlayerRows are the commands of a registered player at their own
// address. The tournaments' rows (the desk's, bymail.PlayerCommands) come
// first: a JOIN naming a tournament is the tournament's, any other JOIN a
// game's. Their help is help.player, which names each of them. The last
// row is the plain address's REGISTER (Anyone; the core runs it).
func PlayerRows() []Row {
	var rows []Row
	for _, d := range bymail.PlayerCommands {
		rows = append(rows, Row{Keyword: d.Keyword, Family: FamilyPlayer, Usage: d.Usage, Row: d.Row, Aliased: d.Aliased,
			Errors: d.Errors, Help: "help.player", Player: playerTour})
	}
	return append(rows, []Row{
		{Keyword: "LIST", Family: FamilyPlayer, Usage: "LIST", Help: "help.player", Player: playerList},
		{Keyword: "JOIN", Family: FamilyPlayer, Usage: "JOIN <game>", Help: "help.player", Player: playerJoin,
			Errors: []string{"usage", "no_game", "not_open", "full", "already_in"}},
		{Keyword: "OBSERVE", Family: FamilyPlayer, Usage: "OBSERVE <game>", Help: "help.player", Player: playerObserve,
			Errors: []string{"usage", "no_game"}},
		{Keyword: "LANG", Family: FamilyPlayer, Usage: "LANG en|it|fr|nl", Help: "help.player", Player: playerLang},
		{Keyword: "HELP", Family: FamilyPlayer, Usage: "HELP", Help: "help.player", Player: playerHelp},
		{Keyword: "REGISTER", Family: FamilyPlayer, Anyone: true, Usage: "REGISTER [name] [en|it|fr|nl]", Help: "help.REGISTER"},
	}...)
}
