package fromage

import (
	"slices"
	"strconv"
	"strings"
)

// TurnLine is what a turn menu's line says of its option besides the
// option's own words (issue 25; doc.go, "Menus in words"), read from the
// seat's own View: templates/fromage/*/menu.tmpl (option.turn) reads only
// the option and View.TurnLines[the option's command], so that a line is
// rendered once and kept from one mail to the next (referee/tell's menu
// lines), not rendered again for every option of every mail. It holds
// values only (no pointer), and only what its verb reads: two options
// that read the same are keyed alike.
type TurnLine struct {
	// Resource: GATHER, the resource faced now (NowView.Resource).
	Resource string
	// Build: BUILD <column>, the seat's ability of that column
	// (PlayerView.Abilities, 1-based; none when out of range).
	Build []AbilityView
	// Barn: BARN, the names of the seat's built column-I abilities.
	Barn []string
	// Spaces: MAKE, MILK and BARN, the open spaces of the venue faced
	// (NowView.Open) whose id is the command's space (its last word of
	// two letters or more but KEEP), as the line names them.
	Spaces []TurnSpace
	// Order: that space matches a pending Order (NowView.Matches).
	Order bool
}

// TurnSpace is a space as a turn line names it: its cheese and icon.
type TurnSpace struct {
	Type, Aging, Icon string
}

// turnLines is the View's TurnLines: by command, the line of each
// option of the seat's turn decision (legalTurn), from v's Now and You
// (the seat's own view, as the line was once read from it); nil when the
// seat has no turn decision to answer.
func (s *State) turnLines(seat int, v *View) map[string]TurnLine {
	if seat < 0 || seat >= len(s.Players) || s.kindOf(seat) != kindTurn || v.Now == nil || v.You == nil {
		return nil
	}
	opts := s.legalTurn(seat)
	out := make(map[string]TurnLine, len(opts))
	for _, o := range opts {
		out[o.Cmd] = turnLine(o.Cmd, v.Now, v.You)
	}
	return out
}

// turnLine is the TurnLine of the turn command cmd.
func turnLine(cmd string, now *NowView, you *PlayerView) TurnLine {
	f := strings.Fields(cmd)
	if len(f) == 0 {
		return TurnLine{}
	}
	var l TurnLine
	switch f[0] {
	case "GATHER":
		l.Resource = now.Resource
		return l
	case "BUILD":
		for i, a := range you.Abilities {
			if len(f) > 1 && strconv.Itoa(i+1) == f[1] {
				l.Build = append(l.Build, a)
			}
		}
		return l
	case "DONE":
		return l
	case "BARN":
		for _, a := range you.Abilities {
			if a.Column == "I" && a.Built {
				l.Barn = append(l.Barn, a.Name)
			}
		}
	}
	id := ""
	for i, w := range f {
		if i > 0 && w != "KEEP" && len(w) > 1 {
			id = w
		}
	}
	for _, sp := range now.Open {
		if sp.ID == id {
			l.Spaces = append(l.Spaces, TurnSpace{Type: sp.Type, Aging: sp.Aging, Icon: sp.Icon})
		}
	}
	l.Order = id != "" && slices.Contains(now.Matches, id)
	return l
}
