// A Brew Crafters move and its canonical text, the line the menus, echoes
// and logs show (doc.go, "Canonical commands").

package notation

import (
	"strconv"
	"strings"

	"github.com/pbem-referee/referee/engine/brewcrafters/catalog"
)

// Brew is one batch of a brew step: a recipe and, optionally, its slot.
type Brew struct {
	Recipe string `json:"recipe"`
	Slot   string `json:"slot,omitempty"`
}

// Move is a parsed command (BC-10.5). Its String is the canonical line.
type Move struct {
	Verb string
	// M: space, keyword, arguments, trigger choices (+BASIC, +ADV).
	Space string
	Kw    string
	Args  []string
	PlusB []string
	PlusA []string
	// B and ANNUAL BREW: the parts of one action, joined by THEN.
	Parts []*Move
	// PROCESS: batches, Mash Tun and Yeast Lab operation.
	Brews []Brew
	Mash  bool
	Ylab  bool
	// COLLAB: portion and (ADV) the code given.
	Portion string
	Code    string
	// RESEARCH / ANNUAL: track; Choice; Skip.
	Track  int
	Choice []string
	Skip   bool
	// INSTALL: building, +OPS choices.
	Bld     string
	PlusOps []string
	// SECRET / recipe names.
	Recipe string
	// DISCARD.
	Bag catalog.Bag
	// EXCHANGE: partner kind, basic given, times; LOAN: N.
	N int
	// HIRE / SET / INTERN.
	ID  string
	Key string
	Val string

	// r is the data file whose codes String writes (set by Parse and
	// State.cmd); without it the ids are written (Legacy).
	r *catalog.Rules
}

// String is the canonical line of the move, as a player types it: every
// worker, building and building space by the code the menus show, never a
// data-file id (BC-10.5, issue 21; doc.go "Canonical commands").
func (m *Move) String() string { return m.Text(m.r) }

// Legacy is the canonical line as it was written before issue 21, with
// data-file ids (SPACE_YEASTLAB, BREWPUB_MANAGER): logs of games begun
// before then replay (engine.Replay).
func (m *Move) Legacy() string { return m.Text(nil) }

// Text writes the move with the codes of r (nil: the data-file ids).
func (m *Move) Text(r *catalog.Rules) string {
	show := func(ids []string) []string {
		if r == nil {
			return ids
		}
		out := make([]string, len(ids))
		for i, id := range ids {
			out[i] = r.Code(id)
		}
		return out
	}
	one := func(id string) string {
		if r == nil {
			return id
		}
		return r.Code(id)
	}
	var b strings.Builder
	w := func(parts ...string) {
		for _, p := range parts {
			if p == "" {
				continue
			}
			if b.Len() > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(p)
		}
	}
	switch m.Verb {
	case "M":
		w("M", m.Space, m.Kw)
		w(show(m.Args)...)
		plusString(w, m, r)
	case "B":
		w("B")
		for i, p := range m.Parts {
			if i > 0 {
				w("THEN")
			}
			w(p.Text(r))
		}
	case "PROCESS":
		w("PROCESS")
		if len(m.Brews) > 0 {
			w("BREW")
			for _, br := range m.Brews {
				if br.Slot != "" {
					w(br.Recipe + "@" + br.Slot)
				} else {
					w(br.Recipe)
				}
			}
		}
		if m.Mash {
			w("MASH")
		}
		if m.Ylab {
			w("YLAB")
		}
	case "COLLAB":
		w("COLLAB", m.Portion, m.Code)
	case "RESEARCH":
		if m.Skip {
			w("RESEARCH", "SKIP")
			break
		}
		w("RESEARCH", catalog.TrackNames[m.Track])
		w(show(m.Choice)...)
	case "INSTALL":
		w("INSTALL", one(m.Bld))
		if len(m.PlusOps) > 0 {
			w("+OPS")
			w(m.PlusOps...)
		}
	case "SECRET":
		w("SECRET", m.Recipe)
	case "CFARM", "PLANT", "HARVEST", "PICK":
		w(m.Verb, m.Code)
	case "PASS", "DONE":
		w(m.Verb)
	case "ANNUAL":
		w("ANNUAL", catalog.TrackNames[m.Track])
		switch {
		case m.Skip:
			w("SKIP")
		case len(m.Parts) > 0:
			for i, p := range m.Parts {
				if i > 0 {
					w("THEN")
				}
				w(p.Text(r))
			}
		default:
			w(show(m.Choice)...)
		}
	case "DISCARD":
		w("DISCARD", m.Bag.String())
	case "EXCHANGE":
		w("EXCHANGE", m.ID, m.Code)
		if m.N > 1 {
			w(strconv.Itoa(m.N))
		}
	case "LOAN":
		w("LOAN")
		if m.N > 1 {
			w(strconv.Itoa(m.N))
		}
	case "HIRE":
		w("HIRE", one(m.ID))
		w(show(m.Args)...)
		plusString(w, m, r)
	case "INTERN":
		w("INTERN", m.Val)
	case "SET":
		w("SET", m.Key, m.Val)
	}
	return b.String()
}

// plusString writes a move's trigger choices and a worker's research move.
func plusString(w func(...string), m *Move, r *catalog.Rules) {
	if len(m.PlusB) > 0 {
		w("+BASIC")
		w(m.PlusB...)
	}
	if len(m.PlusA) > 0 {
		w("+ADV")
		w(m.PlusA...)
	}
	for _, pt := range m.Parts {
		w(pt.Text(r))
	}
}
