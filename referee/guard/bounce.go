package guard

import (
	"slices"
	"strings"

	"github.com/pbem-referee/referee/mailfmt"
)

// BounceFailed are the addresses a bounce report b counts as failed
// (issue 11, item 6): anybody can write a delivery report, nobody else
// knows the VERP id of a mail the referee sent, so only the address that
// mail went to (sentTo; "" when the report came to no such id: nothing
// counts) may fail: when the report names it as failed (or with no
// action), or names no recipient at all and is permanent. Each address
// once.
func BounceFailed(b *mailfmt.BounceInfo, sentTo string) []string {
	if b == nil || sentTo == "" {
		return nil
	}
	var failed []string
	for _, fr := range b.Recipients {
		a := strings.ToLower(fr.Addr)
		if (fr.Action == "" || fr.Action == "failed") && a == sentTo && !slices.Contains(failed, a) {
			failed = append(failed, a)
		}
	}
	if len(b.Recipients) == 0 && b.Permanent {
		failed = append(failed, sentTo)
	}
	return failed
}

// BounceReason is what the remote server said of addr in b (the status
// code and the diagnostic of its last entry; "" when none), still to be
// quoted for a reader (Quote).
func BounceReason(b *mailfmt.BounceInfo, addr string) string {
	reason := ""
	for _, fr := range b.Recipients {
		if strings.EqualFold(fr.Addr, addr) {
			reason = strings.TrimSpace(fr.Status + " " + fr.Diagnostic)
		}
	}
	return reason
}
