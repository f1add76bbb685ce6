package heavenale

import (
	"slices"
	"strconv"
	"strings"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/heavenale/catalog"
	"github.com/pbem-referee/referee/engine/heavenale/notation"
)

// Move is a parsed Heaven & Ale command (notation.Move: the game's
// notation is its own package).
type Move = notation.Move

// Parse implements engine.State.
func (s *State) Parse(seat int, line string) (engine.Move, error) {
	f := engine.Fields(line)
	if len(f) == 0 {
		return nil, notation.Syntax(line, "COMMAND")
	}
	m := notation.Move{Verb: notation.Keyword(f[0]), Home: -1, Colour: -1, Spot: -1}
	args := f[1:]
	colour := func(w string) (int, bool) {
		c, ok := notation.ColourWords[w]
		return c, ok
	}
	home := func(args []string, usage string) error {
		if len(args) == 0 {
			return nil
		}
		h := slices.Index(catalog.HomeNames, args[0])
		if h < 0 {
			return notation.Syntax(line, usage)
		}
		m.Home = h
		if h == catalog.HomeRes {
			if len(args) != 2 {
				return engine.Reject("HA-3.9", "res_needs_colour", "line", line)
			}
			c, ok := colour(args[1])
			if !ok {
				return engine.Reject("", "bad_colour", "token", args[1])
			}
			m.Colour = c
		} else if len(args) != 1 {
			return notation.Syntax(line, usage)
		}
		return nil
	}
	cell := func(w string) (int, bool) {
		c, ok := s.r.CellIdx[w]
		return c, ok
	}
	switch m.Verb {
	case "GO":
		if len(args) == 0 {
			return nil, notation.Syntax(line, "GO <1-27> | GO HOME [<space> [<colour>]]")
		}
		if args[0] == "HOME" || args[0] == "H" || args[0] == "28" || notation.Keyword(args[0]) == "HOME" {
			m.N = catalog.HomePos
			if err := home(args[1:], "GO HOME [FIRST|BREW|RES <colour>|CASH]"); err != nil {
				return nil, err
			}
			break
		}
		n, err := strconv.Atoi(args[0])
		if err != nil || len(args) != 1 {
			return nil, notation.Syntax(line, "GO <1-27> | GO HOME")
		}
		if n < 1 || n >= catalog.HomePos {
			return nil, engine.Reject("HA-5.1.1", "no_space", "space", n)
		}
		m.N = n
	case "HOME":
		if len(args) == 0 {
			return nil, notation.Syntax(line, "HOME FIRST|BREW|RES <colour>|CASH")
		}
		if err := home(args, "HOME FIRST|BREW|RES <colour>|CASH"); err != nil {
			return nil, err
		}
	case "BUY":
		if len(args) == 0 || len(args)%2 != 0 {
			return nil, notation.Syntax(line, "BUY <tile> <spot> [<tile> <spot> ...]")
		}
		for i := 0; i < len(args); i += 2 {
			t := args[i]
			if !catalog.ValidTile(t) {
				return nil, engine.Reject("", "bad_tile", "token", t)
			}
			c, ok := cell(args[i+1])
			if !ok || s.r.Cells[c].Side == catalog.SideShed {
				return nil, engine.Reject("HA-5.2.3", "bad_spot", "token", args[i+1])
			}
			m.Buys = append(m.Buys, notation.Buy{Tile: t, Cell: c, Id: s.r.Cells[c].ID})
		}
	case "DONE", "UNDO":
		if m.Verb == "DONE" && len(args) == 1 && args[0] == "AUTO" {
			m.Key = "AUTO"
			break
		}
		if len(args) != 0 {
			return nil, notation.Syntax(line, m.Verb)
		}
	case "SHED":
		if len(args) == 0 || len(args) > 6 {
			return nil, notation.Syntax(line, "SHED <spot> ...")
		}
		for _, w := range args {
			c, ok := cell(w)
			if !ok || s.r.Cells[c].Side == catalog.SideShed {
				return nil, engine.Reject("HA-5.5.4", "bad_spot", "token", w)
			}
			for _, x := range m.Cells {
				if x == c {
					return nil, engine.Reject("HA-5.5.4", "spot_twice", "token", w)
				}
			}
			m.Cells = append(m.Cells, c)
		}
		sortInts(m.Cells)
		for _, c := range m.Cells {
			m.Ids = append(m.Ids, s.r.Cells[c].ID)
		}
	case "SCORE":
		if len(args) == 0 {
			return nil, notation.Syntax(line, "SCORE X <1-5> | SCORE <colour> | SCORE M<1-4>")
		}
		w := args[0]
		if c, ok := colour(w); ok {
			w = catalog.ColourNames[c]
		}
		sp := slices.Index(catalog.SpotNames, w)
		if sp < 0 {
			return nil, engine.Reject("HA-5.6.1", "bad_scoring_spot", "token", args[0])
		}
		m.Spot = sp
		if sp == catalog.SpotX {
			if len(args) != 2 {
				return nil, engine.Reject("HA-5.6.1", "x_needs_number", "line", line)
			}
			n, err := strconv.Atoi(args[1])
			if err != nil || n < 1 || n > 5 {
				return nil, engine.Reject("HA-5.6.1", "x_needs_number", "line", line)
			}
			m.N = n
		} else if len(args) != 1 {
			return nil, notation.Syntax(line, "SCORE <spot>")
		}
	case "PRIV":
		if len(args) == 0 {
			return nil, notation.Syntax(line, "PRIV CASH|BREW|COLOR <colour>|LOW <colour>|BARREL|PASS")
		}
		c := notation.CardWord(args[0])
		if c == "" && args[0] != "PASS" {
			return nil, engine.Reject("HA-5.9.3", "bad_card", "token", args[0])
		}
		if c == "" {
			c = "PASS"
		}
		m.Card = c
		if c == "COLOR" || c == "LOW" {
			if len(args) != 2 {
				return nil, engine.Reject("HA-5.9.3", "card_needs_colour", "card", c)
			}
			col, ok := colour(args[1])
			if !ok {
				return nil, engine.Reject("", "bad_colour", "token", args[1])
			}
			m.Colour = col
		} else if len(args) != 1 {
			return nil, notation.Syntax(line, "PRIV <card>")
		}
	case "SELL":
		if len(args) != 1 || notation.CardWord(args[0]) == "" {
			return nil, notation.Syntax(line, "SELL CASH|BREW|COLOR|LOW|BARREL")
		}
		m.Card = notation.CardWord(args[0])
	case "PREF":
		if len(args) < 2 {
			return nil, notation.Syntax(line, "PREF HOME <space> ... | PREF PRIV ASK|PASS|<cards>")
		}
		m.Key = args[0]
		switch m.Key {
		case "HOME":
			for i := 1; i < len(args); i++ {
				h := slices.Index(catalog.HomeNames, args[i])
				if h < 0 {
					return nil, notation.Syntax(line, "PREF HOME BREW CASH RES <colour> FIRST")
				}
				m.Words = append(m.Words, catalog.HomeNames[h])
				if h == catalog.HomeRes {
					if i+1 >= len(args) {
						return nil, engine.Reject("HA-3.9", "res_needs_colour", "line", line)
					}
					c, ok := colour(args[i+1])
					if !ok {
						return nil, engine.Reject("", "bad_colour", "token", args[i+1])
					}
					m.Words = append(m.Words, catalog.ColourNames[c])
					i++
				}
			}
		case "PRIV":
			if len(args) == 2 && (args[1] == "ASK" || args[1] == "PASS") {
				m.Words = []string{args[1]}
				break
			}
			for _, w := range args[1:] {
				c := notation.CardWord(w)
				if c != "CASH" && c != "BREW" && c != "BARREL" {
					return nil, engine.Reject("HA-5.9.3", "bad_pref_card", "token", w)
				}
				m.Words = append(m.Words, c)
			}
		case "GARDEN":
			if len(args) != 2 || (args[1] != "COMPACT" && args[1] != "WIDE") {
				return nil, notation.Syntax(line, "PREF GARDEN COMPACT|WIDE")
			}
			m.Words = []string{args[1]}
		default:
			return nil, notation.Syntax(line, "PREF HOME ... | PREF PRIV ... | PREF GARDEN COMPACT|WIDE")
		}
	case "AUTO":
		if len(args) != 2 || args[0] != "ENDSELL" || (args[1] != "ON" && args[1] != "OFF") {
			return nil, notation.Syntax(line, "AUTO ENDSELL ON|OFF")
		}
		m.Key, m.On = "ENDSELL", args[1] == "ON"
	case "NEXT":
		// §10.2 "NEXT CANCEL": the queue belongs to the referee (CLEAR).
		return nil, engine.Reject("", "use_clear", "line", line)
	default:
		return nil, engine.Reject("", engine.CodeUnknownCommand, "word", f[0])
	}
	return m, nil
}

func sortInts(a []int) {
	for i := 1; i < len(a); i++ {
		for j := i; j > 0 && a[j] < a[j-1]; j-- {
			a[j], a[j-1] = a[j-1], a[j]
		}
	}
}

// slot returns the queue slot of a seat's k-th turn.
func slotOf(k int) string { return "t" + strconv.Itoa(k) }

// impliedDone is the line Route appends for the implied DONE of §10.1.
const impliedDone = "DONE AUTO"

// Implied reports whether a canonical command is one Route added, not one
// the player wrote (the implied DONE of §10.1), so that a reply can leave it
// out of the echo of the player's lines or say it in words (issue 14.2; the
// referee does not consult it yet, see doc.go).
func (s *State) Implied(cmd string) bool { return cmd == impliedDone }

// Route implements engine.State (§10.1, §10.2): PREF, AUTO and UNDO apply
// on receipt; HOME lines of a seat still to pick at setup go to "setup"; every
// other line joins the queue of one of the seat's turns: the turn in
// progress (or to come), and the next one from each further GO line or
// NEXT block on.
func (s *State) Route(seat int, orders []engine.Order) []error {
	var errs engine.RouteErrors
	fail := func(i int, err error) { errs.Fail(len(orders), i, err) }
	if s.Phase == phaseOver {
		for i := range orders {
			fail(i, engine.Reject("HA-7.1", engine.CodeGameOver))
		}
		return errs
	}
	if seat < 0 || seat >= s.n() {
		for i := range orders {
			fail(i, engine.Reject("", engine.CodeNotSeated, "seat", seat))
		}
		return errs
	}
	k := s.Players[seat].Turns + 1
	// §10.1: the last line of a message's turn that bought and did not say
	// DONE carries an implied "DONE AUTO" (it never fails).
	type turnLines struct {
		last      int
		buy, done bool
	}
	turns := map[int]*turnLines{}
	var order []int
	defer func() {
		for _, kk := range order {
			tl := turns[kk]
			if !tl.buy || tl.done {
				continue
			}
			o := &orders[tl.last]
			for a := range o.Alts {
				o.Alts[a] = append(append([]string(nil), o.Alts[a]...), impliedDone)
			}
		}
	}()
	started := s.Phase == phasePlay && s.Cur == seat && s.Sub != subMove
	cur, bought := k, started && s.Bought > 0
	picking := s.Phase == phaseSetup && slices.Index(s.Picks, seat) >= 0
	for i := range orders {
		o := &orders[i]
		kw := notation.Keyword(o.Keyword())
		block := strings.HasPrefix(strings.ToUpper(o.Text), "NEXT")
		switch {
		case kw == "PREF" || kw == "AUTO" || (kw == "UNDO" && !block):
			// Standing orders, and UNDO (it restarts the turn in
			// progress, so it applies on receipt or not at all).
			o.Now = true
			continue
		case picking && kw == "HOME" && !block:
			o.Slot = "setup"
			picking = false
			continue
		case block || kw == "GO":
			if started {
				k++
			}
			started = true
		}
		o.Slot = slotOf(k)
		tl := turns[k]
		if tl == nil {
			// §10.1: a message that answers a decision of a turn that
			// has bought (a shed choice) continues it; DONE is implied
			// after its last line of that turn like after a purchase.
			tl = &turnLines{buy: k == cur && bought}
			turns[k] = tl
			order = append(order, k)
		}
		tl.last = i
		for _, alt := range o.Alts {
			for _, line := range alt {
				switch notation.Keyword(engine.FirstWord(line)) {
				case "BUY":
					tl.buy = true
				case "DONE":
					tl.done = true
				}
			}
		}
	}
	return errs
}

// SlotOpen implements engine.State.
func (s *State) SlotOpen(seat int, slot string) bool {
	if s.Phase == phaseOver || seat < 0 || seat >= s.n() {
		return false
	}
	if slot == "setup" {
		return s.Phase == phaseSetup && slices.Index(s.Picks, seat) >= 0
	}
	if !strings.HasPrefix(slot, "t") {
		return false
	}
	k, err := strconv.Atoi(slot[1:])
	return err == nil && k >= s.Players[seat].Turns+1
}
