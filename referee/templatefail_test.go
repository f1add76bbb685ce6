package referee

import (
	"bytes"
	"io/fs"
	"log/slog"
	"os"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/pbem-referee/referee/referee/rigs/testkit"
	"github.com/pbem-referee/referee/templates"
)

// brokenTemplates is the templates tree with the named templates of the
// referee's scope, in every language, replaced by one that fails when it
// renders (a template's bug).
func brokenTemplates(t *testing.T, names ...string) fs.FS {
	t.Helper()
	src := os.DirFS("../templates")
	out := fstest.MapFS{}
	broken := 0
	err := fs.WalkDir(src, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasSuffix(p, ".go") {
			return err
		}
		b, err := fs.ReadFile(src, p)
		if err != nil {
			return err
		}
		if strings.HasPrefix(p, "referee/") && strings.HasSuffix(p, ".tmpl") {
			for _, name := range names {
				re := regexp.MustCompile(`(?s)\{\{define "` + regexp.QuoteMeta(name) + `"\}\}.*?\{\{end\}\}\n`)
				if loc := re.FindIndex(b); loc != nil {
					b = append(append(append([]byte(nil), b[:loc[0]]...), `{{define "`+name+`"}}{{index .Data "x" 9}}{{end}}`+"\n"...), b[loc[1]:]...)
					broken++
				}
			}
		}
		out[p] = &fstest.MapFile{Data: b}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if broken != len(names)*len(templates.Languages) {
		t.Fatalf("%d templates broken, want %d", broken, len(names)*len(templates.Languages))
	}
	return out
}

// Issue 25: a template that fails to render never shows its error to a
// reader. With help.player and info.ignored broken in every language, a
// player's answer and a seat's reply carry the referee's fixed words
// (internal.error, templates.Set.Internal) in the reader's language, no
// Go text, and the keeper's log has the error.
func TestTemplateFailureShowsFixedWords_Issue25(t *testing.T) {
	set, err := templates.LoadFS(brokenTemplates(t, "help.player", "info.ignored", "info.no_help"))
	if err != nil {
		t.Fatal(err)
	}
	restore := templates.Install(set)
	defer restore()
	for _, lang := range templates.Languages {
		h := newHarness(t)
		var logged bytes.Buffer
		h.r.log = slog.New(slog.NewTextHandler(&logged, nil))
		fixed := set.Internal(lang)
		if fixed == "" || fixed == set.Internal("xx-none") && lang != "en" {
			t.Fatalf("%s: no fixed words of its own (%q)", lang, fixed)
		}
		check := func(what, body string) {
			t.Helper()
			if !strings.Contains(body, fixed) {
				t.Errorf("%s %s: no fixed words %q:\n%s", lang, what, fixed, body)
			}
			for _, goish := range []string{"templates:", "index", "executing", "help.player", "info.ignored", "info.no_help", "error calling"} {
				if strings.Contains(body, goish) {
					t.Errorf("%s %s: Go's text %q:\n%s", lang, what, goish, body)
				}
			}
			testkit.CheckWords(t, lang, what, body, "Dan", "Ann", "Bob", "FLY", "Hi!", "g1", "Bid & Roll (contract test game)")
		}
		h.sendAs(Request{From: dan, FromName: "Dan", Text: "REGISTER Dan " + lang})
		secret := h.mailTo(h.mails(), dan).Tag.Secret
		h.sendAs(Request{From: dan, Kind: "player", Secret: secret, Text: "FLY"})
		check("player answer", h.mailTo(h.mails(), dan).Body)

		h.org("NEW toy id=g1 seed=broken\nPLAYER ann@example.test Ann " + lang + "\nPLAYER bob@example.test Bob " + lang)
		h.mails()
		h.send("g1", ann, "Hi!\nJOIN", -1)
		check("seat reply", h.mailTo(h.mails(), ann).Body)
		h.send("g1", ann, "HELP QQZZX", -1)
		check("help of no topic", h.mailTo(h.mails(), ann).Body)
		for _, want := range []string{"template failed", "help.player", "info.ignored"} {
			if !strings.Contains(logged.String(), want) {
				t.Errorf("%s: the log has no %q:\n%s", lang, want, logged.String())
			}
		}
	}
}
