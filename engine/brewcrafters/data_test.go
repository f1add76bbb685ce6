package brewcrafters

import (
	"bytes"
	"testing"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/brewcrafters/catalog"
)

// The data file: an organiser's override is validated strictly; a changed
// value takes effect and is recorded.
func TestRulesetOverride(t *testing.T) {
	bad := bytes.Replace(catalog.DefaultRuleset, []byte("sale_price = 2"), []byte("sale_prize = 2"), 1)
	if _, _, err := (Game{}).NewState(engine.Config{Seats: []string{"a", "b"}, Seed: "x", Ruleset: bad}); err == nil {
		t.Fatal("a misspelt key was accepted")
	}
	noRecipe := bytes.Replace(catalog.DefaultRuleset, []byte(`id = "SS"`), []byte(`id = "EA"`), 1)
	if _, _, err := (Game{}).NewState(engine.Config{Seats: []string{"a", "b"}, Seed: "x", Ruleset: noRecipe}); err == nil {
		t.Fatal("a duplicate recipe was accepted")
	}
	rich := bytes.Replace(catalog.DefaultRuleset, []byte("start_money = 6"), []byte("start_money = 9"), 1)
	st, _, err := (Game{}).NewState(engine.Config{Seats: []string{"a", "b"}, Seed: "x", Ruleset: rich, Options: map[string]string{"start_player": "1"}})
	if err != nil {
		t.Fatal(err)
	}
	if st.(*State).P[0].Money != 9 || st.Head().RulesetSHA == engine.RulesetSHA(catalog.DefaultRuleset) {
		t.Fatal("override not applied or not recorded")
	}
}
