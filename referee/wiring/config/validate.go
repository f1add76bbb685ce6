package config

import (
	"errors"
	"fmt"
	"net"
	"net/mail"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/pbem-referee/referee/referee/edge/netaddr"
)

// Validate checks the whole configuration and returns every problem, each
// naming its TOML key.
func (c *Config) Validate() error {
	v := &validator{}
	c.validateTop(v)
	c.validateIMAP(v)
	c.validateSMTP(v)
	c.validateRest(v)
	return errors.Join(v.errs...)
}

type validator struct{ errs []error }

func (v *validator) bad(key, format string, args ...any) {
	v.errs = append(v.errs, fmt.Errorf("%s: %s", key, fmt.Sprintf(format, args...)))
}

// publicURL checks the public address of the HTTP listener: absolute,
// http(s) with a host, no query or fragment (page paths are appended to
// it), plain http only to a loopback host, and a listener to serve it.
func (v *validator) publicURL(key, raw string, listening bool) {
	u, err := url.Parse(raw)
	switch {
	case err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Opaque != "":
		v.bad(key, "%q is not an absolute http(s) URL such as \"https://pbem.example.org\"", raw)
	case u.RawQuery != "" || u.Fragment != "" || u.User != nil:
		v.bad(key, "%q: no user, query or fragment (page paths are appended to it)", raw)
	case u.Scheme == "http" && !netaddr.IsLoopback(u.Hostname()):
		v.bad(key, "%q: players' mail clients open it over the internet; use https (plain http only to a loopback address)", raw)
	case !listening:
		v.bad(key, "needs webhook.addr: the pages are served by that listener")
	}
}

func (v *validator) positive(key string, d time.Duration) {
	if d <= 0 {
		v.bad(key, "must be a positive duration such as \"30s\", got %v", d)
	}
}

func (v *validator) oneOf(key, val string, allowed ...string) bool {
	for _, a := range allowed {
		if val == a {
			return true
		}
	}
	v.bad(key, "%q is not one of %s", val, strings.Join(allowed, ", "))
	return false
}

// server checks a server address "host:port" and returns the host.
func (v *validator) server(key, addr string) string {
	host, _, err := netaddr.SplitServer(addr)
	if err != nil {
		v.bad(key, "%v", err)
	}
	return host
}

// listen checks a listening address: "host:port" where the host may be
// empty (all interfaces) and the port 0 (any free port).
func (v *validator) listen(key, addr string) {
	_, port, err := net.SplitHostPort(addr)
	if err != nil {
		v.bad(key, "%q is not host:port", addr)
		return
	}
	if n, err := strconv.Atoi(port); err != nil || n < 0 || n > 65535 {
		v.bad(key, "%q has a bad port", addr)
	}
}

func (v *validator) readable(key, path string) {
	if path == "" {
		return
	}
	if _, err := os.ReadFile(path); err != nil {
		v.bad(key, "%v", err)
	}
}

// validDomain accepts dot-separated labels of letters, digits and hyphens.
func validDomain(d string) bool {
	if d == "" || len(d) > 253 {
		return false
	}
	for _, l := range strings.Split(d, ".") {
		if l == "" || len(l) > 63 || l[0] == '-' || l[len(l)-1] == '-' {
			return false
		}
		for _, r := range l {
			if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-') {
				return false
			}
		}
	}
	return true
}

func (c *Config) validateTop(v *validator) {
	if c.Domain == "" {
		v.bad("domain", "required (the referee's mail domain, e.g. \"pbem.example.org\")")
	} else if !validDomain(c.Domain) {
		v.bad("domain", "%q is not a domain name", c.Domain)
	}
	if c.DataDir == "" {
		v.bad("data_dir", "must not be empty")
	}
	lp := c.Referee.LocalPart
	if lp == "" || strings.ContainsAny(lp, "@+ \t\"<>()[]\\,;:") {
		v.bad("referee.local_part", "%q is not a plain local part (no @, + or specials: the + separates the game tag)", lp)
	}
	if strings.ContainsAny(c.Referee.Name, "\r\n") {
		v.bad("referee.name", "must be one line")
	}
	if c.Referee.ReceiptWindow < 0 {
		v.bad("referee.receipt_window", "must not be negative (0s sends every receipt at once)")
	}
	for i, o := range c.Organisers {
		if _, err := mail.ParseAddress(o); err != nil {
			v.bad(fmt.Sprintf("organisers[%d]", i), "%q: %v", o, err)
		}
	}
	// The HTTP listener alone, without a credential, serves the pages and
	// /metrics but takes no mail (issue 24: an IMAP-only organiser
	// publishes pages without inventing a webhook secret).
	if c.IMAP.Addr == "" && !c.WebhookIntake() {
		v.errs = append(v.errs, errors.New("no intake: set imap.addr, or webhook.addr with a credential (webhook.secret, mailgun_signing_key, sendgrid_password or postmark_password)"))
	}
}

func (c *Config) validateIMAP(v *validator) {
	m := c.IMAP
	if m.Addr == "" {
		return
	}
	host := v.server("imap.addr", m.Addr)
	if v.oneOf("imap.tls", m.TLS, "tls", "starttls", "none") && m.TLS == "none" && host != "" &&
		!netaddr.IsLoopback(host) && !m.AllowInsecure {
		v.bad("imap.tls", "\"none\" sends the password in clear text to %s; use \"tls\" or \"starttls\", or set imap.allow_insecure", host)
	}
	v.readable("imap.ca_file", m.CAFile)
	if m.Username == "" {
		v.bad("imap.username", "required with imap.addr")
	}
	if !m.Password.IsSet() {
		v.bad("imap.password", "required with imap.addr (in the file, REFEREE_IMAP_PASSWORD or REFEREE_IMAP_PASSWORD_FILE)")
	}
	v.oneOf("imap.idle", m.Idle, "auto", "on", "off")
	for key, f := range map[string]string{"imap.mailbox": m.Mailbox, "imap.processed_folder": m.ProcessedFolder,
		"imap.quarantine_folder": m.QuarantineFolder} {
		if f == "" || strings.ContainsAny(f, "*%\r\n") {
			v.bad(key, "%q must be a non-empty mailbox name without wildcards", f)
		}
	}
	if strings.EqualFold(m.ProcessedFolder, m.Mailbox) || strings.EqualFold(m.QuarantineFolder, m.Mailbox) {
		v.bad("imap.processed_folder", "the processed and quarantine folders must differ from imap.mailbox")
	}
	v.positive("imap.poll_interval", m.PollInterval)
	v.positive("imap.resync_interval", m.ResyncInterval)
	v.positive("imap.min_backoff", m.MinBackoff)
	v.positive("imap.dial_timeout", m.DialTimeout)
	if m.MaxBackoff < m.MinBackoff {
		v.bad("imap.max_backoff", "%v is below imap.min_backoff %v", m.MaxBackoff, m.MinBackoff)
	}
}

func (c *Config) validateSMTP(v *validator) {
	s := c.SMTP
	if s.Addr == "" {
		v.bad("smtp.addr", "required (the server that sends the referee's mail, \"host:port\")")
	} else {
		host := v.server("smtp.addr", s.Addr)
		if v.oneOf("smtp.tls", s.TLS, "mandatory", "opportunistic", "none") && !s.ImplicitTLS &&
			s.TLS != "mandatory" && host != "" && !netaddr.IsLoopback(host) && !s.AllowInsecure {
			v.bad("smtp.tls", "%q may send mail and credentials in clear text to %s; use \"mandatory\" or smtp.implicit_tls, or set smtp.allow_insecure", s.TLS, host)
		}
	}
	v.readable("smtp.ca_file", s.CAFile)
	if v.oneOf("smtp.auth", s.Auth, "none", "plain", "login") && s.Auth != "none" {
		if s.Username == "" {
			v.bad("smtp.username", "required with smtp.auth %q", s.Auth)
		}
		if !s.Password.IsSet() {
			v.bad("smtp.password", "required with smtp.auth %q (in the file, REFEREE_SMTP_PASSWORD or REFEREE_SMTP_PASSWORD_FILE)", s.Auth)
		}
	}
	if strings.ContainsAny(s.HELO, " \t\r\n") {
		v.bad("smtp.helo", "%q must be a host name", s.HELO)
	}
	v.positive("smtp.dial_timeout", s.DialTimeout)
	v.positive("smtp.command_timeout", s.CommandTimeout)
	v.positive("smtp.data_timeout", s.DataTimeout)
	v.positive("smtp.min_backoff", s.MinBackoff)
	v.positive("smtp.give_up_after", s.GiveUpAfter)
	v.positive("smtp.retention", s.Retention)
	if s.MaxBackoff < s.MinBackoff {
		v.bad("smtp.max_backoff", "%v is below smtp.min_backoff %v", s.MaxBackoff, s.MinBackoff)
	}
	if s.Workers < 1 || s.Workers > 64 {
		v.bad("smtp.workers", "%d is not within 1..64", s.Workers)
	}
}

func (c *Config) validateRest(v *validator) {
	if c.Auth.TrustedAuthservID != "" && strings.ContainsAny(c.Auth.TrustedAuthservID, " \t\r\n;") {
		v.bad("auth.trusted_authserv_id", "%q must be a single token", c.Auth.TrustedAuthservID)
	}
	l := c.Limits
	if l.MaxMessageSize <= 0 || l.MaxMessageSize > 100<<20 {
		v.bad("limits.max_message_size", "%d is not within 1..104857600 bytes", l.MaxMessageSize)
	}
	if l.SenderRate < 0 {
		v.bad("limits.sender_rate", "%d is negative (0 disables the limit)", l.SenderRate)
	}
	v.positive("limits.sender_rate_window", l.SenderRateWindow)

	w := c.Webhook
	if w.Addr != "" {
		v.listen("webhook.addr", w.Addr)
		if w.SendGridPassword.IsSet() != (w.SendGridUsername != "") {
			v.bad("webhook.sendgrid_username", "set both sendgrid_username and sendgrid_password, or neither")
		}
		if w.PostmarkPassword.IsSet() != (w.PostmarkUsername != "") {
			v.bad("webhook.postmark_username", "set both postmark_username and postmark_password, or neither")
		}
		if w.MaxBodySize < l.MaxMessageSize {
			v.bad("webhook.max_body_size", "%d is below limits.max_message_size %d", w.MaxBodySize, l.MaxMessageSize)
		}
		if w.MailgunAPIKey.IsSet() && !w.MailgunSigningKey.IsSet() {
			v.bad("webhook.mailgun_api_key", "needs webhook.mailgun_signing_key (the posts are still checked by their signature)")
		}
		for _, h := range w.MailgunAPIHosts {
			if h == "" || strings.ContainsAny(h, "/@ ") {
				v.bad("webhook.mailgun_api_hosts", "%q is not a host name", h)
			}
		}
		v.readable("webhook.mailgun_api_ca_file", w.MailgunAPICAFile)
		if _, err := c.TrustedProxyPrefixes(); err != nil {
			v.bad("webhook.trusted_proxies", "%v", err)
		}
		v.positive("webhook.max_clock_skew", w.MaxClockSkew)
		v.positive("webhook.read_header_timeout", w.ReadHeaderTimeout)
		v.positive("webhook.read_timeout", w.ReadTimeout)
		v.positive("webhook.shutdown_timeout", w.ShutdownTimeout)
	}
	if w.PublicURL != "" {
		v.publicURL("webhook.public_url", w.PublicURL, w.Addr != "")
	}

	h := c.Hooks
	if h.URL != "" {
		u, err := url.Parse(h.URL.Reveal())
		if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
			v.bad("hooks.url", "%q is not an http(s) URL", h.URL)
		} else if u.Scheme == "http" && !netaddr.IsLoopback(u.Hostname()) {
			v.bad("hooks.url", "%q: plain http only to a loopback address", h.URL)
		}
		if !h.Secret.IsSet() {
			v.bad("hooks.secret", "required with hooks.url (in the file, REFEREE_HOOKS_SECRET or REFEREE_HOOKS_SECRET_FILE)")
		}
	}
	v.positive("hooks.timeout", h.Timeout)
	v.positive("hooks.min_backoff", h.MinBackoff)
	v.positive("hooks.give_up_after", h.GiveUpAfter)
	if h.MaxBackoff < h.MinBackoff {
		v.bad("hooks.max_backoff", "%v is below hooks.min_backoff %v", h.MaxBackoff, h.MinBackoff)
	}
	if h.Workers < 1 || h.Workers > 64 {
		v.bad("hooks.workers", "%d is not within 1..64", h.Workers)
	}

	if a := c.Operator.Address; a != "" {
		if m, err := mail.ParseAddress(a); err != nil || m.Name != "" || m.Address != a {
			v.bad("operator.address", "%q is not a plain mail address", a)
		}
		if c.Operator.MailsPerDay < 1 {
			v.bad("operator.mails_per_day", "%d: at least 1 with operator.address", c.Operator.MailsPerDay)
		}
	}

	v.oneOf("log.level", c.Log.Level, "debug", "info", "warn", "error")
	v.oneOf("log.format", c.Log.Format, "text", "json")
}
