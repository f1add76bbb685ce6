package webhook

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/pbem-referee/referee/referee/edge/hookout"
)

// TestTrustedProxiesClientKey is issue 23's trusted proxies: a connection
// from a listed proxy is keyed by the client its forwarding header names
// (read from the right, skipping proxies), and nobody else's header is
// believed. Every case runs with both header forms (Forwarded,
// X-Forwarded-For), IPv4 and IPv6, one or two field lines.
func TestTrustedProxiesClientKey(t *testing.T) {
	proxies := []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("fd00::/8"), netip.MustParsePrefix("192.0.2.7/32")}
	s := &Server{o: Options{TrustedProxies: proxies}}
	cases := []struct {
		remote string
		hops   []string // nearest last, as the forwarding header lists them
		want   string
	}{
		// Not a proxy: the header is ignored, whatever it says.
		{"203.0.113.9:5000", []string{"198.51.100.1"}, "203.0.113.9"},
		{"203.0.113.9:5000", []string{"10.0.0.1"}, "203.0.113.9"},
		// A proxy: the hop it names.
		{"10.1.2.3:5000", []string{"198.51.100.1"}, "198.51.100.1"},
		{"192.0.2.7:443", []string{"198.51.100.1"}, "198.51.100.1"},
		// A client's own forged entries to the left of the proxy's are
		// not read.
		{"10.1.2.3:5000", []string{"1.1.1.1", "2.2.2.2", "198.51.100.1"}, "198.51.100.1"},
		// Two proxies in a row: skipped from the right.
		{"10.1.2.3:5000", []string{"198.51.100.1", "10.9.9.9"}, "198.51.100.1"},
		{"10.1.2.3:5000", []string{"1.1.1.1", "198.51.100.1", "10.9.9.9", "192.0.2.7"}, "198.51.100.1"},
		// IPv6: the client's /64.
		{"[fd00::1]:5000", []string{"2001:db8:1:2:3:4:5:6"}, "2001:db8:1:2::/64"},
		{"10.1.2.3:5000", []string{"2001:db8:1:2::9"}, "2001:db8:1:2::/64"},
		// Only proxies named: the leftmost one; no header: the proxy.
		{"10.1.2.3:5000", []string{"10.0.0.5", "10.0.0.6"}, "10.0.0.5"},
		{"10.1.2.3:5000", nil, "10.1.2.3"},
		// What a proxy wrote that is no address is the client as written.
		{"10.1.2.3:5000", []string{"unknown"}, "forwarded:unknown"},
		// A port on the hop is not part of the client.
		{"10.1.2.3:5000", []string{"198.51.100.1:4711"}, "198.51.100.1"},
	}
	for _, c := range cases {
		for _, form := range []string{"Forwarded", "X-Forwarded-For"} {
			for _, lines := range []int{1, 2} {
				r := httptest.NewRequest("POST", "/inbound", nil)
				r.RemoteAddr = c.remote
				var vals []string
				for _, h := range c.hops {
					if form == "Forwarded" {
						a, err := netip.ParseAddr(h)
						if err == nil && a.Is6() {
							h = `"[` + h + `]"`
						} else if strings.Contains(h, ":") {
							if ap, err := netip.ParseAddrPort(h); err == nil && ap.Addr().Is4() {
								h = `"` + h + `"`
							}
						}
						vals = append(vals, "for="+h+";proto=https")
					} else {
						vals = append(vals, h)
					}
				}
				if len(vals) > 0 {
					if lines == 1 || len(vals) == 1 {
						r.Header.Set(form, strings.Join(vals, ", "))
					} else {
						r.Header.Add(form, strings.Join(vals[:1], ", "))
						r.Header.Add(form, strings.Join(vals[1:], ", "))
					}
				}
				if got := s.client(r); got != c.want {
					t.Errorf("%s from %s, %s %v (%d lines): client %q, want %q", form, c.remote, form, c.hops, lines, got, c.want)
				}
			}
		}
	}
	// Without trusted proxies, every header is ignored.
	r := httptest.NewRequest("POST", "/inbound", nil)
	r.RemoteAddr = "10.1.2.3:5000"
	r.Header.Set("X-Forwarded-For", "198.51.100.1")
	r.Header.Set("Forwarded", "for=198.51.100.2")
	if got := (&Server{}).client(r); got != "10.1.2.3" {
		t.Errorf("no trusted proxies: client %q", got)
	}
}

// FuzzForwardedHeader: no forwarding header makes the client key panic,
// grow without bound, or name a trusted proxy's right-hand neighbour
// differently from the header's own rightmost untrusted address.
func FuzzForwardedHeader(f *testing.F) {
	for _, s := range []string{"for=1.2.3.4", `for="[::1]:80", for=unknown`, "1.2.3.4, 10.0.0.1", `for=";;,,"`, "for=" + strings.Repeat("a", 500)} {
		f.Add(s)
	}
	s := &Server{o: Options{TrustedProxies: []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")}}}
	f.Fuzz(func(t *testing.T, h string) {
		for _, name := range []string{"Forwarded", "X-Forwarded-For"} {
			r := httptest.NewRequest("POST", "/", nil)
			r.RemoteAddr = "10.0.0.1:1"
			r.Header.Set(name, h)
			if k := s.client(r); len(k) > 80 || k == "" {
				t.Fatalf("%s: %q gave client %q", name, h, k)
			}
		}
	})
}

// TestTrustedProxyBudgets, through a real listener: behind a trusted
// proxy (the loopback address here) two clients named by X-Forwarded-For
// each get their own budget of unauthenticated reads; without the
// setting, the proxy's connections share one budget (the state before the
// setting existed: behind a proxy, the per-client budget was global).
func TestTrustedProxyBudgets(t *testing.T) {
	for _, trusted := range []bool{true, false} {
		ts := newTestServer(t, func(o *Options) {
			o.Now, o.MaxPerClient = time.Now, 1
			if trusted {
				o.TrustedProxies = []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}
			}
		})
		srv := httptest.NewServer(ts.mux)
		addr := srv.Listener.Addr().String()
		// One client's unauthenticated body, trickled: it holds its budget.
		held := slowConn(t, addr, "127.0.0.1", fmt.Sprintf("POST /inbound HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: 203.0.113.1\r\n"+
			"Content-Type: message/rfc822\r\nContent-Length: 100000\r\n%s: %d\r\n%s: sha256=%s\r\n\r\nFrom: a",
			hookout.HeaderTimestamp, time.Now().Unix(), hookout.HeaderSignature, strings.Repeat("0", 64)))
		time.Sleep(100 * time.Millisecond) // let the server take the budget
		post := func(client string) int {
			raw := []byte(sampleMail)
			req, _ := http.NewRequest("POST", srv.URL+"/inbound", strings.NewReader(sampleMail))
			for k, v := range signed(rawSecret, time.Now(), raw) {
				req.Header[k] = v
			}
			req.Header.Set("X-Forwarded-For", client)
			resp, err := clientFrom("127.0.0.1").Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			return resp.StatusCode
		}
		same, other := post("203.0.113.1"), post("203.0.113.2")
		want := fmt.Sprint([]int{429, 200})
		if !trusted {
			want = fmt.Sprint([]int{429, 429})
		}
		if got := fmt.Sprint([]int{same, other}); got != want {
			t.Errorf("trusted proxy %v: the held client's and another client's posts: %s, want %s", trusted, got, want)
		}
		held.Close()
		srv.Close()
	}
}
