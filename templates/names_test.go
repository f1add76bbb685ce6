package templates

import (
	"os"
	"regexp"
	"testing"
)

// dataIDs reads the ids of the [[kind]] tables of a game's data file.
func dataIDs(t *testing.T, file, kind string) []string {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`(?m)^\[\[` + kind + `\]\]\s*\nid = "([^"]+)"`)
	var out []string
	for _, m := range re.FindAllStringSubmatch(string(b), -1) {
		out = append(out, m[1])
	}
	if len(out) == 0 {
		t.Fatalf("no [[%s]] in %s", kind, file)
	}
	return out
}

// TestRecipeNamesInEveryLanguage (issue 16): every recipe of the games'
// data has a name in every language other than English (the one list the
// mails and the public boards share); English keeps the engine's own.
func TestRecipeNamesInEveryLanguage(t *testing.T) {
	s, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	type card struct{ ID, Name string }
	for _, c := range []struct{ scope, file, name string }{
		{"dicebrewing", "../engine/dicebrewing/catalog/dicebrewing.toml", "db.recipe"},
		{"brewcrafters", "../engine/brewcrafters/catalog/brewcrafters.toml", "bc.recipe"},
	} {
		ids := dataIDs(t, c.file, "recipe")
		for _, lang := range Languages {
			seen := map[string]string{}
			for _, id := range ids {
				got, err := s.Render(c.scope, lang, c.name, card{ID: id, Name: "<engine>"})
				if err != nil {
					t.Fatal(err)
				}
				if (got == "<engine>") != (lang == "en") || got == "" {
					t.Errorf("%s/%s: recipe %s is %q", c.scope, lang, id, got)
				}
				if other, dup := seen[got]; dup && lang != "en" {
					t.Errorf("%s/%s: %s and %s are both %q", c.scope, lang, other, id, got)
				}
				seen[got] = id
			}
		}
	}
}
