package dicebrewing

import (
	"strconv"
	"strings"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/dicebrewing/catalog"
)

// Cards implements engine.Carder (issue 22): every code a Dice Brewing mail
// shows as structured facts (dice colours, buildings, special ingredients,
// action tokens, recipe cards); the referee answers HELP <code or name>
// with them, in the words of templates/dicebrewing/<lang>/cards.tmpl.
func (s *state) Cards() []engine.Card {
	r := s.Rules
	var out []engine.Card
	add := func(kind, id, name, rule string, facts ...engine.Fact) {
		out = append(out, engine.Card{Kind: kind, ID: id, Code: id, Name: name, Rule: rule, Facts: facts})
	}
	f := func(key string, n int, goods, word string) engine.Fact {
		return engine.Fact{Key: key, N: n, Goods: goods, Word: word}
	}
	for c, l := range catalog.ColourLetters {
		add("die", l, "", "DB-7.2", f("die_"+l, r.XPColour[c], "", ""))
	}
	for _, b := range []string{"MH", "HP", "SS", "DS"} {
		add("building", b, "", "DB-5.3.3", f("bld_"+b, 0, "", ""))
	}
	for _, in := range r.Ingredients {
		c := engine.Card{Kind: "ingredient", ID: in.Code, Code: in.Code, Rule: "DB-5.7.4",
			Facts: []engine.Fact{f("price", in.Price, "", ""), f("improves", 0, "", "")}}
		for _, d := range in.Discounts {
			c.Facts = append(c.Facts, f("discount", d.Minus, "", itoa(d.BlueMin)))
		}
		out = append(out, c)
	}
	for _, t := range r.Tokens {
		c := engine.Card{Kind: "token", ID: t.Code, Code: t.Code, Rule: tokenRule[t.Code],
			Facts: []engine.Fact{f("tok_"+t.Code, 0, "", ""), f("price", t.Price, "", ""), f("windows", 0, "", strings.Join(t.Windows, " "))}}
		out = append(out, c)
	}
	for _, rc := range r.Recipes {
		c := engine.Card{Kind: "recipe", ID: rc.ID, Code: rc.ID, Name: rc.Name, Rule: "DB-5.9.3",
			Facts: []engine.Fact{f("needs", 0, strings.Join(rc.DiceText, " "), "")}}
		c.Facts = append(c.Facts, gainFacts("reward", rc.Reward)...)
		for i, im := range rc.Improve {
			what := im.Token
			if im.BlueMin > 0 {
				what = "B" + itoa(im.BlueMin)
			}
			c.Facts = append(c.Facts, f("improve", 0, "", what))
			c.Facts = append(c.Facts, gainFacts("bonus", rc.BonusFor(i))...)
		}
		out = append(out, c)
	}
	return out
}

// tokenRule is the rule of each action token (DB-5.8.5-5.8.10).
var tokenRule = map[string]string{"BLOCKB": "DB-5.8.5", "BLOCKR": "DB-5.8.6", "TAKE": "DB-5.8.7", "PLUS": "DB-5.8.8",
	"SHIELD": "DB-5.8.9", "REROLL": "DB-5.8.10"}

// gainFacts are the facts of a gain, each prefixed by what it is (reward,
// bonus).
func gainFacts(prefix string, g catalog.GainSpec) []engine.Fact {
	var out []engine.Fact
	if g.XP > 0 {
		out = append(out, engine.Fact{Key: prefix + "_xp", N: g.XP})
	}
	if g.Coins > 0 {
		out = append(out, engine.Fact{Key: prefix + "_coins", N: g.Coins})
	}
	if g.Die != "" {
		out = append(out, engine.Fact{Key: prefix + "_die", Word: g.Die})
	}
	if g.Tokens > 0 {
		out = append(out, engine.Fact{Key: prefix + "_tokens", N: g.Tokens})
	}
	return out
}

func itoa(n int) string { return strconv.Itoa(n) }
