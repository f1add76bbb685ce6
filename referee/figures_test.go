package referee

import (
	"strings"
	"testing"
)

// promptHeads are the heads of the "what you need to do now" section.
var promptHeads = []string{"WHAT YOU NEED TO DO NOW", "COSA DEVI FARE ADESSO", "À VOUS DE JOUER", "WAT JE NU MOET DOEN"}

// replyHeads start the lines that say how to answer a prompt: the game's
// own ("Reply PLACE ...") or the referee's closing instruction.
var replyHeads = []string{"Reply ", "Rispondi ", "Répondez ", "Antwoord "}

// Issue 12, "Done when": a scripted 2-player Dice Brewing game played to
// the end by mail (one answer per mail, the greedy bot choosing it), with
// NOTIFY every (the old default) and with the default: mails per player
// per round and lines per mail, before and after. Every action mail has
// its prompt on the first screen (24 lines, 2 of them the composer's
// quote line): the head, the question and how to answer it, in four
// languages.
func TestScriptedDiceBrewingMailFigures(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	if raceEnabled {
		t.Skip("whole games by mail in one goroutine: make check runs it without -race (make content)")
	}
	for _, langs := range [][2]string{{"en", "it"}, {"fr", "nl"}} {
		before := playScriptedNotify(t, langs, "every", nil)
		var action, late, instr, deepest int
		after := playScriptedNotify(t, langs, "", func(m *Outgoing, round int) {
			lines := strings.Split(m.Body, "\n")
			head := -1
			for i, l := range lines {
				for _, h := range promptHeads {
					if strings.HasPrefix(l, h) {
						head = i
					}
				}
				if head >= 0 {
					break
				}
			}
			if head < 0 {
				return
			}
			action++
			reply := -1
			for i := head; i < len(lines); i++ {
				for _, r := range replyHeads {
					if strings.HasPrefix(lines[i], r) {
						reply = i
					}
				}
				if reply >= 0 {
					break
				}
			}
			deepest = max(deepest, reply+1)
			if head >= 22 {
				late++
				if late < 3 {
					t.Errorf("%v: the prompt starts on line %d:\n%s", langs, head+1, m.Body)
				}
			}
			if reply < 0 || reply >= 22 {
				instr++
				if instr < 3 {
					t.Errorf("%v: how to answer is not on the first screen (line %d):\n%s", langs, reply+1, m.Body)
				}
			}
		})
		for _, c := range []struct {
			name string
			st   *mailStats
		}{{"NOTIFY every (before)", before}, {"default NOTIFY turn (after)", after}} {
			t.Logf("%v, %s:", langs, c.name)
			c.st.report(t)
		}
		t.Logf("%v: %d action mails; prompt below the first screen: %d; how to answer below it: %d; deepest such line: %d",
			langs, action, late, instr, deepest)
		if len(after.lines) >= len(before.lines) {
			t.Errorf("%v: the default sends %d mails, NOTIFY every %d", langs, len(after.lines), len(before.lines))
		}
		if after.news >= before.news {
			t.Errorf("%v: the default sends %d mails that need nothing, NOTIFY every %d", langs, after.news, before.news)
		}
	}
}
