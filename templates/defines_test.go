package templates

import (
	"io/fs"
	"path"
	"regexp"
	"testing"
)

// A name defined twice in one scope and language silently takes the last
// file's text (text/template), so a new file can break an old mail: issue
// 22's cards.tmpl redefined Heaven & Ale's ha.kind. Every name is defined
// once per scope and language.
func TestEveryNameDefinedOnce(t *testing.T) {
	def := regexp.MustCompile(`\{\{-?\s*define\s+"([^"]+)"`)
	seen := map[string]string{}
	err := fs.WalkDir(files, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || path.Ext(p) != ".tmpl" {
			return err
		}
		b, err := fs.ReadFile(files, p)
		if err != nil {
			return err
		}
		for _, m := range def.FindAllStringSubmatch(string(b), -1) {
			key := path.Dir(p) + " " + m[1]
			if prev, ok := seen[key]; ok {
				t.Errorf("%s defined in %s and %s", key, prev, p)
			}
			seen[key] = p
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(seen) < 100 {
		t.Fatalf("only %d names", len(seen))
	}
}
