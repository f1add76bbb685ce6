package engine_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestRuleVectorsInOneShape_Issue25: every game keeps its specification's
// test vectors the same way (engine/doc.go, "Tests, by role"): the cases
// in testdata/*.vectors (blocks opened by CASE <id>, Fromage's by vector
// <id>, in the game's text format) and one TestVectors that plays every file, so that a vector is
// added by writing a case, not a test function. Every game is in the
// shape (Brew Crafters', the last, moved to testdata/spec.vectors): no
// game is exempt.
func TestRuleVectorsInOneShape_Issue25(t *testing.T) {
	caseRe := regexp.MustCompile(`(?m)^(?:CASE|vector) \S+`) // Fromage's blocks open with "vector"
	vectorsRe := regexp.MustCompile(`(?m)^func TestVectors\(t \*testing\.T\)`)
	for _, game := range []string{"dicebrewing", "fromage", "heavenale", "brewcrafters"} {
		var problems []string
		files, _ := filepath.Glob(filepath.Join(game, "testdata", "*.vectors"))
		cases := 0
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			cases += len(caseRe.FindAll(b, -1))
		}
		if cases == 0 {
			problems = append(problems, "no case in testdata/*.vectors")
		}
		tests, _ := filepath.Glob(filepath.Join(game, "*_test.go"))
		found := false
		for _, f := range tests {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			found = found || vectorsRe.Match(b)
		}
		if !found {
			problems = append(problems, "no TestVectors")
		}
		if len(problems) > 0 {
			t.Errorf("%s: %s", game, strings.Join(problems, "; "))
		}
	}
}
