package mailin

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"testing"

	"github.com/pbem-referee/referee/mailfmt/mailmsg"
	"github.com/pbem-referee/referee/store"
)

// oldBounceID is the VERP id the referee made before 2026-12-06: the
// first 16 hex digits of the SHA-256 of the Message-ID.
func oldBounceID(messageID string) string {
	sum := sha256.Sum256([]byte(messageID))
	return hex.EncodeToString(sum[:8])
}

// TestBounceIDsOldAndNew_Issue25: a VERP id is the cluster of the input
// that queued the mail then a MAC (mailmsg.BounceID, store/doc.go "Key layout"). A bounce to the
// id of a mail we sent is acted on, whether the id is of the new form or
// of the old one kept in a store written before; an id that is only
// guessed is not: the right time with a MAC under another key, or the old
// form computed from the Message-ID of a mail whose id is of the new form.
// Each for every mail the game sent to bob, and for auto-replies through
// the id as for bounces.
func TestBounceIDsOldAndNew_Issue25(t *testing.T) {
	h := newMailHarness(t)
	if _, err := h.r.Organise(org, "NEW claim id=c1\nPLAYER ann@example.test Ann\nPLAYER bob@example.test Bob"); err != nil {
		t.Fatal(err)
	}
	in := h.inbox()
	clusters := map[string]bool{} // of the inputs handled
	for _, raw := range [][]byte{h.reply(in[ann][0], ann, "JOIN"), h.reply(in[bob][0], bob, "JOIN")} {
		m, err := mailmsg.Parse(raw, mailmsg.Options{})
		if err != nil {
			t.Fatal(err)
		}
		clusters[store.InputCluster("msgid:"+m.MessageID)] = true
		h.handle(raw)
	}
	in = h.inbox()
	var bobs []string // bob's mails' Message-IDs
	for _, raw := range in[bob] {
		m, err := mailmsg.Parse(raw, mailmsg.Options{})
		if err != nil {
			t.Fatal(err)
		}
		bobs = append(bobs, m.MessageID)
	}
	if len(bobs) == 0 {
		t.Fatal("no mail to bob")
	}
	n := 0
	dsn := func(id string) []byte {
		n++
		return []byte(fmt.Sprintf("From: MAILER-DAEMON@example.test\r\nTo: referee+bounce.%s@example.test\r\nSubject: Undelivered Mail Returned to Sender\r\n"+
			"Message-ID: <dsnid%d@example.test>\r\nDate: Mon, 23 Nov 2026 09:02:00 +0000\r\nAuto-Submitted: auto-replied\r\nMIME-Version: 1.0\r\n"+
			"Content-Type: multipart/report; report-type=delivery-status; boundary=\"b\"\r\n\r\n--b\r\nContent-Type: text/plain\r\n\r\nBounced.\r\n"+
			"--b\r\nContent-Type: message/delivery-status\r\n\r\nReporting-MTA: dns; mx.example.test\r\n\r\nFinal-Recipient: rfc822; bob@example.test\r\n"+
			"Action: failed\r\nStatus: 5.1.1\r\nDiagnostic-Code: smtp; 550 5.1.1 no such user\r\n\r\n--b--\r\n", id, n))
	}
	acted := func(id string) bool {
		out := h.handle(dsn(id))
		return strings.Contains(out.Detail, "bob@example.test")
	}
	for i, mid := range bobs {
		id := bounceIDOf(t, h.envelope[mid])
		if len(id) != 32 || !clusters[id[:16]] {
			t.Errorf("mail %d: VERP id %q: want the cluster of the input that queued it, then 16 hex digits of MAC", i, id)
		}
		if !acted(id) {
			t.Errorf("mail %d: a bounce to its VERP id %s not acted on", i, id)
		}
		forged := mailmsg.BounceID([]byte("not the referee's key"), id[:16], mid, h.clock.Now())
		if forged[:16] != id[:16] || forged == id {
			t.Fatalf("forged id %s against %s", forged, id)
		}
		if acted(forged) {
			t.Errorf("mail %d: a bounce to a guessed id of the right second (%s) acted on", i, forged)
		}
		if acted(oldBounceID(mid)) {
			t.Errorf("mail %d: a bounce to the old form of its id, computed from the Message-ID, acted on", i)
		}
		// The mail as a store written before kept it: its old id.
		var rec store.VERPRecord
		if err := h.db.View(func(tx *store.Tx) error {
			var ok bool
			var err error
			rec, ok, err = tx.VERP(id)
			if !ok && err == nil {
				err = fmt.Errorf("no VERP record of %s", id)
			}
			return err
		}); err != nil {
			t.Fatal(err)
		}
		if err := h.db.Update(func(tx *store.Tx) error { return tx.PutVERP(oldBounceID(mid), rec) }); err != nil {
			t.Fatal(err)
		}
		if !acted(oldBounceID(mid)) {
			t.Errorf("mail %d: a bounce to its VERP id of the old form, in the store, not acted on", i)
		}
	}
	// An auto-reply through a VERP id: believed for a real id (the
	// absence is offered), not for a guessed one.
	ooo := func(id string, k int) string {
		return h.handle([]byte(fmt.Sprintf("From: Bob <bob@example.test>\r\nTo: referee+bounce.%s@example.test\r\nSubject: Automatic reply\r\n"+
			"Auto-Submitted: auto-replied\r\nMessage-ID: <oooid%d@example.test>\r\nDate: Mon, 23 Nov 2026 09:01:00 +0000\r\n\r\n"+
			"I am out of the office until 30 November 2026.\r\n", id, k))).Detail
	}
	if d := ooo(mailmsg.BounceID([]byte("guess"), "", bobs[0], h.clock.Now()), 1); strings.Contains(d, "absence offered") {
		t.Errorf("an auto-reply to a guessed VERP id offered an absence: %s", d)
	}
	if d := ooo(bounceIDOf(t, h.envelope[bobs[0]]), 2); !strings.Contains(d, "absence offered") {
		t.Errorf("an auto-reply to bob's VERP id: %s", d)
	}
}
