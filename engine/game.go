package engine

import (
	"fmt"
	"sort"
	"sync"
)

// Game describes one board game and creates its states. Implementations live
// in one sub-package per game and call Register from an init function.
type Game interface {
	// Info describes the game: name, variants, player counts, options.
	// It is one value built once: callers read it and never change its
	// slices or maps.
	Info() Info
	// DefaultRuleset returns the embedded data file (cards, tiles, boards,
	// prices, scoring legends) that NewState uses when Config.Ruleset is nil.
	DefaultRuleset() []byte
	// NewState sets up a new game. It validates the config (variant, option
	// values, player count, ruleset data) and returns the initial state and
	// the setup events (seat order, shuffles, starting resources...).
	NewState(cfg Config) (State, []Event, error)
	// DecodeState rebuilds a state from the JSON produced by marshalling a
	// State of this game. ruleset is the data file the state was started with
	// (nil for the default); its SHA-256 must match the one recorded in the
	// state's Header.
	DecodeState(data, ruleset []byte) (State, error)
}

// Info describes a game for listings, setup validation and help.
type Info struct {
	Name       string       `json:"name"`  // registry key, e.g. "dicebrewing"
	Title      string       `json:"title"` // display name, e.g. "Dice Brewing"
	MinPlayers int          `json:"min_players"`
	MaxPlayers int          `json:"max_players"`
	Variants   []Variant    `json:"variants"` // the first is the default
	Options    []OptionSpec `json:"options,omitempty"`
	// RulePrefix is the prefix of the game's rule ids, e.g. "DB" or "FR".
	RulePrefix string `json:"rule_prefix"`
	// Commands lists the game's command keywords (for help and aliases).
	Commands []string `json:"commands"`
	// ScriptKinds lists the directive names that script the random source in
	// offline play and tests (for example "dice", "draw"), with a usage hint.
	ScriptKinds []ScriptKind `json:"script_kinds,omitempty"`
	// Bots lists the names of the game's bots; "random" is always first.
	Bots []string `json:"bots,omitempty"`
}

// Variant is a named setup of a game. Players restricts the player counts the
// variant allows (nil: the game's whole range).
type Variant struct {
	Name        string            `json:"name"`
	Description string            `json:"description"`
	Players     []int             `json:"players,omitempty"`
	Options     map[string]string `json:"options,omitempty"` // options the variant implies
}

// OptionSpec is a game option with its allowed values; the first is the default.
type OptionSpec struct {
	Name        string   `json:"name"`
	Values      []string `json:"values"`
	Description string   `json:"description"`
}

// ScriptKind documents one kind of scripted random outcome.
type ScriptKind struct {
	Kind  string `json:"kind"`
	Usage string `json:"usage"`
}

// Allows reports whether the game (and variant, if given) allows n players.
func (i Info) Allows(variant string, n int) bool {
	if n < i.MinPlayers || n > i.MaxPlayers {
		return false
	}
	for _, v := range i.Variants {
		if v.Name != variant || len(v.Players) == 0 {
			continue
		}
		for _, p := range v.Players {
			if p == n {
				return true
			}
		}
		return false
	}
	return true
}

// NearestPlayers returns the allowed player count (any variant) nearest
// to want, the larger on a tie; MinPlayers when none is within 8.
func (i Info) NearestPlayers(want int) int {
	for d := 0; d < 8; d++ {
		for _, k := range []int{want + d, want - d} {
			if k >= 1 && i.Allows("", k) {
				return k
			}
		}
	}
	return i.MinPlayers
}

// BestBot names the game's sensible bot: its second bot (the first is
// always "random") when it has one, else "random".
func (i Info) BestBot() string {
	if len(i.Bots) > 1 {
		return i.Bots[1]
	}
	return "random"
}

// Variant returns the named variant; "" means the default (first) variant.
func (i Info) Variant(name string) (Variant, bool) {
	if name == "" && len(i.Variants) > 0 {
		return i.Variants[0], true
	}
	for _, v := range i.Variants {
		if v.Name == name {
			return v, true
		}
	}
	return Variant{}, false
}

// Config is everything needed to set up a game.
type Config struct {
	Variant string            `json:"variant,omitempty"` // "" = default variant
	Options map[string]string `json:"options,omitempty"` // game options; unknown names are rejected
	Seats   []string          `json:"seats"`             // player names, in the seating order given
	Seed    string            `json:"seed"`              // any string; the random source is derived from it
	Ruleset []byte            `json:"-"`                 // data file override; nil = DefaultRuleset
	// Script holds random outcomes scripted before the setup (the setup's
	// own draws: starting cards, a first player), for tests and offline play.
	Script []Forced `json:"script,omitempty"`
}

// ResolveOptions validates cfg against info and returns the variant and the
// complete option map (defaults filled in, variant options applied). Games
// call it at the top of NewState.
func ResolveOptions(info Info, cfg Config) (Variant, map[string]string, error) {
	v, ok := info.Variant(cfg.Variant)
	if !ok {
		return Variant{}, nil, Reject("", "unknown_variant", "variant", cfg.Variant)
	}
	if !info.Allows(v.Name, len(cfg.Seats)) {
		return Variant{}, nil, Reject("", "player_count", "players", len(cfg.Seats),
			"min", info.MinPlayers, "max", info.MaxPlayers, "variant", v.Name)
	}
	seen := map[string]bool{}
	for _, s := range cfg.Seats {
		if s == "" || seen[s] {
			return Variant{}, nil, Reject("", "bad_seat_name", "name", s)
		}
		seen[s] = true
	}
	opts := make(map[string]string, len(info.Options))
	for _, o := range info.Options {
		opts[o.Name] = o.Values[0]
	}
	for k, val := range v.Options {
		opts[k] = val
	}
	for k, val := range cfg.Options {
		spec, ok := findOption(info, k)
		if !ok {
			return Variant{}, nil, Reject("", "unknown_option", "option", k)
		}
		if !contains(spec.Values, val) {
			return Variant{}, nil, Reject("", "bad_option_value", "option", k, "value", val, "allowed", spec.Values)
		}
		if vv, fixed := v.Options[k]; fixed && vv != val {
			return Variant{}, nil, Reject("", "option_fixed_by_variant", "option", k, "variant", v.Name, "value", vv)
		}
		opts[k] = val
	}
	return v, opts, nil
}

func findOption(info Info, name string) (OptionSpec, bool) {
	for _, o := range info.Options {
		if o.Name == name {
			return o, true
		}
	}
	return OptionSpec{}, false
}

func contains(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

var (
	regMu    sync.RWMutex
	registry = map[string]Game{}
)

// Register adds a game to the registry. It panics if the name is empty or
// already taken; call it from the game package's init function.
func Register(g Game) {
	name := g.Info().Name
	regMu.Lock()
	defer regMu.Unlock()
	if name == "" {
		panic("engine: Register with an empty game name")
	}
	if _, dup := registry[name]; dup {
		panic(fmt.Sprintf("engine: game %q registered twice", name))
	}
	registry[name] = g
}

// Lookup returns the registered game with that name.
func Lookup(name string) (Game, error) {
	regMu.RLock()
	defer regMu.RUnlock()
	g, ok := registry[name]
	if !ok {
		return nil, fmt.Errorf("%w: %q", ErrUnknownGame, name)
	}
	return g, nil
}

// GameCount is the number of registered games: what changes when a game
// registers, for a cache of what is made of every game (cmdtable's
// KeywordSet, asked once a mail: issue 25, Games sorts and allocates).
func GameCount() int {
	regMu.RLock()
	defer regMu.RUnlock()
	return len(registry)
}

// Games returns every registered game, sorted by name.
func Games() []Game {
	regMu.RLock()
	defer regMu.RUnlock()
	out := make([]Game, 0, len(registry))
	for _, g := range registry {
		out = append(out, g)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Info().Name < out[j].Info().Name })
	return out
}
