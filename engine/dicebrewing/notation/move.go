package notation

import (
	"strconv"
	"strings"

	"github.com/pbem-referee/referee/engine/dicebrewing/catalog"
)

// The moves of Dice Brewing as Parse returns them (die references, items,
// the move itself) and their canonical text.

// Location filters of a die reference (§10.3).
const (
	RefAny   = iota // no location given: the command's default search order
	RefAR           // @A
	RefST           // @S
	RefBoard        // @<slot>: a board slot (Space, Up)
)

// DieRef names a die as players write it (§10.3): an optional owner prefix
// ("bob:"), a colour, a face, an optional "+" (the die carries a PLUS token)
// and an optional location. It is resolved against the position when the
// move is applied, so the same text can be queued and used later.
type DieRef struct {
	Owner string `json:"owner,omitempty"` // owner's canonical name as written in the command; "" = the actor
	Seat  int    `json:"seat"`            // owner's seat, -1 = the actor
	C     int    `json:"c"`
	F     int    `json:"f"`
	Plus  bool   `json:"plus,omitempty"`
	Loc   int    `json:"loc,omitempty"`
	Space int    `json:"space,omitempty"`
	Up    bool   `json:"up,omitempty"`
}

// String returns the canonical text of the reference.
func (r DieRef) String() string {
	var b strings.Builder
	if r.Owner != "" {
		b.WriteString(r.Owner)
		b.WriteByte(':')
	}
	b.WriteString(catalog.ColourLetters[r.C])
	b.WriteString(strconv.Itoa(r.F))
	if r.Plus {
		b.WriteByte('+')
	}
	switch r.Loc {
	case RefAR:
		b.WriteString("@A")
	case RefST:
		b.WriteString("@S")
	case RefBoard:
		b.WriteByte('@')
		b.WriteString(catalog.SpaceNames[r.Space])
		if r.Up {
			b.WriteByte('+')
		}
	}
	return b.String()
}

// Item is one item of a placement turn (DB-5.3.3).
type Item struct {
	Space  int      `json:"space"`
	Up     bool     `json:"up,omitempty"`   // the speed-up slot
	Seed   bool     `json:"seed,omitempty"` // the item is a seed
	Die    DieRef   `json:"die"`            // the item is a die (when !Seed)
	Reroll []DieRef `json:"reroll,omitempty"`
	Swap   *DieRef  `json:"swap,omitempty"`
}

func (it Item) String() string {
	var b strings.Builder
	b.WriteString(catalog.SpaceNames[it.Space])
	if it.Up {
		b.WriteByte('+')
	}
	b.WriteByte(' ')
	if it.Seed {
		b.WriteString("SEED")
	} else {
		b.WriteString(it.Die.String())
	}
	if len(it.Reroll) > 0 {
		b.WriteString(" REROLL ")
		b.WriteString(RefsText(it.Reroll))
	}
	if it.Swap != nil {
		b.WriteString(" SWAP ")
		b.WriteString(it.Swap.String())
	}
	return b.String()
}

func RefsText(refs []DieRef) string {
	parts := make([]string, len(refs))
	for i, r := range refs {
		parts[i] = r.String()
	}
	return strings.Join(parts, " ")
}

// Move is a parsed command (one line). Its String is the canonical text.
type Move struct {
	Verb string

	Items []Item // PLACE
	Then  bool   // PLACE ... THEN: choose the second item after the first

	Dice   []DieRef // STORE, PICK, REROLL, BREW USE
	All    bool     // STORE ALL
	AllMin int      // STORE ALL>=n

	N     int    // AUTOSTORE threshold (0 = OFF)
	Blue  bool   // AUTOSTORE ... B
	Scope string // TOKENS: ROUND, GAME or ASK

	Token     string  // PLAY: token code
	Target    *DieRef // PLAY: a die
	TSeat     int     // PLAY BLOCKB: the target seat
	TName     string  // PLAY BLOCKB: the target seat's canonical name
	TBuilding int     // PLAY BLOCKB: building
	Card      string  // PLAY BLOCKR, BREW

	Code string  // BUY
	With *DieRef // BUY ... WITH

	ImproveCode string  // BREW IMPROVE <ingredient>
	ImproveDie  *DieRef // BREW IMPROVE <blue>
	Get         []string
}

// String implements engine.Move.
func (m *Move) String() string {
	switch m.Verb {
	case "PLACE":
		parts := make([]string, len(m.Items))
		for i, it := range m.Items {
			parts[i] = it.String()
		}
		s := "PLACE " + strings.Join(parts, ", ")
		if m.Then {
			s += " THEN"
		}
		return s
	case "STORE":
		switch {
		case m.All && m.AllMin > 0:
			return "STORE ALL>=" + strconv.Itoa(m.AllMin)
		case m.All:
			return "STORE ALL"
		}
		return "STORE " + RefsText(m.Dice)
	case "PICK":
		return "PICK " + RefsText(m.Dice)
	case "REROLL":
		if len(m.Dice) == 0 {
			return "REROLL"
		}
		return "REROLL " + RefsText(m.Dice)
	case "AUTOSTORE":
		if m.N == 0 {
			return "AUTOSTORE OFF"
		}
		s := "AUTOSTORE " + strconv.Itoa(m.N)
		if m.Blue {
			s += " B"
		}
		return s
	case "TOKENS":
		if m.Scope == "ASK" {
			return "TOKENS ASK"
		}
		return "TOKENS NONE " + m.Scope
	case "PLAY":
		s := "PLAY " + m.Token + " "
		switch {
		case m.Target != nil:
			return s + m.Target.String()
		case m.Token == catalog.TokBLOCKB:
			return s + m.TName + ":" + catalog.BuildingNames[m.TBuilding]
		default:
			return s + m.Card
		}
	case "BUY":
		s := "BUY " + m.Code
		if m.With != nil {
			s += " WITH " + m.With.String()
		}
		return s
	case "BREW":
		s := "BREW " + m.Card
		if m.ImproveCode != "" {
			s += " IMPROVE " + m.ImproveCode
		}
		if m.ImproveDie != nil {
			s += " IMPROVE " + m.ImproveDie.String()
		}
		if len(m.Dice) > 0 {
			s += " USE " + RefsText(m.Dice)
		}
		if len(m.Get) > 0 {
			s += " GET " + strings.Join(m.Get, " ")
		}
		return s
	case "GET":
		return "GET " + strings.Join(m.Get, " ")
	}
	return m.Verb
}
