package organise

import (
	"errors"
	"strings"
	"testing"

	"github.com/pbem-referee/referee/referee/tell"
	"github.com/pbem-referee/referee/templates"
)

// Rule (issue 22): a mail to an organiser is framed in the language of
// its result lines, every language's own subject and body, the result
// lines in it as given and in order; a language the templates do not
// have is English. Generated: the languages and two unknown ones x
// 0..3 result lines.
func TestTemplatesMail(t *testing.T) {
	rn, err := tell.NewRenderer()
	if err != nil {
		t.Fatal(err)
	}
	w := Templates{R: rn}
	frames := map[string]string{}
	for _, lang := range append(append([]string(nil), templates.Languages...), "xx", "") {
		for n := 0; n <= 3; n++ {
			var results []string
			for i := 0; i < n; i++ {
				results = append(results, "RESULT-"+lang+"-"+strings.Repeat("x", i))
			}
			subject, body, err := w.Mail(lang, results)
			if err != nil || subject == "" || body == "" {
				t.Fatalf("%q, %d results: %q %q %v", lang, n, subject, body, err)
			}
			at := 0
			for _, r := range results {
				i := strings.Index(body[at:], r)
				if i < 0 {
					t.Fatalf("%q: result %q not in the body after %d:\n%s", lang, r, at, body)
				}
				at += i + len(r)
			}
			if n == 0 {
				frames[lang] = subject + "\n" + strings.TrimSpace(body)
			}
		}
	}
	if frames["xx"] != frames["en"] || frames[""] != frames["en"] {
		t.Errorf("an unknown language is not English:\n%s\n---\n%s", frames["xx"], frames["en"])
	}
	for _, lang := range templates.Languages {
		if lang != "en" && frames[lang] == frames["en"] {
			t.Errorf("%s frames an organiser's mail in English", lang)
		}
	}
	if _, ok := w.RuleText("en", errors.New("not a rule")); ok {
		t.Errorf("RuleText worded an error that is no game's refusal")
	}
	if got := (Templates{}).Languages(); len(got) != len(templates.Languages) || got[0] != "en" {
		t.Errorf("a zero Templates' languages: %v", got)
	}
}
