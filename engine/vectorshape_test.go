package engine_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// vectorsNotYetInOneShape are the games whose specification vectors are
// not yet all in the one shape (issue 25, "rule-vector tests in one
// shape"). It is empty: Brew Crafters', the last, moved to
// testdata/spec.vectors and TestVectors (onepass). It must stay empty.
var vectorsNotYetInOneShape = map[string]bool{}

// TestRuleVectorsInOneShape_Issue25: every game keeps its specification's
// test vectors the same way (engine/doc.go, "Tests, by role"): the cases
// in testdata/*.vectors (blocks opened by CASE <id>, Fromage's by vector
// <id>, in the game's text format) and one TestVectors that plays every file, so that a vector is
// added by writing a case, not a test function.
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
		switch {
		case len(problems) > 0 && !vectorsNotYetInOneShape[game]:
			t.Errorf("%s: %s", game, strings.Join(problems, "; "))
		case len(problems) == 0 && vectorsNotYetInOneShape[game]:
			t.Errorf("%s: its vectors are in the shape now: take it off vectorsNotYetInOneShape", game)
		case len(problems) > 0:
			t.Logf("%s (not yet in the shape): %s", game, strings.Join(problems, "; "))
		}
	}
}
