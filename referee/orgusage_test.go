package referee

import (
	"strings"
	"testing"

	"github.com/pbem-referee/referee/referee/organise"
)

// TestOrganiserUsageFromTable_Issue25 (issue 25: usage errors generated
// from the table row, never written by hand): every organiser game
// command that is malformed (its keyword alone, a game without the rest,
// an argument it cannot read) is answered with its row's syntax,
// "<KW>: usage: <Usage>" as organise's table has it, not another row's
// (INVITE and REPLACE quoted PLAYER's) nor one written by hand (a
// keyword alone was "<KW> <game> ..."; HOOK's rest was hooks.Parse's own
// text). A row added to the table without a malformed sample here fails
// the test.
func TestOrganiserUsageFromTable_Issue25(t *testing.T) {
	malformed := map[string][]string{
		"NEW":      {"NEW"},
		"PLAYER":   {"NEW toy id=g2 players=2\nPLAYER", "NEW toy id=g3 players=2\nPLAYER ann@p.test"},
		"RULESET":  nil, // RULESET takes no argument
		"INVITE":   {"INVITE", "INVITE g1", "INVITE g1 carl@p.test"},
		"LIST":     nil,
		"STATUS":   {"STATUS"},
		"PAUSE":    {"PAUSE"},
		"RESUME":   {"RESUME"},
		"EXTEND":   {"EXTEND", "EXTEND g1 Ann"},
		"REPLACE":  {"REPLACE", "REPLACE g1 Ann", "REPLACE g1 Ann carl@p.test"},
		"KICK":     {"KICK"},
		"ROLLBACK": {"ROLLBACK", "ROLLBACK g1"},
		"POLICY":   {"POLICY"}, // POLICY g1 shows the policy
		"ERRATUM":  {"ERRATUM"},
		"HOOK":     {"HOOK", "HOOK g1"},
		"UNHOOK":   {"UNHOOK", "UNHOOK g1"},
		"ABORT":    {"ABORT"},
		"PUBLISH":  {"PUBLISH g1 sideways"}, // PUBLISH alone is the tournament's row
		"HELP":     nil,                     // HELP reads any word after it
	}
	h := newHarness(t)
	h.org("NEW toy id=g1 players=2\nPLAYER ann@p.test Ann\nPLAYER bob@p.test Bob")
	h.mails()
	rows := 0
	for _, row := range organise.Rows() {
		if row.Family != organise.FamilyGames {
			continue
		}
		rows++
		usageAnswered(t, h, malformed, row.Keyword, row.Usage)
	}
	if rows < 15 {
		t.Fatalf("only %d game rows", rows)
	}
}

// usageAnswered: each malformed sample of keyword (a keyword without one
// fails) is answered "<keyword>: usage: <usage>", its table row's syntax.
func usageAnswered(t *testing.T, h *harness, malformed map[string][]string, keyword, usage string) {
	t.Helper()
	lines, ok := malformed[keyword]
	if !ok {
		t.Errorf("%s: no malformed sample in this test", keyword)
	}
	for _, line := range lines {
		h.org(line)
		got := strings.Join(strings.Fields(orgResults(t, h)), " ")
		if want := keyword + ": usage: " + usage; !strings.Contains(got, want) {
			t.Errorf("%q: the answer lacks %q:\n%s", line, want, got)
		}
	}
}
