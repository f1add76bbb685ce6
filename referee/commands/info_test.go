package commands

import (
	"fmt"
	"strings"
	"testing"
)

// TestInfoCommands: STATUS FULL in any language, RULE names its rule, LOG
// n within bounds.
func TestInfoCommands(t *testing.T) {
	for line, want := range map[string]string{"STATUS": "status false", "STATUS full": "status true",
		"STATUS COMPLETO": "status true", "STATUS volledig": "status true", "STATUS now": "status false"} {
		f := newFakeSeat()
		runSeat(t, f, line)
		if f.statusAs != want {
			t.Errorf("%q: %s, want %s", line, f.statusAs, want)
		}
	}
	for line, want := range map[string]string{"RULE r1": "R1: the first rule", "RULE R2": "R2: the second rule"} {
		f := newFakeSeat()
		if c := runSeat(t, f, line); len(c.Errors) > 0 || strings.Join(f.said, "") != want {
			t.Errorf("%q: %q %v", line, codes(c), f.said)
		}
	}
	if c := runSeat(t, newFakeSeat(), "RULE R9"); codes(c) != "no_rule" || c.Errors[0].Params["rule"] != "R9" {
		t.Errorf("RULE R9: %q", codes(c))
	}
	for arg, n := range map[string]int{"": DefaultLog, " 5": 5, " 500": MaxLog, " 501": DefaultLog, " 0": DefaultLog, " -3": DefaultLog, " x": DefaultLog} {
		f := newFakeSeat()
		runSeat(t, f, "LOG"+arg)
		if want := fmt.Sprint("log ", n); strings.Join(f.said, "") != want {
			t.Errorf("LOG%s: %v, want %s", arg, f.said, want)
		}
	}
}

// TestHelpTopics: HELP <word> answers a card by code or name, a menu
// word of any language as the game's command, a code with a slot or die
// value as its building, and a code that is also a command with both.
func TestHelpTopics(t *testing.T) {
	for line, want := range map[string]string{
		"HELP":             "help ",
		"HELP say":         "help SAY",
		"HELP Head Brewer": "card Head Brewer",
		"HELP headbrewer":  "card Head Brewer",
		"HELP LAVORA":      "help PROCESS",
		"HELP MASTRO":      "card Head Brewer",
		"HELP MH1+":        "card Malt House",
		"HELP mh2":         "card Malt House",
		"HELP REROLL":      "help REROLL\n\ncard Reroll",
		"HELP nothing":     "help NOTHING",
	} {
		f := newFakeSeat()
		if c := runSeat(t, f, line); len(c.Errors) > 0 || strings.Join(f.said, "|") != want {
			t.Errorf("%q: %q, want %q", line, strings.Join(f.said, "|"), want)
		}
	}
}
