package referee

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strconv"
	"strings"
	"testing"

	"github.com/pbem-referee/referee/templates"
)

// newTournamentSettings are the settings NEW TOURNAMENT reads, taken from
// the desk's own parser (the string cases of the switch on
// strings.ToLower(k) in referee/tournament/bymail/org.go), so that a
// setting added there is found here without a list to keep.
func newTournamentSettings(t *testing.T) []string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "tournament/bymail/org.go", nil, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	ast.Inspect(f, func(n ast.Node) bool {
		sw, ok := n.(*ast.SwitchStmt)
		if !ok {
			return true
		}
		call, ok := sw.Tag.(*ast.CallExpr)
		if !ok || len(call.Args) != 1 {
			return true
		}
		if sel, ok := call.Fun.(*ast.SelectorExpr); !ok || sel.Sel.Name != "ToLower" {
			return true
		}
		if id, ok := call.Args[0].(*ast.Ident); !ok || id.Name != "k" {
			return true
		}
		for _, st := range sw.Body.List {
			for _, e := range st.(*ast.CaseClause).List {
				if lit, ok := e.(*ast.BasicLit); ok && lit.Kind == token.STRING {
					k, err := strconv.Unquote(lit.Value)
					if err != nil {
						t.Fatal(err)
					}
					keys = append(keys, k)
				}
			}
		}
		return true
	})
	if len(keys) < 12 {
		t.Fatalf("only %d settings found in bymail/org.go (%v): has the parser moved?", len(keys), keys)
	}
	// forfeits= arrives among the game options and is the tournament's
	// (tournament.Defaults); the calendar's keys are SCHEDULE's too.
	return append(keys, "forfeits", "start", "every", "dates", "open", "warn", "tz")
}

// TestTournamentHelpNamesEverySetting_Issue24: HELP TOURNAMENT, in every
// language, names every setting NEW TOURNAMENT reads ("key=" or, for a
// flag, the word), so that a director finds each of them (forfeits= and
// variant= were read and named nowhere).
func TestTournamentHelpNamesEverySetting_Issue24(t *testing.T) {
	keys := newTournamentSettings(t)
	h := newHarness(t)
	for _, lang := range templates.Languages {
		h.org("HELP TOURNAMENT " + lang)
		help := orgResults(t, h)
		fits(t, "HELP TOURNAMENT "+lang, help)
		for _, k := range keys {
			if !strings.Contains(help, k+"=") && !strings.Contains(help, " "+k+" ") {
				t.Errorf("%s: HELP TOURNAMENT does not name %s", lang, k)
			}
		}
	}
}
