package demo

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/pbem-referee/referee/mailfmt"
)

// Issue 22, "fewer mails, none wasted": the demo measures, per player,
// the share of the referee's mails that are receipts (a mail that answers
// the player's message, asks nothing and shows no result: "Received;
// waiting for Bob"). The referee folds such a receipt into the player's
// next mail when that mail comes within a short window, so the share
// stays small (at most 15% in the demo).

// mailCount counts the referee's mails in a player's INBOX and, among
// them, the receipts.
func mailCount(ctx context.Context, acc Account, referee string) (mails, receipts int, err error) {
	msgs, err := FetchAll(ctx, acc, "INBOX")
	if err != nil {
		return 0, 0, err
	}
	for _, m := range msgs {
		pm, err := mailfmt.Parse(m.Raw, mailfmt.Options{})
		if err != nil || !strings.EqualFold(pm.From.Addr, referee) {
			continue
		}
		mails++
		if isReceipt(pm, m.Raw) {
			receipts++
		}
	}
	return mails, receipts, nil
}

// isReceipt tells a receipt from its JSON part (FORMAT json: a reply
// with no prompt in a running game, not refused) or, without one, from its
// English subject ("[Title game] Received...": the demo invites in
// English).
func isReceipt(pm *mailfmt.Message, raw []byte) bool {
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
