package heavenale

import (
	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/heavenale/catalog"
)

// schema is the version of the state layout (Header.Schema).
const schema = 1

func init() { engine.Register(Game{}) }

// Game is the Heaven & Ale game. Its zero value is ready to use.
type Game struct{}

var _ engine.Game = Game{}
var _ engine.BotMaker = Game{}

// Info describes Heaven & Ale for listings, setup validation and help.
func (Game) Info() engine.Info { return info }

// info is the game's description, built once and shared by every
// Info (engine.Game.Info: read-only; issue 24).
var info = engine.Info{
	Name: catalog.GameName, Title: "Heaven & Ale",
	MinPlayers: 2, MaxPlayers: 4,
	Variants: []engine.Variant{
		{Name: "standard", Description: "the rulebook game: 3, 4 or 6 rounds for 2, 3 or 4 players"},
	},
	Options: []engine.OptionSpec{
		{Name: "start_player", Values: []string{"random", "1", "2", "3", "4"}, Description: "start player: random, or a seat number (HA-3.9)"},
		{Name: "setup_pick_direction", Values: []string{"counterclockwise", "clockwise"}, Description: "order of the setup start-space picks (AMB-1)"},
		{Name: "final_exchange_may_stop", Values: []string{"false", "true"}, Description: "final exchanges may stop early (AMB-3, HA-7.6)"},
		{Name: "allow_x_without_matching_tile", Values: []string{"false", "true"}, Description: "X may name a number with no matching tile (AMB-4)"},
		{Name: "adjacent_triggered_monks_activate_each_other", Values: []string{"true", "false"}, Description: "two triggered monks side by side activate each other (AMB-5)"},
		{Name: "show_pile_contents", Values: []string{"false", "true"}, Description: "summaries list the tiles left in resource piles I and II (HA-6.3)"},
	},
	RulePrefix: "HA",
	Commands:   []string{"GO", "BUY", "DONE", "SHED", "SCORE", "PRIV", "SELL", "HOME", "UNDO", "PREF", "AUTO"},
	ScriptKinds: []engine.ScriptKind{
		{Kind: "tile", Usage: "!tile HO5 BA3 (the next resource tiles drawn, in track order)"},
		{Kind: "first", Usage: "!first ann (the start player)"},
	},
	Bots: []string{"random", "greedy"},
}

// DefaultRuleset returns the embedded data file.
func (Game) DefaultRuleset() []byte { return catalog.DefaultRuleset }

// NewBot returns the named bot.
func (Game) NewBot(name string) (engine.Bot, error) {
	return engine.NamedBot(catalog.GameName, name, map[string]engine.Bot{"greedy": Greedy{}})
}

// NewState sets a game up (HA-3).
func (g Game) NewState(cfg engine.Config) (engine.State, []engine.Event, error) {
	h, rules, err := engine.Setup(g.Info(), schema, catalog.DataFile, cfg)
	if err != nil {
		return nil, nil, err
	}
	if sp := h.Options["start_player"]; sp != "random" && int(sp[0]-'0') > len(cfg.Seats) {
		return nil, nil, engine.Reject("HA-3.9", "bad_option_value", "option", "start_player", "value", sp)
	}
	s := &State{H: h, r: rules}
	evs := s.setup()
	return s, evs, nil
}

// DecodeState rebuilds a state from its JSON.
func (Game) DecodeState(data, ruleset []byte) (engine.State, error) {
	rules, sha, err := catalog.DataFile.Load(ruleset)
	if err != nil {
		return nil, err
	}
	var s State
	if err := engine.DecodeStateJSON(catalog.GameName, schema, sha, data, &s, &s.H); err != nil {
		return nil, err
	}
	s.r = rules
	if err := engine.CheckPlayers(catalog.GameName, len(s.Players), &s.H); err != nil {
		return nil, err
	}
	return &s, nil
}
