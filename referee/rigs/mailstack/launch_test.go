package mailstack

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
	if err := Available(); err != nil {
		if os.Getenv(RequireEnv) == "require" {
			t.Fatalf("mailstack required but unavailable: %v", err)
		}
		t.Skipf("mailstack: %v", err)
	}
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
	s, err := launch(t, []string{"referee"})
	if err == nil {
		s.stop()
		t.Fatal("a stack came up on a taken port")
	}
	if !strings.Contains(err.Error(), "Address already in use") {
		t.Fatalf("error does not name the taken port, so Start would not retry: %v", err)
	}
}
