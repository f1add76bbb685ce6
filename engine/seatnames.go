package engine

// SeatNamer is implemented by a Game whose command texts name seats by the
// names the game knows (Dice Brewing's "PLAY SHIELD ann:G6@S", "PLAY
// BLOCKB ann:MH"). The game knows a seat by its first holder's name
// (Config.Seats) for its whole life; after the referee hands a seat on
// (issue 24) a menu line written so names the departed holder, so the
// referee asks the game to write such seats by number.
type SeatNamer interface {
	// NumberSeats returns cmd, a command text of the game's (an option's
	// command, a canonical move), with every seat s it names for which
	// number(s) holds written in the seat's number form, which the game's
	// parser reads as seat s whatever the seats' names. names are the
	// seats' names in the game (Config.Seats). A cmd that names no such
	// seat is returned as it is.
	NumberSeats(cmd string, names []string, number func(seat int) bool) string
}
