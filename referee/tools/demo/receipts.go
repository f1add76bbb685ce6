package demo

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/pbem-referee/referee/mailfmt/mailmsg"
)

// Issue 22, "fewer mails, none wasted": the demo measures, per player,
// the share of the referee's mails that are receipts (a mail that answers
// the player's message, asks nothing and shows no result: "Received;
// waiting for Bob"). The referee folds such a receipt into the player's
// next mail when that mail comes within a short window, so the share
// stays small (at most 15% in the demo).

//
// Every mail a player reads is checked as it arrived in the mailbox (its
// text part; the JSON part is for programs): no line over 80 columns and
// no internal code (an UPPER_CASE or lower_case data id, an event type
// such as "fr.place_tile"): PlayerResult.Wide and Codes, each with the
// mail's subject (issue 22; TestDemoEndToEnd fails on any).

// mailCheck counts the referee's mails in a player's INBOX and, among
// them, the receipts, and collects the lines that are too wide or carry
// an internal code.
func mailCheck(ctx context.Context, acc Account, referee string, pr *PlayerResult) error {
	msgs, err := FetchAll(ctx, acc, "INBOX")
	if err != nil {
		return err
	}
	for _, m := range msgs {
		pm, err := mailmsg.Parse(m.Raw, mailmsg.Options{})
		if err != nil || !strings.EqualFold(pm.From.Addr, referee) {
			continue
		}
		pr.Mails++
		if isReceipt(pm, m.Raw) {
			pr.Receipts++
		}
		wide, codes := checkText(pm.Text)
		for _, l := range wide {
			pr.Wide = append(pr.Wide, fmt.Sprintf("%s: %d columns: %q", pm.Subject, utf8.RuneCountInString(l), l))
		}
		for _, c := range codes {
			pr.Codes = append(pr.Codes, pm.Subject+": "+c)
		}
	}
	return nil
}

// internalCode finds what no player should read: an UPPER_CASE or
// lower_case identifier of the data or the code, or a game's event type
// ("db.roll", "fr.place_tile", "toy.bid").
var internalCode = regexp.MustCompile(`\b[A-Z0-9]+_[A-Z0-9_]+\b|\b[a-z]+_[a-z_]+\b|\b(?:db|fr|ha|bc|toy)\.[a-z_]+\b`)

// checkText returns a mail text's lines over 80 columns and the internal
// codes it shows (a line with an address or a link is not searched for
// codes: "ann_b@example.test").
func checkText(text string) (wide, codes []string) {
	for _, l := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n") {
		if utf8.RuneCountInString(l) > 80 {
			wide = append(wide, l)
		}
		if strings.Contains(l, "@") || strings.Contains(l, "://") {
			continue
		}
		for _, c := range internalCode.FindAllString(l, -1) {
			codes = append(codes, fmt.Sprintf("%s in %q", c, strings.TrimSpace(l)))
		}
	}
	return wide, codes
}

// isReceipt tells a receipt from its JSON part (FORMAT json: a reply
// with no prompt in a running game, not refused) or, without one, from its
// English subject ("[Title game] Received...": the demo invites in
// English).
func isReceipt(pm *mailmsg.Message, raw []byte) bool {
	if j, _ := jsonPart(raw); j != nil {
		var v MailView
		if json.Unmarshal(j, &v) == nil {
			return v.Kind == "reply" && v.Prompt == nil && v.Status == "running" && v.Reply != nil && !v.Reply.Rejected
		}
	}
	_, rest, ok := strings.Cut(pm.Subject, "] ")
	return ok && strings.HasPrefix(rest, "Received")
}

// receiptShare is receipts as a percentage of mails (0 for no mail).
func receiptShare(mails, receipts int) float64 {
	if mails == 0 {
		return 0
	}
	return 100 * float64(receipts) / float64(mails)
}
