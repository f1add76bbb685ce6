package fromage

import (
	"sort"
	"strconv"
	"strings"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/fromage/catalog"
)

// Move is a parsed Fromage command. String returns its canonical text, which
// Parse maps back to an equal move.
type Move struct {
	Verb string // canonical keyword
	N    int    // GATHER space, MILK zone, BUILD column, CHOOSE position
	W    int    // worker type, -1 none
	V    int    // venue of a cheese space, -1 none
	S    int    // index of the cheese space in its side, -1 none
	Keep bool   // ... KEEP: do not complete an Order with this token
	// Res holds the TAKE resources (sorted), or for TRADE and BARN ...
	// TRADE the pair [give, take], give being -1 when an Order card (Card)
	// or any pending Order (AnyOrder) is given.
	Res      []int
	Card     int    // an Order card, -1 none
	AnyOrder bool   // TRADE order <take>: give the oldest pending Order
	None     bool   // TAKE NONE
	Tile     int    // PICK / PLACE tile, -1 none
	List     []int  // PICKS tiles
	Key      string // SET: the setting (ORDERS, DAIRY, CORP, AUTODONE)
	Val      string // SET: its value in canonical words

	ids moveText
}

// moveText keeps the ids of the move's objects, resolved at parse time, so
// that String needs no state.
type moveText struct {
	space, card, tile string
	list              []string
}

var workerWords = map[string]int{
	"SOFT": 0, "S": 0, "MORBIDO": 0, "MOU": 0, "ZACHT": 0, "ZACHTE": 0, "PATE-MOLLE": 0,
	"HARD": 1, "H": 1, "DURO": 1, "DUR": 1, "HARDE": 1, "PATE-DURE": 1,
	"BLUE": 2, "B": 2, "BLU": 2, "BLEU": 2, "BLAUW": 2, "BLAUWE": 2, "PERSILLE": 2,
}

var resWords = map[string]int{
	"STRUCTURE": 0, "STRUCTURES": 0, "ST": 0, "STRUTTURA": 0, "STRUTTURE": 0, "BATIMENT": 0, "BÂTIMENT": 0, "GEBOUW": 0, "GEBOUWEN": 0,
	"CATTLE": 1, "CA": 1, "BESTIAME": 1, "BETAIL": 1, "BÉTAIL": 1, "VEE": 1,
	"FRUIT": 2, "FR": 2, "FRUTTA": 2, "FRUITS": 2,
	"ORDER": 3, "ORDERS": 3, "OR": 3, "ORDINE": 3, "ORDINI": 3, "COMMANDE": 3, "COMMANDES": 3, "BESTELLING": 3, "BESTELLINGEN": 3,
}

// verbAlias maps short forms and the keywords of the other languages to the
// canonical keyword. The referee already translates the first word of a
// line with the template aliases (templates/fromage/*/aliases.txt); this
// table also covers the command after "PLAN T<n>" or "NEXT", and offline
// use. A test keeps it in step with the alias files.
var verbAlias = map[string]string{
	"G": "GATHER", "M": "MAKE", "D": "DONE", "PASS": "DONE", "NOTILE": "READY", "NOTILES": "READY", "PRODUCE": "MAKE",
	// Italian
	"RACCOGLI": "GATHER", "RACCOGLIERE": "GATHER", "PRODUCI": "MAKE", "PRODURRE": "MAKE", "MUNGI": "MILK", "MUNGERE": "MILK",
	"COSTRUISCI": "BUILD", "COSTRUIRE": "BUILD", "GRANAIO": "BARN", "PRENDI": "TAKE", "SCAMBIA": "TRADE", "NOSCAMBIO": "NOTRADE",
	"COMPLETA": "COMPLETE", "TIENI": "KEEP", "SCEGLI": "CHOOSE", "CORPORAZIONE": "CORP", "SELEZIONA": "PICK",
	"PREFERENZE": "PICKS", "POSIZIONA": "PLACE", "PRONTO": "READY", "PIANO": "PLAN", "PROSSIMO": "NEXT", "IMPOSTA": "SET",
	"FATTO": "DONE", "FINE": "DONE", "PASSA": "DONE",
	// French
	"RECOLTER": "GATHER", "RÉCOLTER": "GATHER", "PRODUIRE": "MAKE", "TRAIRE": "MILK", "CONSTRUIRE": "BUILD", "GRANGE": "BARN",
	"PRENDRE": "TAKE", "ECHANGER": "TRADE", "ÉCHANGER": "TRADE", "SANSECHANGE": "NOTRADE", "COMPLETER": "COMPLETE",
	"COMPLÉTER": "COMPLETE", "GARDER": "KEEP", "CHOISIR": "CHOOSE", "SELECTIONNER": "PICK", "SÉLECTIONNER": "PICK",
	"PREFERENCES": "PICKS", "PRÉFÉRENCES": "PICKS", "POSER": "PLACE", "PRET": "READY", "PRÊT": "READY", "PLANIFIER": "PLAN",
	"SUIVANT": "NEXT", "REGLER": "SET", "RÉGLER": "SET", "FINI": "DONE", "TERMINE": "DONE", "TERMINÉ": "DONE", "PASSE": "DONE", "PASSER": "DONE",
	// Dutch
	"VERZAMEL": "GATHER", "MAAK": "MAKE", "MELK": "MILK", "BOUW": "BUILD", "SCHUUR": "BARN", "NEEM": "TAKE", "RUIL": "TRADE",
	"GEENRUIL": "NOTRADE", "VOLTOOI": "COMPLETE", "HOUD": "KEEP", "KIES": "CHOOSE", "SELECTEER": "PICK", "VOORKEUR": "PICKS",
	"LEG": "PLACE", "GEREED": "READY", "VOLGENDE": "NEXT", "STEL": "SET", "KLAAR": "DONE", "PAS": "DONE", "PASSEN": "DONE",
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
	switch m.Verb {
	case "GATHER":
		add(strconv.Itoa(m.N))
		add(catalog.TypeNames[m.W])
	case "MAKE":
		add(m.ids.space)
		if m.Keep {
			add("KEEP")
		}
	case "MILK":
		add(strconv.Itoa(m.N))
		add(m.ids.space)
		if m.Keep {
			add("KEEP")
		}
	case "BUILD":
		add(strconv.Itoa(m.N))
	case "BARN":
		add(catalog.TypeNames[m.W])
		if m.V >= 0 {
			add(m.ids.space)
			if m.Keep {
				add("KEEP")
			}
		}
		if len(m.Res) == 2 {
			add("TRADE")
			add(m.giveText())
			add(catalog.ResNames[m.Res[1]])
		}
	case "TAKE":
		if m.None {
			add("NONE")
		}
		for _, r := range m.Res {
			add(catalog.ResNames[r])
		}
	case "TRADE":
		add(m.giveText())
		add(catalog.ResNames[m.Res[1]])
	case "CHOOSE":
		if m.Card >= 0 {
			add(m.ids.card)
		} else {
			add(strconv.Itoa(m.N))
		}
	case "CORP":
		add(m.ids.space)
	case "PICK", "PLACE":
		add(m.ids.tile)
	case "PICKS":
		for _, id := range m.ids.list {
			add(id)
		}
	case "SET":
		add(m.Key)
		if m.Val != "" {
			add(m.Val)
		}
	}
	return b.String()
}

func (m Move) giveText() string {
	switch {
	case m.AnyOrder:
		return "order"
	case m.Card >= 0:
		return m.ids.card
	}
	return catalog.ResNames[m.Res[0]]
}

func newMove(verb string) Move { return Move{Verb: verb, W: -1, V: -1, S: -1, Card: -1, Tile: -1} }

func synErr(line, expected string, token ...string) error {
	e := engine.Reject("", engine.CodeSyntax, "line", line, "expected", expected)
	if len(token) > 0 {
		e.Params["token"] = token[0]
	}
	return e
}

// usage gives the pattern of each command, for syntax errors.
var usage = map[string]string{
	"GATHER": "GATHER <1-3> <soft|hard|blue>", "MAKE": "MAKE <space> [KEEP]", "MILK": "MILK <zone> <space> [KEEP]",
	"BUILD": "BUILD <I-IV>", "BARN": "BARN <soft|hard|blue> [<space> [KEEP] | TRADE <give> <take>]",
	"TAKE": "TAKE <resource> [<resource>] | TAKE NONE", "TRADE": "TRADE <give> <take>", "NOTRADE": "NOTRADE",
	"COMPLETE": "COMPLETE", "KEEP": "KEEP", "CHOOSE": "CHOOSE <1|2|card>", "DONE": "DONE", "CORP": "CORP <space>",
	"PICK": "PICK <tile>", "PICKS": "PICKS <tile> [<tile> ...]", "PLACE": "PLACE <tile>", "READY": "READY",
	"SET":  "SET ORDERS AUTO|ASK, SET DAIRY ASK|<res> [<res>], SET CORP LOWEST|ASK, SET AUTODONE ON",
	"PLAN": "PLAN T<n> <command>", "NEXT": "NEXT <command>", "UNDO": "UNDO",
}

// Parse turns one command line into a Move. It checks syntax and static
// facts (spaces of the sides in play, cards, tiles), not legality now.
func (s *State) Parse(seat int, line string) (engine.Move, error) {
	f := engine.Fields(line)
	if len(f) == 0 {
		return nil, engine.Reject("", engine.CodeSyntax, "line", line)
	}
	verb := keyword(f[0])
	args := f[1:]
	m := newMove(verb)
	expect := func(n ...int) error {
		for _, k := range n {
			if len(args) == k {
				return nil
			}
		}
		return synErr(line, usage[verb])
	}
	switch verb {
	case "GATHER":
		if err := expect(2); err != nil {
			return nil, err
		}
		n, err := strconv.Atoi(args[0])
		if err != nil || n < 1 || n > 3 {
			return nil, synErr(line, usage[verb], args[0])
		}
		w, ok := workerWords[args[1]]
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
				return nil, synErr(line, usage[verb], args[1])
			}
			m.Keep = true
		}
	case "MILK":
		if err := expect(2, 3); err != nil {
			return nil, err
		}
		n, err := strconv.Atoi(args[0])
		if err != nil || n < 1 || n > 9 {
			return nil, synErr(line, usage[verb], args[0])
		}
		m.N = n
		if err := s.parseSpace(&m, line, args[1]); err != nil {
			return nil, err
		}
		if len(args) == 3 {
			if args[2] != "KEEP" {
				return nil, synErr(line, usage[verb], args[2])
			}
			m.Keep = true
		}
	case "BUILD":
		if err := expect(1); err != nil {
			return nil, err
		}
		c := column(args[0])
		if c < 1 {
			return nil, synErr(line, usage[verb], args[0])
		}
		m.N = c
	case "BARN":
		if len(args) < 1 {
			return nil, synErr(line, usage[verb])
		}
		w, ok := workerWords[args[0]]
		if !ok {
			return nil, engine.Reject("", "unknown_worker", "line", line, "word", args[0])
		}
		m.W = w
		rest := args[1:]
		switch {
		case len(rest) == 0:
		case rest[0] == "TRADE":
			if len(rest) != 3 {
				return nil, synErr(line, usage[verb])
			}
			if err := s.parseTrade(&m, line, rest[1], rest[2]); err != nil {
				return nil, err
			}
		default:
			if len(rest) > 2 || (len(rest) == 2 && rest[1] != "KEEP") {
				return nil, synErr(line, usage[verb])
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
			r, ok := resWords[a]
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
				return nil, synErr(line, usage[verb], args[0])
			}
			m.N = n
			break
		}
		c := s.r.CardIndex(args[0])
		if c < 0 {
			return nil, engine.Reject("", "unknown_card", "line", line, "word", args[0])
		}
		m.Card, m.ids.card = c, s.r.CardIDs[c]
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
		m.Tile, m.ids.tile = t, s.r.TileIDs[t]
	case "PICKS":
		if len(args) < 1 {
			return nil, synErr(line, usage[verb])
		}
		for _, a := range args {
			t := s.r.TileIndex(a)
			if t < 0 {
				return nil, engine.Reject("", "unknown_tile", "line", line, "word", a)
			}
			m.List = append(m.List, t)
			m.ids.list = append(m.ids.list, s.r.TileIDs[t])
		}
	case "SET":
		if err := parseSet(&m, line, args); err != nil {
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

// column reads a structure column as I-IV or 1-4.
func column(w string) int {
	switch w {
	case "I", "1":
		return 1
	case "II", "2":
		return 2
	case "III", "3":
		return 3
	case "IV", "4":
		return 4
	}
	return 0
}

func parseSet(m *Move, line string, args []string) error {
	if len(args) < 2 {
		return synErr(line, usage["SET"])
	}
	m.Key = args[0]
	vals := args[1:]
	switch m.Key {
	case "ORDERS":
		if len(vals) != 1 || (vals[0] != "AUTO" && vals[0] != "ASK") {
			return synErr(line, "SET ORDERS AUTO|ASK")
		}
		m.Val = vals[0]
	case "CORP":
		if len(vals) != 1 || (vals[0] != "LOWEST" && vals[0] != "ASK") {
			return synErr(line, "SET CORP LOWEST|ASK")
		}
		m.Val = vals[0]
	case "AUTODONE":
		if len(vals) != 1 || (vals[0] != "ON" && vals[0] != "OFF") {
			return synErr(line, "SET AUTODONE ON")
		}
		m.Val = vals[0]
	case "DAIRY":
		if len(vals) == 1 && vals[0] == "ASK" {
			m.Val = "ASK"
			return nil
		}
		if len(vals) > 2 {
			return synErr(line, "SET DAIRY ASK|<res> [<res>]")
		}
		var words []string
		for _, v := range vals {
			r, ok := resWords[v]
			if !ok {
				return engine.Reject("", "unknown_resource", "line", line, "word", v)
			}
			m.Res = append(m.Res, r)
			words = append(words, catalog.ResNames[r])
		}
		m.Val = strings.Join(words, " ")
	default:
		return synErr(line, usage["SET"], m.Key)
	}
	return nil
}

// parseTrade reads the give and take words of a trade.
func (s *State) parseTrade(m *Move, line, give, take string) error {
	t, ok := resWords[take]
	if !ok {
		return engine.Reject("", "unknown_resource", "line", line, "word", take)
	}
	g, ok := resWords[give]
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
		m.Card, m.ids.card = c, s.r.CardIDs[c]
		g = -1
	}
	m.Res = []int{g, t}
	return nil
}

// parseSpace reads a cheese space: an id of a side in play ("B14", "c7") or
// a City name ("paris", "Pont-l'Évêque").
func (s *State) parseSpace(m *Move, line, word string) error {
	if len(word) >= 2 {
		v := strings.IndexByte("CFDB", word[0])
		if v >= 0 {
			if _, err := strconv.Atoi(word[1:]); err == nil {
				sd := s.side(v)
				i, ok := sd.ByKey[catalog.SpaceKey(word)]
				if !ok {
					return engine.Reject("FR-2.7", "unknown_space", "line", line, "word", word)
				}
				m.V, m.S, m.ids.space = v, i, sd.Spaces[i].ID
				return nil
			}
		}
	}
	key := fold(word)
	sd := s.side(catalog.VenCity)
	for i := range sd.Spaces {
		if fold(sd.Spaces[i].Name) == key {
			m.V, m.S, m.ids.space = catalog.VenCity, i, sd.Spaces[i].ID
			return nil
		}
	}
	return engine.Reject("", "unknown_space", "line", line, "word", word)
}

// fold reduces a name to lower-case ASCII letters and digits, without
// accents, for comparing City names.
func fold(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			b.WriteRune(r)
		case strings.ContainsRune("àáâäã", r):
			b.WriteByte('a')
		case strings.ContainsRune("èéêë", r):
			b.WriteByte('e')
		case strings.ContainsRune("ìíîï", r):
			b.WriteByte('i')
		case strings.ContainsRune("òóôöõ", r):
			b.WriteByte('o')
		case strings.ContainsRune("ùúûü", r):
			b.WriteByte('u')
		case r == 'ç':
			b.WriteByte('c')
		}
	}
	return b.String()
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
		kw := keyword(o.Keyword())
		switch kw {
		case "PLAN", "NEXT":
			t, err := s.stripPlan(seat, o, kw)
			if err != nil {
				fail(i, err)
				continue
			}
			turn = t
			kw = keyword(o.Keyword())
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
			fail(i, engine.Reject("P-5", engine.CodeSyntax, "line", o.Text, "expected", usage["PLAN"]))
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
