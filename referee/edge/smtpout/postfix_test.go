package smtpout

// Integration tests against a real Postfix delivering into Dovecot (package
// mailstack). They skip without the servers or root, unless
// REFEREE_MAILSTACK=require.

import (
	"bytes"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/pbem-referee/referee/referee/rigs/mailstack"
	"github.com/pbem-referee/referee/referee/rigs/testkit"
	"github.com/pbem-referee/referee/store"
)

func TestPostfixDelivery(t *testing.T) {
	s := mailstack.Start(t, "referee", "alice", "bob")
	db := openStore(t)
	var logs testkit.SyncBuffer
	onResult, wait := collect(t)
	snd, err := New(Options{
		Addr: s.SMTPAddr, TLSPolicy: TLSNone, Auth: AuthPlain,
		Username: s.Address("referee"), Password: s.Password("referee"), HELO: "referee.example.test",
		MinBackoff: 100 * time.Millisecond, MaxBackoff: time.Second,
		Store: db, Logger: debugLogger(&logs), OnResult: onResult,
	})
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	payload := map[string][]byte{}
	ids := map[string]uint64{}
	for _, to := range []string{"alice@example.test", "bob+g7@example.test", "nobody@example.test", "carol@elsewhere.test"} {
		key := "<g7.t1." + strings.Split(to, "@")[0] + "@referee.example.test>"
		payload[to] = testMessage(key, to)
		ids[to] = enqueue(t, db, key, "referee+bounce@example.test", to, payload[to], now)
	}
	runSender(t, snd)
	results := wait(4)

	for _, r := range results {
		switch r.Item.To {
		case "alice@example.test", "bob+g7@example.test":
			if r.Outcome != OutcomeSent {
				t.Errorf("%s: %s %v", r.Item.To, r.Outcome, r.Err)
			}
		case "nobody@example.test":
			if r.Outcome != OutcomeFailed || r.Err.Code != 550 || r.Err.Enhanced != "5.1.1" {
				t.Errorf("%s: %s %+v, want failed 550 5.1.1", r.Item.To, r.Outcome, r.Err)
			}
		case "carol@elsewhere.test":
			if r.Outcome != OutcomeFailed || r.Err.Code != 554 {
				t.Errorf("%s: %s %+v, want failed 554 (relay denied)", r.Item.To, r.Outcome, r.Err)
			}
		}
	}
	if it := item(t, db, ids["nobody@example.test"]); it.State != store.Failed ||
		!strings.Contains(it.LastError, "550 5.1.1") || !strings.Contains(it.LastError, "User unknown") {
		t.Errorf("nobody@: %q %q, want failed with Postfix's reply", it.State, it.LastError)
	}

	s.WaitCount(t, "alice", "INBOX", 1, 10*time.Second)
	s.WaitCount(t, "bob", "INBOX", 1, 10*time.Second)
	for user, to := range map[string]string{"alice": "alice@example.test", "bob": "bob+g7@example.test"} {
		msgs := s.Messages(t, user, "INBOX")
		if len(msgs) != 1 {
			t.Fatalf("%s has %d messages", user, len(msgs))
		}
		// Postfix and Dovecot prepend trace headers; the rest is our bytes.
		if !bytes.HasSuffix(msgs[0].Raw, payload[to]) {
			t.Errorf("%s received %q, want it to end with the stored message", user, msgs[0].Raw)
		}
		if !bytes.Contains(msgs[0].Raw, []byte("Return-Path: <referee+bounce@example.test>")) ||
			!bytes.Contains(msgs[0].Raw, []byte("Delivered-To: "+to)) {
			t.Errorf("%s: envelope not as sent:\n%s", user, msgs[0].Raw)
		}
	}
	if strings.Contains(logs.String(), s.Password("referee")) {
		t.Errorf("the password reached the log")
	}
	if st := snd.Stats(); st.Sent != 2 || st.Failed != 2 || st.Retried != 0 {
		t.Errorf("stats %+v", st)
	}
}

// TestPostfixDeliveryLatency measures enqueue-to-mailbox latency through
// the Sender, Postfix and Dovecot.
func TestPostfixDeliveryLatency(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	s := mailstack.Start(t, "referee", "alice")
	db := openStore(t)
	onResult, wait := collect(t)
	snd, err := New(Options{
		Addr: s.SMTPAddr, TLSPolicy: TLSNone, Username: s.Address("referee"), Password: s.Password("referee"),
		Workers: 2, Store: db, Logger: debugLogger(&testkit.SyncBuffer{}), OnResult: onResult,
	})
	if err != nil {
		t.Fatal(err)
	}
	runSender(t, snd)
	var lat []time.Duration
	for i := range 20 {
		key := fmt.Sprintf("<lat%d@referee.example.test>", i)
		begin := time.Now()
		enqueue(t, db, key, "referee@example.test", "alice@example.test", testMessage(key, "alice@example.test"), begin)
		snd.Kick()
		wait(1)
		s.WaitCount(t, "alice", "INBOX", i+1, 60*time.Second)
		lat = append(lat, time.Since(begin))
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	t.Logf("enqueue to visible in Dovecot, 20 mails one at a time: median %v, max %v", lat[len(lat)/2], lat[len(lat)-1])

	const n = 100
	begin := time.Now()
	for i := range n {
		key := fmt.Sprintf("<bulk%d@referee.example.test>", i)
		enqueue(t, db, key, "referee@example.test", "alice@example.test", testMessage(key, "alice@example.test"), time.Now())
	}
	snd.Kick()
	wait(n)
	accepted := time.Since(begin)
	s.WaitCount(t, "alice", "INBOX", 20+n, 120*time.Second)
	t.Logf("%d mails: accepted by Postfix in %v (%.0f msg/s with 2 workers), all in Dovecot after %v",
		n, accepted, float64(n)/accepted.Seconds(), time.Since(begin))
}
