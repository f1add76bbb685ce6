package fromage

import (
	"strconv"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/fromage/catalog"
)

// schema is the version of the state layout (Header.Schema).
const schema = 1

func init() { engine.Register(Game{}) }

// Game is the Fromage game. Its zero value is ready to use.
type Game struct{}

var _ engine.Game = Game{}
var _ engine.BotMaker = Game{}

// venueOrders lists every assignment of the four venues to the board
// quadrants q0..q3 (FR-3.3), as letters C(ity) F(estival) D(airy) B(istro).
var venueOrders = func() []string {
	var out []string
	var rec func(prefix string, rest string)
	rec = func(prefix, rest string) {
		if rest == "" {
			out = append(out, prefix)
			return
		}
		for i := range rest {
			rec(prefix+rest[i:i+1], rest[:i]+rest[i+1:])
		}
	}
	rec("", "CFDB")
	return out
}()

// Info describes Fromage for listings, setup validation and help.
func (Game) Info() engine.Info { return info }

// info is the game's description, built once and shared by every
// Info (engine.Game.Info: read-only; issue 24).
var info = engine.Info{
	Name: catalog.GameName, Title: "Fromage",
	MinPlayers: 1, MaxPlayers: 4,
	Variants: []engine.Variant{
		{Name: "standard", Description: "printed structure abilities (FR-3.10 off)"},
		{Name: "advanced", Description: "structure-tile draft and placement before turn 1 (FR-5.11)"},
	},
	Options: []engine.OptionSpec{
		{Name: "city_side", Values: catalog.SideNames, Description: "side of the City insert (FR-3.2)"},
		{Name: "festival_side", Values: catalog.SideNames, Description: "side of the Festival insert (FR-3.2)"},
		{Name: "dairy_side", Values: catalog.SideNames, Description: "side of the Dairy Shop insert (FR-3.2)"},
		{Name: "bistro_side", Values: catalog.SideNames, Description: "side of the Bistro insert (FR-3.2)"},
		{Name: "venues", Values: append([]string{"random"}, venueOrders...), Description: "venues at quadrants q0..q3 (C City, F Festival, D Dairy, B Bistro), random unless fixed (FR-3.3)"},
		{Name: "tile", Values: append([]string{"random"}, catalog.ResNames...), Description: "resource of the Resource tile at quadrant q0, random unless fixed (FR-3.4)"},
		{Name: "boards", Values: []string{"random", "fixed"}, Description: "player boards: random, or board 1, 2, ... in seat order (FR-3.8)"},
		{Name: "level", Values: catalog.LevelValues, Description: "Corporation level in the solo game (FR-5.12, D-16)"},
	},
	RulePrefix: "FR",
	Commands: []string{"GATHER", "MAKE", "MILK", "BUILD", "BARN", "TAKE", "TRADE", "NOTRADE", "COMPLETE", "KEEP",
		"CHOOSE", "DONE", "PASS", "UNDO", "CORP", "PICK", "PICKS", "PLACE", "NOTILE", "READY", "PLAN", "NEXT", "SET"},
	ScriptKinds: []engine.ScriptKind{
		{Kind: "draw", Usage: "!draw O05 O17 (the next Order cards drawn, in order)"},
		{Kind: "tile", Usage: "!tile ST08 ST21 (the next structure tiles drawn in the solo draft)"},
	},
	Bots: []string{"random", "greedy"},
}

// DefaultRuleset returns the embedded data file.
func (Game) DefaultRuleset() []byte { return catalog.DefaultRuleset }

// NewBot returns the named bot: "random" (a uniform legal player) or
// "greedy" (one-move look-ahead on a heuristic evaluation).
func (Game) NewBot(name string) (engine.Bot, error) {
	return engine.NamedBot(catalog.GameName, name, map[string]engine.Bot{"greedy": Greedy{}})
}

// NewState sets a game up (FR-3).
func (g Game) NewState(cfg engine.Config) (engine.State, []engine.Event, error) {
	h, rules, err := engine.Setup(g.Info(), schema, catalog.DataFile, cfg)
	if err != nil {
		return nil, nil, err
	}
	s := &State{H: h, r: rules}
	if err := s.bind(); err != nil {
		return nil, nil, err
	}
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
	if err := s.bind(); err != nil {
		return nil, err
	}
	if err := engine.CheckPlayers(catalog.GameName, len(s.Players), &s.H); err != nil {
		return nil, err
	}
	return &s, nil
}

// bind computes the layout (sides in use, crossed spaces) from the options.
func (s *State) bind() error {
	n := len(s.H.Seats)
	lay := &layout{}
	for _, g := range s.r.Groups {
		for _, p := range g.Players {
			if p == n {
				lay.group = g.Name
			}
		}
	}
	for v := range catalog.VenueNames {
		name := s.H.Options[catalog.VenueNames[v]+"_side"]
		sd := s.r.Venues[v].Side(name)
		if sd == nil {
			return engine.Reject("FR-3.2", "bad_option_value", "option", catalog.VenueNames[v]+"_side", "value", name, "allowed", catalog.SideNames)
		}
		lay.sides[v] = sd
		lay.open[v] = make([]bool, len(sd.Spaces))
		for i := range sd.Spaces {
			lay.open[v][i] = !sd.Spaces[i].Blocked(lay.group)
		}
	}
	lv, _ := strconv.Atoi(s.H.Options["level"])
	if lv < 1 || lv > len(s.r.CorpLevels) {
		return engine.Reject("FR-5.12", "bad_option_value", "option", "level", "value", s.H.Options["level"], "allowed", catalog.LevelValues)
	}
	lay.level = lv
	s.lay = lay
	return nil
}

// layout is what the options fix for the whole game: the insert group, the
// side of each venue and its crossed spaces (FR-2.6, FR-3.1, FR-3.2).
type layout struct {
	group string
	sides [4]*catalog.Side
	open  [4][]bool
	level int
}
