package notation

import (
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

	Ids []string // cell ids for String
}

// Buy is one tile bought and where it goes.
type Buy struct {
	Tile string
	Cell int
	Id   string
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

// Keyword maps a command's first word to its canonical keyword.
func Keyword(w string) string { return engine.CanonicalWord(verbAlias, w) }

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
			add(p.Id)
		}
	case "SHED":
		for _, id := range m.Ids {
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

var ColourWords = map[string]int{
	"WO": 0, "WOOD": 0, "LEGNO": 0, "BOIS": 0, "HOUT": 0,
	"YE": 1, "YEAST": 1, "LIEVITO": 1, "LEVURE": 1, "GIST": 1,
	"HO": 2, "HOPS": 2, "LUPPOLO": 2, "HOUBLON": 2, "HOP": 2,
	"WA": 3, "WATER": 3, "ACQUA": 3, "EAU": 3,
	"BA": 4, "BARLEY": 4, "ORZO": 4, "ORGE": 4, "GERST": 4,
}

func Syntax(line, expected string) *engine.RuleError {
	return engine.Reject("", engine.CodeSyntax, "line", line, "expected", expected)
}

var cardAlias = map[string]string{
	"CASH": "CASH", "BREW": "BREW", "COLOR": "COLOR", "COLOUR": "COLOR", "LOW": "LOW", "BARREL": "BARREL",
	"SOLDI": "CASH", "BIRRAIO": "BREW", "COLORE": "COLOR", "BASSO": "LOW", "BARILE": "BARREL",
	"ARGENT": "CASH", "BRASSEUR": "BREW", "COULEUR": "COLOR", "BAS": "LOW", "TONNEAU": "BARREL",
	"GELD": "CASH", "BROUWER": "BREW", "KLEUR": "COLOR", "LAAG": "LOW", "VAT": "BARREL",
}

func CardWord(w string) string { return cardAlias[strings.ToUpper(w)] }
