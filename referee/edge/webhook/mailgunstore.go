package webhook

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// The Mailgun binding (issue 23, "a captured Mailgun signature posted
// before the genuine post must not let a forged body in"). Mailgun signs
// a timestamp and a token, never the message, so the posted body is not
// what the signature proves. Two ways bind a post to a genuine mail:
//
//   - With an API key (webhook.mailgun_api_key) and a post carrying
//     message-url (a route's store(notify=...) action), the posted body is
//     never used: the message is fetched from Mailgun's storage at that
//     URL, which must be https on one of Mailgun's own API hosts
//     (MailgunAPIHosts: api.mailgun.net, api.eu.mailgun.net and their
//     subdomains such as storage-us-east4.api.mailgun.net), with the API
//     key, by an HTTP client with timeouts that follows no redirect
//     ("Retrieving Stored Messages": GET with Accept: message/rfc2822
//     answers JSON whose body-mime is the raw message). What Mailgun
//     stored is what it received: a forger can only point at a genuine
//     message, which de-duplication answers.
//   - Otherwise (a forward() post to /inbound/mailgun/mime, or no API
//     key) the posted body-mime is handed over marked mailin.Inbound.
//     Unbound: it acts only when a DKIM signature verified by the
//     referee, aligned with its From domain, proves its sender;
//     Authentication-Results inside it are never believed. A forged body
//     then acts for nobody, and a replayed genuine mail is a duplicate.
//
// Either way the token is still bound to the message (its Message-ID and
// a digest of its bytes) and a second post of the token with another
// message is kept whole for the operator (see tokenCache).

// DefaultMailgunAPIHosts are the hosts whose stored-message URLs are
// fetched (each with its subdomains).
var DefaultMailgunAPIHosts = []string{"api.mailgun.net", "api.eu.mailgun.net"}

// DefaultMailgunFetchTimeout bounds one fetch of a stored message.
const DefaultMailgunFetchTimeout = 20 * time.Second

var (
	// errStoredGone: Mailgun does not have the message (never stored, or
	// past its retention): the post can never be served.
	errStoredGone = errors.New("the stored message is not at Mailgun")
	// errStoredURL: the message-url is not one of Mailgun's API hosts.
	errStoredURL = errors.New("message-url is not a Mailgun storage URL")
)

// NewMailgunClient returns a client of stored-message fetches: a
// whole-request timeout, redirects not followed (the API key must go to
// the checked host only), and tc's TLS settings (nil: the system's roots).
func NewMailgunClient(timeout time.Duration, tc *tls.Config) *http.Client {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	if tc != nil {
		tr.TLSClientConfig = tc
	}
	return &http.Client{
		Timeout:   timeout,
		Transport: tr,
		CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse
		},
	}
}

// mailgunStorageURL checks that raw is an https URL on one of hosts (or a
// subdomain of one), without credentials, and returns it parsed.
func mailgunStorageURL(raw string, hosts []string) (*url.URL, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || u.Scheme != "https" || u.User != nil || u.Host == "" || u.Opaque != "" {
		return nil, errStoredURL
	}
	h := strings.ToLower(u.Hostname())
	if u.Port() != "" && !hostPortAllowed(u.Host, hosts) {
		return nil, errStoredURL
	}
	for _, allowed := range hosts {
		a := strings.ToLower(allowed)
		if strings.Contains(a, ":") {
			continue // host:port entries match in hostPortAllowed only
		}
		if h == a || strings.HasSuffix(h, "."+a) {
			return u, nil
		}
	}
	if hostPortAllowed(u.Host, hosts) {
		return u, nil
	}
	return nil, errStoredURL
}

// hostPortAllowed reports whether host:port is listed exactly (a test's
// fake API on 127.0.0.1:port).
func hostPortAllowed(hostport string, hosts []string) bool {
	for _, a := range hosts {
		if strings.Contains(a, ":") && strings.EqualFold(a, hostport) {
			return true
		}
	}
	return false
}

// fetchStored gets the raw message at a Mailgun storage URL with the API
// key. Errors: errStoredURL, errStoredGone (404, 410), or a transient one
// (network, 401/403 for a wrong key the operator can fix, 429, 5xx).
func (s *Server) fetchStored(ctx context.Context, messageURL string) ([]byte, error) {
	u, err := mailgunStorageURL(messageURL, s.o.MailgunAPIHosts)
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, errStoredURL
	}
	req.SetBasicAuth("api", s.o.MailgunAPIKey)
	req.Header.Set("Accept", "message/rfc2822")
	resp, err := s.mgClient.Do(req)
	if err != nil {
		return nil, fmt.Errorf("fetching the stored message: %w", err)
	}
	defer resp.Body.Close()
	// JSON escapes at most multiply the message by six.
	limit := 6*s.o.MaxBodySize + 4096
	body, err := io.ReadAll(io.LimitReader(resp.Body, limit+1))
	if err != nil {
		return nil, fmt.Errorf("reading the stored message: %w", err)
	}
	switch {
	case resp.StatusCode == http.StatusNotFound || resp.StatusCode == http.StatusGone:
		return nil, errStoredGone
	case resp.StatusCode != http.StatusOK:
		return nil, fmt.Errorf("fetching the stored message: Mailgun answered %d", resp.StatusCode)
	case int64(len(body)) > limit:
		return nil, fmt.Errorf("%w: the stored message is too large", errStoredGone)
	}
	if mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type")); mt == "message/rfc822" || mt == "message/rfc2822" {
		return body, nil
	}
	var m struct {
		BodyMime string `json:"body-mime"`
	}
	if err := json.NewDecoder(bytes.NewReader(body)).Decode(&m); err != nil || m.BodyMime == "" {
		return nil, fmt.Errorf("%w: Mailgun's answer has no body-mime", errStoredGone)
	}
	if int64(len(m.BodyMime)) > s.o.MaxBodySize {
		return nil, fmt.Errorf("%w: the stored message is too large", errStoredGone)
	}
	return []byte(m.BodyMime), nil
}
