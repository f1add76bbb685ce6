package mailfmt

import (
	"fmt"
	"testing"
)

// TestGluedOptionWordReadAsByProse: an option word glued to the chat
// before it ("Hi!option 2", "Ciao!opzione 2") is an option for the reader
// and no prose for the prose rule, as with a space (doc.go "# Answers":
// numberLead, afterOptionWord; found by FuzzIsProse: "A x!option 1").
// Every option word ("n°" and "nº" too, written with the sign) x leads x
// glued or spaced x numbers.
func TestGluedOptionWordReadAsByProse(t *testing.T) {
	r := fuzzReader()
	fails, n := 0, 0
	for _, w := range append(OptionWords(), "N°", "nº", "Nº") {
		for _, lead := range []string{"Hi!", "A x!", "I choose!", "Ok:", "Dear referee,", "👍"} {
			for _, sep := range []string{"", " "} {
				if sep == "" && lead == "👍" {
					continue // a word glued to an emoji starts no answer
				}
				for _, num := range []int{1, 2, 12, 999} {
					line := fmt.Sprintf("%s%s%s %d", lead, sep, w, num)
					n++
					al := r.Line(line)
					if al.Kind != AnswerOption || al.Option != num || r.isProse(line) {
						fails++
						if fails < 10 {
							t.Errorf("%q: kind %v option %d, prose %v; want option %d, no prose", line, al.Kind, al.Option, r.isProse(line), num)
						}
					}
				}
			}
		}
	}
	if fails > 0 {
		t.Errorf("%d of %d lines", fails, n)
	}
}

// TestCommandTextReadAsItself: the text the reader takes from a command
// line reads as itself, however many short sentences of chat are glued
// after it ("BREW!A!A"; found by FuzzAnswerLine): every keyword x tails of
// one to three sentences, glued or spaced.
func TestCommandTextReadAsItself(t *testing.T) {
	r := fuzzReader()
	fails, n := 0, 0
	for _, kw := range []string{"PASS", "PLACE HP1 SEED", "STORE Y5", "NEXT", "JOIN"} {
		for _, tail := range []string{"!A", "!A!A", "! A!A", "!thanks!ciao", "!ok!ok!ok", " - thanks!A", "!A.A", "!x!y!z"} {
			line := kw + tail
			n++
			al := r.Line(line)
			again := r.Line(al.Text)
			if al.Kind != AnswerCommand || al.Text != kw || again.Text != al.Text || len(again.Chat) != 0 {
				fails++
				t.Errorf("%q read as %v %q (chat %q), which reads as %q (chat %q); want %q", line, al.Kind, al.Text, al.Chat, again.Text, again.Chat, kw)
			}
		}
	}
	if fails > 0 {
		t.Errorf("%d of %d lines", fails, n)
	}
}
