package engine

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

type skelRules struct{ Version string }

func (r *skelRules) RulesetVersion() string { return r.Version }

// TestRulesetLoader: the default data file is parsed once, another data
// file once per content, a bad one is refused with the parser's error.
func TestRulesetLoader(t *testing.T) {
	parses := 0
	rs := &Ruleset[*skelRules]{Default: []byte("v1"), Parse: func(b []byte) (*skelRules, error) {
		parses++
		if string(b) == "bad" {
			return nil, BadRuleset("bad %s", "file")
		}
		return &skelRules{Version: string(b)}, nil
	}}
	for i := 0; i < 3; i++ {
		r, sha, err := rs.Load(nil)
		if err != nil || r.Version != "v1" || sha != RulesetSHA([]byte("v1")) {
			t.Fatalf("default: %+v %s %v", r, sha, err)
		}
		if r, _, err := rs.Load([]byte("v2")); err != nil || r.Version != "v2" {
			t.Fatalf("override: %+v %v", r, err)
		}
	}
	if parses != 2 {
		t.Errorf("%d parses for two data files", parses)
	}
	_, _, err := rs.Load([]byte("bad"))
	var re *RuleError
	if !errors.As(err, &re) || re.Code != "bad_ruleset" || re.Params["error"] != "bad file" {
		t.Errorf("bad data file: %v", err)
	}
}

// TestSetupAndDecode: Setup builds the Header from the resolved variant,
// options and ruleset; DecodeStateJSON refuses another game's state, an
// old schema and another ruleset; CheckPlayers wants one player a seat.
func TestSetupAndDecode(t *testing.T) {
	info := Info{Name: "skel", MinPlayers: 2, MaxPlayers: 3, Variants: []Variant{{Name: "standard"}},
		Options: []OptionSpec{{Name: "speed", Values: []string{"slow", "fast"}}}}
	rs := &Ruleset[*skelRules]{Default: []byte("v7"), Parse: func(b []byte) (*skelRules, error) { return &skelRules{Version: string(b)}, nil }}
	h, r, err := Setup(info, 3, rs, Config{Seats: []string{"ann", "bob"}, Seed: "s", Options: map[string]string{"speed": "fast"}})
	if err != nil || r.Version != "v7" || h.Game != "skel" || h.Schema != 3 || h.Variant != "standard" ||
		h.Options["speed"] != "fast" || h.RulesetVersion != "v7" || h.RulesetSHA != RulesetSHA([]byte("v7")) || len(h.Seats) != 2 {
		t.Fatalf("Setup: %+v %+v %v", h, r, err)
	}
	if _, _, err := Setup(info, 3, rs, Config{Seats: []string{"ann"}}); err == nil {
		t.Error("Setup accepted one player of a 2-3 player game")
	}
	type st struct {
		H       Header
		Players []int
	}
	good, _ := json.Marshal(st{H: h, Players: []int{0, 0}})
	var s st
	if err := DecodeStateJSON("skel", 3, h.RulesetSHA, good, &s, &s.H); err != nil || CheckPlayers("skel", len(s.Players), &s.H) != nil {
		t.Fatalf("a good state: %v", err)
	}
	for _, c := range []struct {
		game, sha, want string
		schema          int
		data            []byte
	}{
		{"other", h.RulesetSHA, "state of game", 3, good},
		{"skel", h.RulesetSHA, "schema", 4, good},
		{"skel", "abc", "ruleset", 3, good},
		{"skel", h.RulesetSHA, "skel:", 3, []byte("{")},
	} {
		var s st
		if err := DecodeStateJSON(c.game, c.schema, c.sha, c.data, &s, &s.H); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s/%d/%s: %v, want %q", c.game, c.schema, c.sha, err, c.want)
		}
	}
	if err := CheckPlayers("skel", 1, &h); err == nil {
		t.Error("one player for two seats accepted")
	}
	if b, err := NamedBot("skel", "random", nil); err != nil || b == nil {
		t.Errorf("random: %v", err)
	}
	if _, err := NamedBot("skel", "clever", map[string]Bot{"greedy": RandomBot{}}); err == nil {
		t.Error("an unknown bot was made")
	}
}
