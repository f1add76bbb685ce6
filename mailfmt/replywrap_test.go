package mailfmt

import (
	"fmt"
	"strings"
	"testing"
)

// wrapAt breaks line at spaces into lines of at most width runes (a
// client's plain-text wrap), each but the first continuing the last.
func wrapAt(line string, width int) []string {
	var out []string
	cur := ""
	for _, w := range strings.Fields(line) {
		if cur != "" && len([]rune(cur))+1+len([]rune(w)) > width {
			out = append(out, cur)
			cur = w
			continue
		}
		cur = strings.TrimSpace(cur + " " + w)
	}
	return append(out, cur)
}

// TestWrappedReplyLineCutsTheQuote: the referee's reply line wrapped by a
// client over two or three lines (Outlook wraps plain text at 30 to 132
// columns as its user sets, Exchange at 72; a quote prefix takes its
// share) still ends the player's text: unquoted under an Outlook reply
// with no header (the line is the only mark), quoted with every line
// re-quoted, or quoted with the rest of the wrapped line left unquoted
// (a client that wraps after quoting). Generated: every language's line
// and the old English one x every wrap width that breaks it in 2 or 3 x
// those three layouts x top- and bottom-posting x answer forms: the text
// read is exactly the player's.
func TestWrappedReplyLineCutsTheQuote(t *testing.T) {
	answers := []string{"2", "2.", "option 2", "2) PLACE HP1 SEED", "PLACE HP1 SEED", "opzione 2", "Hi!\nPASS\nThanks"}
	n := 0
	for lang, line := range replyLines(t) {
		seen := map[int]bool{}
		for width := 20; width < len([]rune(line)); width++ {
			parts := wrapAt(line, width)
			if len(parts) < 2 || len(parts) > 3 || seen[len(parts)*1000+len([]rune(parts[0]))] {
				continue
			}
			seen[len(parts)*1000+len([]rune(parts[0]))] = true
			for _, layout := range []string{"unquoted", "requoted", "rest-unquoted"} {
				var guard []string
				for i, p := range parts {
					switch {
					case layout == "unquoted", layout == "rest-unquoted" && i > 0:
						guard = append(guard, p)
					default:
						guard = append(guard, "> "+p)
					}
				}
				menu := genPromptNoGuard
				if layout != "unquoted" {
					menu = genQuote(genPromptNoGuard, "> ")
				}
				quote := strings.Join(append(guard, menu...), "\n")
				for _, a := range answers {
					bodies := map[string]string{"top": a + "\n\n" + quote}
					if layout != "unquoted" {
						bodies["bottom"] = quote + "\n\n" + a + "\n"
					}
					for post, body := range bodies {
						n++
						got, _ := fuzzKeywords.ExtractCommands(body, genSender)
						want := strings.TrimSpace(a)
						if a == "Hi!\nPASS\nThanks" {
							want = "PASS"
						}
						if got != want {
							t.Errorf("%s width %d %s %s %q: read %q, want %q\n%s", lang, width, layout, post, a, got, want, body)
						}
					}
				}
			}
		}
	}
	if n < 300 {
		t.Fatalf("only %d replies", n)
	}
	t.Log(fmt.Sprint(n, " replies"))
}
