package main

import (
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// module is the module path; the module's root is ../.. from here.
const module = "github.com/pbem-referee/referee"

// goList runs `go list args...` at the module's root and returns its lines.
func goList(t *testing.T, args ...string) []string {
	t.Helper()
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the layout checks need the go command: %v", err)
	}
	cmd := exec.Command(gobin, append([]string{"list"}, args...)...)
	cmd.Dir = "../.."
	out, err := cmd.Output()
	if err != nil {
		msg := ""
		if ee, ok := err.(*exec.ExitError); ok {
			msg = string(ee.Stderr)
		}
		t.Fatalf("go list %v: %v\n%s", args, err, msg)
	}
	return strings.Fields(strings.TrimSpace(string(out)))
}

// TestBinaryHasNoTestRig: the product binary links neither the testing
// package nor any test rig (issue 13.1): `referee bench --real` starts the
// real mail servers through referee/tools/realstack, which returns errors.
func TestBinaryHasNoTestRig(t *testing.T) {
	deps := goList(t, "-deps", "./cmd/referee")
	if len(deps) < 50 {
		t.Fatalf("go list -deps ./cmd/referee listed only %d packages: %v", len(deps), deps)
	}
	for _, p := range deps {
		if p == "testing" || strings.HasPrefix(p, "testing/") || strings.HasPrefix(p, module+"/referee/rigs/") {
			t.Errorf("the referee binary links %s", p)
		}
	}
}

// TestStoreImporters: only the core (its records layer, referee/records,
// and its tentative runs, referee/spec: the store's speculation; its
// store-only answers, referee/ledger: counts, queue sizes, replay tokens), the durable queue
// (edge/dispatch), the IMAP cursor (edge/imapin), the operator's notices
// (edge/opsmail: a notice and its day's count queued in one transaction on
// the outbox), the bench's bulk loader (referee/tools/bench: copies games
// through the store's API to measure 100,000 games; a measuring tool, never
// on the daemon's path) and the wiring open or read the store (issue 13.2);
// everybody else asks the core
// (referee/query.go). Tests may still set up records with the store.
func TestStoreImporters(t *testing.T) {
	allowed := func(p string) bool {
		switch p {
		case module + "/referee", module + "/referee/records", module + "/referee/spec", module + "/referee/ledger", module + "/referee/edge/dispatch", module + "/referee/edge/imapin",
			module + "/referee/edge/opsmail", module + "/referee/tools/bench":
			return true
		}
		return strings.HasPrefix(p, module+"/referee/wiring/")
	}
	lines := goList(t, "-f", `{{.ImportPath}}:{{range .Imports}}{{if eq . "`+module+`/store"}}store{{end}}{{end}}`, "./...")
	seen := 0
	for _, l := range lines {
		p, imp, _ := strings.Cut(l, ":")
		if imp != "store" {
			continue
		}
		seen++
		if !allowed(p) {
			t.Errorf("%s imports the store: ask the core instead (referee/query.go)", p)
		}
	}
	if seen == 0 {
		t.Fatal("no package imports the store: the check reads nothing")
	}
}

// TestOnlyStoreImportsBbolt: bbolt is imported by store/ and its
// sub-packages only (store/doc.go; issue 25's split of the store into
// store/codec and store/pagefile kept it so: neither imports it), tests
// included.
func TestOnlyStoreImportsBbolt(t *testing.T) {
	lines := goList(t, "-f", `{{.ImportPath}}:{{range .Imports}}{{if eq . "go.etcd.io/bbolt"}}bbolt{{end}}{{end}}{{range .TestImports}}{{if eq . "go.etcd.io/bbolt"}}bbolt{{end}}{{end}}`, "./...")
	seen := 0
	for _, l := range lines {
		p, imp, _ := strings.Cut(l, ":")
		if !strings.Contains(imp, "bbolt") {
			continue
		}
		seen++
		if p != module+"/store" && !strings.HasPrefix(p, module+"/store/") {
			t.Errorf("%s imports bbolt: only the store does (store/doc.go)", p)
		}
	}
	if seen == 0 {
		t.Fatal("no package imports bbolt: the check reads nothing")
	}
}

// TestReadmeListsEveryPackage: the README's "Where things live" names
// every package of the module (issue 13.1), so that a new package finds its
// room there.
func TestReadmeListsEveryPackage(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, sec, ok := strings.Cut(string(b), "\n## Where things live\n")
	if !ok {
		t.Fatal(`README.md has no "Where things live" section`)
	}
	if i := strings.Index(sec, "\n## "); i >= 0 {
		sec = sec[:i]
	}
	pkgs := goList(t, "./...")
	if len(pkgs) < 20 {
		t.Fatalf("go list ./... listed only %d packages", len(pkgs))
	}
	for _, p := range pkgs {
		rel := strings.TrimPrefix(p, module+"/")
		if !strings.Contains(sec, "`"+rel+"/`") {
			t.Errorf("the README's \"Where things live\" does not name %s/", rel)
		}
	}
}

// maxPackageLines is issue 25's "no package over 5,000 lines": the
// non-test lines of a package's Go files, counted as referee/layout_test.go
// counts the referee package's (every line of every *.go file that is not a
// _test.go file).
const maxPackageLines = 5000

// overCeilings are the packages still over maxPackageLines while they are
// split (issue 25), each with the ceiling it may not grow past: lower a
// ceiling as code moves out, take the entry off once under (a listed
// package under maxPackageLines fails the test, so the list only shrinks).
var overCeilings = map[string]int{
	// Empty since store (store/layout, store/group, store/kept) and
	// engine/dicebrewing (position/, view/) were split: every package is
	// under maxPackageLines.
}

// TestNoPackageOver5000Lines_Issue25: no package of the module has more
// than maxPackageLines non-test lines, but those of overCeilings, each
// under its ceiling and still over (so that the list only shrinks).
func TestNoPackageOver5000Lines_Issue25(t *testing.T) {
	lines := goList(t, "-f", "{{.ImportPath}}|{{.Dir}}", "./...")
	if len(lines) < 20 {
		t.Fatalf("go list ./... listed only %d packages", len(lines))
	}
	seen := map[string]bool{}
	for _, l := range lines {
		p, dir, _ := strings.Cut(l, "|")
		rel := strings.TrimPrefix(p, module+"/")
		seen[rel] = true
		names, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, name := range names {
			if strings.HasSuffix(name, "_test.go") {
				continue
			}
			b, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			n += bytes.Count(b, []byte("\n"))
		}
		most, listed := overCeilings[rel]
		switch {
		case !listed && n > maxPackageLines:
			t.Errorf("%s has %d non-test lines (at most %d): move a job into a sub-package of its own", rel, n, maxPackageLines)
		case listed && n <= maxPackageLines:
			t.Errorf("%s has %d non-test lines, under %d now: take it off overCeilings", rel, n, maxPackageLines)
		case listed && n > most:
			t.Errorf("%s has %d non-test lines, over its ceiling %d: split it by job", rel, n, most)
		case listed:
			t.Logf("%s: %d non-test lines, still over %d (ceiling %d)", rel, n, maxPackageLines, most)
		}
	}
	for rel := range overCeilings {
		if !seen[rel] {
			t.Errorf("overCeilings names %s, which is not a package of the module", rel)
		}
	}
}

// TestNoGoFileOver800Lines_Issue25: no Go file of the module, tests
// included, is over 800 lines (issue 25, "no file over 800"): a file that
// grows past it holds two jobs; split it by job, as the engines' and the
// store's files were.
func TestNoGoFileOver800Lines_Issue25(t *testing.T) {
	const maxLines = 800
	files := 0
	err := filepath.WalkDir("../..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != "../.." && (strings.HasPrefix(name, ".") || name == "testdata" || name == "bin") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		files++
		if n := bytes.Count(b, []byte("\n")); n > maxLines {
			t.Errorf("%s has %d lines (at most %d): split it by job", strings.TrimPrefix(path, "../../"), n, maxLines)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 300 {
		t.Fatalf("read only %d Go files: is the module root ../..?", files)
	}
}
