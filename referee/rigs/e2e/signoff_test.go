package e2e_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/pbem-referee/referee/referee/rigs/testkit"
)

// TestSignatureUnderSignOffInPeoplesClients_Issue25: through Postfix and
// Dovecot, replies signed under a sign-off without "-- " (mailfmt doc.go
// rule 6) with the lines that once voided a reply ("ACME GmbH", "CEO",
// "Piazza Duomo 1", "221 Baker St", "Bâtiment B", "Hauptstr. 12", a '|'
// line), in five languages' sign-offs, written in Outlook, Gmail, Apple
// Mail and Thunderbird, answering in turns "1", "1.", "option 1", the
// copied menu line and the command: each move is played, and the echo
// refuses nothing and names no signature line.
func TestSignatureUnderSignOffInPeoplesClients_Issue25(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	ms, d, orgTo := startReferee(t, "ann", "bob")
	startAnnAndBob(t, ms, d, orgTo, "s1", "signoff1")
	tails := []string{
		"Best regards,\nAnn Example\nACME GmbH\nCEO\n221 Baker St\nLondon",
		"Ciao!\nAnn\nPiazza Duomo 1, 20121 Milano",
		"Bien à vous\nAnn\nBâtiment B, 3e étage\n12 rue de la Paix, 75002 Paris",
		"Groetjes\nAnn\nKerkstraat 12\n1017 GM Amsterdam",
		"Grüße,\nAnn Example\nHauptstr. 12\n10115 Berlin",
		"Cheers\nAnn\nBrewers' Circle | Milano",
	}
	forms := []func(n int, line string) string{
		func(n int, _ string) string { return fmt.Sprint(n) },
		func(n int, _ string) string { return fmt.Sprintf("%d.", n) },
		func(n int, _ string) string { return fmt.Sprintf("option %d", n) },
		func(n int, line string) string { return fmt.Sprintf("%d) %s", n, line) },
		func(_ int, line string) string { c, _, _ := strings.Cut(line, "#"); return strings.TrimSpace(c) },
	}
	played := 0
	for i := 0; i < 2*len(tails); i++ {
		tb, p := waitingSeat(t, d, "s1")
		if tb == nil {
			break
		}
		prompt, m := latestMenu(t, ms, p, "WHAT YOU NEED TO DO NOW")
		text := m.Text
		tail := tails[i%len(tails)]
		answer := forms[i%len(forms)](1, menuLine(text, 1))
		c := testkit.Clients[i%len(testkit.Clients)]
		before, n := tb.Token(), ms.Count(t, p, "INBOX")
		// The signature is typed under the sign-off, with no "-- ".
		to, raw := c.Reply(t, prompt, ms.Address(p), "Ann Example", fmt.Sprintf("sig-%d", i), answer+"\n\n"+tail, "")
		ms.Send(t, ms.Address(p), []string{to}, raw)
		what := fmt.Sprintf("%s %q under %q", c.Name, answer, tail)
		waitMoved(t, d, "s1", before, what)
		_, echo := newMail(t, ms, p, n, "YOUR MESSAGE")
		for _, bad := range []string{"REFUSED", "Nothing of this message", "GmbH", "CEO", "Baker", "Piazza", "Bâtiment", "Kerkstraat", "Hauptstr", "Brewers'", "did not understand"} {
			if strings.Contains(echo, bad) {
				t.Errorf("%s: %q in the echo:\n%s", what, bad, echo)
			}
		}
		played++
	}
	if played < len(tails) {
		t.Errorf("only %d replies played", played)
	}
}
