package referee

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var (
	mdCode    = regexp.MustCompile("`([^`\n]+)`")
	mdPath    = regexp.MustCompile(`^(?:\./)?((?:[a-z0-9_]+|<[a-z]+>)(?:/(?:[a-z0-9_.*-]+|<[a-z]+>))+/?)$`)
	mdFile    = regexp.MustCompile(`^[a-z0-9_]+\.(?:go|md|txt|tmpl|toml)$`)
	mdTest    = regexp.MustCompile(`\b(Test[A-Z][A-Za-z0-9_]*)(\*)?`)
	mdRun     = regexp.MustCompile(`go test ((?:\./[a-z/.]+ )+)-run '([^']+)'`)
	testFunc  = regexp.MustCompile(`(?m)^func (Test[A-Za-z0-9_]*)\(`)
	tmplGlyph = regexp.MustCompile(`<[a-z]+>`)
)

// treeTests is every Test function of the tree, by package directory.
func treeTests(t *testing.T, root string) map[string][]string {
	t.Helper()
	tests := map[string][]string{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, "_test.go") {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, filepath.Dir(path))
		for _, m := range testFunc.FindAllStringSubmatch(string(b), -1) {
			tests[rel] = append(tests[rel], m[1])
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return tests
}

// docProblems lists what doc (a guide in Markdown at the root) names and
// the tree does not have: a path in code quotes (a <placeholder> matches
// any one name), a file of a directory named in the same item, a test (a
// Test name, or Test...* as a prefix), a -run pattern of a go test command
// that runs nothing in its packages.
func docProblems(t *testing.T, root, docDir, doc string, placeholders ...string) (problems []string, checked int) {
	t.Helper()
	tests := treeTests(t, root)
	var all []string
	for _, ts := range tests {
		all = append(all, ts...)
	}
	bases := map[string]bool{}
	_ = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			bases[d.Name()] = true
		}
		return err
	})
	exists := func(p string) bool {
		p = tmplGlyph.ReplaceAllString(p, "*")
		for _, w := range placeholders {
			p = strings.ReplaceAll("/"+p+"/", "/"+w+"/", "/*/")
			p = strings.Trim(p, "/")
		}
		for _, r := range []string{root, filepath.Join(root, docDir)} {
			if ms, _ := filepath.Glob(filepath.Join(r, strings.TrimSuffix(p, "/"))); len(ms) > 0 {
				return true
			}
		}
		return false
	}
	// Items: a list item or paragraph, where a lone file name belongs to
	// the directory named last before it.
	for _, item := range regexp.MustCompile(`\n\s*\n|\n(?:\d+\.|-) `).Split(doc, -1) {
		var dirs []string
		for _, m := range mdCode.FindAllStringSubmatch(item, -1) {
			code := strings.TrimSpace(m[1])
			for _, word := range strings.Fields(code) {
				word = strings.Trim(word, "(),;:")
				switch {
				case strings.HasPrefix(word, "/") || strings.HasPrefix(word, "-"):
				case mdPath.MatchString(word) && !strings.Contains(word, "..."):
					checked++
					if !exists(word) {
						problems = append(problems, "names "+word+": no such path")
					}
					dir := strings.TrimSuffix(word, "/")
					if b := filepath.Base(dir); mdFile.MatchString(b) || strings.Contains(b, "*") {
						dir = filepath.Dir(dir)
					}
					dirs = append(dirs, dir)
				case mdFile.MatchString(word):
					// A lone file name: in a directory named before it in
					// the item, else (none named) anywhere in the tree.
					checked++
					found := len(dirs) == 0 && bases[word]
					for _, d := range dirs {
						found = found || exists(filepath.Join(d, word))
					}
					if !found {
						problems = append(problems, "names "+word+": no such file in "+strings.Join(dirs, ", ")+" nor anywhere")
					}
				}
			}
		}
	}
	for _, m := range mdTest.FindAllStringSubmatch(doc, -1) {
		name, prefix := m[1], m[2] == "*"
		if name == "TestX" {
			continue // the example of a -run filter
		}
		checked++
		found := false
		for _, n := range all {
			found = found || n == name || (prefix && strings.HasPrefix(n, name))
		}
		if !found {
			problems = append(problems, "names "+m[0]+": no such test")
		}
	}
	for _, m := range mdRun.FindAllStringSubmatch(doc, -1) {
		for _, alt := range strings.Split(m[2], "|") {
			checked++
			re, err := regexp.Compile(alt)
			if err != nil {
				problems = append(problems, "-run "+alt+": "+err.Error())
				continue
			}
			found := false
			for _, pkg := range strings.Fields(m[1]) {
				for _, n := range tests[filepath.Clean(strings.TrimSuffix(pkg, "/..."))] {
					found = found || re.MatchString(n)
				}
			}
			if !found {
				problems = append(problems, "go test "+strings.TrimSpace(m[1])+" -run '"+alt+"' runs no test")
			}
		}
	}
	return problems, checked
}

// TestContributingNamesWhatExists (issue 25: "checklists that a newcomer
// follows without help"): every path, file, test and -run filter that
// CONTRIBUTING.md and templates/README.md name exists in the tree, so a
// checklist step cannot point at a file that moved.
func TestContributingNamesWhatExists(t *testing.T) {
	for _, name := range []string{"CONTRIBUTING.md", "templates/README.md"} {
		doc, err := os.ReadFile(filepath.Join("..", name))
		if err != nil {
			t.Fatal(err)
		}
		// templates/README.md adds a language "say de".
		problems, checked := docProblems(t, "..", filepath.Dir(name), string(doc), "de")
		for _, p := range problems {
			t.Errorf("%s %s", name, p)
		}
		t.Logf("%s: %d names checked", name, checked)
		if checked < 20 {
			t.Errorf("%s: only %d names checked: the patterns miss the guide", name, checked)
		}
	}
}

// The check finds each kind of mistake (a test of the test).
func TestContributingCheckFinds(t *testing.T) {
	for _, bad := range []string{
		"1. See `referee/commands/rowz.go`.",
		"2. In `referee/commands/` the file `seatz.go`.",
		"2. In `referee/commands/info.go`, `seating.go` (a file of another directory).",

		"3. `TestCommandTableRowz` passes.",
		"4. `TestCommandTabel*` pass.",
		"5. Run `go test ./referee/ -run 'Golden|Playable'`.",
		"6. Copy `templates/<scope>/enx/`.",
	} {
		if ps, _ := docProblems(t, "..", ".", bad); len(ps) == 0 {
			t.Errorf("no problem found in %q", bad)
		}
	}
}
