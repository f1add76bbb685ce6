package brewcrafters

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/brewcrafters/catalog"
)

// schema is the version of the state layout (Header.Schema).
const schema = 1

func init() { engine.Register(Game{}) }

// Game is Brew Crafters, registered as "brewcrafters". Its zero value is
// ready to use.
type Game struct{}

var _ engine.Game = Game{}
var _ engine.BotMaker = Game{}

var onOff = []string{"off", "on"}

// Info implements engine.Game.
func (Game) Info() engine.Info { return info }

// info is the game's description, built once and shared by every
// Info (engine.Game.Info: read-only; issue 24).
var info = engine.Info{
	Name: catalog.GameName, Title: "Brew Crafters",
	MinPlayers: 2, MaxPlayers: 5,
	Variants: []engine.Variant{
		{Name: "first", Description: "first game: the marked recipes and workers, basic research labs (BC-3.6, BC-3.7)"},
		{Name: "standard", Description: "recipes (2 per style) and 9 workers drawn at random",
			Options: map[string]string{"recipes": "random", "workers": "random"}},
		{Name: "complex", Description: "random setup with every optional Complex Action (BC-3.11)",
			Options: map[string]string{"recipes": "random", "workers": "random", "complex_interns": "on",
				"complex_trade": "on", "complex_agency": "on", "complex_cfarm": "on", "complex_secret": "on"}},
	},
	Options: []engine.OptionSpec{
		{Name: "research_side", Values: []string{"basic", "advanced"}, Description: "side of the Research Labs (BC-3.5; the advanced side is PROVISIONAL)"},
		{Name: "recipes", Values: []string{"first", "random"}, Description: "the 6 Advanced Recipes: the first-game set or 2 per style at random (BC-3.6)"},
		{Name: "workers", Values: []string{"first", "random"}, Description: "the 9 Skilled Workers: the first-game set or drawn at random (BC-3.7)"},
		{Name: "start_player", Values: []string{"random", "1", "2", "3", "4", "5"}, Description: "the start player: drawn, or this seat number (BC-3.9)"},
		{Name: "complex_interns", Values: onOff, Description: "Hire Interns (BC-5.12.1)"},
		{Name: "complex_trade", Values: onOff, Description: "Traders Market (BC-5.12.2)"},
		{Name: "complex_agency", Values: onOff, Description: "Employment Agency (BC-5.12.3)"},
		{Name: "complex_cfarm", Values: onOff, Description: "Community Farm (BC-5.12.4)"},
		{Name: "complex_secret", Values: onOff, Description: "Develop Secret Recipe (BC-5.12.5)"},
	},
	RulePrefix: "BC",
	Commands: []string{"M", "B", "ANNUAL", "DONE", "DISCARD", "EXCHANGE", "LOAN", "PLANT", "HARVEST",
		"PICK", "HIRE", "INTERN", "PASS", "SET", "QUEUE", "RESEARCH"},
	ScriptKinds: []engine.ScriptKind{
		{Kind: "start", Usage: "!start 2 (the start player's seat index, 0-based)"},
	},
	Bots: []string{"random", "greedy"},
}

// DefaultRuleset implements engine.Game.
func (Game) DefaultRuleset() []byte { return catalog.DefaultRuleset }

// NewBot implements engine.BotMaker.
func (Game) NewBot(name string) (engine.Bot, error) {
	return engine.NamedBot(catalog.GameName, name, map[string]engine.Bot{"greedy": Greedy{}})
}

// NewState implements engine.Game: setup per BC-3.
func (g Game) NewState(cfg engine.Config) (engine.State, []engine.Event, error) {
	h, r, err := engine.Setup(g.Info(), schema, catalog.DataFile, cfg)
	if err != nil {
		return nil, nil, err
	}
	n := len(cfg.Seats)
	if sp := h.Options["start_player"]; sp != "random" {
		k, _ := strconv.Atoi(sp)
		if k > n {
			return nil, nil, engine.Reject("BC-3.9", "bad_option_value", "option", "start_player", "value", sp)
		}
	}
	s := &State{H: h, N: n, r: r, Cur: -1}
	s.setup()
	s.settle()
	evs := s.ev
	s.ev = nil
	return s, evs, nil
}

// DecodeState implements engine.Game.
func (Game) DecodeState(data, ruleset []byte) (engine.State, error) {
	r, sha, err := catalog.DataFile.Load(ruleset)
	if err != nil {
		return nil, err
	}
	var s State
	if err := engine.DecodeStateJSON(catalog.GameName, schema, sha, data, &s, &s.H); err != nil {
		return nil, err
	}
	if err := engine.CheckPlayers(catalog.GameName, len(s.P), &s.H); err != nil || s.N != len(s.P) {
		return nil, fmt.Errorf("brewcrafters: %d players (N %d) for %d seats", len(s.P), s.N, len(s.H.Seats))
	}
	s.r = r
	return &s, nil
}

// setup lays the game out (BC-3).
func (s *State) setup() {
	r, n := s.r, s.N
	// BC-3.9 start player.
	if sp := s.opt("start_player"); sp != "random" {
		k, _ := strconv.Atoi(sp)
		s.Start = k - 1
	} else {
		s.Start = s.H.Rand.Intn("start", n)
	}
	// BC-3.2, BC-3.11 market spaces.
	for _, sp := range r.Space {
		if !slices.Contains(sp.Players, n) || (sp.Complex != "" && !s.on(sp.Complex)) {
			continue
		}
		s.Spaces = append(s.Spaces, Space{ID: sp.ID, Occ: -1})
	}
	// BC-3.3 partnerships.
	for _, pt := range r.Partner {
		if n >= pt.MinPlayers {
			s.Partners = append(s.Partners, pt.ID)
		}
	}
	// BC-3.6 recipes: the basics, then 2 advanced per style.
	for _, rc := range r.Recipe {
		if rc.Basic() {
			s.Recipes = append(s.Recipes, rc.ID)
		}
	}
	random := s.opt("recipes") == "random"
	for _, st := range catalog.Styles {
		var pool []string
		for _, rc := range r.Recipe {
			if rc.Style == st && !rc.Basic() && (random || rc.FirstGame) {
				pool = append(pool, rc.ID)
			}
		}
		if random {
			s.H.Rand.Shuffle(len(pool), func(i, j int) { pool[i], pool[j] = pool[j], pool[i] })
		}
		s.Recipes = append(s.Recipes, pool[:2]...)
		s.Labels = append(s.Labels, pool[:2]...)
	}
	for _, rc := range r.Recipe {
		if !rc.Basic() && !slices.Contains(s.Recipes, rc.ID) {
			s.Box = append(s.Box, rc.ID)
		}
	}
	// BC-3.7 workers: 9, none about Collaboration alone in 2-player games.
	var pool []string
	for _, w := range r.Worker {
		if n == 2 && w.CollabOnly {
			continue
		}
		pool = append(pool, w.ID)
	}
	if s.opt("workers") == "random" {
		s.H.Rand.Shuffle(len(pool), func(i, j int) { pool[i], pool[j] = pool[j], pool[i] })
		s.Workers = append([]string(nil), pool[:9]...)
		s.Unused = append([]string{}, pool[9:]...)
	} else {
		s.Unused = []string{}
		for _, id := range pool {
			if r.Workers[id].FirstGame {
				s.Workers = append(s.Workers, id)
			} else {
				s.Unused = append(s.Unused, id)
			}
		}
	}
	// BC-3.4 Collaboration in 3-5 player games; BC-3.11 Community Farm.
	if n >= 3 {
		s.Collab = []int{-1, -1, -1, -1}
	}
	if s.on("cfarm") {
		s.CF = make([]int, len(r.CFarm))
		for i := range s.CF {
			s.CF[i] = -1
		}
		s.CFTok = []int{}
	}
	if s.on("interns") {
		s.Interns = n
	}
	s.InternAt = make([][]int, s.last()+1)
	for i := range s.InternAt {
		s.InternAt[i] = []int{}
	}
	// BC-3.5, BC-3.10 players.
	s.P = make([]Player, n)
	for seat := range s.P {
		row := r.Seat[(seat-s.Start+n)%n]
		s.P[seat] = Player{Money: r.Economy.StartMoney + row.Money, Ing: row.GainBag, Shifts: 1,
			Brewed: []string{}, Built: []string{}, Plots: []string{}, Workers: []string{}, Partners: []string{},
			Labels: []string{}, Shipping: []string{}, Secrets: []string{}, Revealed: []string{}, Pot: []string{},
			Collab: []string{}, Annual: []string{}}
	}
	s.Order = s.turnOrder()
	s.emit("setup", -1, "start", s.Start, "recipes", append([]string(nil), s.Recipes...),
		"workers", append([]string(nil), s.Workers...), "partners", append([]string(nil), s.Partners...))
	s.beginSeason()
}
