package tell

import (
	"slices"
	"strings"

	"github.com/pbem-referee/referee/engine"
)

// Who held a seat (issue 24: after a REPLACE every mail and page names
// who played which game, substitutes marked).

// Holder is a player who held a seat before a REPLACE handed it on: Name
// (the person's) played it through move Through (the game's move number,
// the mails' "move N", when it changed hands). A player replaced before
// any move was made played nothing and is not kept.
type Holder struct {
	Name    string `json:"name"`
	Address string `json:"address,omitempty"`
	Through int    `json:"through"`
}

// Stint is one holder's part of a seat as mails and pages name it: Name
// played moves From to Through (Through 0: from From on, still holding
// it); Sub marks a substitute (every holder but the seat's first).
type Stint struct {
	Name          string
	From, Through int
	Sub           bool
}

// Stints are every holder of a seat, first to last: the earlier ones
// (before, in order) and the one holding it now (current, from the move
// after the last hand-over). A seat that never changed hands has none.
func Stints(before []Holder, current string) []Stint {
	if len(before) == 0 {
		return nil
	}
	out := make([]Stint, 0, len(before)+1)
	from := 1
	for i, h := range before {
		out = append(out, Stint{Name: h.Name, From: from, Through: h.Through, Sub: i > 0})
		from = h.Through + 1
	}
	return append(out, Stint{Name: current, From: from, Sub: true})
}

// Holders renders who held a seat (template "seat.holders" of the common
// words, in rd's language): "" for a seat that never changed hands.
func (r *Renderer) Holders(rd Reader, st []Stint) (string, error) {
	if len(st) == 0 {
		return "", nil
	}
	c := r.Ctx(rd, st)
	return r.T.Render("referee", c.Lang, "seat.holders", c)
}

// stints are who held seat s of the game, as Stints (none when it never
// changed hands).
func (s Seat) stints() []Stint { return Stints(s.Before, s.greeting()) }

// SeatsHeld renders, by seat, who held each seat of seats that changed
// hands ("" for one that never did), for rd.
func (r *Renderer) SeatsHeld(rd Reader, seats []Seat) ([]string, error) {
	out := make([]string, len(seats))
	for i, s := range seats {
		h, err := r.Holders(rd, s.stints())
		if err != nil {
			return nil, err
		}
		out[i] = h
	}
	return out, nil
}

// Holding are the names of the players holding the seats now, by seat
// (Before, the earlier holders by seat: nil when no seat changed hands):
// a Reader's Seats and Before.
func Holding(seats []Seat) (names []string, before [][]Holder) {
	names = make([]string, len(seats))
	for i, s := range seats {
		names[i] = s.greeting()
		if len(s.Before) > 0 {
			if before == nil {
				before = make([][]Holder, len(seats))
			}
			before[i] = s.Before
		}
	}
	return names, before
}

// GameNames are the seats' names in the game by seat (Seat.Name: a
// Reader's Names).
func GameNames(seats []Seat) []string {
	names := make([]string, len(seats))
	for i, s := range seats {
		names[i] = s.Name
	}
	return names
}

// at is rd as it names the seats at move: each seat by the player who
// held it then (an event line of move 3 names Bob, who played it, though
// Dan holds the seat now). rd itself when no seat changed hands.
func (rd Reader) at(move int) Reader {
	if rd.Before == nil {
		return rd
	}
	names := slices.Clone(rd.Seats)
	for s, held := range rd.Before {
		for _, h := range held {
			if s < len(names) && move <= h.Through {
				names[s] = h.Name
				break
			}
		}
	}
	rd.Seats = names
	return rd
}

// Command is cmd, a command text of rd's game (an option's, a move as
// the game reads it), as the reader copies it (issue 24): a seat the
// command names (engine.SeatNamer: Dice Brewing's "PLAY SHIELD
// ann:G6@S") keeps the game's name only when that is the name of the
// seat's holder now and no other seat's holder is the same in any case; any other seat is written by number ("P3:G6@S"), which the
// game reads back as that seat. Without a hand-over and with names apart
// the command is the game's (the engine writes a name only when it is
// unique). rd without Names: cmd.
func (rd Reader) Command(cmd string) string {
	if rd.Names == nil || !strings.Contains(cmd, ":") {
		return cmd
	}
	g, err := engine.Lookup(rd.Game)
	if err != nil {
		return cmd
	}
	sn, ok := g.(engine.SeatNamer)
	if !ok {
		return cmd
	}
	return sn.NumberSeats(cmd, rd.Names, rd.numbered)
}

// numbered reports whether a command names seat s by number for rd: its
// holder now is not the one the game knows by name, or shares that name,
// in any case, with another seat's holder now. (Two game names the same
// in another case the game writes by number itself: Dice Brewing's
// refName.)
func (rd Reader) numbered(s int) bool {
	if s < 0 || s >= len(rd.Names) || s >= len(rd.Seats) || rd.Seats[s] != rd.Names[s] {
		return true
	}
	for t, h := range rd.Seats {
		if t != s && strings.EqualFold(h, rd.Seats[s]) {
			return true
		}
	}
	return false
}
