package dicebrewing

import (
	"strings"

	"github.com/pbem-referee/referee/engine"
)

// Menus that fit a decision (issue 22): every legal option of every
// decision is numbered, and a long menu is grouped by kind of action
// (engine.Option.Group), the groups in Legal's order, each with a heading
// in words in the templates (option.group). The group of an option is a
// code for the templates and webhook clients, never shown to a player:
//
//	PLACE <slot>   a board slot ("PLACE MH1", the speed-up "PLACE MH1+")
//	PLAY <token>   an action token ("PLAY SHIELD")
//	STORE          storing a die (DB-5.1)
//	BUY MARKET     a special ingredient (DB-5.7.3, DB-5.7.4)
//	BUY BLACK      an action token of the Black Market
//	BREW <card>    one recipe, each improvement and reward choice
//	PICK           a die for the SS1 reroll, and REROLL
//	GET            a reward choice
//	END            the moves that end a turn (PASS, DONE, END, NOBUY)
//
// The group is a part of the command itself (no allocation): Legal is on
// the bots' hot path.

// Group codes that are not a part of the command.
const (
	groupStore  = "STORE"
	groupMarket = "BUY MARKET"
	groupBlack  = "BUY BLACK"
	groupPick   = "PICK"
	groupGet    = "GET"
	groupEnd    = "END"
)

// grouped sets the Group of each option of a menu.
func (s *state) grouped(out []engine.Option) []engine.Option {
	for i := range out {
		out[i].Group = s.groupOf(out[i].Cmd)
	}
	return out
}

// groupOf returns the menu group of an option's canonical command.
func (s *state) groupOf(cmd string) string {
	verb, rest, _ := strings.Cut(cmd, " ")
	switch verb {
	case "PLACE", "PLAY", "BREW":
		if k := strings.IndexByte(rest, ' '); k >= 0 {
			return cmd[:len(verb)+1+k]
		}
		return cmd
	case "STORE":
		return groupStore
	case "BUY":
		code, _, _ := strings.Cut(rest, " ")
		if s.Rules.Ingr(code) >= 0 {
			return groupMarket
		}
		return groupBlack
	case "PICK", "REROLL":
		return groupPick
	case "GET":
		return groupGet
	}
	return groupEnd
}
