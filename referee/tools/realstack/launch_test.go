package realstack

import (
	"net"
	"os"
	"strings"
	"testing"
)

// TestLaunchPortTaken checks the error Start retries on: a stack whose IMAP
// port is held by a client connection (as a test running alongside may hold
// one) fails with "Address already in use", rather than hanging or passing.
func TestLaunchPortTaken(t *testing.T) {
	needStack(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	c, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_, port, _ := net.SplitHostPort(c.LocalAddr().String())
	t.Setenv("MS_IMAP_PORT", port)
	s, err := Launch(t.Logf, []string{"referee"})
	if err == nil {
		_ = s.Stop()
		t.Fatal("a stack came up on a taken port")
	}
	if !strings.Contains(err.Error(), "Address already in use") {
		t.Fatalf("error does not name the taken port, so Start would not retry: %v", err)
	}
}

// TestLaunchPortServedByAnother is the race TestLaunchPortTaken used to lose
// now and then under parallel load: the IMAP port is taken by another
// server that answers like a Dovecot. The readiness probe reads the
// greeting and wants this stack's own marker, so the launch fails with
// "Address already in use" instead of taking the other server for its own.
func TestLaunchPortServedByAnother(t *testing.T) {
	needStack(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			_, _ = c.Write([]byte("* OK [CAPABILITY IMAP4rev1] Dovecot ready.\r\n"))
			_ = c.Close()
		}
	}()
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	t.Setenv("MS_IMAP_PORT", port)
	s, err := Launch(t.Logf, []string{"referee"})
	if err == nil {
		_ = s.Stop()
		t.Fatal("a stack took another server on its port for its own")
	}
	if !strings.Contains(err.Error(), "Address already in use") {
		t.Fatalf("error does not name the taken port, so Start would not retry: %v", err)
	}
}

// needStack skips the test when Dovecot and Postfix are not there (fails
// it when REFEREE_MAILSTACK=require, as in CI).
func needStack(t *testing.T) {
	t.Helper()
	if err := Available(); err != nil {
		if os.Getenv("REFEREE_MAILSTACK") == "require" {
			t.Fatalf("mailstack required but unavailable: %v", err)
		}
		t.Skipf("mailstack: %v", err)
	}
}
