package dicebrewing

import (
	"fmt"
	"strconv"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/dicebrewing/catalog"
	"github.com/pbem-referee/referee/engine/dicebrewing/position"
)

func init() { engine.Register(Game) }

// Game is Dice Brewing, registered as "dicebrewing".
var Game engine.Game = game{}

type game struct{}

// Info implements engine.Game.
func (game) Info() engine.Info { return info }

// info is the game's description, built once and shared by every
// Info (engine.Game.Info: read-only; issue 24).
var info = engine.Info{
	Name:       catalog.GameName,
	Title:      "Dice Brewing",
	MinPlayers: 2,
	MaxPlayers: 4,
	Variants: []engine.Variant{
		{Name: "standard", Description: "standard recipe setup (fixed starting display), action tokens face up"},
		{Name: "advanced", Description: "advanced recipe setup (random display) and hidden action tokens",
			Options: map[string]string{position.OptSetup: "advanced", position.OptHidden: "true"}},
	},
	Options: []engine.OptionSpec{
		{Name: position.OptSetup, Values: []string{"standard", "advanced"}, Description: "starting display: the fixed green-backed cards, or dealt from the shuffled deck (DB-3.3, DB-3.4)"},
		{Name: position.OptHidden, Values: []string{"false", "true"}, Description: "owned action tokens are face down; opponents see only how many (DB-6.6)"},
		{Name: position.OptUnlucky, Values: []string{"false", "true"}, Description: "rolled 1s give purchase credit (DB-5.7.9)"},
		{Name: position.OptBlockB, Values: []string{"placement", "brewing"}, Description: "BLOCKB is played in W0 and forbids placing, or in W3 and cancels pending effects (DB-5.8.5, A-7)"},
		{Name: position.OptFirst, Values: []string{"random", "1", "2", "3", "4"}, Description: "the first player: drawn at random, or the seat with this number (DB-3.7)"},
		{Name: position.OptLimit, Values: []string{"none", "3", "4", "5", "6", "8", "10", "12", "15", "20", "30"}, Description: "house rule, not in the rulebook: the game also ends after this round (a safety valve for stalled games)"},
	},
	RulePrefix: "DB",
	Commands: []string{"STORE", "AUTOSTORE", "TOKENS", "PLACE", "END", "PICK", "REROLL", "PASS", "PLAY", "DONE",
		"BUY", "NOBUY", "BREW", "GET"},
	ScriptKinds: []engine.ScriptKind{
		{Kind: "dice", Usage: "!dice 3 4 5 (the next die rolls, in the order the engine rolls them)"},
		{Kind: "draw", Usage: "!draw R12 (the next card turned face up from the deck)"},
	},
	Bots: []string{"random", "greedy"},
}

// DefaultRuleset implements engine.Game.
func (game) DefaultRuleset() []byte { return catalog.DefaultRuleset }

// NewBot implements engine.BotMaker.
func (game) NewBot(name string) (engine.Bot, error) {
	return engine.NamedBot(catalog.GameName, name, map[string]engine.Bot{"greedy": Greedy{}})
}

// NewState implements engine.Game: setup per DB-3.
func (g game) NewState(cfg engine.Config) (engine.State, []engine.Event, error) {
	h, r, err := engine.Setup(g.Info(), schema, catalog.DataFile, cfg)
	if err != nil {
		return nil, nil, err
	}
	n := len(cfg.Seats)
	first := -1
	if f := h.Options[position.OptFirst]; f != "random" {
		k, _ := strconv.Atoi(f)
		if k < 1 || k > n {
			return nil, nil, engine.Reject("DB-3.7", "bad_option_value", "option", position.OptFirst, "value", f,
				"allowed", firstValues(n))
		}
		first = k - 1
	}
	s := &state{Position: position.Position{H: h, N: n, Cur: -1, Rules: r}}
	s.setup(first)
	evs := s.ev
	s.ev = nil
	return s, evs, nil
}

func firstValues(n int) []string {
	out := []string{"random"}
	for i := 1; i <= n; i++ {
		out = append(out, strconv.Itoa(i))
	}
	return out
}

// DecodeState implements engine.Game.
func (game) DecodeState(data, ruleset []byte) (engine.State, error) {
	r, sha, err := catalog.DataFile.Load(ruleset)
	if err != nil {
		return nil, err
	}
	var s state
	if err := engine.DecodeStateJSON(catalog.GameName, schema, sha, data, &s.Position, &s.H); err != nil {
		return nil, err
	}
	if err := engine.CheckPlayers(catalog.GameName, len(s.P), &s.H); err != nil || s.N != len(s.P) {
		return nil, fmt.Errorf("dicebrewing: %d players (N %d) for %d seats", len(s.P), s.N, len(s.H.Seats))
	}
	s.Rules = r
	return &s, nil
}

// setup builds the starting position (DB-3.1 to DB-3.8) and starts round 1.
func (s *state) setup(first int) {
	r := s.Rules
	// DB-3.1: all dice and seeds in the supply (room for them at once:
	// issue 24, a tournament round sets up thousands of games).
	if n := r.TotalDice(); n > 0 {
		s.Dice = make([]position.Die, 0, n)
	}
	for c := 0; c < catalog.NumColours; c++ {
		for i := 0; i < r.DiceCount[c]; i++ {
			s.Dice = append(s.Dice, position.Die{C: c, O: -1, L: position.LocSupply})
		}
	}
	s.SeedSupply = r.Seeds
	// DB-3.2: Market and Black Market stacks.
	s.Market = make([]int, len(r.Ingredients))
	for i, in := range r.Ingredients {
		s.Market[i] = in.Stock
	}
	s.BM = make([]int, len(r.Tokens))
	s.Removed = make([]int, len(r.Tokens))
	for i, t := range r.Tokens {
		s.BM[i] = t.Stock
	}
	// DB-3.5: each player's starting holdings.
	s.P = make([]position.Player, s.N)
	for seat := range s.P {
		p := &s.P[seat]
		p.Coins = r.StartCoins
		p.Seeds = r.StartSeeds
		s.SeedSupply -= r.StartSeeds
		p.Ingr = make([]int, len(r.Ingredients))
		p.Tok = make([]int, len(r.Tokens))
		p.BrewPass = -1
		for _, c := range r.StartDice {
			id := s.SupplyDie(c)
			s.Dice[id] = position.Die{C: c, O: seat, L: position.LocAR}
		}
	}
	// DB-3.3 / DB-3.4: the display and the deck.
	pp := r.Players[s.N]
	if s.H.Options[position.OptSetup] == "advanced" {
		s.Deck = r.RecipeIDsInFileOrder()
		s.H.Rand.Shuffle(len(s.Deck), func(i, j int) { s.Deck[i], s.Deck[j] = s.Deck[j], s.Deck[i] })
		for i := 0; i < pp.Display; i++ {
			s.Display = append(s.Display, s.draw())
		}
	} else {
		s.Display = append([]string(nil), pp.StartDisplay...)
		ids := r.RecipeIDsInFileOrder()
		for _, id := range ids {
			if s.InDisplay(id) < 0 {
				if s.Deck == nil {
					s.Deck = make([]string, 0, len(ids))
				}
				s.Deck = append(s.Deck, id)
			}
		}
		s.H.Rand.Shuffle(len(s.Deck), func(i, j int) { s.Deck[i], s.Deck[j] = s.Deck[j], s.Deck[i] })
	}
	// DB-3.7: the first player takes the Season/Priority token, Winter side up.
	if first < 0 {
		first = s.H.Rand.Choose("first", s.H.Seats)
	}
	s.Priority = first
	s.Summer = false
	s.pub("db.setup", -1, "seats", append([]string(nil), s.H.Seats...), "first", first, "display", cloneStrings(s.Display),
		"deck", len(s.Deck), "target", s.Target(), "capacity", s.Capacity(), "variant", s.H.Variant,
		"ruleset", r.Version, "provisional", r.Provisional)
	// DB-3.8: round 1 begins.
	s.startRound(1)
	s.settle()
}

// draw takes the top card of the deck (kind "draw": a script can name the
// card to turn instead), or "" when the deck is empty (§9 A-22).
func (s *state) draw() string {
	if len(s.Deck) == 0 {
		return ""
	}
	i := s.H.Rand.Take("draw", s.Deck, 0)
	id := s.Deck[i]
	s.Deck = append(s.Deck[:i:i], s.Deck[i+1:]...)
	return id
}
