package imapin

import (
	"crypto/tls"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2/imapserver"
	"github.com/emersion/go-imap/v2/imapserver/imapmemserver"

	"github.com/pbem-referee/referee/referee/rigs/testkit"
)

// startTLSServer starts a server that refuses authentication without TLS:
// with implicit TLS on the listener, or offering STARTTLS.
func startTLSServer(t *testing.T, implicit bool, cert tls.Certificate) *memServer {
	t.Helper()
	ms := &memServer{user: imapmemserver.NewUser(testUser, testPass)}
	if err := ms.user.Create("INBOX", nil); err != nil {
		t.Fatal(err)
	}
	opts := &imapserver.Options{
		NewSession: func(*imapserver.Conn) (imapserver.Session, *imapserver.GreetingData, error) {
			return &testSession{ms: ms}, nil, nil
		},
		Caps:        capsDovecot,
		Logger:      quietLog{},
		DebugWriter: &ms.traffic,
	}
	tc := &tls.Config{Certificates: []tls.Certificate{cert}}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	if implicit {
		ln = tls.NewListener(ln, tc)
	} else {
		opts.TLSConfig = tc
	}
	srv := imapserver.New(opts)
	ms.addr = ln.Addr().String()
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	return ms
}

func TestTLSModes(t *testing.T) {
	cert, pool := testkit.Server(t)
	for _, tc := range []struct {
		name     string
		implicit bool
		mode     TLSMode
	}{
		{"implicit", true, TLSImplicit},
		{"starttls", false, TLSStartTLS},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ms := startTLSServer(t, tc.implicit, cert)
			ms.deliver(t, "INBOX", message("<tls@a>", "x"))
			h := newHandler()
			o := testOptions(ms.addr, openStore(t), h, &testkit.SyncBuffer{})
			o.TLS = tc.mode
			o.TLSConfig = &tls.Config{RootCAs: pool}
			r := start(t, o)
			if got := h.await(t, 1); got[0] != "<tls@a>" {
				t.Fatalf("got %v", got)
			}
			r.stop()
			if !tc.implicit && !strings.Contains(ms.traffic.String(), "STARTTLS") {
				t.Errorf("no STARTTLS in the traffic")
			}
		})
	}
}

func TestTLSFailures(t *testing.T) {
	cert, pool := testkit.Server(t)
	for _, tc := range []struct {
		name     string
		implicit bool
		mode     TLSMode
		roots    *tls.Config
		logged   string
	}{
		{"untrusted certificate", true, TLSImplicit, &tls.Config{}, "certificate"},
		{"plain to a TLS-only server", false, TLSNone, nil, "login as"},
		{"starttls to an implicit-TLS port", true, TLSStartTLS, &tls.Config{RootCAs: pool}, "starttls"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ms := startTLSServer(t, tc.implicit, cert)
			h := newHandler()
			var logs testkit.SyncBuffer
			o := testOptions(ms.addr, openStore(t), h, &logs)
			o.TLS, o.TLSConfig = tc.mode, tc.roots
			o.DialTimeout = time.Second
			r := start(t, o)
			eventually(t, "failed attempts", func() bool { return r.w.Stats().Reconnects >= 2 })
			r.stop()
			if st := r.w.Stats(); st.Connected || st.Handled != 0 {
				t.Errorf("stats %+v", st)
			}
			if !strings.Contains(logs.String(), tc.logged) {
				t.Errorf("log lacks %q:\n%s", tc.logged, logs.String())
			}
		})
	}
}
