package smtpout

import (
	"crypto/tls"
	"strings"
	"testing"
	"time"

	"github.com/pbem-referee/referee/referee/rigs/testkit"
)

func TestTLS(t *testing.T) {
	cert, pool := testkit.Server(t)
	server := &tls.Config{Certificates: []tls.Certificate{cert}}
	for _, tc := range []struct {
		name      string
		implicit  bool // server side
		o         Options
		outcome   string
		errSubstr string
	}{
		{"starttls mandatory", false, Options{TLSPolicy: TLSMandatory, TLSConfig: &tls.Config{RootCAs: pool}}, OutcomeSent, ""},
		{"starttls opportunistic", false, Options{TLSPolicy: TLSOpportunistic, TLSConfig: &tls.Config{RootCAs: pool}}, OutcomeSent, ""},
		{"implicit", true, Options{ImplicitTLS: true, TLSConfig: &tls.Config{RootCAs: pool}}, OutcomeSent, ""},
		{"untrusted certificate", false, Options{TLSPolicy: TLSMandatory}, OutcomeRetry, "certificate"},
		{"implicit, untrusted", true, Options{ImplicitTLS: true}, OutcomeRetry, "certificate"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sk := startSinkTLS(t, server, tc.implicit)
			db := openStore(t)
			onResult, wait := collect(t)
			o := tc.o
			o.Addr, o.Username, o.Password = sk.addr, "referee@example.test", "s3cret-Pa55"
			o.Store, o.Logger, o.OnResult = db, debugLogger(&testkit.SyncBuffer{}), onResult
			s, err := New(o)
			if err != nil {
				t.Fatal(err)
			}
			enqueue(t, db, "<t@x>", "referee@example.test", "alice@example.test", testMessage("<t@x>", "alice@example.test"), time.Now())
			runSender(t, s)
			r := wait(1)[0]
			if r.Outcome != tc.outcome {
				t.Fatalf("outcome %s (%v), want %s", r.Outcome, r.Err, tc.outcome)
			}
			if tc.errSubstr != "" && (r.Err == nil || r.Err.Stage != "connect" || !strings.Contains(r.Err.Error(), tc.errSubstr)) {
				t.Errorf("error %v, want a connect failure mentioning %q", r.Err, tc.errSubstr)
			}
			if n := len(sk.messages()); (tc.outcome == OutcomeSent) != (n == 1) {
				t.Errorf("server received %d messages", n)
			}
		})
	}
}
