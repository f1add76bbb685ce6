package webhook

import (
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/mail"
	"net/netip"
	"strings"
	"sync"
	"time"

	"github.com/pbem-referee/referee/referee"
	"github.com/pbem-referee/referee/referee/edge/mailin"
)

// The front door (issue 23, "the front door stays open"):
//
//   - credentials that do not need the body (HTTP basic authentication, a
//     seat's bearer token) are checked before anything is read;
//   - bodies that must be read to be authenticated (the raw endpoint's and
//     Mailgun's signatures) are read under two small budgets taken without
//     waiting: MaxPerClient at once per client address and
//     MaxUnauthenticated in all, each read bounded by BodyReadTimeout and
//     MaxBodySize; a client over its budget gets 429 at once;
//   - the MaxInFlight slots are taken only by authenticated requests, and
//     only to hand the message over, never to read it;
//   - the pages, /healthz and /metrics are other handlers on the mux and
//     use none of these budgets.
//
// Slow headers never reach a handler: the http.Server's ReadHeaderTimeout
// (webhook.read_header_timeout) closes them.

// gate holds the budgets of unauthenticated body reads.
type gate struct {
	mu        sync.Mutex
	perClient map[string]int
	total     int
	maxClient int
	maxTotal  int
}

// clientKey is the client's address: an IPv4 address, or the /64 of an
// IPv6 one (one host owns a whole /64).
func clientKey(remote string) string {
	host, _, err := net.SplitHostPort(remote)
	if err != nil {
		host = remote
	}
	a, err := netip.ParseAddr(host)
	if err != nil {
		return host
	}
	a = a.Unmap()
	if a.Is6() {
		p, _ := a.Prefix(64)
		return p.String()
	}
	return a.String()
}

// client is the key of the per-client budget of r (issue 23, trusted
// proxies): the connection's address, unless that address is one of
// TrustedProxies; then the forwarding headers are read from the right
// (the hop nearest to us) and the first address that is not a trusted
// proxy is the client. Forwarded (RFC 7239, its for= parameters) is read
// when present, else X-Forwarded-For; every field line of the header
// counts, in order. An entry a trusted proxy wrote that is no address
// ("unknown", an obfuscated name) is the client as written. With no
// header, or only trusted proxies in it, the client is the leftmost
// address given (or the proxy itself). Nobody else's header is read: a
// client that writes its own X-Forwarded-For to a direct connection
// changes nothing, and one behind the proxy can only add entries to the
// left of the one the proxy wrote.
func (s *Server) client(r *http.Request) string {
	key := clientKey(r.RemoteAddr)
	if len(s.o.TrustedProxies) == 0 || !s.trusted(hostAddr(r.RemoteAddr)) {
		return key
	}
	hops := forwardedFor(r.Header.Values("Forwarded"))
	if len(hops) == 0 {
		hops = xForwardedFor(r.Header.Values("X-Forwarded-For"))
	}
	for i := len(hops) - 1; i >= 0; i-- {
		h := hops[i]
		a, err := netip.ParseAddr(h)
		if err != nil {
			return "forwarded:" + h
		}
		key = clientKey(a.String())
		if !s.trusted(a) {
			return key
		}
	}
	return key
}

// trusted reports whether a is one of TrustedProxies.
func (s *Server) trusted(a netip.Addr) bool {
	if !a.IsValid() {
		return false
	}
	a = a.Unmap()
	for _, p := range s.o.TrustedProxies {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// hostAddr is the address of a "host:port" (invalid if none).
func hostAddr(remote string) netip.Addr {
	host, _, err := net.SplitHostPort(remote)
	if err != nil {
		host = remote
	}
	a, _ := netip.ParseAddr(host)
	return a
}

// maxHops bounds the forwarding entries read from one request.
const maxHops = 32

// xForwardedFor lists the entries of X-Forwarded-For field lines, in
// order (at most the last maxHops).
func xForwardedFor(lines []string) []string {
	var hops []string
	for _, l := range lines {
		for _, h := range strings.Split(l, ",") {
			if h = strings.TrimSpace(h); h != "" {
				hops = append(hops, hopAddr(h))
			}
		}
	}
	return lastHops(hops)
}

// forwardedFor lists the for= values of Forwarded field lines (RFC 7239
// section 4), in order, each as an address when it is one.
func forwardedFor(lines []string) []string {
	var hops []string
	for _, l := range lines {
		for _, elem := range strings.Split(l, ",") {
			for _, pair := range strings.Split(elem, ";") {
				k, v, ok := strings.Cut(strings.TrimSpace(pair), "=")
				if ok && strings.EqualFold(strings.TrimSpace(k), "for") {
					hops = append(hops, hopAddr(strings.Trim(strings.TrimSpace(v), `"`)))
				}
			}
		}
	}
	return lastHops(hops)
}

// hopAddr strips a port and IPv6 brackets from one node ("[2001:db8::1]:
// 4711" is "2001:db8::1", "192.0.2.43:47011" is "192.0.2.43"); anything
// else is returned as is, bounded in length.
func hopAddr(h string) string {
	if ap, err := netip.ParseAddrPort(h); err == nil {
		return ap.Addr().String()
	}
	if t := strings.TrimSuffix(strings.TrimPrefix(h, "["), "]"); t != h {
		if a, err := netip.ParseAddr(t); err == nil {
			return a.String()
		}
	}
	if a, err := netip.ParseAddr(h); err == nil {
		return a.String()
	}
	if len(h) > 64 {
		h = h[:64]
	}
	return h
}

func lastHops(hops []string) []string {
	if len(hops) > maxHops {
		return hops[len(hops)-maxHops:]
	}
	return hops
}

// enter takes one unauthenticated read for the client, without waiting.
func (g *gate) enter(client string) (release func(), ok bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.perClient[client] >= g.maxClient || g.total >= g.maxTotal {
		return nil, false
	}
	g.perClient[client]++
	g.total++
	var once sync.Once
	return func() {
		once.Do(func() {
			g.mu.Lock()
			defer g.mu.Unlock()
			g.total--
			if g.perClient[client]--; g.perClient[client] <= 0 {
				delete(g.perClient, client)
			}
		})
	}, true
}

// unauthenticated takes a read budget for a request whose credentials are
// in its body; ok false when the answer (429) is written.
func (s *Server) unauthenticated(w http.ResponseWriter, r *http.Request, p provider) (release func(), ok bool) {
	release, ok = s.gate.enter(s.client(r))
	if !ok {
		w.Header().Set("Retry-After", "5")
		s.fail(w, r, p, http.StatusTooManyRequests, "too many unauthenticated requests at once from your address")
		return nil, false
	}
	return release, true
}

// slot waits up to a second for one of the MaxInFlight slots; ok false
// when the answer (503) is written. Only authenticated requests take one.
func (s *Server) slot(w http.ResponseWriter, r *http.Request, p provider) (release func(), ok bool) {
	t := time.NewTimer(time.Second)
	defer t.Stop()
	select {
	case s.slots <- struct{}{}:
		return func() { <-s.slots }, true
	case <-t.C:
		w.Header().Set("Retry-After", "5")
		writeJSON(w, http.StatusServiceUnavailable, errorBody{Error: "busy, retry later"})
		return nil, false
	case <-r.Context().Done():
		return nil, false
	}
}

// failures counts the failed hand-overs of each message (by digest), so
// that a message failing for any reason, an error or a panic, is set
// aside after MaxAttempts instead of being answered 503 for ever (issue
// 23, rule 2). Entries are forgotten after a day, and the map is bounded.
type failures struct {
	mu   sync.Mutex
	seen map[[32]byte]failure
}

type failure struct {
	n    int
	last time.Time
}

const maxFailureEntries = 1 << 14

// add counts one failure of raw and returns the count.
func (f *failures) add(raw []byte, now time.Time) int {
	k := sha256.Sum256(raw)
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.seen) >= maxFailureEntries {
		for key, e := range f.seen {
			if now.Sub(e.last) > 24*time.Hour || len(f.seen) >= maxFailureEntries {
				delete(f.seen, key)
			}
		}
	}
	e := f.seen[k]
	if now.Sub(e.last) > 24*time.Hour {
		e.n = 0
	}
	e.n++
	e.last = now
	f.seen[k] = e
	return e.n
}

// has reports whether raw failed here before.
func (f *failures) has(raw []byte) bool {
	k := sha256.Sum256(raw)
	f.mu.Lock()
	defer f.mu.Unlock()
	_, ok := f.seen[k]
	return ok
}

// failureKey is the durable record of a message's failed hand-overs.
func failureKey(raw []byte) string { return "webhook-failed:" + digest(raw) }

// countFailure counts one failed hand-over of raw and returns the count:
// durably with Options.Attempts (issue 23: a post that fails N times
// across restarts is set aside), else in memory. A store error falls back
// to the memory count.
func (s *Server) countFailure(raw []byte) int {
	n := s.failed.add(raw, s.o.Now())
	if s.o.Attempts != nil {
		d, err := s.o.Attempts.BeginAttempt(failureKey(raw))
		if err == nil {
			return d
		}
		s.log.Warn("webhook: could not record a failed hand-over", slog.Any("err", err))
	}
	return n
}

// failedBefore reports whether raw has a failure count: in memory, or in
// the store when Attempts can read one without writing.
func (s *Server) failedBefore(raw []byte) bool {
	if s.failed.has(raw) {
		return true
	}
	if c, ok := s.o.Attempts.(AttemptCounter); ok {
		n, err := c.AttemptCount(failureKey(raw))
		return err == nil && n > 0
	}
	return false
}

// forgetFailures clears the failure count of raw (set aside, or handled).
func (s *Server) forgetFailures(raw []byte) {
	s.failed.forget(raw)
	if s.o.Attempts != nil {
		if err := s.o.Attempts.EndAttempt(failureKey(raw)); err != nil {
			s.log.Warn("webhook: could not clear a failure count", slog.Any("err", err))
		}
	}
}

func (f *failures) forget(raw []byte) {
	k := sha256.Sum256(raw)
	f.mu.Lock()
	delete(f.seen, k)
	f.mu.Unlock()
}

// handOver calls the mail handler, a panic turned into an error.
func (s *Server) handOver(ctx context.Context, in mailin.Inbound) (out referee.Outcome, err error) {
	defer func() {
		if p := recover(); p != nil {
			if p == http.ErrAbortHandler {
				panic(p)
			}
			s.log.Error("webhook: the mail handler panicked", slog.Any("panic", p))
			err = fmt.Errorf("webhook: mail handler panicked: %v", p)
		}
	}()
	return s.o.Handler.HandleMail(ctx, in)
}

// setAside tells the referee (and through it the sender and the operator)
// that a message is set aside after failing MaxAttempts times.
func (s *Server) setAside(ctx context.Context, p provider, raw []byte, keys []string, n int, last error) {
	s.keep(ctx, p, raw, keys, "failed", fmt.Sprintf("%d failed attempts, the last: %v", n, last))
}

// keep sets a message aside with its whole text for the operator, and has
// its sender told (reason "failed" or "replayed").
func (s *Server) keep(ctx context.Context, p provider, raw []byte, keys []string, reason, detail string) {
	qn, ok := s.o.Handler.(referee.QuarantineNotifier)
	s.log.Warn("webhook: message set aside", slog.String("provider", p.name), slog.String("reason", reason+": "+detail))
	if !ok {
		return
	}
	note := referee.QuarantineNotice{Source: p.source, Reason: reason, Detail: detail, Size: int64(len(raw)), Raw: raw}
	if m, err := mail.ReadMessage(bytes.NewReader(raw)); err == nil {
		if a, err := mail.ParseAddress(m.Header.Get("From")); err == nil {
			note.From = a.Address
		}
		if reason != "replayed" {
			// Not for a replay: its Message-ID must stay free, so that
			// the operator can hand the kept mail over again.
			note.MessageID = strings.TrimSpace(m.Header.Get("Message-Id"))
		}
	}
	d := sha256.Sum256(raw)
	note.Keys = append(append([]string(nil), keys...), fmt.Sprintf("webhook-aside:%x", d[:16]))
	if _, err := qn.NotifyQuarantined(ctx, note); err != nil {
		s.log.Warn("webhook: could not record a message set aside", slog.Any("err", err))
	}
}
