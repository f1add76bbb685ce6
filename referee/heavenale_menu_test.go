package referee

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
)

// nextOption finds where the next option of a two-column menu line starts.
var nextOption = regexp.MustCompile(`\s{2,}\d+\) `)

// wholeOption returns option n of a rendered menu as a person copies it:
// everything after "n) " up to the next column, description included.
func wholeOption(text string, n int) string {
	mark := fmt.Sprintf("%d) ", n)
	for _, l := range strings.Split(text, "\n") {
		k := strings.Index(l, mark)
		if k < 0 || (k > 0 && l[k-1] != ' ') || strings.TrimSpace(l[:k]) != "" && !nextOption.MatchString(l[:k+len(mark)]) {
			continue
		}
		rest := l[k+len(mark):]
		if loc := nextOption.FindStringIndex(rest); loc != nil {
			rest = rest[:loc[0]]
		}
		return strings.TrimSpace(rest)
	}
	return ""
}

// Issue 12 (Heaven & Ale menus): each option's description is set off
// with "#", which starts a comment, so a menu line copied whole (ALLER 3
// # MON4 (4/8) M2) is the command as shown. Over a whole game in every
// language, every answer is sent exactly as its menu line reads, and
// played.
func TestHeavenAleMenuLinesAsShownArePlayed(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	if raceEnabled {
		t.Skip("whole games by mail in one goroutine: make check runs it without -race (make content)")
	}
	for _, lang := range []string{"en", "it", "fr", "nl"} {
		t.Run(lang, func(t *testing.T) {
			described := 0
			playMenuAnswers(t, menuGame{game: "heavenale", lang: lang, seed: "menus1", moves: 300, rng: [2]uint64{5, 6},
				option: wholeOption, required: true, shown: func(_, as string) {
					if strings.Contains(as, "#") {
						described++
					}
				}})
			if described < 20 {
				t.Errorf("only %d answers with a description", described)
			}
			t.Logf("%d answers sent whole, description included", described)
		})
	}
}
