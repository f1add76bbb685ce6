package demo

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-smtp"

	"github.com/pbem-referee/referee/mailfmt/mailmsg"
)

func startServer(t *testing.T, onDeliver func(Delivery)) *MailServer {
	t.Helper()
	ms, err := StartMailServer(MailOptions{Domain: "Example.TEST", OnDeliver: onDeliver})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ms.Close() })
	return ms
}

func newAccount(t *testing.T, ms *MailServer, local string) Account {
	t.Helper()
	acc, err := Embedded{ms}.Account(local, local)
	if err != nil {
		t.Fatal(err)
	}
	return acc
}

func rawMail(from, to, id, body string) []byte {
	return []byte("From: " + from + "\r\nTo: " + to + "\r\nSubject: test\r\nMessage-ID: " + id +
		"\r\nDate: Mon, 2 Jan 2006 15:04:05 +0000\r\n\r\n" + body + "\r\n")
}

// TestPlusAddressDelivery: referee+<tag>@domain lands in the referee's
// INBOX with Delivered-To naming the plus address, plain addresses in
// their own INBOX, and nothing anywhere else.
func TestPlusAddressDelivery(t *testing.T) {
	var mu sync.Mutex
	var got []Delivery
	ms := startServer(t, func(d Delivery) { mu.Lock(); got = append(got, d); mu.Unlock() })
	ref := newAccount(t, ms, "referee")
	ann := newAccount(t, ms, "ann")
	bob := newAccount(t, ms, "bob")
	ctx := context.Background()
	plus := "referee+g1.0.abcdefghijklmnop@example.test"
	if err := Send(ctx, ann, []string{plus}, rawMail(ann.Addr, plus, "<m1@example.test>", "JOIN")); err != nil {
		t.Fatal(err)
	}
	// Two recipients in one transaction, one of them plus-addressed.
	if err := Send(ctx, ann, []string{"bob@example.test", "Referee+org.secretsecret12@EXAMPLE.test"},
		rawMail(ann.Addr, "bob@example.test", "<m2@example.test>", "hello")); err != nil {
		t.Fatal(err)
	}
	refMsgs, err := FetchAll(ctx, ref, "INBOX")
	if err != nil {
		t.Fatal(err)
	}
	if len(refMsgs) != 2 {
		t.Fatalf("referee INBOX holds %d messages, want 2", len(refMsgs))
	}
	wantTo := []string{plus, "referee+org.secretsecret12@example.test"}
	for i, m := range refMsgs {
		pm, err := mailmsg.Parse(m.Raw, mailmsg.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if len(pm.DeliveredTo) != 1 || !strings.EqualFold(pm.DeliveredTo[0], wantTo[i]) {
			t.Errorf("message %d: Delivered-To %v, want %s", i, pm.DeliveredTo, wantTo[i])
		}
		if pm.ReturnPath != ann.Addr {
			t.Errorf("message %d: Return-Path %q", i, pm.ReturnPath)
		}
	}
	// The tag is found from the delivered message, as the referee does.
	pm, _ := mailmsg.Parse(refMsgs[0].Raw, mailmsg.Options{})
	if tr := mailmsg.FindTag(pm, mailmsg.Address{Addr: ref.Addr}); tr.Tag.Kind != mailmsg.TagSeat || tr.Tag.Game != "g1" {
		t.Errorf("tag %+v", tr.Tag)
	}
	bobMsgs, err := FetchAll(ctx, bob, "INBOX")
	if err != nil {
		t.Fatal(err)
	}
	if len(bobMsgs) != 1 || !strings.Contains(string(bobMsgs[0].Raw), "Delivered-To: bob@example.test\r\n") {
		t.Fatalf("bob's INBOX: %d messages", len(bobMsgs))
	}
	if annMsgs, _ := FetchAll(ctx, ann, "INBOX"); len(annMsgs) != 0 {
		t.Errorf("ann's INBOX holds %d messages", len(annMsgs))
	}
	mu.Lock()
	defer mu.Unlock()
	if len(got) != 3 || got[0].Account != ref.Addr || got[0].Rcpt != plus || got[0].MessageID != "<m1@example.test>" ||
		got[1].Account != bob.Addr || got[2].Account != ref.Addr {
		t.Errorf("deliveries %+v", got)
	}
	if ms.Delivered() != 3 {
		t.Errorf("Delivered() = %d", ms.Delivered())
	}
}

// TestRefusals: unknown users get 550, other domains 554 (no relaying),
// and a wrong password fails AUTH.
func TestRefusals(t *testing.T) {
	ms := startServer(t, nil)
	ann := newAccount(t, ms, "ann")
	ctx := context.Background()
	var se *smtp.SMTPError
	err := Send(ctx, ann, []string{"nobody@example.test"}, rawMail(ann.Addr, "nobody@example.test", "<x1@x>", "x"))
	if !errors.As(err, &se) || se.Code != 550 {
		t.Errorf("unknown user: %v", err)
	}
	err = Send(ctx, ann, []string{"someone@elsewhere.test"}, rawMail(ann.Addr, "someone@elsewhere.test", "<x2@x>", "x"))
	if !errors.As(err, &se) || se.Code != 554 {
		t.Errorf("relay: %v", err)
	}
	bad := ann
	bad.SMTPAuth, bad.Password = true, "wrong"
	if err := Send(ctx, bad, []string{ann.Addr}, rawMail(ann.Addr, ann.Addr, "<x3@x>", "x")); err == nil {
		t.Error("AUTH with a wrong password succeeded")
	}
	good := ann
	good.SMTPAuth = true
	if err := Send(ctx, good, []string{ann.Addr}, rawMail(ann.Addr, ann.Addr, "<x4@x>", "x")); err != nil {
		t.Errorf("AUTH PLAIN: %v", err)
	}
	if _, err := dialIMAP(ctx, bad, nil); err == nil {
		t.Error("IMAP login with a wrong password succeeded")
	}
}

// TestIdleSeesMailAppendedBeforeIdle: mail delivered between a client's
// last command and its IDLE is announced at once (the imapserver lost
// that wake-up; idleSession polls first).
func TestIdleSeesMailAppendedBeforeIdle(t *testing.T) {
	ms := startServer(t, nil)
	ann := newAccount(t, ms, "ann")
	ctx := context.Background()
	for i := 0; i < 20; i++ {
		exists := make(chan uint32, 16)
		c, err := dialIMAP(ctx, ann, &imapclient.Options{UnilateralDataHandler: &imapclient.UnilateralDataHandler{
			Mailbox: func(d *imapclient.UnilateralDataMailbox) {
				if d.NumMessages != nil {
					exists <- *d.NumMessages
				}
			}}})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := c.Select("INBOX", nil).Wait(); err != nil {
			t.Fatal(err)
		}
		// Deliver while the session sits between commands.
		if err := Send(ctx, ann, []string{ann.Addr}, rawMail(ann.Addr, ann.Addr, "<i@x>", "x")); err != nil {
			t.Fatal(err)
		}
		idle, err := c.Idle()
		if err != nil {
			t.Fatal(err)
		}
		select {
		case n := <-exists:
			if n != uint32(i+1) {
				t.Errorf("EXISTS %d, want %d", n, i+1)
			}
		case <-time.After(2 * time.Second):
			t.Fatalf("round %d: no EXISTS within 2 s of IDLE", i)
		}
		if err := idle.Close(); err != nil {
			t.Fatal(err)
		}
		if err := idle.Wait(); err != nil {
			t.Fatal(err)
		}
		st, err := c.Status("INBOX", &imap.StatusOptions{NumMessages: true}).Wait()
		if err != nil || *st.NumMessages != uint32(i+1) {
			t.Fatalf("STATUS %v %v", st, err)
		}
		_ = c.Close()
	}
}

// TestCheckText: the demo's mail check finds a line over 80 columns and
// each kind of internal code, and leaves words, option codes players type
// (HO5, M8, R02, K3+), addresses and links alone.
func TestCheckText(t *testing.T) {
	text := "Ann places a tile.\n  3) PLACE MH3 K4   # helps brew R02\n" + strings.Repeat("é", 81) +
		"\nBob takes SPACE_STOREHOUSE.\nevent fr.place_tile\nround_limit reached\nmail ann_b@example.test or see https://x.test/a_b\n"
	wide, codes := checkText(text)
	if len(wide) != 1 {
		t.Errorf("wide lines: %q", wide)
	}
	want := []string{"SPACE_STOREHOUSE", "fr.place_tile", "round_limit"}
	if len(codes) != len(want) {
		t.Fatalf("codes %q, want %q", codes, want)
	}
	for i, w := range want {
		if !strings.HasPrefix(codes[i], w+" in ") {
			t.Errorf("code %d: %q, want %s", i, codes[i], w)
		}
	}
}
