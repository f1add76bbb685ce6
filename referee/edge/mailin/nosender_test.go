package mailin

import (
	"fmt"
	"testing"

	"github.com/pbem-referee/referee/referee"
)

// A mail without a sender address (no From, an empty one, a bare name, a
// group, a null path) can be neither answered nor authenticated: it is set
// aside as ignored, at once and for good, whatever it asks. Before (found
// by FuzzWholeMail in imapin), a REGISTER without one failed in the store
// ("key required"), an error taken as transient: retried until set aside.
func TestIntakeMailWithoutSenderAddress(t *testing.T) {
	h := newMailHarness(t)
	n := 0
	for _, from := range []string{"From: 0\r\n", "From: <>\r\n", "From: undisclosed-recipients:;\r\n", "", "From: \r\n", "From: \"x\"\r\n",
		"From: =?utf-8?q?=00?=\r\n"} {
		for _, extra := range []string{"", "MIME-Version: 1.0\r\nContent-Type: 0\r\nContent-Transfer-Encoding: 0\r\n", "Subject: Out of office\r\n"} {
			for _, body := range []string{"REGISTER", "REGISTER Pat", "HELP", "JOIN", "STATUS", "NEW claim id=x"} {
				for _, to := range []string{"referee@example.test", "referee+org.orgsecretorgsecret@example.test"} {
					n++
					raw := fmt.Sprintf("%s%sTo: %s\r\nMessage-ID: <nosender%d@example.test>\r\nDate: Sun, 06 Dec 2026 01:00:00 +0000\r\n\r\n%s\r\n",
						from, extra, to, n, body)
					out, err := h.in.HandleMail(t.Context(), Inbound{Raw: []byte(raw), Source: "test"})
					if err != nil || out.Status != referee.OutcomeIgnored {
						t.Errorf("%q: %+v %v", raw, out, err)
					}
				}
			}
		}
	}
	if in := h.inbox(); len(in) != 0 {
		t.Errorf("mails without a sender address got answers: %v", len(in))
	}
}
