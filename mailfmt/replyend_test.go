package mailfmt

import (
	"testing"

	"github.com/pbem-referee/referee/mailfmt/mailmsg"
)

// TestReplyEndRules pins one case of each rule of doc.go, "Where a reply's
// own text ends" (issue 20); TestGeneratedReplies crosses them all.
func TestReplyEndRules(t *testing.T) {
	const q = "> Your options:\n>   2) STORE Y5 G4\n>   3) PASS\n"
	for _, c := range []struct{ name, body, want string }{
		{"rule2-attribution-without-colon", "PASS\n\nAm 12.05.2026 um 10:14 schrieb Referee <referee@example.test>\n\n" + q, "PASS"},
		{"rule2-nl-wrap-second-line-keyword", "2\n\nOp di 12 mei 2026 om 10:14 schreef\nPas Referee <referee@example.test>:\n" + q, "2"},
		{"rule2-proton-separator-over-quote-bottom", "------- Original Message -------\nOn Tuesday, May 12th, 2026 at 10:14, Referee <referee@example.test> wrote:\n\n" + q + "\nPASS", "PASS"},
		{"rule3-equals-separator", "PASS\n===== Original Message =====\nFrom: R\nSent: today\nTo: A\nSubject: x\n\n  3) PASS", "PASS"},
		{"rule3-bare-rule-over-header-block", "PASS\n==========\nFrom: R <r@x.test>\nDate: 12/05/2026\nSubject: x\n\n  3) PASS", "PASS"},
		{"rule3-starred-header-block", "PASS\n\n** De : Referee <r@x.test> **\n** Envoyé : mardi 12 mai 2026 10:14 **\n** À : Anne **\n** Objet : x **\n\n  3) PASS", "PASS"},
		{"rule3-bold-header-block", "2\n\n*From:* Referee <r@x.test>\n*Sent:* Tuesday\n*Subject:* x\n\n  3) PASS", "2"},
		{"rule3-any-language-header-block", "2\n\nLähettäjä: Referee <r@x.test>\nLähetetty: tiistai 12. toukokuuta 2026 10.14\nAihe: x\n\n  3) PASS", "2"},
		{"rule5-footer-above-answer", "Sent from my iPhone\n\nPASS\n\nOn Tue, May 12, 2026 at 10:14 AM Referee <r@x.test> wrote:\n" + q, "PASS"},
		{"rule5-footer-above-near-miss", "Von meinem iPhone gesendet\n\npaas\n", "paas"},
		{"rule5-signature-above-answer", "-- \nAnna Rossi\nanna@rossi.example\n\noption 2\n", "option 2"},
		{"rule5-keyword-line-with-phone-below-signature", "-- \nAnna Rossi\n\nSAY call me at +39 333 1234567\n", "SAY call me at +39 333 1234567"},
		{"rule5-rule-line-between-commands", "PLACE MH1 SEED\n-----\nSTORE Y5 G4", "PLACE MH1 SEED\nSTORE Y5 G4"},
		{"rule5-rule-line-then-notice", "PASS\n\n__________________________\nThis e-mail is confidential.", "PASS"},
		{"rule6-business-de", "2\n\nViele Grüße\nAnna Weber\nACME Brauerei GmbH\nTel.: +49 30 1234567\nSitz: Berlin, HRB 123456\nUSt-IdNr.: DE123456789", "2"},
		{"rule6-business-never-above-short-answer", "Anna Weber\nTel.: +49 30 1234567\n\noption 2", "Anna Weber\nTel.: +49 30 1234567\n\noption 2"},
		{"rule6-chat-with-address-above-answer", "my new address is anna@rossi.example\n\n2", "my new address is anna@rossi.example\n\n2"},
		{"rule6-organiser-lines-with-addresses", "NEW claim id=c1\nPLAYER ann@example.test Ann it\nPLAYER bob@example.test Bob", "NEW claim id=c1\nPLAYER ann@example.test Ann it\nPLAYER bob@example.test Bob"},
		{"rule6-addresses-alone-are-no-signature", "player ann@example.test Ann it\nplayer bob@example.test Bob", "player ann@example.test Ann it\nplayer bob@example.test Bob"},
		{"rule7-greeting-command-line", "Hallo,PASS\n\nPASS - cheers", "Hallo,PASS\n\nPASS - cheers"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, info := corpusKeywords.ExtractCommands(c.body, mailmsg.Address{Name: "Anna Rossi", Addr: "anna@rossi.example"})
			if got != c.want {
				t.Errorf("got %q, want %q (info %+v)", got, c.want, info)
			}
		})
	}
}
