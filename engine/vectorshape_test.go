package engine_test

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/pbem-referee/referee/engine/enginetest"
)

var updateSpecIndex = flag.Bool("update", false, "rewrite the games' testdata/spec.ids from the specifications (REFEREE_RULES, default ../../shared/rules)")

// specs names each game's specification (shared/rules/<name>): the rule
// ids its test vectors cite are the ones it defines.
var specs = map[string]string{
	"dicebrewing":  "dice-brewing.md",
	"fromage":      "fromage.md",
	"heavenale":    "heaven-and-ale.md",
	"brewcrafters": "brew-crafters.md",
}

// specDefinition is a line of a specification that defines an id: a list
// item, a table row, a heading or a bold paragraph starting with it
// ("- **DB-5.4.3** ...", "| A-3 | ...", "### TV-01: ...", "**TV-01 ...").
var specDefinition = regexp.MustCompile(`^\s*(?:[-*|]\s*|#+\s*)?\**\s*((?:DB|FR|HA|BC|TV|AMB|A|D|P)-\d+(?:\.\d+)*)\b`)

// specIDs lists the ids a specification defines, each once, in order.
func specIDs(text string) []string {
	var out []string
	for _, line := range strings.Split(text, "\n") {
		if m := specDefinition.FindStringSubmatch(line); m != nil && !slices.Contains(out, m[1]) {
			out = append(out, m[1])
		}
	}
	return out
}

const specIndexHead = "# The ids that shared/rules/%s defines (rules, tables, ambiguities,\n" +
	"# test vectors), one a line: the rule ids a case of testdata/*.vectors may\n" +
	"# cite. go test ./engine -run SpecIndex -update rewrites it from the spec.\n"

// readSpecIndex reads a game's testdata/spec.ids.
func readSpecIndex(t *testing.T, game string) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(game, "testdata", "spec.ids"))
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	sc := bufio.NewScanner(strings.NewReader(string(b)))
	for sc.Scan() {
		if l := strings.TrimSpace(sc.Text()); l != "" && !strings.HasPrefix(l, "#") {
			ids = append(ids, l)
		}
	}
	return ids
}

// TestSpecIndexMatchesTheSpec_Issue25: each game's testdata/spec.ids
// lists exactly the ids its specification defines, so that the checks
// below, which read the index, run where the specification is not; where
// it is (REFEREE_RULES, default ../../shared/rules), a specification that
// changed fails here until the index is rewritten (-update).
func TestSpecIndexMatchesTheSpec_Issue25(t *testing.T) {
	dir := os.Getenv("REFEREE_RULES")
	if dir == "" {
		dir = filepath.Join("..", "..", "shared", "rules")
	}
	for _, game := range skeletonGames {
		b, err := os.ReadFile(filepath.Join(dir, specs[game]))
		if err != nil {
			t.Skipf("no specification to compare the index with: %v", err)
		}
		want := specIDs(string(b))
		if *updateSpecIndex {
			text := fmt.Sprintf(specIndexHead, specs[game]) + strings.Join(want, "\n") + "\n"
			if err := os.WriteFile(filepath.Join(game, "testdata", "spec.ids"), []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if got := readSpecIndex(t, game); !slices.Equal(got, want) {
			t.Errorf("%s/testdata/spec.ids (%d ids) is not what %s defines (%d ids): run with -update", game, len(got), specs[game], len(want))
		}
	}
}

// vectorsInGo is the one place that lists the specification's test
// vectors that no testdata/*.vectors case carries, each with its Go test
// and the reason.
const vectorsInGo = "testdata/vectors-in-go.txt"

// inGo reads vectorsInGo: game -> vector -> Go test.
func inGo(t *testing.T) map[string]map[string]string {
	t.Helper()
	b, err := os.ReadFile(vectorsInGo)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]map[string]string{}
	for n, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Fields(line)
		if len(f) < 4 || !strings.HasSuffix(f[2], ":") {
			t.Fatalf("%s:%d: want \"<game> <vector> <Go test>: <reason>\"", vectorsInGo, n+1)
		}
		if out[f[0]] == nil {
			out[f[0]] = map[string]string{}
		}
		out[f[0]][f[1]] = strings.TrimSuffix(f[2], ":")
	}
	return out
}

// TestSpecVectorsCarried_Issue25: the rule-vector tests are in one shape.
// Every case of a game's testdata/*.vectors cites rule ids (its CASE line:
// enginetest.CitedIDs), each of them defined by the game's specification
// (testdata/spec.ids); every test vector of the specification (TV-nn) is
// carried by a case named after it (TV-nn, TV-nnb ...), or else listed
// in vectorsInGo with the Go test that plays it and why, never both; and
// every game plays its files through enginetest.RunVectorFiles.
func TestSpecVectorsCarried_Issue25(t *testing.T) {
	listed := inGo(t)
	for game := range listed {
		if specs[game] == "" {
			t.Errorf("%s: %s names no game", vectorsInGo, game)
		}
	}
	named := regexp.MustCompile(`^(TV-\d+)(?:[a-z]|$)`)
	total, carried, files := 0, 0, 0
	for _, game := range skeletonGames {
		defined := map[string]bool{}
		var tvs []string
		for _, id := range readSpecIndex(t, game) {
			defined[id] = true
			if strings.HasPrefix(id, "TV-") {
				tvs = append(tvs, id)
			}
		}
		have := map[string]string{}
		cases := enginetest.VectorFiles(t, game)
		files += len(cases)
		for _, c := range cases {
			at := fmt.Sprintf("%s:%d: case %s", c.File, c.Line, c.ID)
			if len(c.Rules) == 0 {
				t.Errorf("%s cites no rule id", at)
			}
			for _, id := range c.Rules {
				if !defined[id] {
					t.Errorf("%s cites %s, which %s does not define", at, id, specs[game])
				}
			}
			if m := named.FindStringSubmatch(c.ID); m != nil {
				if _, ok := have[m[1]]; !ok {
					have[m[1]] = at
				}
			}
		}
		for _, tv := range tvs {
			total++
			goTest, isListed := listed[game][tv]
			switch at, isCarried := have[tv]; {
			case isCarried && isListed:
				t.Errorf("%s: %s is carried (%s) and listed in %s: drop the line", game, tv, at, vectorsInGo)
			case isCarried:
				carried++
			case !isListed:
				t.Errorf("%s: %s (%s) is in no testdata/*.vectors case and not in %s", game, tv, specs[game], vectorsInGo)
			case !declaresTest(t, game, goTest):
				t.Errorf("%s: %s names %s for %s, which %s/*_test.go does not declare", vectorsInGo, game, goTest, tv, game)
			}
		}
		for tv := range listed[game] {
			if !defined[tv] || !strings.HasPrefix(tv, "TV-") {
				t.Errorf("%s: %s %s is no test vector of %s", vectorsInGo, game, tv, specs[game])
			}
		}
		if !declaresTest(t, game, "TestVectors") || !callsRunVectorFiles(t, game) {
			t.Errorf("%s: no TestVectors playing testdata/*.vectors through enginetest.RunVectorFiles in vectors_test.go", game)
		}
	}
	t.Logf("%d cases in files; %d of the specifications' %d test vectors carried by a case, %d listed in %s", files, carried, total, total-carried, vectorsInGo)
}

// declaresTest reports whether a _test.go file of the game declares the
// function name.
func declaresTest(t *testing.T, game, name string) bool {
	t.Helper()
	tests, _ := filepath.Glob(filepath.Join(game, "*_test.go"))
	for _, f := range tests {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(b), "\nfunc "+name+"(t *testing.T)") {
			return true
		}
	}
	return false
}

// callsRunVectorFiles reports whether the game's vectors_test.go plays
// its files through enginetest.RunVectorFiles.
func callsRunVectorFiles(t *testing.T, game string) bool {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(game, "vectors_test.go"))
	return err == nil && strings.Contains(string(b), "enginetest.RunVectorFiles(t, ")
}
