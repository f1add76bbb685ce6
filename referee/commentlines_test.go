package referee

import (
	"fmt"
	"strings"
	"testing"

	"github.com/pbem-referee/referee/templates"
)

// Issue 25, nothing silently dropped: a whole line of comment in a seat's
// mail (the engine's '#' reads nothing in it) is listed among the lines
// the reply ignored, as written, in every language and every place of the
// mail; a command with a comment after it is played.
func TestCommentLinesListedAsIgnored_Issue25(t *testing.T) {
	comments := []string{"# my own note", "#note to self", "   # indented", "## two marks", "#"}
	n := 0
	for _, lang := range templates.Languages {
		h := newHarness(t)
		h.org(fmt.Sprintf("NEW toy id=g1 seed=c%s\nPLAYER ann@example.test Ann %s\nPLAYER bob@example.test Bob %s", lang, lang, lang))
		h.mails()
		h.send("g1", ann, "JOIN", -1)
		h.send("g1", bob, "JOIN", -1)
		h.mails()
		for i, c := range comments {
			var text string
			switch i % 3 {
			case 0:
				text = c + "\nSTATUS"
			case 1:
				text = "STATUS\n" + c
			default:
				text = "STATUS # and a note\n" + c + "\nLOG 1"
			}
			h.send("g1", ann, text, -1)
			body := h.mailTo(h.mails(), ann).Body
			n++
			want := "  " + strings.TrimSpace(c) + "\n"
			if !strings.Contains(body+"\n", want) {
				t.Errorf("%s %q: the comment line is not listed:\n%s", lang, text, body)
			}
		}
	}
	if n != len(comments)*len(templates.Languages) {
		t.Fatalf("%d mails", n)
	}
}
