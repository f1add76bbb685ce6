package testkit

import (
	"crypto/tls"
	"crypto/x509"
	"io"
	"net"
	"testing"
)

// TestServer checks that a client trusting the pool completes a handshake
// with a server using the certificate, at 127.0.0.1 and as localhost, and
// that a client with an empty pool does not.
func TestServer(t *testing.T) {
	cert, pool := Server(t)
	ln, err := tls.Listen("tcp", "127.0.0.1:0", &tls.Config{Certificates: []tls.Certificate{cert}})
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
			go func() { _, _ = io.Copy(io.Discard, c); c.Close() }()
		}
	}()
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	for _, name := range []string{"127.0.0.1", "localhost"} {
		c, err := tls.Dial("tcp", ln.Addr().String(), &tls.Config{RootCAs: pool, ServerName: name})
		if err != nil {
			t.Errorf("handshake as %s: %v", name, err)
			continue
		}
		c.Close()
	}
	if c, err := tls.Dial("tcp", net.JoinHostPort("127.0.0.1", port), &tls.Config{RootCAs: x509.NewCertPool()}); err == nil {
		c.Close()
		t.Error("a client that trusts nothing completed the handshake")
	}
	p := x509.NewCertPool()
	if !p.AppendCertsFromPEM(PEM(cert)) {
		t.Error("PEM is not a certificate")
	}
}
