package mailin

import (
	"strings"
	"testing"

	"github.com/pbem-referee/referee/mailfmt/mailmsg"
	"github.com/pbem-referee/referee/referee"
)

// muttReply is a reply as mutt writes it when the player types right above
// the attribution line, with no blank line in between (issue 10).
func (h *mailHarness) muttReply(orig []byte, from, text string) []byte {
	h.t.Helper()
	b, m := h.replyHead(orig, from, "mutt", "Content-Disposition: inline\r\nUser-Agent: NeoMutt/20240425\r\n")
	writeLines(b, "", text)
	b.WriteString("On Mon, Nov 23, 2026 at 09:00:00AM +0000, Referee wrote:\r\n")
	writeLines(b, "> ", m.Text)
	return []byte(b.String())
}

// startClaim creates game c1 (ann in Italian, bob) and has both join with a
// mutt reply typed right above "On ..., Referee wrote:". It returns the
// inbox after the start.
func startClaim(t *testing.T, h *mailHarness) map[string][][]byte {
	t.Helper()
	orgMail := []byte("From: Olga <olga@example.test>\r\nTo: referee+org.orgsecretorgsecret@example.test\r\nSubject: new game\r\n" +
		"Message-ID: <org1@example.test>\r\nDate: Mon, 23 Nov 2026 08:00:00 +0000\r\n\r\n" +
		"NEW claim id=c1\r\nPLAYER ann@example.test Ann it\r\nPLAYER bob@example.test Bob\r\n")
	if out := h.handle(orgMail); out.Status != "applied" {
		t.Fatalf("organiser mail: %+v", out)
	}
	in := h.inbox()
	for _, p := range []string{ann, bob} {
		if out := h.handle(h.muttReply(in[p][0], p, "JOIN")); out.Status != "answered" {
			t.Fatalf("%s JOIN right above the attribution: %+v", p, out)
		}
	}
	if g := h.game("c1"); g.Status != referee.StatusRunning {
		t.Fatalf("JOIN lost: game %s", g.Status)
	}
	return h.inbox()
}

// Issue 10: "Ciao!" + commands + "Grazie" right above a mutt attribution
// applies the commands and lists the two ignored lines; nothing is
// refused.
func TestMailGreetingAndThanksAreIgnoredAndListed(t *testing.T) {
	h := newMailHarness(t)
	in := startClaim(t, h)
	g := h.game("c1")
	first := g.Seats[0].Address
	other := g.Seats[1].Address
	h.game("c1")
	out := h.handle(h.muttReply(last(in[first]), first, "Ciao!\nLINGUA it\nCLAIM 3\nGrazie"))
	if out.Status != "applied" {
		t.Fatalf("reply: %+v", out)
	}
	if g := h.game("c1"); g.Seats[0].Lang != "it" {
		t.Errorf("LINGUA it not applied: %q", g.Seats[0].Lang)
	}
	in = h.inbox()
	rm, _ := mailmsg.Parse(last(in[first]), mailmsg.Options{})
	contains(t, rm.Text, "CLAIM 3", "Ho ignorato 2 righe della tua mail senza comandi:\n  Ciao!\n  Grazie",
		"Ho letto 2 righe della tua mail")
	lacks(t, rm.Text, "Non ho applicato niente", "RESPINTO")
	if len(in[other]) == 0 {
		t.Errorf("the other player heard nothing of the move")
	}
	for _, l := range strings.Split(rm.Text, "\n") {
		if n := len([]rune(l)); n > 80 {
			t.Errorf("line of %d columns: %q", n, l)
		}
	}
}

// Issue 10: a line that starts with a keyword but is wrong is still
// refused (a typo must never turn into another move); a referee command
// applied in the same mail is listed as applied, and "nothing was applied"
// is not said because it would be false.
func TestMailRefusedOrderWithAppliedRefereeCommand(t *testing.T) {
	h := newMailHarness(t)
	in := startClaim(t, h)
	first := h.game("c1").Seats[0].Address
	out := h.handle(h.muttReply(last(in[first]), first, "Hello,\nLANG en\nCLAIM lots\nthanks for the game\nCheers"))
	if out.Status != "rejected" {
		t.Fatalf("reply: %+v", out)
	}
	if g := h.game("c1"); g.Seats[0].Lang != "en" {
		t.Errorf("LANG en not applied: %q", g.Seats[0].Lang)
	}
	in = h.inbox()
	rm, _ := mailmsg.Parse(last(in[first]), mailmsg.Options{})
	contains(t, rm.Text, "done     LANG en", "REFUSED  CLAIM lots", `Only the lines marked "done" were applied`,
		"I ignored 3 lines of your mail that hold no command:\n  Hello,\n  thanks for the game\n  Cheers")
	lacks(t, rm.Text, "Nothing of this message was applied")
	// Only prose and an unknown upper-case word (two edits from any
	// keyword: one edit is read as the keyword and said, issue 20):
	// refused, and then nothing was applied indeed.
	out = h.handle(h.muttReply(last(in[first]), first, "CLAIMMM 3\nsorry, typo above"))
	if out.Status != "rejected" {
		t.Fatalf("typo: %+v", out)
	}
	in = h.inbox()
	rm, _ = mailmsg.Parse(last(in[first]), mailmsg.Options{})
	contains(t, rm.Text, "REFUSED  CLAIMMM 3", "Nothing of this message was applied", "  sorry, typo above")
}
