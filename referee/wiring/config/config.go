// Package config is the referee daemon's configuration: one explicit
// struct, read from a TOML file (unknown keys are errors), with secrets
// overridable from the environment, validated with clear errors, and safe
// to log (secrets are redacted everywhere).
//
// # Secrets from the environment
//
// Each secret can be given in the file, or (overriding the file) in an
// environment variable, or in a file named by the variable with a _FILE
// suffix (one trailing line break is removed), for container secrets:
//
//	REFEREE_IMAP_PASSWORD        imap.password
//	REFEREE_SMTP_PASSWORD        smtp.password
//	REFEREE_WEBHOOK_SECRET       webhook.secret
//	REFEREE_MAILGUN_SIGNING_KEY  webhook.mailgun_signing_key
//	REFEREE_MAILGUN_API_KEY      webhook.mailgun_api_key
//	REFEREE_SENDGRID_PASSWORD    webhook.sendgrid_password
//	REFEREE_POSTMARK_PASSWORD    webhook.postmark_password
//	REFEREE_HOOKS_SECRET         hooks.secret
//
// Setting both VAR and VAR_FILE is an error; an empty VAR is ignored.
//
// The file referee.example.toml next to this package documents every key
// with its default; a test loads it.
//
// It owns the configuration: its fields, defaults, validation and where
// secrets come from. It must not start, open or dial anything.
package config

import (
	"log/slog"
	"path/filepath"
	"time"

	"github.com/pbem-referee/referee/referee/guard"
)

// Config is the whole configuration of `referee serve`. Every field says
// its TOML key and its default.
type Config struct {
	// Domain is the mail domain of the referee: players write to
	// <local_part>+<game>@<domain>. Key "domain"; required.
	Domain string `toml:"domain"`
	// DataDir holds the store file (referee.db) and exports. Key
	// "data_dir"; default "/var/lib/referee".
	DataDir string `toml:"data_dir"`
	// Organisers are the addresses alerted about problems (failing player
	// addresses, quarantined mail). Key "organisers"; default none.
	Organisers []string `toml:"organisers"`

	// Operator is told by mail when a message is set aside. Table
	// [operator].
	Operator OperatorConfig `toml:"operator"`
	// Referee is the referee's own address. Table [referee].
	Referee RefereeConfig `toml:"referee"`
	// IMAP is the intake mailbox. Table [imap].
	IMAP IMAPConfig `toml:"imap"`
	// SMTP is the outgoing mail server. Table [smtp].
	SMTP SMTPConfig `toml:"smtp"`
	// Auth is how players are authenticated. Table [auth].
	Auth AuthConfig `toml:"auth"`
	// Limits protect the referee from floods. Table [limits].
	Limits LimitsConfig `toml:"limits"`
	// Webhook is the HTTP listener for inbound mail from providers.
	// Table [webhook].
	Webhook WebhookConfig `toml:"webhook"`
	// Hooks are the defaults of outgoing webhook calls. Table [hooks].
	Hooks HooksConfig `toml:"hooks"`
	// Log is the logging setup. Table [log].
	Log LogConfig `toml:"log"`
}

// OperatorConfig is who runs the daemon and is told about mail set aside
// (issue 23).
type OperatorConfig struct {
	// Address receives a mail each time a message is set aside (failed
	// or crashed too often, too large, a replayed token), with the
	// reason and where the message is kept. Key "operator.address";
	// default "" (no mail: a quarantine record and a log line only).
	Address string `toml:"address"`
	// MailsPerDay is the daily budget of those mails (UTC days); the
	// first one over it says so, and the rest of the day's set-asides
	// are recorded and logged only. Key "operator.mails_per_day";
	// default 20.
	MailsPerDay int `toml:"mails_per_day"`
}

// RefereeConfig is the referee's own address.
type RefereeConfig struct {
	// LocalPart is the local part of the referee's address. Key
	// "referee.local_part"; default "referee".
	LocalPart string `toml:"local_part"`
	// Name is the display name in the From header. Key "referee.name";
	// default "PBEM Referee".
	Name string `toml:"name"`
	// ReceiptWindow is how long a receipt that asks nothing ("Received;
	// waiting for Bob") waits to ride in the player's next mail before it
	// is sent alone (issue 22). Key "referee.receipt_window"; default
	// "5m"; "0s" sends every receipt at once.
	ReceiptWindow time.Duration `toml:"receipt_window"`
}

// IMAPConfig is the IMAP intake. An empty Addr disables it (mail then
// arrives only through the webhook listener).
type IMAPConfig struct {
	// Addr is the IMAP server, "host:port". Key "imap.addr"; default ""
	// (IMAP intake off).
	Addr string `toml:"addr"`
	// TLS is "tls" (implicit TLS, port 993), "starttls" or "none" (only
	// to a loopback address unless AllowInsecure). Key "imap.tls";
	// default "tls".
	TLS string `toml:"tls"`
	// AllowInsecure permits TLS "none" to a non-loopback server. Key
	// "imap.allow_insecure"; default false.
	AllowInsecure bool `toml:"allow_insecure"`
	// CAFile is a PEM file of CA certificates to trust instead of the
	// system's (for a private CA). Key "imap.ca_file"; default "".
	CAFile string `toml:"ca_file"`
	// Username logs in. Key "imap.username"; required with Addr.
	Username string `toml:"username"`
	// Password logs in. Key "imap.password" or REFEREE_IMAP_PASSWORD(_FILE);
	// required with Addr.
	Password Secret `toml:"password"`
	// Mailbox is the watched mailbox. Key "imap.mailbox"; default "INBOX".
	Mailbox string `toml:"mailbox"`
	// ProcessedFolder receives processed mail. Key "imap.processed_folder";
	// default "Processed".
	ProcessedFolder string `toml:"processed_folder"`
	// QuarantineFolder receives mail that can never be processed. Key
	// "imap.quarantine_folder"; default "Quarantine".
	QuarantineFolder string `toml:"quarantine_folder"`
	// Idle is "auto" (IDLE when offered), "on" (the same, warning when not
	// offered) or "off" (always poll). Key "imap.idle"; default "auto".
	Idle string `toml:"idle"`
	// PollInterval is the time between looks when not idling. Key
	// "imap.poll_interval"; default "1m".
	PollInterval time.Duration `toml:"poll_interval"`
	// ResyncInterval is the time between safety re-syncs even while
	// idling. Key "imap.resync_interval"; default "5m".
	ResyncInterval time.Duration `toml:"resync_interval"`
	// MinBackoff and MaxBackoff bound the reconnect and retry delays. Keys
	// "imap.min_backoff", "imap.max_backoff"; defaults "1s", "5m".
	MinBackoff time.Duration `toml:"min_backoff"`
	MaxBackoff time.Duration `toml:"max_backoff"`
	// DialTimeout bounds connecting, TLS and the greeting. Key
	// "imap.dial_timeout"; default "30s".
	DialTimeout time.Duration `toml:"dial_timeout"`
	// MaxCrashes quarantines a message whose handling began this many
	// times without finishing (it killed the daemon each time), and tells
	// its sender. Key "imap.max_crashes"; default 3; -1 never.
	MaxCrashes int `toml:"max_crashes"`
	// MaxAttempts sets a message aside after this many failures in a row
	// (issue 23): its sender and the operator are told and the intake
	// moves on. Key "imap.max_attempts"; default 5; -1 never.
	MaxAttempts int `toml:"max_attempts"`
}

// SMTPConfig is the outgoing mail server (a submission server or a
// smarthost).
type SMTPConfig struct {
	// Addr is the SMTP server, "host:port". Key "smtp.addr"; required.
	Addr string `toml:"addr"`
	// TLS is the STARTTLS policy: "mandatory", "opportunistic" or "none"
	// (the last two only to a loopback address unless AllowInsecure). Not
	// used with ImplicitTLS. Key "smtp.tls"; default "mandatory".
	TLS string `toml:"tls"`
	// ImplicitTLS connects with TLS from the first byte (port 465). Key
	// "smtp.implicit_tls"; default false.
	ImplicitTLS bool `toml:"implicit_tls"`
	// AllowInsecure permits a possibly unencrypted connection to a
	// non-loopback server. Key "smtp.allow_insecure"; default false.
	AllowInsecure bool `toml:"allow_insecure"`
	// CAFile is a PEM file of CA certificates to trust. Key "smtp.ca_file";
	// default "".
	CAFile string `toml:"ca_file"`
	// Auth is "none", "plain" or "login". Key "smtp.auth"; default "plain"
	// when a username is set, "none" otherwise.
	Auth string `toml:"auth"`
	// Username authenticates. Key "smtp.username"; default "".
	Username string `toml:"username"`
	// Password authenticates. Key "smtp.password" or
	// REFEREE_SMTP_PASSWORD(_FILE); required with a username.
	Password Secret `toml:"password"`
	// HELO is the name sent in EHLO. Key "smtp.helo"; default the domain.
	HELO string `toml:"helo"`
	// DialTimeout bounds connecting, EHLO, STARTTLS and AUTH. Key
	// "smtp.dial_timeout"; default "30s".
	DialTimeout time.Duration `toml:"dial_timeout"`
	// CommandTimeout bounds each SMTP command. Key "smtp.command_timeout";
	// default "2m".
	CommandTimeout time.Duration `toml:"command_timeout"`
	// DataTimeout bounds sending one message. Key "smtp.data_timeout";
	// default "10m".
	DataTimeout time.Duration `toml:"data_timeout"`
	// Workers is the number of concurrent deliveries. Key "smtp.workers";
	// default 2.
	Workers int `toml:"workers"`
	// MinBackoff and MaxBackoff bound the retry delay after a transient
	// failure. Keys "smtp.min_backoff", "smtp.max_backoff"; defaults "1m",
	// "6h".
	MinBackoff time.Duration `toml:"min_backoff"`
	MaxBackoff time.Duration `toml:"max_backoff"`
	// GiveUpAfter fails a mail still undelivered this long after it was
	// queued. Key "smtp.give_up_after"; default "120h" (5 days).
	GiveUpAfter time.Duration `toml:"give_up_after"`
	// Retention keeps sent and failed mails for inspection. Key
	// "smtp.retention"; default "720h" (30 days).
	Retention time.Duration `toml:"retention"`
}

// AuthConfig is how the referee authenticates players.
type AuthConfig struct {
	// RequireSeatToken: every command must carry the player's seat token
	// (in the reply address or the body). Always on; the key exists only
	// so that a configuration cannot silently believe otherwise: false is
	// rejected. Key "auth.require_seat_token"; default true.
	RequireSeatToken bool `toml:"require_seat_token"`
	// RequireDKIMAlignment additionally requires a DKIM pass aligned with
	// the From domain. Key "auth.require_dkim_alignment"; default false.
	RequireDKIMAlignment bool `toml:"require_dkim_alignment"`
	// TrustedAuthservID is the authserv-id of the Authentication-Results
	// header written by the receiving mail server; only the top-most header
	// with this id is trusted. Empty: Authentication-Results are ignored.
	// Key "auth.trusted_authserv_id"; default "".
	TrustedAuthservID string `toml:"trusted_authserv_id"`
	// RegisterNeedsAuthentication: an untagged REGISTER is answered only
	// when its sender is authenticated (an aligned DKIM pass, or the
	// Authentication-Results of auth.trusted_authserv_id); a forged one
	// makes no mail to a third party (issue 23). Key
	// "auth.register_needs_authentication"; default true.
	RegisterNeedsAuthentication bool `toml:"register_needs_authentication"`
	// DKIMForDMARCDomains requires an aligned DKIM pass (or our own
	// Authentication-Results) from every From domain that publishes an
	// enforcing DMARC policy, even without require_dkim_alignment (issue
	// 23). Key "auth.dkim_for_dmarc_domains"; default true.
	DKIMForDMARCDomains bool `toml:"dkim_for_dmarc_domains"`
}

// LimitsConfig protects the referee from floods.
type LimitsConfig struct {
	// MaxMessageSize is the largest inbound message in bytes; larger ones
	// are quarantined unread. Key "limits.max_message_size"; default
	// 1048576 (1 MiB).
	MaxMessageSize int64 `toml:"max_message_size"`
	// SenderRate is how many messages per SenderRateWindow each budget
	// allows; 0 disables the limits. Mail that authenticates (a seat's or
	// a player's secret from its registered address) counts per seat or
	// player after the check, and beyond the limit is still processed but
	// answered only once more in the window; any other mail counts per
	// From address, and beyond the limit is ignored. Key
	// "limits.sender_rate"; default 60.
	SenderRate int `toml:"sender_rate"`
	// SenderRateWindow is the window of SenderRate. Key
	// "limits.sender_rate_window"; default "1h".
	SenderRateWindow time.Duration `toml:"sender_rate_window"`
	// RegisterAnswersPerHour is the global hourly budget of answers to
	// REGISTER (issue 23); beyond it REGISTER is not answered. Key
	// "limits.register_answers_per_hour"; default 60; -1 no limit.
	RegisterAnswersPerHour int `toml:"register_answers_per_hour"`
	// MaxEntrants caps a tournament's entrants; beyond it JOIN and ENTER
	// are refused (issue 23). Key "limits.max_entrants"; default 10000
	// (guard.DefaultMaxEntrants).
	MaxEntrants int `toml:"max_entrants"`
}

// WebhookConfig is the HTTP listener for inbound mail posted by a
// provider (or by anything that holds the shared secret). An empty Addr
// disables it.
type WebhookConfig struct {
	// Addr is the listen address, "host:port". Key "webhook.addr"; default
	// "" (off).
	Addr string `toml:"addr"`
	// Secret is the HMAC-SHA256 key of the raw-message endpoint. Key
	// "webhook.secret" or REFEREE_WEBHOOK_SECRET(_FILE); default "".
	Secret Secret `toml:"secret"`
	// MailgunSigningKey verifies Mailgun's signatures. Key
	// "webhook.mailgun_signing_key" or REFEREE_MAILGUN_SIGNING_KEY(_FILE);
	// default "" (Mailgun endpoint off).
	MailgunSigningKey Secret `toml:"mailgun_signing_key"`
	// MailgunAPIKey, if set, makes a Mailgun post that carries
	// message-url (a store(notify=...) route) fetch its message from
	// Mailgun's storage instead of believing the posted body, which
	// Mailgun's signature does not cover (issue 23); without it, posted
	// bodies act only with an aligned DKIM signature. Key
	// "webhook.mailgun_api_key" or REFEREE_MAILGUN_API_KEY(_FILE); default
	// "".
	MailgunAPIKey Secret `toml:"mailgun_api_key"`
	// MailgunAPIHosts are the hosts (with their subdomains) whose
	// storage URLs are fetched. Key "webhook.mailgun_api_hosts"; default
	// ["api.mailgun.net", "api.eu.mailgun.net"].
	MailgunAPIHosts []string `toml:"mailgun_api_hosts"`
	// MailgunAPICAFile is a PEM file of CA certificates to trust for the
	// storage fetches instead of the system's (an egress TLS proxy, a
	// test's fake API). Key "webhook.mailgun_api_ca_file"; default "".
	MailgunAPICAFile string `toml:"mailgun_api_ca_file"`
	// TrustedProxies are the addresses or CIDR prefixes of reverse
	// proxies in front of the listener: from them, and only from them,
	// the Forwarded or X-Forwarded-For header names the client for the
	// per-client budget (issue 23). Key "webhook.trusted_proxies";
	// default none.
	TrustedProxies []string `toml:"trusted_proxies"`
	// SendGridUsername and SendGridPassword are the basic-auth credentials
	// in the SendGrid Inbound Parse URL. Keys "webhook.sendgrid_username",
	// "webhook.sendgrid_password" (or REFEREE_SENDGRID_PASSWORD(_FILE));
	// default "" (SendGrid endpoint off).
	SendGridUsername string `toml:"sendgrid_username"`
	SendGridPassword Secret `toml:"sendgrid_password"`
	// PostmarkUsername and PostmarkPassword are the basic-auth credentials
	// in the Postmark inbound webhook URL. Keys "webhook.postmark_username",
	// "webhook.postmark_password" (or REFEREE_POSTMARK_PASSWORD(_FILE));
	// default "" (Postmark endpoint off).
	PostmarkUsername string `toml:"postmark_username"`
	PostmarkPassword Secret `toml:"postmark_password"`
	// MaxBodySize caps a request body in bytes (never more than three
	// times limits.max_message_size). Key "webhook.max_body_size";
	// default 10485760 (10 MiB).
	MaxBodySize int64 `toml:"max_body_size"`
	// MetricsToken, if set, is the bearer token GET /metrics requires;
	// without it /metrics answers only clients on a loopback address. Key
	// "webhook.metrics_token"; default "".
	MetricsToken Secret `toml:"metrics_token"`
	// MaxClockSkew is the largest accepted age of a signed timestamp. Key
	// "webhook.max_clock_skew"; default "5m".
	MaxClockSkew time.Duration `toml:"max_clock_skew"`
	// ReadHeaderTimeout and ReadTimeout bound reading a request. Keys
	// "webhook.read_header_timeout", "webhook.read_timeout"; defaults
	// "10s", "1m".
	ReadHeaderTimeout time.Duration `toml:"read_header_timeout"`
	ReadTimeout       time.Duration `toml:"read_timeout"`
	// ShutdownTimeout bounds the graceful shutdown of the listener. Key
	// "webhook.shutdown_timeout"; default "10s".
	ShutdownTimeout time.Duration `toml:"shutdown_timeout"`
	// BodyReadTimeout bounds reading one request body (issue 23: a
	// trickled body is cut off). Key "webhook.body_read_timeout"; default
	// "20s".
	BodyReadTimeout time.Duration `toml:"body_read_timeout"`
	// MaxPerClient and MaxUnauthenticated bound the bodies read before
	// their signature can be checked (raw and Mailgun posts), per client
	// address and in all; beyond them the answer is 429 at once. Keys
	// "webhook.max_per_client", "webhook.max_unauthenticated"; defaults 4,
	// 32.
	MaxPerClient       int `toml:"max_per_client"`
	MaxUnauthenticated int `toml:"max_unauthenticated"`
	// MaxAttempts sets an inbound message aside after this many failed
	// hand-overs (its sender and the operator told; the provider answered
	// "do not retry"). Key "webhook.max_attempts"; default 5; -1 never.
	MaxAttempts int `toml:"max_attempts"`
	// PublicURL is the address at which players reach this listener from
	// outside (behind a proxy, say "https://pbem.example.org/referee"): the
	// links to the public pages in mails start with it. Key
	// "webhook.public_url"; default "" (relative links, which a mail client
	// cannot open). An absolute http(s) URL, https unless the host is a
	// loopback address; it needs webhook.addr.
	PublicURL string `toml:"public_url"`
}

// HooksConfig are the defaults of outgoing webhook calls (game events sent
// to organisers' endpoints).
type HooksConfig struct {
	// URL is the endpoint for games that name none; it may carry
	// credentials, which are never logged. Key "hooks.url"; default "" (no
	// calls).
	URL URL `toml:"url"`
	// Secret signs every call (HMAC-SHA256). Key "hooks.secret" or
	// REFEREE_HOOKS_SECRET(_FILE); required with URL.
	Secret Secret `toml:"secret"`
	// Timeout bounds one call. Key "hooks.timeout"; default "10s".
	Timeout time.Duration `toml:"timeout"`
	// Workers is the number of concurrent calls. Key "hooks.workers";
	// default 2.
	Workers int `toml:"workers"`
	// MinBackoff, MaxBackoff and GiveUpAfter shape the retries. Keys
	// "hooks.min_backoff", "hooks.max_backoff", "hooks.give_up_after";
	// defaults "30s", "1h", "24h".
	MinBackoff  time.Duration `toml:"min_backoff"`
	MaxBackoff  time.Duration `toml:"max_backoff"`
	GiveUpAfter time.Duration `toml:"give_up_after"`
}

// LogConfig is the logging setup.
type LogConfig struct {
	// Level is "debug", "info", "warn" or "error". Key "log.level"; default
	// "info".
	Level string `toml:"level"`
	// Format is "text" or "json". Key "log.format"; default "text".
	Format string `toml:"format"`
}

// Default returns the configuration with every default filled in (Domain
// and the derived defaults still empty).
func Default() Config {
	return Config{
		DataDir: "/var/lib/referee",
		Referee: RefereeConfig{LocalPart: "referee", Name: "PBEM Referee", ReceiptWindow: 5 * time.Minute},
		IMAP: IMAPConfig{
			TLS: "tls", Mailbox: "INBOX", ProcessedFolder: "Processed", QuarantineFolder: "Quarantine",
			Idle: "auto", PollInterval: time.Minute, ResyncInterval: 5 * time.Minute,
			MinBackoff: time.Second, MaxBackoff: 5 * time.Minute, DialTimeout: 30 * time.Second, MaxCrashes: 3,
			MaxAttempts: 5,
		},
		SMTP: SMTPConfig{
			TLS: "mandatory", DialTimeout: 30 * time.Second, CommandTimeout: 2 * time.Minute,
			DataTimeout: 10 * time.Minute, Workers: 2, MinBackoff: time.Minute, MaxBackoff: 6 * time.Hour,
			GiveUpAfter: 120 * time.Hour, Retention: 720 * time.Hour,
		},
		Auth: AuthConfig{RequireSeatToken: true, RegisterNeedsAuthentication: true, DKIMForDMARCDomains: true},
		Limits: LimitsConfig{MaxMessageSize: 1 << 20, SenderRate: 60, SenderRateWindow: time.Hour, RegisterAnswersPerHour: 60,
			MaxEntrants: guard.DefaultMaxEntrants},
		Webhook: WebhookConfig{
			MaxBodySize: 10 << 20, MaxClockSkew: 5 * time.Minute,
			ReadHeaderTimeout: 10 * time.Second, ReadTimeout: time.Minute, ShutdownTimeout: 10 * time.Second,
			BodyReadTimeout: 20 * time.Second, MaxPerClient: 4, MaxUnauthenticated: 32, MaxAttempts: 5,
		},
		Hooks: HooksConfig{
			Timeout: 10 * time.Second, Workers: 2,
			MinBackoff: 30 * time.Second, MaxBackoff: time.Hour, GiveUpAfter: 24 * time.Hour,
		},
		Log:      LogConfig{Level: "info", Format: "text"},
		Operator: OperatorConfig{MailsPerDay: 20},
	}
}

// fillDerived fills the defaults that depend on other fields.
func (c *Config) fillDerived() {
	if c.SMTP.Auth == "" {
		c.SMTP.Auth = "none"
		if c.SMTP.Username != "" {
			c.SMTP.Auth = "plain"
		}
	}
	if c.SMTP.HELO == "" {
		c.SMTP.HELO = c.Domain
	}
}

// RefereeAddress returns the referee's address, <local_part>@<domain>.
func (c *Config) RefereeAddress() string { return c.Referee.LocalPart + "@" + c.Domain }

// StorePath returns the store file, <data_dir>/referee.db.
func (c *Config) StorePath() string { return filepath.Join(c.DataDir, "referee.db") }

// IMAPEnabled reports whether IMAP intake is configured.
func (c *Config) IMAPEnabled() bool { return c.IMAP.Addr != "" }

// WebhookEnabled reports whether the webhook listener is configured.
func (c *Config) WebhookEnabled() bool { return c.Webhook.Addr != "" }

// WebhookIntake reports whether the HTTP listener takes mail: it listens
// and holds at least one credential. Without one it serves the pages and
// /metrics only.
func (c *Config) WebhookIntake() bool {
	w := c.Webhook
	return w.Addr != "" && (w.Secret.IsSet() || w.MailgunSigningKey.IsSet() || w.SendGridPassword.IsSet() || w.PostmarkPassword.IsSet())
}

// LogLevel returns the slog level of Log.Level (info when unknown; Validate
// rejects unknown levels).
func (c *Config) LogLevel() slog.Level {
	switch c.Log.Level {
	case "debug":
		return slog.LevelDebug
	case "warn":
		return slog.LevelWarn
	case "error":
		return slog.LevelError
	default:
		return slog.LevelInfo
	}
}
