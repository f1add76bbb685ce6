package heavenale

import (
	"slices"
	"strconv"
	"strings"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/heavenale/catalog"
)

// Move is a parsed Heaven & Ale command (§10.3). String returns its
// canonical text, which Parse maps back to an equal move.
type Move struct {
	Verb   string // canonical keyword
	N      int    // GO: space (homePos for HOME); SCORE X: the number
	Home   int    // GO HOME / HOME: start space, -1 none
	Colour int    // RES, COLOR, LOW: colour, -1 none
	Buys   []Buy  // BUY pairs, in order
	Cells  []int  // SHED cells, ascending
	Spot   int    // SCORE spot
	Card   string // PRIV / SELL card, "PASS" for PRIV PASS
	Key    string // PREF HOME|PRIV, AUTO ENDSELL
	Words  []string
	On     bool

	ids []string // cell ids for String
}

// Buy is one tile bought and where it goes.
type Buy struct {
	Tile string
	Cell int
	id   string
}

// verbAlias maps short forms and the keywords of the other languages to the
// canonical keyword (the referee also translates first words with the
// template aliases; this covers offline use and NEXT blocks).
var verbAlias = map[string]string{
	// BOARD, ME and SHOW (§10.3) are the referee's STATUS.
	"BOARD": "STATUS", "ME": "STATUS", "SHOW": "STATUS",
	"MOVE": "GO", "G": "GO", "B": "BUY", "D": "DONE", "END": "DONE", "PASS": "DONE",
	// Italian
	"VAI": "GO", "MUOVI": "GO", "COMPRA": "BUY", "FATTO": "DONE", "FINE": "DONE", "CAPANNO": "SHED",
	"PUNTEGGIO": "SCORE", "SEGNA": "SCORE", "PRIVILEGIO": "PRIV", "VENDI": "SELL", "CASA": "HOME",
	"ANNULLA": "UNDO", "PREFERENZA": "PREF",
	// French
	"ALLER": "GO", "VA": "GO", "ACHETER": "BUY", "ACHETE": "BUY", "FINI": "DONE", "TERMINE": "DONE",
	"CABANE": "SHED", "MARQUER": "SCORE", "PRIVILEGE": "PRIV", "VENDRE": "SELL", "DEPART": "HOME",
	"ANNULER": "UNDO", "PREFERE": "PREF",
	// Dutch
	"GA": "GO", "KOOP": "BUY", "KLAAR": "DONE", "SCHUUR": "SHED", "SCOOR": "SCORE", "VERKOOP": "SELL",
	"THUIS": "HOME", "HERSTEL": "UNDO", "VOORKEUR": "PREF",
}

// keyword maps a command's first word to its canonical keyword.
func keyword(w string) string {
	w = strings.ToUpper(w)
	if k, ok := verbAlias[w]; ok {
		return k
	}
	return w
}

// String returns the canonical command line.
func (m Move) String() string {
	var b strings.Builder
	b.WriteString(m.Verb)
	add := func(x string) { b.WriteByte(' '); b.WriteString(x) }
	homeWords := func() {
		if m.Home >= 0 {
			add(catalog.HomeNames[m.Home])
			if m.Home == catalog.HomeRes {
				add(catalog.ColourNames[m.Colour])
			}
		}
	}
	switch m.Verb {
	case "GO":
		if m.N == catalog.HomePos {
			add("HOME")
			homeWords()
		} else {
			add(strconv.Itoa(m.N))
		}
	case "HOME":
		homeWords()
	case "BUY":
		for _, p := range m.Buys {
			add(p.Tile)
			add(p.id)
		}
	case "SHED":
		for _, id := range m.ids {
			add(id)
		}
	case "SCORE":
		add(catalog.SpotNames[m.Spot])
		if m.Spot == catalog.SpotX {
			add(strconv.Itoa(m.N))
		}
	case "PRIV":
		add(m.Card)
		if m.Colour >= 0 {
			add(catalog.ColourNames[m.Colour])
		}
	case "SELL":
		add(m.Card)
	case "DONE":
		if m.Key == "AUTO" {
			add("AUTO")
		}
	case "PREF":
		add(m.Key)
		for _, w := range m.Words {
			add(w)
		}
	case "AUTO":
		add(m.Key)
		if m.On {
			add("ON")
		} else {
			add("OFF")
		}
	}
	return b.String()
}

var colourWords = map[string]int{
	"WO": 0, "WOOD": 0, "LEGNO": 0, "BOIS": 0, "HOUT": 0,
	"YE": 1, "YEAST": 1, "LIEVITO": 1, "LEVURE": 1, "GIST": 1,
	"HO": 2, "HOPS": 2, "LUPPOLO": 2, "HOUBLON": 2, "HOP": 2,
	"WA": 3, "WATER": 3, "ACQUA": 3, "EAU": 3,
	"BA": 4, "BARLEY": 4, "ORZO": 4, "ORGE": 4, "GERST": 4,
}

func syntax(line, expected string) *engine.RuleError {
	return engine.Reject("", engine.CodeSyntax, "line", line, "expected", expected)
}

// Parse implements engine.State.
func (s *State) Parse(seat int, line string) (engine.Move, error) {
	f := engine.Fields(line)
	if len(f) == 0 {
		return nil, syntax(line, "COMMAND")
	}
	m := Move{Verb: keyword(f[0]), Home: -1, Colour: -1, Spot: -1}
	args := f[1:]
	colour := func(w string) (int, bool) {
		c, ok := colourWords[w]
		return c, ok
	}
	home := func(args []string, usage string) error {
		if len(args) == 0 {
			return nil
		}
		h := slices.Index(catalog.HomeNames, args[0])
		if h < 0 {
			return syntax(line, usage)
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
			return syntax(line, usage)
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
			return nil, syntax(line, "GO <1-27> | GO HOME [<space> [<colour>]]")
		}
		if args[0] == "HOME" || args[0] == "H" || args[0] == "28" || keyword(args[0]) == "HOME" {
			m.N = catalog.HomePos
			if err := home(args[1:], "GO HOME [FIRST|BREW|RES <colour>|CASH]"); err != nil {
				return nil, err
			}
			break
		}
		n, err := strconv.Atoi(args[0])
		if err != nil || len(args) != 1 {
			return nil, syntax(line, "GO <1-27> | GO HOME")
		}
		if n < 1 || n >= catalog.HomePos {
			return nil, engine.Reject("HA-5.1.1", "no_space", "space", n)
		}
		m.N = n
	case "HOME":
		if len(args) == 0 {
			return nil, syntax(line, "HOME FIRST|BREW|RES <colour>|CASH")
		}
		if err := home(args, "HOME FIRST|BREW|RES <colour>|CASH"); err != nil {
			return nil, err
		}
	case "BUY":
		if len(args) == 0 || len(args)%2 != 0 {
			return nil, syntax(line, "BUY <tile> <spot> [<tile> <spot> ...]")
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
			m.Buys = append(m.Buys, Buy{Tile: t, Cell: c, id: s.r.Cells[c].ID})
		}
	case "DONE", "UNDO":
		if m.Verb == "DONE" && len(args) == 1 && args[0] == "AUTO" {
			m.Key = "AUTO"
			break
		}
		if len(args) != 0 {
			return nil, syntax(line, m.Verb)
		}
	case "SHED":
		if len(args) == 0 || len(args) > 6 {
			return nil, syntax(line, "SHED <spot> ...")
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
			m.ids = append(m.ids, s.r.Cells[c].ID)
		}
	case "SCORE":
		if len(args) == 0 {
			return nil, syntax(line, "SCORE X <1-5> | SCORE <colour> | SCORE M<1-4>")
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
			return nil, syntax(line, "SCORE <spot>")
		}
	case "PRIV":
		if len(args) == 0 {
			return nil, syntax(line, "PRIV CASH|BREW|COLOR <colour>|LOW <colour>|BARREL|PASS")
		}
		c := cardWord(args[0])
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
			return nil, syntax(line, "PRIV <card>")
		}
	case "SELL":
		if len(args) != 1 || cardWord(args[0]) == "" {
			return nil, syntax(line, "SELL CASH|BREW|COLOR|LOW|BARREL")
		}
		m.Card = cardWord(args[0])
	case "PREF":
		if len(args) < 2 {
			return nil, syntax(line, "PREF HOME <space> ... | PREF PRIV ASK|PASS|<cards>")
		}
		m.Key = args[0]
		switch m.Key {
		case "HOME":
			for i := 1; i < len(args); i++ {
				h := slices.Index(catalog.HomeNames, args[i])
				if h < 0 {
					return nil, syntax(line, "PREF HOME BREW CASH RES <colour> FIRST")
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
				c := cardWord(w)
				if c != "CASH" && c != "BREW" && c != "BARREL" {
					return nil, engine.Reject("HA-5.9.3", "bad_pref_card", "token", w)
				}
				m.Words = append(m.Words, c)
			}
		case "GARDEN":
			if len(args) != 2 || (args[1] != "COMPACT" && args[1] != "WIDE") {
				return nil, syntax(line, "PREF GARDEN COMPACT|WIDE")
			}
			m.Words = []string{args[1]}
		default:
			return nil, syntax(line, "PREF HOME ... | PREF PRIV ... | PREF GARDEN COMPACT|WIDE")
		}
	case "AUTO":
		if len(args) != 2 || args[0] != "ENDSELL" || (args[1] != "ON" && args[1] != "OFF") {
			return nil, syntax(line, "AUTO ENDSELL ON|OFF")
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

var cardAlias = map[string]string{
	"CASH": "CASH", "BREW": "BREW", "COLOR": "COLOR", "COLOUR": "COLOR", "LOW": "LOW", "BARREL": "BARREL",
	"SOLDI": "CASH", "BIRRAIO": "BREW", "COLORE": "COLOR", "BASSO": "LOW", "BARILE": "BARREL",
	"ARGENT": "CASH", "BRASSEUR": "BREW", "COULEUR": "COLOR", "BAS": "LOW", "TONNEAU": "BARREL",
	"GELD": "CASH", "BROUWER": "BREW", "KLEUR": "COLOR", "LAAG": "LOW", "VAT": "BARREL",
}

func cardWord(w string) string { return cardAlias[strings.ToUpper(w)] }

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
		kw := keyword(o.Keyword())
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
				switch keyword(engine.FirstWord(line)) {
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
