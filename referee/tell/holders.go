package tell

import "slices"

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
