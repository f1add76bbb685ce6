package dicebrewing

import (
	"strings"
	"testing"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/dicebrewing/catalog"
)

// The embedded ruleset parses, is marked PROVISIONAL where the spec says
// so (§8.0), and holds the components of §2.
func TestRulesetDefault(t *testing.T) {
	r, _, err := catalog.DataFile.Load(nil)
	if err != nil {
		t.Fatal(err)
	}
	if !r.Provisional {
		t.Error("the ruleset is not marked provisional")
	}
	if r.TotalDice() != 50 || r.DiceCount != [catalog.NumColours]int{14, 14, 12, 10} || r.Seeds != 6 {
		t.Errorf("dice %v seeds %d", r.DiceCount, r.Seeds)
	}
	if len(r.Recipes) != 30 || len(r.Ingredients) != 5 || r.TotalTokens() != 18 {
		t.Errorf("%d recipes, %d ingredients, %d tokens", len(r.Recipes), len(r.Ingredients), r.TotalTokens())
	}
	for _, in := range r.Ingredients {
		if !in.Provisional {
			t.Errorf("ingredient %s price not marked provisional", in.Code)
		}
	}
	for _, tk := range r.Tokens {
		if !tk.Provisional {
			t.Errorf("token %s price not marked provisional", tk.Code)
		}
	}
	text := string(catalog.DefaultRuleset)
	for _, s := range []string{"PROVISIONAL", "provisional = true"} {
		if !strings.Contains(text, s) {
			t.Errorf("the file does not say %q", s)
		}
	}
	// R24's seed facts (§8.7).
	rc := r.RecipeIndex["R24"]
	if strings.Join(rc.DiceText, " ") != "Y3 Y2 K5 K3 G4" || rc.Reward.XP != 5 || rc.Bonus.Coins != 5 {
		t.Errorf("R24 = %+v", rc)
	}
}

// An organiser's override is validated strictly (bad_ruleset).
func TestRulesetOverrideValidation(t *testing.T) {
	base := string(catalog.DefaultRuleset)
	cases := []struct {
		name, from, to, want string
	}{
		{"unknown key", "faces = 6", "faces = 6\ncolour = \"red\"", "unknown keys"},
		{"wrong game", `game = "dicebrewing"`, `game = "fromage"`, "not \"dicebrewing\""},
		{"no version", `version = "2026.1-provisional"`, `version = ""`, "missing version"},
		{"bad faces", "faces = 6", "faces = 1", "faces"},
		{"display count", `start_display = ["R01", "R02", "R03", "R04"]`, `start_display = ["R01", "R02", "R03"]`, "start_display"},
		{"capacity", "capacity = 3", "capacity = 5", "capacity"},
		{"negative price", "price = 2\nprovisional = true\n\n[[ingredient]]\ncode = \"SPICE\"", "price = -2\nprovisional = true\n\n[[ingredient]]\ncode = \"SPICE\"", "price"},
		{"token count", "[[action_token]]\ncode = \"PLUS\"", "[[action_token]]\ncode = \"PLUSS\"", "unknown code"},
		{"token window", "code = \"BLOCKR\"\nstock = 3\nprice = 3\nprovisional = true\nwindows = [\"W3\"]", "code = \"BLOCKR\"\nstock = 3\nprice = 3\nprovisional = true\nwindows = [\"W1\"]", "BLOCKR"},
		{"bad window", `windows = ["W0", "W1", "W2", "W3"]`, `windows = ["W0", "W9", "W2", "W3"]`, "unknown window"},
		{"bad die", `dice = ["Y2", "G2"]`, `dice = ["Y2", "Q2"]`, "bad die"},
		{"die too high", `dice = ["Y2", "G2"]`, `dice = ["Y2", "G7"]`, "more than 6"},
		{"unknown ingredient", `tokens = ["FRUIT"]`, `tokens = ["APPLE"]`, "unknown ingredient"},
		{"duplicate recipe", `id = "R02"`, `id = "R01"`, "twice"},
		{"start card in deck", "id = \"R04\"\nname = \"Sladek Pilsner\"\nstyle = \"Pilsner\"\nlevel = \"beginner\"\nsetup = \"start4\"", "id = \"R04\"\nname = \"Sladek Pilsner\"\nstyle = \"Pilsner\"\nlevel = \"beginner\"\nsetup = \"deck\"", "R04"},
		{"bad reward die", `reward = { die = "ANY", coins = 1 }`, `reward = { die = "RED", coins = 1 }`, "reward die"},
		{"two blue improvements", `improve = [{ blue_min = 2 }, { token = "FRUIT" }]`, `improve = [{ blue_min = 2 }, { blue_min = 3 }]`, "two blue"},
		{"unlucky", "credit = [0, 0, 2, 4, 6]", "credit = [0, 0, 4, 2, 6]", "unlucky"},
		{"speed-up", "MH1_speedup = 3", "MH1_speedup = 9", "MH1_speedup"},
		{"default die", `die = "K"`, `die = "X"`, "defaults"},
		{"tiebreak", `tiebreak = ["recipes", "resource_dice"]`, `tiebreak = ["beer"]`, "tiebreak"},
		{"missing player count", "[[players]]\nn = 3", "[[players]]\nn = 4", "twice"},
		{"not enough dice", "dice_b = 10", "dice_b = 3", "start_dice"},
	}
	for _, c := range cases {
		if !strings.Contains(base, c.from) {
			t.Fatalf("%s: the default file has no %q", c.name, c.from)
		}
		data := []byte(strings.Replace(base, c.from, c.to, 1))
		_, err := catalog.ParseRules(data)
		re, ok := engine.AsRuleError(err)
		if err == nil || !ok || re.Code != "bad_ruleset" || !strings.Contains(re.Params["error"].(string), c.want) {
			t.Errorf("%s: got %v, want bad_ruleset mentioning %q", c.name, err, c.want)
		}
		if _, _, err := Game.NewState(engine.Config{Seats: []string{"a", "b"}, Seed: "x", Ruleset: data}); err == nil {
			t.Errorf("%s: NewState accepted the file", c.name)
		}
	}
}

// A valid override is used and pinned by its SHA-256: decoding a state
// with another file fails.
func TestRulesetOverridePinned(t *testing.T) {
	data := []byte(strings.Replace(string(catalog.DefaultRuleset), "price = 2\nprovisional = true\n\n[[ingredient]]\ncode = \"SPICE\"", "price = 1\nprovisional = true\n\n[[ingredient]]\ncode = \"SPICE\"", 1))
	st, _, err := Game.NewState(engine.Config{Seats: []string{"a", "b"}, Seed: "x", Ruleset: data})
	if err != nil {
		t.Fatal(err)
	}
	s := st.(*state)
	if s.Rules.Ingredients[s.Rules.Ingr("FRUIT")].Price != 1 || s.H.RulesetSHA != engine.RulesetSHA(data) {
		t.Fatalf("override not used")
	}
	js := mustMarshal(t, st)
	if _, err := Game.DecodeState(js, data); err != nil {
		t.Fatalf("decode with its file: %v", err)
	}
	if _, err := Game.DecodeState(js, nil); err == nil {
		t.Fatal("decoded with the default file")
	}
}

// DB-1.5 / DB-3.7: options are validated; first_player names a seat.
func TestOptions(t *testing.T) {
	bad := []map[string]string{
		{"recipe_setup": "random"},
		{"unlucky_roll": "yes"},
		{"first_player": "3"},
		{"nonsense": "1"},
	}
	for _, o := range bad {
		if _, _, err := Game.NewState(engine.Config{Seats: []string{"a", "b"}, Seed: "x", Options: o}); err == nil {
			t.Errorf("options %v accepted", o)
		}
	}
	if _, _, err := Game.NewState(engine.Config{Variant: "advanced", Seats: []string{"a", "b"}, Seed: "x",
		Options: map[string]string{"hidden_action_tokens": "false"}}); err == nil {
		t.Error("the advanced variant's hidden tokens could be turned off")
	}
	st, _, err := Game.NewState(engine.Config{Seats: []string{"a", "b", "c"}, Seed: "x", Options: map[string]string{"first_player": "2"}})
	if err != nil || st.(*state).Priority != 1 {
		t.Fatalf("first_player=2: %v", err)
	}
	// Random first player (kind "first"): every seat can start.
	firsts := map[int]bool{}
	for i := 0; i < 40; i++ {
		st, _, _ := Game.NewState(engine.Config{Seats: []string{"a", "b", "c"}, Seed: string(rune('a' + i))})
		firsts[st.(*state).Priority] = true
	}
	if len(firsts) != 3 {
		t.Errorf("first players drawn: %v", firsts)
	}
	if _, _, err := Game.NewState(engine.Config{Seats: []string{"a"}, Seed: "x"}); err == nil {
		t.Error("one player accepted")
	}
}
