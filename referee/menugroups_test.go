package referee

import (
	"strconv"
	"strings"
	"testing"

	"github.com/pbem-referee/referee/engine"
)

// checkGroupsInOrder (issue 22, menus that fit a decision) reads a
// rendered menu in the order a reader does: the numbers run 1..N down the
// mail (each once), the options of one group (engine.Option.Group) lie
// under one heading, and no heading is repeated. It returns the number of
// groups seen.
func checkGroupsInOrder(t *testing.T, game, lang string, p *engine.Prompt, text string) int {
	t.Helper()
	next := 1
	heading := ""
	seenHead := map[string]bool{}
	headOf := map[string]string{}
	for _, l := range strings.Split(text, "\n") {
		if !strings.HasPrefix(l, " ") && strings.HasSuffix(strings.TrimSpace(l), ":") {
			heading = strings.TrimSpace(l)
			if seenHead[heading] && next > 1 {
				t.Errorf("%s %s: heading %q twice:\n%s", game, lang, heading, text)
			}
			seenHead[heading] = true
			continue
		}
		if !menuLine.MatchString(l) {
			continue
		}
		for _, loc := range optionStart.FindAllStringSubmatchIndex(l, -1) {
			n, _ := strconv.Atoi(l[loc[2]:loc[3]])
			if n != next {
				t.Fatalf("%s %s: option %d shown where %d was due:\n%s", game, lang, n, next, text)
			}
			g := p.Options[n-1].Group
			if h, ok := headOf[g]; ok && h != heading {
				t.Fatalf("%s %s: group %q under %q and under %q:\n%s", game, lang, g, h, heading, text)
			}
			headOf[g] = heading
			next++
		}
	}
	if next-1 != len(p.Options) {
		t.Fatalf("%s %s: %d of %d options read in order:\n%s", game, lang, next-1, len(p.Options), text)
	}
	return len(headOf)
}
