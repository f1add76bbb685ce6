package referee

import (
	"testing"

	"github.com/pbem-referee/referee/referee/tournament/bymail"
)

// TestTournamentUsageFromTable: every organiser tournament command that is
// malformed (its keyword alone, or an argument it cannot read) is answered
// with its row's syntax, "usage: <Usage>", as the command table has it
// (bymail.OrgCommands): no usage written by hand. A command added to the
// table without a malformed sample here fails the test.
func TestTournamentUsageFromTable(t *testing.T) {
	h := newHarness(t)
	h.org("NEW TOURNAMENT cup game=toy rounds=2\nENTER cup a@p.test A\nENTER cup b@p.test B")
	h.mails()
	malformed := map[string][]string{
		"NEW":           {"NEW TOURNAMENT", "NEW TOURNAMENT cup2"},
		"ENTER":         {"ENTER", "ENTER cup", "ENTER cup nobody", "ENTER cup c@p.test C xx"},
		"START":         {"START"},
		"STANDINGS":     {"STANDINGS"},
		"WITHDRAW":      {"WITHDRAW"},
		"LATE":          {"LATE"},
		"EXTEND":        {"EXTEND cup", "EXTEND cup soon"},
		"REPLACE":       {"REPLACE cup", "REPLACE cup a@p.test", "REPLACE cup nobody@p.test c@p.test C"},
		"PUBLISH":       {"PUBLISH"},
		"FORFEIT":       {"FORFEIT", "FORFEIT cupr1t1"},
		"ADJUDICATE":    {"ADJUDICATE"},
		"SCHEDULE":      {"SCHEDULE", "SCHEDULE cup bogus=1"},
		"HELP":          nil, // HELP TOURNAMENT reads any word after it as a language or not
		"RESULT":        {"RESULT", "RESULT cupr1t1", "RESULT cupr1t1 first", "RESULT cupr1t1 1,2 3"},
		"DOUBLEFORFEIT": {"DOUBLEFORFEIT", "DOUBLEFORFEIT cupr1t1 now"},
		"SWAP":          {"SWAP", "SWAP cup a@p.test"},
		"BYE":           {"BYE", "BYE cup", "BYE cup a@p.test two"},
		"REPAIR":        {"REPAIR", "REPAIR cup 1 2", "REPAIR cup one"},
	}
	for _, row := range bymail.OrgCommands {
		usageAnswered(t, h, malformed, row.Keyword, row.Usage)
	}
}
