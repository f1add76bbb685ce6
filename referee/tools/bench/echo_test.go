package bench

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pbem-referee/referee/mailfmt/mailmsg"
	"github.com/pbem-referee/referee/referee"
	"github.com/pbem-referee/referee/referee/edge/mailin"
	"github.com/pbem-referee/referee/store"
)

// echoReferee is a referee over a fresh store, for the echo to write to.
func echoReferee(t *testing.T, name string) (*referee.Referee, *store.DB) {
	t.Helper()
	db, err := store.Open(filepath.Join(t.TempDir(), name), &store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	r, err := referee.New(referee.Options{DB: db, Domain: "example.test",
		Compose: referee.Composer(mailmsg.Address{Addr: "referee@example.test"})})
	if err != nil {
		t.Fatal(err)
	}
	return r, db
}

// TestEcho: one mail gives one outbox row addressed to the envelope
// sender, threaded to the mail, with a Message-ID derived from the input;
// handing the same mail over again (a watcher's retry) queues nothing more;
// a mail without Return-Path is refused for good.
func TestEcho(t *testing.T) {
	ref, db := echoReferee(t, "echo.db")
	kicks := 0
	e := &Echo{Referee: ref, Domain: "example.test", From: "referee@example.test", Kick: func() { kicks++ }}
	raw := []byte("Return-Path: <ann@example.test>\r\nDelivered-To: referee@example.test\r\nFrom: Ann <ann@example.test>\r\n" +
		"To: referee@example.test\r\nSubject: PING 1\r\nMessage-ID: <p1@example.test>\r\n\r\nPING 1\r\n")
	in := mailin.Inbound{Raw: raw, Source: "imap", Keys: []string{"imap:referee/INBOX/1/7"}}
	ctx := context.Background()
	out, err := e.HandleMail(ctx, in)
	if err != nil || out.Status != "applied" || len(out.Replies) != 1 {
		t.Fatalf("first: %+v %v", out, err)
	}
	id := out.Replies[0]
	if !strings.HasPrefix(id, "<echo.") || !strings.HasSuffix(id, "@example.test>") {
		t.Errorf("message id %s", id)
	}
	// The same message under another transport key (re-delivered after a
	// UIDVALIDITY change): recognised by its Message-ID.
	again, err := e.HandleMail(ctx, mailin.Inbound{Raw: raw, Source: "imap", Keys: []string{"imap:referee/INBOX/2/1"}})
	if err != nil || again.Status != "duplicate" {
		t.Fatalf("again: %+v %v", again, err)
	}
	var items []store.Item
	if err := db.View(func(tx *store.Tx) error {
		return tx.Items(referee.OutboxQueue, func(it store.Item) error { items = append(items, it); return nil })
	}); err != nil {
		t.Fatal(err)
	}
	if len(items) != 1 || e.Handled() != 1 || kicks != 1 {
		t.Fatalf("%d outbox items, %d handled, %d kicks", len(items), e.Handled(), kicks)
	}
	it := items[0]
	p := string(it.Payload)
	if it.Key != id || it.To != "ann@example.test" || it.Meta[referee.MetaFrom] != "referee@example.test" ||
		!strings.Contains(p, "In-Reply-To: <p1@example.test>\r\n") || !strings.Contains(p, "Message-ID: "+id+"\r\n") ||
		!strings.Contains(p, "To: <ann@example.test>\r\n") {
		t.Errorf("item %+v\n%s", it, p)
	}
	// A stable id: the same input key gives the same Message-ID.
	ref2, _ := echoReferee(t, "echo2.db")
	out2, err := (&Echo{Referee: ref2, Domain: "example.test", From: e.From}).HandleMail(ctx, in)
	if err != nil || len(out2.Replies) != 1 || out2.Replies[0] != id {
		t.Errorf("not stable: %v %v", out2, err)
	}
	_, err = e.HandleMail(ctx, mailin.Inbound{Raw: []byte("From: x@example.test\r\nMessage-ID: <q@x>\r\n\r\nhi\r\n"), Keys: []string{"k"}})
	if !referee.IsPermanent(err) {
		t.Errorf("no Return-Path: %v", err)
	}
}

// TestEchoLikeReferee: with Copies 0.5 every second input also gets a copy
// to CopyTo(sender), in the same transaction, and every mail is padded to
// Size, so that the echo run delivers what the referee run delivers.
func TestEchoLikeReferee(t *testing.T) {
	ref, db := echoReferee(t, "like.db")
	e := &Echo{Referee: ref, Domain: "example.test", From: "referee@example.test", Copies: 0.5, Size: 2000,
		CopyTo: func(to string) string { return "next-" + to }}
	ctx := context.Background()
	for i := 1; i <= 4; i++ {
		raw := fmt.Sprintf("Return-Path: <ann@example.test>\r\nFrom: ann@example.test\r\nSubject: PING %d\r\n"+
			"Message-ID: <p%d@example.test>\r\n\r\nPING\r\n", i, i)
		out, err := e.HandleMail(ctx, mailin.Inbound{Raw: []byte(raw), Source: "imap", Keys: []string{fmt.Sprintf("k%d", i)}})
		if err != nil || out.Status != "applied" {
			t.Fatalf("input %d: %+v %v", i, out, err)
		}
	}
	var items []store.Item
	if err := db.View(func(tx *store.Tx) error {
		return tx.Items(referee.OutboxQueue, func(it store.Item) error { items = append(items, it); return nil })
	}); err != nil {
		t.Fatal(err)
	}
	copies := 0
	for _, it := range items {
		if n := len(it.Payload); n > 2000 || n < 2000-78 {
			t.Errorf("%s: %d bytes, want about 2000", it.Key, n)
		}
		if it.Kind == "echo copy" {
			copies++
			if it.To != "next-ann@example.test" || !strings.Contains(string(it.Payload), "Subject: echo copy\r\n") {
				t.Errorf("copy %+v", it)
			}
		}
	}
	if len(items) != 6 || copies != 2 || e.CopiesQueued() != 2 {
		t.Errorf("%d items, %d copies (%d counted), want 6 and 2", len(items), copies, e.CopiesQueued())
	}
}
