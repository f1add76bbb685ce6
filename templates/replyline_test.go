package templates

import (
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"
	"unicode/utf8"

	"github.com/pbem-referee/referee/templates/langcheck"
)

// TestReplyLineOfEveryLanguage: every language has its own reply line
// (replyline.tmpl in referee/<lang>), one framed line of at most
// MaxReplyLineRunes characters, in its own words (no English in it for
// it, fr and nl: langcheck), each different; English keeps the words of
// the mails written before it was a template (the English goldens).
func TestReplyLineOfEveryLanguage(t *testing.T) {
	s, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]string{}
	for _, lang := range s.Languages() {
		l := s.ReplyLine(lang)
		if _, err := fs.ReadFile(Files(), "referee/"+lang+"/replyline.tmpl"); err != nil {
			t.Errorf("%s: no replyline.tmpl of its own: %v", lang, err)
		}
		if err := checkReplyLine(l); err != nil {
			t.Errorf("%s: %v", lang, err)
		}
		if n := utf8.RuneCountInString(l); n > MaxReplyLineRunes || n < 20 {
			t.Errorf("%s: %q is %d characters", lang, l, n)
		}
		if other, dup := seen[l]; dup {
			t.Errorf("%s has the line of %s: %q", lang, other, l)
		}
		seen[l] = lang
		if lang != "en" {
			if leaks := langcheck.Leaks(lang, l); len(leaks) > 0 {
				t.Errorf("%s: English words %q in %q", lang, leaks, l)
			}
		}
	}
	if got := s.ReplyLine("en"); got != "##- Please write your reply above this line -##" {
		t.Errorf("the English line changed: %q", got)
	}
	if s.ReplyLine("xx") != s.ReplyLine("en") || s.ReplyLine("") != s.ReplyLine("en") || ReplyLine("it") != s.ReplyLine("it") {
		t.Error("an unknown language does not get the English line, or ReplyLine is not the loaded Set's")
	}
}

// TestReplyLineRuleRefusesAtLoad: a language's line that breaks the rule
// (two lines, no frame, nothing between, too long) makes Load fail; the
// rule accepts every line the languages have.
func TestReplyLineRuleRefusesAtLoad(t *testing.T) {
	for _, bad := range []string{
		"Please write your reply above this line",
		"##- Please write your reply above this line",
		"##- Please write your reply\nabove this line -##",
		"##- -##", "##-  -##", "##--##", "##- x-##",
		"##- " + strings.Repeat("parola ", 9) + "-##",
	} {
		if err := checkReplyLine(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
		fsys := fstest.MapFS{
			"languages.txt":             {Data: []byte("en\n")},
			"referee/en/replyline.tmpl": {Data: []byte(`{{define "replyline"}}` + bad + `{{end}}`)},
			"referee/en/other.tmpl":     {Data: []byte(`{{define "x"}}x{{end}}`)},
		}
		if _, err := LoadFS(fsys); err == nil || !strings.Contains(err.Error(), "replyline") {
			t.Errorf("%q: LoadFS gave %v", bad, err)
		}
	}
	fsys := fstest.MapFS{"languages.txt": {Data: []byte("en\n")}, "referee/en/other.tmpl": {Data: []byte(`{{define "x"}}x{{end}}`)}}
	s, err := LoadFS(fsys)
	if err != nil {
		t.Fatal(err)
	}
	if l := s.ReplyLine("en"); l != "" {
		t.Errorf("a tree without a reply line has %q (want none: Compose's default)", l)
	}
}

// BenchmarkReplyLine is what the composer adds to every mail: the line of
// the reader's language, from the Set in use.
func BenchmarkReplyLine(b *testing.B) {
	if _, err := Load(); err != nil {
		b.Fatal(err)
	}
	langs := []string{"en", "it", "fr", "nl"}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if ReplyLine(langs[i%len(langs)]) == "" {
			b.Fatal("no line")
		}
	}
}
