package fromage

import (
	"sort"
	"strconv"
	"strings"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/fromage/catalog"
	"github.com/pbem-referee/referee/engine/fromage/notation"
)

// Parse turns one command line into a Move. It checks syntax and static
// facts (spaces of the sides in play, cards, tiles), not legality now.
func (s *State) Parse(seat int, line string) (engine.Move, error) {
	f := engine.Fields(line)
	if len(f) == 0 {
		return nil, engine.Reject("", engine.CodeSyntax, "line", line)
	}
	verb := notation.Keyword(f[0])
	args := f[1:]
	m := notation.NewMove(verb)
	expect := func(n ...int) error {
		for _, k := range n {
			if len(args) == k {
				return nil
			}
		}
		return notation.SynErr(line, notation.Usage[verb])
	}
	switch verb {
	case "GATHER":
		if err := expect(2); err != nil {
			return nil, err
		}
		n, err := strconv.Atoi(args[0])
		if err != nil || n < 1 || n > 3 {
			return nil, notation.SynErr(line, notation.Usage[verb], args[0])
		}
		w, ok := notation.WorkerWords[args[1]]
		if !ok {
			return nil, engine.Reject("", "unknown_worker", "line", line, "word", args[1])
		}
		m.N, m.W = n, w
	case "MAKE", "CORP":
		if verb == "CORP" {
			if err := expect(1); err != nil {
				return nil, err
			}
		} else if err := expect(1, 2); err != nil {
			return nil, err
		}
		if err := s.parseSpace(&m, line, args[0]); err != nil {
			return nil, err
		}
		if len(args) == 2 {
			if args[1] != "KEEP" {
				return nil, notation.SynErr(line, notation.Usage[verb], args[1])
			}
			m.Keep = true
		}
	case "MILK":
		if err := expect(2, 3); err != nil {
			return nil, err
		}
		n, err := strconv.Atoi(args[0])
		if err != nil || n < 1 || n > 9 {
			return nil, notation.SynErr(line, notation.Usage[verb], args[0])
		}
		m.N = n
		if err := s.parseSpace(&m, line, args[1]); err != nil {
			return nil, err
		}
		if len(args) == 3 {
			if args[2] != "KEEP" {
				return nil, notation.SynErr(line, notation.Usage[verb], args[2])
			}
			m.Keep = true
		}
	case "BUILD":
		if err := expect(1); err != nil {
			return nil, err
		}
		c := notation.Column(args[0])
		if c < 1 {
			return nil, notation.SynErr(line, notation.Usage[verb], args[0])
		}
		m.N = c
	case "BARN":
		if len(args) < 1 {
			return nil, notation.SynErr(line, notation.Usage[verb])
		}
		w, ok := notation.WorkerWords[args[0]]
		if !ok {
			return nil, engine.Reject("", "unknown_worker", "line", line, "word", args[0])
		}
		m.W = w
		rest := args[1:]
		switch {
		case len(rest) == 0:
		case rest[0] == "TRADE":
			if len(rest) != 3 {
				return nil, notation.SynErr(line, notation.Usage[verb])
			}
			if err := s.parseTrade(&m, line, rest[1], rest[2]); err != nil {
				return nil, err
			}
		default:
			if len(rest) > 2 || (len(rest) == 2 && rest[1] != "KEEP") {
				return nil, notation.SynErr(line, notation.Usage[verb])
			}
			if err := s.parseSpace(&m, line, rest[0]); err != nil {
				return nil, err
			}
			m.Keep = len(rest) == 2
		}
	case "TAKE":
		if err := expect(1, 2); err != nil {
			return nil, err
		}
		if len(args) == 1 && args[0] == "NONE" {
			m.None = true
			break
		}
		for _, a := range args {
			r, ok := notation.ResWords[a]
			if !ok {
				return nil, engine.Reject("", "unknown_resource", "line", line, "word", a)
			}
			m.Res = append(m.Res, r)
		}
		sort.Ints(m.Res)
	case "TRADE":
		if err := expect(2); err != nil {
			return nil, err
		}
		if err := s.parseTrade(&m, line, args[0], args[1]); err != nil {
			return nil, err
		}
	case "CHOOSE":
		if err := expect(1); err != nil {
			return nil, err
		}
		if n, err := strconv.Atoi(args[0]); err == nil {
			if n < 1 || n > 9 {
				return nil, notation.SynErr(line, notation.Usage[verb], args[0])
			}
			m.N = n
			break
		}
		c := s.r.CardIndex(args[0])
		if c < 0 {
			return nil, engine.Reject("", "unknown_card", "line", line, "word", args[0])
		}
		m.Card, m.Ids.Card = c, s.r.CardIDs[c]
	case "NOTRADE", "COMPLETE", "KEEP", "DONE", "READY":
		if err := expect(0); err != nil {
			return nil, err
		}
	case "PICK", "PLACE":
		if err := expect(1); err != nil {
			return nil, err
		}
		t := s.r.TileIndex(args[0])
		if t < 0 {
			return nil, engine.Reject("", "unknown_tile", "line", line, "word", args[0])
		}
		m.Tile, m.Ids.Tile = t, s.r.TileIDs[t]
	case "PICKS":
		if len(args) < 1 {
			return nil, notation.SynErr(line, notation.Usage[verb])
		}
		for _, a := range args {
			t := s.r.TileIndex(a)
			if t < 0 {
				return nil, engine.Reject("", "unknown_tile", "line", line, "word", a)
			}
			m.List = append(m.List, t)
			m.Ids.List = append(m.Ids.List, s.r.TileIDs[t])
		}
	case "SET":
		if err := notation.ParseSet(&m, line, args); err != nil {
			return nil, err
		}
	case "UNDO":
		return nil, engine.Reject("P-4", "undo_sealed")
	case "PLAN", "NEXT":
		// The routing prefix is removed by Route; a PLAN line that reaches
		// Parse was not routed (for example a direct Apply).
		return nil, engine.Reject("P-5", "plan_not_routed", "line", line)
	default:
		return nil, engine.Reject("", engine.CodeUnknownCommand, "word", f[0])
	}
	return m, nil
}

// parseTrade reads the give and take words of a trade.
func (s *State) parseTrade(m *notation.Move, line, give, take string) error {
	t, ok := notation.ResWords[take]
	if !ok {
		return engine.Reject("", "unknown_resource", "line", line, "word", take)
	}
	g, ok := notation.ResWords[give]
	switch {
	case ok && g == catalog.ResOrder:
		m.AnyOrder = true
		g = -1
	case ok:
	default:
		c := s.r.CardIndex(give)
		if c < 0 || !strings.HasPrefix(give, "O") {
			return engine.Reject("", "unknown_resource", "line", line, "word", give)
		}
		m.Card, m.Ids.Card = c, s.r.CardIDs[c]
		g = -1
	}
	m.Res = []int{g, t}
	return nil
}

// parseSpace reads a cheese space: an id of a side in play ("B14", "c7") or
// a City name ("paris", "Pont-l'Évêque").
func (s *State) parseSpace(m *notation.Move, line, word string) error {
	if len(word) >= 2 {
		v := strings.IndexByte("CFDB", word[0])
		if v >= 0 {
			if _, err := strconv.Atoi(word[1:]); err == nil {
				sd := s.side(v)
				i, ok := sd.ByKey[catalog.SpaceKey(word)]
				if !ok {
					return engine.Reject("FR-2.7", "unknown_space", "line", line, "word", word)
				}
				m.V, m.S, m.Ids.Space = v, i, sd.Spaces[i].ID
				return nil
			}
		}
	}
	key := notation.Fold(word)
	sd := s.side(catalog.VenCity)
	for i := range sd.Spaces {
		if notation.Fold(sd.Spaces[i].Name) == key {
			m.V, m.S, m.Ids.Space = catalog.VenCity, i, sd.Spaces[i].ID
			return nil
		}
	}
	return engine.Reject("", "unknown_space", "line", line, "word", word)
}

// Route assigns each order of a message to a slot: standing orders (SET,
// PICKS) apply on receipt; "PLAN T<n> ..." goes to turn n and "NEXT ..." to
// the next turn (prefix removed); CORP goes to the Corporation step of the
// current or next turn; PICK to the current draft round; PLACE/READY to the
// tile placement; every other command to the seat's current turn.
func (s *State) Route(seat int, orders []engine.Order) []error {
	var errs engine.RouteErrors
	fail := func(i int, err error) { errs.Fail(len(orders), i, err) }
	for i := range orders {
		o := &orders[i]
		turn := 0
		kw := notation.Keyword(o.Keyword())
		switch kw {
		case "PLAN", "NEXT":
			t, err := s.stripPlan(seat, o, kw)
			if err != nil {
				fail(i, err)
				continue
			}
			turn = t
			kw = notation.Keyword(o.Keyword())
		}
		switch kw {
		case "SET", "PICKS":
			if turn > 0 {
				fail(i, engine.Reject("P-7", "standing_not_planned", "word", kw))
				continue
			}
			o.Now = true
		case "UNDO":
			fail(i, engine.Reject("P-4", "undo_sealed"))
		case "PLAN", "NEXT":
			fail(i, engine.Reject("P-5", engine.CodeSyntax, "line", o.Text, "expected", notation.Usage["PLAN"]))
		case "PICK":
			if s.Phase != phaseDraft {
				fail(i, engine.Reject("FR-5.11.1", engine.CodeSlotClosed, "slot", "draft"))
				continue
			}
			r := s.Draft.Round
			if s.Players[seat].Picked {
				r++
			}
			o.Slot = "draft" + strconv.Itoa(r)
		case "PLACE", "READY", "NOTILE":
			if s.Phase != phaseDraft && s.Phase != phaseTiles {
				fail(i, engine.Reject("FR-5.11.2", engine.CodeSlotClosed, "slot", "tiles"))
				continue
			}
			o.Slot = "tiles"
		case "CORP":
			if s.Corp == nil {
				fail(i, engine.Reject("FR-5.12.2", "not_solo"))
				continue
			}
			if turn == 0 {
				turn = s.Turn
				if s.Phase == phaseTurn && s.Corp.Card < 0 {
					turn++
				}
			}
			o.Slot = s.turnSlot(turn) + ".corp"
		default:
			if _, ok := verbKinds[kw]; !ok {
				fail(i, engine.Reject("", engine.CodeUnknownCommand, "word", o.Keyword()))
				continue
			}
			if turn == 0 {
				turn = s.Turn
				if s.Phase == phaseTurn && s.Players[seat].Done {
					turn++
				}
			}
			o.Slot = s.turnSlot(turn)
		}
		if s.Phase == phaseOver {
			fail(i, engine.Reject("", engine.CodeGameOver))
		}
	}
	return errs
}
