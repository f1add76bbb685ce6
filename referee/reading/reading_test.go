package reading

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/mailfmt"
	"github.com/pbem-referee/referee/referee/guard"
)

// parsers are the functions that read a player's text, by import path:
// only this package calls them in referee/ and its sub-packages (issue
// 25, one reading), except where allowed names the one edge that extracts
// the player's own text from a mail's bytes.
var parsers = map[string]map[string]string{
	"github.com/pbem-referee/referee/engine":          {"ParseScript": "", "Script": ""},
	"github.com/pbem-referee/referee/mailfmt":         {"NewAnswerReader": "", "Commands": "edge/mailin", "ExtractCommands": "edge/mailin"},
	"github.com/pbem-referee/referee/referee/reading": {"Reader": ""},
}

// keywordParsers are the methods of mailfmt.Keywords that read a player's
// text (its MailCommands gives the extraction the set's typo guard), matched
// by name on any value that is no imported package.
var keywordParsers = map[string]string{"SplitProse": "", "IsProse": "", "MailCommands": "edge/mailin", "ExtractCommands": "edge/mailin"}

// Rule (issue 25): nothing outside the reading room parses a mail's text
// again. Every non-test file of referee/ and its sub-packages is read with
// go/ast; a call of a text parser (parsers) outside this package fails,
// whatever name the file imports the parser's package under.
func TestOnlyReadingParses(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	files, found := 0, 0
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel == "reading" || d.Name() == "testdata" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		files++
		names := map[string]string{} // local name -> import path
		for _, im := range f.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			name := p[strings.LastIndex(p, "/")+1:]
			if im.Name != nil {
				name = im.Name.Name
			}
			names[name] = p
		}
		ast.Inspect(f, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			x, ok := sel.X.(*ast.Ident)
			var allowed string
			var bad bool
			if ok && names[x.Name] != "" {
				allowed, bad = parsers[names[x.Name]][sel.Sel.Name]
			} else {
				allowed, bad = keywordParsers[sel.Sel.Name]
			}
			if !bad {
				return true
			}
			found++
			if allowed == "" || !strings.HasPrefix(rel, allowed+"/") {
				t.Errorf("%s: %s reads a player's text outside the reading room (referee/reading)", fset.Position(sel.Pos()), sel.Sel.Name)
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 60 || found == 0 {
		t.Fatalf("read %d files and %d allowed parser calls: the check reads nothing", files, found)
	}
}

// A Mail reads each form of its text once, however often it is asked, and
// gives each caller its own copy.
func TestMailReadsOnce(t *testing.T) {
	m := New("PLACE MH1 SEED\nhi there\n2", []string{"Hi"}, nil)
	for range 3 {
		o := m.Script()
		o[0].Alts[0][0], o[0].Text = "CHANGED", "CHANGED"
		m.Prose(mailfmt.NewKeywords([]string{"PLACE"}, nil))
		m.Digest()
	}
	if got := m.Script(); got[0].Text != "PLACE MH1 SEED" || got[0].Alts[0][0] != "PLACE MH1 SEED" {
		t.Errorf("a caller's change reached the next caller: %+v", got[0])
	}
	want := map[string]int{"script": 1, "prose": 1, "digest": 1}
	for k, v := range want {
		if m.Reads()[k] != v {
			t.Errorf("reads[%s] = %d, want %d (%v)", k, m.Reads()[k], v, m.Reads())
		}
	}
	if n := New(m.Text(), nil, nil); n.Digest() != m.Digest() || n.Reads()["digest"] != 1 {
		t.Errorf("a new Mail of the same text: digest %s, reads %v", n.Digest(), n.Reads())
	}
}

// A Mail's digest and logged text are the guards' (referee/guard): the
// digest stored in the seats' records, the text clipped for the log.
func TestDigestAndLoggedAreTheGuards(t *testing.T) {
	for _, text := range []string{"place MH1  seed\n\nPASS", "2", strings.Repeat("é", guard.MaxLoggedInput)} {
		m := New(text, nil, nil)
		if m.Digest() != guard.Digest(text) || m.Logged() != guard.ClipInput(text) {
			t.Errorf("%.20q: digest %s, logged %d bytes", text, m.Digest(), len(m.Logged()))
		}
	}
}

// A bot's lines are read as a mail's script is.
func TestScriptOfLines(t *testing.T) {
	got := Script([]string{"PLACE MH1 SEED | PASS", "2"})
	want := engine.ParseScript("PLACE MH1 SEED | PASS\n2")
	if len(got) != 2 || got[0].Text != want[0].Text || len(got[0].Alts) != 2 || got[1].Number() != 2 {
		t.Errorf("Script = %+v", got)
	}
}

// The webhook's id of a command text: the bytes it always had
// (sha256 of "seat NUL token NUL text", 16 bytes in hex).
func TestCommandKey(t *testing.T) {
	if k := CommandKey(1, 7, "PASS"); k != "sha256:9a968ddcca0e5fdb8020f2ba11d368b3" {
		t.Errorf("CommandKey = %q", k)
	}
	if CommandKey(1, 7, "PASS") == CommandKey(1, 8, "PASS") || CommandKey(1, 7, "PASS") == CommandKey(0, 7, "PASS") {
		t.Error("seat or token left out of the key")
	}
}
