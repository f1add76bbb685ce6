package guard

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/pbem-referee/referee/mailfmt"
)

// TestBounceFailedOnlyTheVERPAddress (issue 11, item 6): a bounce makes
// fail at most the address the mail of its VERP id went to, once: when it
// names that address (in any case) as failed or without an action, or
// names nobody and is permanent; never another address it names, never a
// delayed one, never anything without a VERP id. The reason is the
// server's words for that address. Varied over recipients lists, VERP
// address and permanence.
func TestBounceFailedOnlyTheVERPAddress(t *testing.T) {
	ann := "ann@example.org"
	recips := map[string][]mailfmt.FailedRecipient{
		"none":           nil,
		"ann failed":     {{Addr: ann, Action: "failed", Status: "5.1.1", Diagnostic: "no such user"}},
		"ANN no action":  {{Addr: "Ann@Example.ORG", Status: "5.2.2"}},
		"ann delayed":    {{Addr: ann, Action: "delayed", Status: "4.4.1"}},
		"bob failed":     {{Addr: "bob@example.org", Action: "failed", Status: "5.1.1"}},
		"ann twice, bob": {{Addr: ann, Action: "failed", Status: "5.1.1"}, {Addr: "bob@example.org", Action: "failed"}, {Addr: "ANN@example.org", Action: "failed", Status: "5.7.1", Diagnostic: "blocked"}},
	}
	for name, rs := range recips {
		for _, sentTo := range []string{"", ann, "bob@example.org"} {
			for _, perm := range []bool{false, true} {
				b := &mailfmt.BounceInfo{Recipients: rs, Permanent: perm}
				var want []string
				for _, r := range rs {
					if sentTo != "" && slices.Contains([]string{"", "failed"}, r.Action) && strings.EqualFold(r.Addr, sentTo) && !slices.Contains(want, sentTo) {
						want = append(want, sentTo)
					}
				}
				if len(rs) == 0 && perm && sentTo != "" {
					want = []string{sentTo}
				}
				got := BounceFailed(b, sentTo)
				if !slices.Equal(got, want) {
					t.Errorf("%s, sent to %q, permanent %v: failed %v, want %v", name, sentTo, perm, got, want)
				}
				for _, a := range got {
					wantReason := ""
					for _, r := range rs {
						if strings.EqualFold(r.Addr, a) {
							wantReason = fmt.Sprintf("%s %s", r.Status, r.Diagnostic)
							if r.Diagnostic == "" {
								wantReason = r.Status
							}
						}
					}
					if got := BounceReason(b, a); got != wantReason {
						t.Errorf("%s: reason for %s %q, want %q", name, a, got, wantReason)
					}
				}
			}
		}
	}
	if BounceFailed(nil, ann) != nil {
		t.Error("no report, yet a failed address")
	}
}
