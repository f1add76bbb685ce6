package engine

import (
	"encoding/json"
	"fmt"
	"sync"
)

// The shared skeleton of a game package (see doc.go, "The skeleton of a
// game"): what every game's game.go and data.go would otherwise write
// again. All of it is pure.

// Versioned is a game's compiled data file: it knows its version (the
// data file's "version", recorded in the state's Header).
type Versioned interface {
	RulesetVersion() string
}

// Ruleset loads a game's data file: the embedded Default, parsed once, and
// any other data file (an organiser's RULESET or ERRATUM) parsed once per
// SHA-256. The zero value with Default and Parse set is ready to use; it is
// safe for concurrent use.
type Ruleset[T any] struct {
	// Default is the embedded data file (loaded for a nil ruleset).
	Default []byte
	// Parse decodes and validates a data file.
	Parse func([]byte) (T, error)

	cache  RulesetCache[T]
	once   sync.Once
	def    T
	defSHA string
	defErr error
}

// Load returns the compiled rules of a data file and its SHA-256 (nil: the
// default).
func (r *Ruleset[T]) Load(data []byte) (T, string, error) {
	if data == nil {
		r.once.Do(func() { r.def, r.defSHA, r.defErr = r.cache.Get(r.Default, r.Parse) })
		return r.def, r.defSHA, r.defErr
	}
	return r.cache.Get(data, r.Parse)
}

// BadRuleset is the error of a data file that does not validate: "why"
// is "data" (a value the game's checks refuse; "error" says which, for
// logs).
func BadRuleset(format string, args ...any) error {
	return Reject("", "bad_ruleset", "error", fmt.Sprintf(format, args...), "why", "data")
}

// Setup begins every NewState: the configuration's variant and options
// resolved against the game's Info, its ruleset loaded, and the Header of
// the new state.
func Setup[T Versioned](info Info, schema int, rs *Ruleset[T], cfg Config) (Header, T, error) {
	var zero T
	v, opts, err := ResolveOptions(info, cfg)
	if err != nil {
		return Header{}, zero, err
	}
	r, sha, err := rs.Load(cfg.Ruleset)
	if err != nil {
		return Header{}, zero, err
	}
	return NewHeader(info.Name, schema, v.Name, opts, cfg, r.RulesetVersion(), sha), r, nil
}

// DecodeStateJSON begins every DecodeState: data is unmarshalled into s,
// whose Header is h, and the header is checked against the engine (the
// game, the schema of the state layout, the ruleset the game was started
// with, whose SHA-256 is sha).
func DecodeStateJSON(game string, schema int, sha string, data []byte, s any, h *Header) error {
	if err := json.Unmarshal(data, s); err != nil {
		return fmt.Errorf("%s: %w", game, err)
	}
	if h.Game != game {
		return fmt.Errorf("%s: state of game %q", game, h.Game)
	}
	if h.Schema != schema {
		return fmt.Errorf("%s: state schema %d, this engine reads %d", game, h.Schema, schema)
	}
	if h.RulesetSHA != sha {
		return fmt.Errorf("%s: the state was started with ruleset %s, not %s", game, h.RulesetSHA, sha)
	}
	return nil
}

// CheckPlayers is the last check of a decoded state: one player for every
// seat of its Header.
func CheckPlayers(game string, players int, h *Header) error {
	if players != len(h.Seats) {
		return fmt.Errorf("%s: %d players for %d seats", game, players, len(h.Seats))
	}
	return nil
}

// NamedBot returns a game's bot by name: "random" is RandomBot, the others
// are the game's own (bots), as its Info lists them.
func NamedBot(game, name string, bots map[string]Bot) (Bot, error) {
	if name == "random" {
		return RandomBot{}, nil
	}
	if b, ok := bots[name]; ok {
		return b, nil
	}
	return nil, fmt.Errorf("%s: no bot %q", game, name)
}
