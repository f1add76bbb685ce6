package webhook

import (
	"net/url"
	"strings"
	"testing"
)

// FuzzMailgunStorageURL: whatever message-url a post carries, a URL that
// is fetched is https, carries no credentials, and its host is one of the
// allowed hosts or a subdomain of one (the API key goes nowhere else).
func FuzzMailgunStorageURL(f *testing.F) {
	for _, s := range []string{
		"https://api.mailgun.net/v3/domains/x/messages/k", "https://storage-us-east4.api.mailgun.net/v3/domains/x/messages/k",
		"https://api.mailgun.net.evil.example/", "https://evil.example/api.mailgun.net", "https://api:k@api.mailgun.net/",
		"http://api.mailgun.net/", "//api.mailgun.net/x", "https://api.mailgun.net:8443/", "https://API.MAILGUN.NET/",
		"https://evil.example\\@api.mailgun.net/", "https://xn--pi-mailgun.net/", "https://api.mailgun.net%2eevil.example/",
		"https://[::1]/", "https://api.eu.mailgun.net/v3", "https://127.0.0.1:8443/v3",
	} {
		f.Add(s)
	}
	hosts := append([]string{"127.0.0.1:8443"}, DefaultMailgunAPIHosts...)
	f.Fuzz(func(t *testing.T, raw string) {
		u, err := mailgunStorageURL(raw, hosts)
		if err != nil {
			return
		}
		again, perr := url.Parse(u.String())
		if perr != nil || u.Scheme != "https" || u.User != nil || again.Host != u.Host {
			t.Fatalf("%q accepted as %v", raw, u)
		}
		h := strings.ToLower(u.Hostname())
		ok := u.Host == "127.0.0.1:8443"
		for _, a := range DefaultMailgunAPIHosts {
			ok = ok || (u.Port() == "" && (h == a || strings.HasSuffix(h, "."+a)))
		}
		if !ok {
			t.Fatalf("%q accepted: host %q", raw, u.Host)
		}
	})
}
