package notation

import (
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

	Ids moveText
}

// moveText keeps the ids of the move's objects, resolved at parse time, so
// that String needs no state.
type moveText struct {
	Space, Card, Tile string
	List              []string
}

var WorkerWords = map[string]int{
	"SOFT": 0, "S": 0, "MORBIDO": 0, "MOU": 0, "ZACHT": 0, "ZACHTE": 0, "PATE-MOLLE": 0,
	"HARD": 1, "H": 1, "DURO": 1, "DUR": 1, "HARDE": 1, "PATE-DURE": 1,
	"BLUE": 2, "B": 2, "BLU": 2, "BLEU": 2, "BLAUW": 2, "BLAUWE": 2, "PERSILLE": 2,
}

var ResWords = map[string]int{
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

// Keyword maps a command's first word to its canonical keyword.
func Keyword(w string) string { return engine.CanonicalWord(verbAlias, w) }

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
		add(m.Ids.Space)
		if m.Keep {
			add("KEEP")
		}
	case "MILK":
		add(strconv.Itoa(m.N))
		add(m.Ids.Space)
		if m.Keep {
			add("KEEP")
		}
	case "BUILD":
		add(strconv.Itoa(m.N))
	case "BARN":
		add(catalog.TypeNames[m.W])
		if m.V >= 0 {
			add(m.Ids.Space)
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
			add(m.Ids.Card)
		} else {
			add(strconv.Itoa(m.N))
		}
	case "CORP":
		add(m.Ids.Space)
	case "PICK", "PLACE":
		add(m.Ids.Tile)
	case "PICKS":
		for _, id := range m.Ids.List {
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
		return m.Ids.Card
	}
	return catalog.ResNames[m.Res[0]]
}

func NewMove(verb string) Move { return Move{Verb: verb, W: -1, V: -1, S: -1, Card: -1, Tile: -1} }

func SynErr(line, expected string, token ...string) error {
	e := engine.Reject("", engine.CodeSyntax, "line", line, "expected", expected)
	if len(token) > 0 {
		e.Params["token"] = token[0]
	}
	return e
}

// Usage gives the pattern of each command, for syntax errors.
var Usage = map[string]string{
	"GATHER": "GATHER <1-3> <soft|hard|blue>", "MAKE": "MAKE <space> [KEEP]", "MILK": "MILK <zone> <space> [KEEP]",
	"BUILD": "BUILD <I-IV>", "BARN": "BARN <soft|hard|blue> [<space> [KEEP] | TRADE <give> <take>]",
	"TAKE": "TAKE <resource> [<resource>] | TAKE NONE", "TRADE": "TRADE <give> <take>", "NOTRADE": "NOTRADE",
	"COMPLETE": "COMPLETE", "KEEP": "KEEP", "CHOOSE": "CHOOSE <1|2|card>", "DONE": "DONE", "CORP": "CORP <space>",
	"PICK": "PICK <tile>", "PICKS": "PICKS <tile> [<tile> ...]", "PLACE": "PLACE <tile>", "READY": "READY",
	"SET":  "SET ORDERS AUTO|ASK, SET DAIRY ASK|<res> [<res>], SET CORP LOWEST|ASK, SET AUTODONE ON",
	"PLAN": "PLAN T<n> <command>", "NEXT": "NEXT <command>", "UNDO": "UNDO",
}

// Column reads a structure column as I-IV or 1-4.
func Column(w string) int {
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

func ParseSet(m *Move, line string, args []string) error {
	if len(args) < 2 {
		return SynErr(line, Usage["SET"])
	}
	m.Key = args[0]
	vals := args[1:]
	switch m.Key {
	case "ORDERS":
		if len(vals) != 1 || (vals[0] != "AUTO" && vals[0] != "ASK") {
			return SynErr(line, "SET ORDERS AUTO|ASK")
		}
		m.Val = vals[0]
	case "CORP":
		if len(vals) != 1 || (vals[0] != "LOWEST" && vals[0] != "ASK") {
			return SynErr(line, "SET CORP LOWEST|ASK")
		}
		m.Val = vals[0]
	case "AUTODONE":
		if len(vals) != 1 || (vals[0] != "ON" && vals[0] != "OFF") {
			return SynErr(line, "SET AUTODONE ON")
		}
		m.Val = vals[0]
	case "DAIRY":
		if len(vals) == 1 && vals[0] == "ASK" {
			m.Val = "ASK"
			return nil
		}
		if len(vals) > 2 {
			return SynErr(line, "SET DAIRY ASK|<res> [<res>]")
		}
		var words []string
		for _, v := range vals {
			r, ok := ResWords[v]
			if !ok {
				return engine.Reject("", "unknown_resource", "line", line, "word", v)
			}
			m.Res = append(m.Res, r)
			words = append(words, catalog.ResNames[r])
		}
		m.Val = strings.Join(words, " ")
	default:
		return SynErr(line, Usage["SET"], m.Key)
	}
	return nil
}

// Fold reduces a name to lower-case ASCII letters and digits, without
// accents, for comparing City names.
func Fold(s string) string {
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
