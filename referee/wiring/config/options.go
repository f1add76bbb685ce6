package config

import (
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"log/slog"
	"net/http"
	"net/netip"
	"os"
	"strings"

	"github.com/pbem-referee/referee/referee/edge/imapin"
	"github.com/pbem-referee/referee/referee/edge/smtpout"
	"github.com/pbem-referee/referee/referee/edge/webhook"
)

// tlsConfig returns a TLS configuration trusting caFile, or nil for the
// system roots.
func tlsConfig(key, caFile string) (*tls.Config, error) {
	if caFile == "" {
		return nil, nil
	}
	pem, err := os.ReadFile(caFile)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", key, err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(pem) {
		return nil, fmt.Errorf("%s: no PEM certificates in %s", key, caFile)
	}
	return &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}, nil
}

// IMAPOptions returns the IMAP watcher's options. The caller sets Store,
// Handler and Logger.
func (c *Config) IMAPOptions() (imapin.Options, error) {
	m := c.IMAP
	tc, err := tlsConfig("imap.ca_file", m.CAFile)
	if err != nil {
		return imapin.Options{}, err
	}
	return imapin.Options{
		Addr: m.Addr, TLS: imapin.TLSMode(m.TLS), AllowInsecure: m.AllowInsecure, TLSConfig: tc,
		Username: m.Username, Password: m.Password.Reveal(),
		Mailbox: m.Mailbox, ProcessedFolder: m.ProcessedFolder, QuarantineFolder: m.QuarantineFolder,
		Idle: imapin.IdleMode(m.Idle), PollInterval: m.PollInterval, ResyncInterval: m.ResyncInterval,
		MinBackoff: m.MinBackoff, MaxBackoff: m.MaxBackoff, DialTimeout: m.DialTimeout,
		MaxMessageSize: c.Limits.MaxMessageSize, MaxCrashes: m.MaxCrashes,
		MaxAttempts: m.MaxAttempts,
	}, nil
}

// SMTPOptions returns the outbox sender's options. The caller sets Store,
// Logger and OnResult. DefaultFrom is the referee's address.
func (c *Config) SMTPOptions() (smtpout.Options, error) {
	s := c.SMTP
	tc, err := tlsConfig("smtp.ca_file", s.CAFile)
	if err != nil {
		return smtpout.Options{}, err
	}
	return smtpout.Options{
		Addr: s.Addr, ImplicitTLS: s.ImplicitTLS, TLSPolicy: smtpout.TLSPolicy(s.TLS), TLSConfig: tc,
		AllowInsecure: s.AllowInsecure, Auth: smtpout.AuthMode(s.Auth),
		Username: s.Username, Password: s.Password.Reveal(), HELO: s.HELO,
		DialTimeout: s.DialTimeout, CommandTimeout: s.CommandTimeout, DataTimeout: s.DataTimeout,
		Workers: s.Workers, MinBackoff: s.MinBackoff, MaxBackoff: s.MaxBackoff,
		GiveUpAfter: s.GiveUpAfter, Retention: s.Retention,
		DefaultFrom: c.RefereeAddress(),
	}, nil
}

// LogValue makes the configuration safe to log: secrets show as
// "[redacted]" (or "" when unset).
func (c Config) LogValue() slog.Value {
	return slog.GroupValue(
		slog.String("domain", c.Domain),
		slog.String("data_dir", c.DataDir),
		slog.String("referee", c.RefereeAddress()),
		slog.Int("organisers", len(c.Organisers)),
		slog.String("operator", c.Operator.Address),
		slog.Group("imap", slog.String("addr", c.IMAP.Addr), slog.String("tls", c.IMAP.TLS),
			slog.String("username", c.IMAP.Username), slog.Any("password", c.IMAP.Password),
			slog.String("mailbox", c.IMAP.Mailbox), slog.String("idle", c.IMAP.Idle)),
		slog.Group("smtp", slog.String("addr", c.SMTP.Addr), slog.String("tls", c.SMTP.TLS),
			slog.Bool("implicit_tls", c.SMTP.ImplicitTLS), slog.String("auth", c.SMTP.Auth),
			slog.String("username", c.SMTP.Username), slog.Any("password", c.SMTP.Password),
			slog.Int("workers", c.SMTP.Workers)),
		slog.Group("auth", slog.Bool("require_seat_token", c.Auth.RequireSeatToken),
			slog.Bool("require_dkim_alignment", c.Auth.RequireDKIMAlignment),
			slog.String("trusted_authserv_id", c.Auth.TrustedAuthservID)),
		slog.Group("limits", slog.Int64("max_message_size", c.Limits.MaxMessageSize),
			slog.Int("sender_rate", c.Limits.SenderRate), slog.Duration("sender_rate_window", c.Limits.SenderRateWindow)),
		slog.Group("webhook", slog.String("addr", c.Webhook.Addr), slog.Any("secret", c.Webhook.Secret),
			slog.Any("mailgun_signing_key", c.Webhook.MailgunSigningKey), slog.Any("mailgun_api_key", c.Webhook.MailgunAPIKey),
			slog.Any("trusted_proxies", c.Webhook.TrustedProxies),
			slog.String("sendgrid_username", c.Webhook.SendGridUsername), slog.Any("sendgrid_password", c.Webhook.SendGridPassword),
			slog.String("postmark_username", c.Webhook.PostmarkUsername), slog.Any("postmark_password", c.Webhook.PostmarkPassword)),
		slog.Group("hooks", slog.Any("url", c.Hooks.URL), slog.Any("secret", c.Hooks.Secret)),
		slog.Group("log", slog.String("level", c.Log.Level), slog.String("format", c.Log.Format)),
	)
}

// TrustedProxyPrefixes returns webhook.trusted_proxies as prefixes (an
// address is its own /32 or /128).
func (c *Config) TrustedProxyPrefixes() ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, p := range c.Webhook.TrustedProxies {
		p = strings.TrimSpace(p)
		if pre, err := netip.ParsePrefix(p); err == nil {
			out = append(out, pre.Masked())
			continue
		}
		a, err := netip.ParseAddr(p)
		if err != nil {
			return nil, fmt.Errorf("webhook.trusted_proxies: %q is neither an address nor a CIDR prefix", p)
		}
		a = a.Unmap()
		out = append(out, netip.PrefixFrom(a, a.BitLen()))
	}
	return out, nil
}

// MailgunAPIClient returns the client of Mailgun storage fetches: nil (the
// webhook's default) unless webhook.mailgun_api_ca_file is set.
func (c *Config) MailgunAPIClient() (*http.Client, error) {
	tc, err := tlsConfig("webhook.mailgun_api_ca_file", c.Webhook.MailgunAPICAFile)
	if err != nil || tc == nil {
		return nil, err
	}
	return webhook.NewMailgunClient(webhook.DefaultMailgunFetchTimeout, tc), nil
}
