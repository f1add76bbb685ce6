package netaddr

import "testing"

func TestSplitServer(t *testing.T) {
	for _, c := range []struct {
		addr string
		host string
		port int
		ok   bool
	}{
		{"mail.example.org:993", "mail.example.org", 993, true},
		{"127.0.0.1:25", "127.0.0.1", 25, true},
		{"[::1]:587", "::1", 587, true},
		{"mail.example.org", "", 0, false},
		{":25", "", 0, false},
		{"host:0", "host", 0, false},
		{"host:65536", "host", 0, false},
		{"host:smtp", "host", 0, false},
		{"", "", 0, false},
	} {
		host, port, err := SplitServer(c.addr)
		if (err == nil) != c.ok || host != c.host || port != c.port {
			t.Errorf("SplitServer(%q) = %q, %d, %v; want %q, %d, ok=%v", c.addr, host, port, err, c.host, c.port, c.ok)
		}
	}
}

func TestIsLoopback(t *testing.T) {
	for host, want := range map[string]bool{
		"localhost": true, "127.0.0.1": true, "127.8.9.10": true, "::1": true,
		"10.0.0.1": false, "mail.example.org": false, "": false, "::": false, "localhost.example.org": false,
	} {
		if got := IsLoopback(host); got != want {
			t.Errorf("IsLoopback(%q) = %v, want %v", host, got, want)
		}
	}
}
