package engine

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/BurntSushi/toml"
)

// Rulesets are the editable data files of a game (cards, tiles, boards,
// prices, scoring legends), in TOML. Each game embeds its default file; an
// organiser may supply an override for one game. A state records the version
// string and the SHA-256 of the file it was started with, so a game in
// flight never changes its data behind the players' backs.
//
// Every ruleset file starts with these keys:
//
//	game        = "dicebrewing"     # must match the game
//	version     = "2026.1"          # free-form, shown to players
//	provisional = true              # true while any table is PROVISIONAL
//
// and marks each PROVISIONAL table with a comment and a "provisional = true"
// key of its own where the schema has room for it.

// RulesetSHA returns the hex SHA-256 of a ruleset file.
func RulesetSHA(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// RulesetMeta is the common head of every ruleset file.
type RulesetMeta struct {
	Game        string `toml:"game"`
	Version     string `toml:"version"`
	Provisional bool   `toml:"provisional"`
}

// DecodeRuleset decodes TOML data into v (a pointer to the game's data
// struct, which embeds or repeats the RulesetMeta keys) strictly: unknown keys
// are an error, so an organiser's typo never passes silently. It checks that
// the file names the expected game and has a version.
func DecodeRuleset(game string, data []byte, v any) (RulesetMeta, error) {
	md, err := toml.Decode(string(data), v)
	if err != nil {
		return RulesetMeta{}, badSyntax(err)
	}
	if und := md.Undecoded(); len(und) > 0 {
		keys := make([]string, len(und))
		for i, k := range und {
			keys[i] = k.String()
		}
		sort.Strings(keys)
		return RulesetMeta{}, Reject("", "bad_ruleset", "error", "unknown keys: "+strings.Join(keys, ", "),
			"why", "keys", "keys", strings.Join(keys, ", "))
	}
	var meta RulesetMeta
	if _, err := toml.Decode(string(data), &meta); err != nil {
		return RulesetMeta{}, badSyntax(err)
	}
	if meta.Game != game {
		return RulesetMeta{}, Reject("", "bad_ruleset", "error", fmt.Sprintf("file is for game %q, not %q", meta.Game, game),
			"why", "game", "for", meta.Game)
	}
	if meta.Version == "" {
		return RulesetMeta{}, Reject("", "bad_ruleset", "error", "missing version", "why", "version")
	}
	return meta, nil
}

// RulesetCache memoises parsed rulesets by SHA-256, so that decoding a
// stored state does not parse its data file again. The zero value is ready
// to use; it is safe for concurrent use.
type RulesetCache[T any] struct {
	mu sync.Mutex
	m  map[string]T
}

// Get returns the parsed ruleset for data, parsing it with parse on first use.
func (c *RulesetCache[T]) Get(data []byte, parse func([]byte) (T, error)) (T, string, error) {
	sha := RulesetSHA(data)
	c.mu.Lock()
	v, ok := c.m[sha]
	c.mu.Unlock()
	if ok {
		return v, sha, nil
	}
	v, err := parse(data)
	if err != nil {
		return v, sha, err
	}
	c.mu.Lock()
	if c.m == nil {
		c.m = map[string]T{}
	}
	if len(c.m) > 64 {
		clear(c.m)
	}
	c.m[sha] = v
	c.mu.Unlock()
	return v, sha, nil
}

// badSyntax is the refusal of a data file that does not read as TOML:
// "why" is "syntax" and "line" the line the reading stopped at (0 when
// the reader does not say), so that a reader's words need not quote the
// TOML reader's English ("error" keeps it, for logs).
func badSyntax(err error) *RuleError {
	line := 0
	var pe toml.ParseError
	if errors.As(err, &pe) {
		line = pe.Position.Line
	}
	return Reject("", "bad_ruleset", "error", err.Error(), "why", "syntax", "line", line)
}
