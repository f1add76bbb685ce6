package organise

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/pbem-referee/referee/mailfmt/mailmsg"
)

// commentLines are whole lines of comment an organiser writes among
// commands: a note, one with no space, one indented, a heading, and a
// command commented out (it must not run).
var commentLines = []string{"# the spring league, table 2", "#note", "   # indented note", "## Heading", "# PAUSE g1"}

// TestOrganiserCommentLinesQuoted_Issue25 (issue 25: nothing an organiser
// writes is silently dropped): an organiser's mail in each language's
// words, in each client layout (orgLayouts), with 0 to 5 whole lines of
// comment among its commands: the commands run, a command commented out
// does not, and the answer quotes each comment line with the lines not
// acted on, as written (mailmsg.QuoteLine), once, as a player's answer
// does (reading's Mail.Comments); a comment after a command on its line
// is part of that line, which runs and is answered, and is not quoted.
func TestOrganiserCommentLinesQuoted_Issue25(t *testing.T) {
	w := loadWords(t)
	n := 0
	for _, lang := range w.Languages() {
		for _, lay := range orgLayouts {
			for k := range len(commentLines) + 1 {
				n++
				h := newWordsHost(t)
				h.fakeHost.setWords = w
				g := &fakeGame{status: "running"}
				h.fakeHost.games = map[string]*fakeGame{"g1": g}
				cmds := []string{localWord(w, lang, "LIST"), localWord(w, lang, "STATUS") + " g1 # is it running?",
					localWord(w, lang, "RESUME") + " g1"}
				body := slices.Clone(lay.above)
				var wrote []string
				for i, c := range cmds {
					body = append(body, c)
					for j := i; j < k; j += len(cmds) {
						body, wrote = append(body, commentLines[j]), append(wrote, commentLines[j])
					}
				}
				body = append(body, lay.below...)
				text, _ := w.keywords().ExtractCommands(strings.Join(body, "\n"), mailmsg.Address{Name: "Olga Bianchi", Addr: "olga@p.test"})
				res, _, err := Script(h, "olga@p.test", text)
				if err != nil {
					t.Fatal(err)
				}
				name := fmt.Sprintf("%s/%s/%d", lang, lay.name, k)
				if g.status != "running" {
					t.Errorf("%s: the game is %s: a command commented out ran", name, g.status)
				}
				all, _, _ := checkQuoted(t, name, res, append(slices.Clone(wrote), lay.unread...))
				if !strings.Contains(all, "g1") {
					t.Errorf("%s: STATUS g1 with a comment after it was not answered:\n%s", name, all)
				}
			}
		}
	}
	t.Logf("%d mails", n)
}
