package config

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/BurntSushi/toml"

	"github.com/pbem-referee/referee/referee"
	"github.com/pbem-referee/referee/referee/edge/imapin"
	"github.com/pbem-referee/referee/referee/edge/mailin"
	"github.com/pbem-referee/referee/referee/edge/smtpout"
	"github.com/pbem-referee/referee/referee/rigs/testkit"
	"github.com/pbem-referee/referee/store"
)

// env returns a LookupEnv over m.
func env(m map[string]string) LookupEnv {
	return func(k string) (string, bool) {
		v, ok := m[k]
		return v, ok
	}
}

func mustParse(t *testing.T, text string, e map[string]string) *Config {
	t.Helper()
	c, err := Parse([]byte(text), env(e))
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	return c
}

const minimal = `
domain = "pbem.example.org"
[smtp]
addr = "127.0.0.1:25"
tls = "none"
[webhook]
addr = "127.0.0.1:8025"
secret = "hook-secret-1"
`

func TestExampleLoadsWithTheDefaults(t *testing.T) {
	data, err := os.ReadFile("referee.example.toml")
	if err != nil {
		t.Fatal(err)
	}
	c := mustParse(t, string(data), map[string]string{
		"REFEREE_IMAP_PASSWORD": "imap-pw-from-env", "REFEREE_SMTP_PASSWORD": "smtp-pw-from-env",
	})
	// The example shows the defaults: only its deployment-specific values
	// differ from Default().
	want := Default()
	want.Domain = "pbem.example.org"
	want.Organisers = []string{"organiser@example.org"}
	want.IMAP.Addr, want.IMAP.Username, want.IMAP.Password = "imap.example.org:993", "referee@pbem.example.org", "imap-pw-from-env"
	want.SMTP.Addr, want.SMTP.Username, want.SMTP.Password = "smtp.example.org:587", "referee@pbem.example.org", "smtp-pw-from-env"
	want.SMTP.Auth = "plain"
	want.fillDerived()
	if !reflect.DeepEqual(*c, want) {
		t.Errorf("the example does not show the defaults:\n got %#v\nwant %#v", jsonOf(t, *c), jsonOf(t, want))
	}
	if c.SMTP.Password.Reveal() != "smtp-pw-from-env" || c.SMTP.HELO != "pbem.example.org" {
		t.Errorf("smtp %+v", c.SMTP)
	}
}

func jsonOf(t *testing.T, v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestExampleDocumentsEveryKey: every key of Config appears in the example,
// in its table (set, or commented out).
func TestExampleDocumentsEveryKey(t *testing.T) {
	data, err := os.ReadFile("referee.example.toml")
	if err != nil {
		t.Fatal(err)
	}
	present := map[string]bool{}
	table := ""
	keyRE := regexp.MustCompile(`^#?\s*([a-z_]+)\s*=`)
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "[") {
			table = strings.Trim(line, "[]") + "."
			continue
		}
		if m := keyRE.FindStringSubmatch(line); m != nil {
			present[table+m[1]] = true
		}
	}
	var walk func(prefix string, typ reflect.Type)
	walk = func(prefix string, typ reflect.Type) {
		for i := range typ.NumField() {
			f := typ.Field(i)
			key := prefix + f.Tag.Get("toml")
			if f.Type.Kind() == reflect.Struct && f.Type != reflect.TypeFor[time.Duration]() {
				walk(key+".", f.Type)
				continue
			}
			if !present[key] {
				t.Errorf("key %s is not in referee.example.toml", key)
			}
		}
	}
	walk("", reflect.TypeFor[Config]())
}

func TestMinimalGetsDefaults(t *testing.T) {
	c := mustParse(t, minimal, nil)
	if c.SMTP.HELO != "pbem.example.org" || c.SMTP.Auth != "none" || c.SMTP.Workers != 2 ||
		c.IMAP.Mailbox != "INBOX" || c.Limits.MaxMessageSize != 1<<20 || !c.Auth.RequireSeatToken ||
		c.DataDir != "/var/lib/referee" || c.RefereeAddress() != "referee@pbem.example.org" ||
		c.StorePath() != "/var/lib/referee/referee.db" || c.IMAPEnabled() || !c.WebhookEnabled() ||
		c.LogLevel() != slog.LevelInfo {
		t.Errorf("defaults not applied: %s", jsonOf(t, c))
	}
}

func TestStrictParsing(t *testing.T) {
	for _, tc := range []struct{ text, err string }{
		{minimal + "\n[imap]\npasword = \"x\"\n", "unknown keys: imap.pasword"},
		{"verbose = true\n" + minimal, "unknown keys: verbose"},
		{minimal + "\n[imap\n", "line"},
		{minimal + "\n[limits]\nsender_rate_window = \"an hour\"\n", "duration"},
		{minimal + "\n[auth]\nrequire_seat_token = false\n", "cannot be turned off"},
	} {
		_, err := Parse([]byte(tc.text), nil)
		if err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%q: error %v, want one containing %q", tc.text, err, tc.err)
		}
	}
	if c := mustParse(t, minimal+"\n[auth]\nrequire_seat_token = true\n", nil); !c.Auth.RequireSeatToken {
		t.Error("require_seat_token = true not accepted")
	}
}

func TestValidation(t *testing.T) {
	imap := "\n[imap]\naddr = \"imap.example.org:993\"\nusername = \"u\"\npassword = \"p\"\n"
	for _, tc := range []struct{ text, err string }{
		{`[smtp]` + "\naddr = \"127.0.0.1:25\"\ntls = \"none\"\n" + imap, "domain: required"},
		{strings.Replace(minimal, "pbem.example.org", "pbem example", 1), "domain: \"pbem example\" is not a domain"},
		{strings.Replace(minimal, `addr = "127.0.0.1:25"`, `addr = "smtp.example.org:25"`, 1), "smtp.tls: \"none\" may send"},
		{strings.Replace(minimal, `addr = "127.0.0.1:25"`, `addr = "smtp.example.org"`, 1), "smtp.addr: \"smtp.example.org\" is not host:port"},
		{strings.Replace(minimal, `tls = "none"`, `tls = "maybe"`, 1), "smtp.tls: \"maybe\" is not one of"},
		{minimal + "\n[imap]\naddr = \"imap.example.org:993\"\n", "imap.username: required"},
		{minimal + "\n[imap]\naddr = \"imap.example.org:993\"\nusername = \"u\"\n", "imap.password: required"},
		{minimal + "\n[imap]\naddr = \"imap.example.org:143\"\ntls = \"none\"\nusername = \"u\"\npassword = \"p\"\n", "imap.tls: \"none\" sends the password"},
		{minimal + imap + "processed_folder = \"inbox\"\n", "must differ from imap.mailbox"},
		{minimal + imap + "idle = \"yes\"\n", "imap.idle"},
		{minimal + imap + "max_backoff = \"100ms\"\n", "imap.max_backoff"},
		{minimal + imap + "ca_file = \"/nonexistent/ca.pem\"\n", "imap.ca_file"},
		{strings.Replace(minimal, "[webhook]", "[webhook]\nsendgrid_username = \"sg\"", 1), "sendgrid_password, or neither"},
		{strings.Replace(minimal, `secret = "hook-secret-1"`, "", 1), "no intake"},
		{strings.Replace(minimal, "[webhook]\naddr = \"127.0.0.1:8025\"\nsecret = \"hook-secret-1\"", "", 1), "no intake"},
		{minimal + "\n[smtp]\n", "already been defined"},
		{strings.Replace(minimal, "[smtp]", "[smtp]\nauth = \"plain\"", 1), "smtp.username: required"},
		{strings.Replace(minimal, "[smtp]", "[smtp]\nworkers = 0", 1), "smtp.workers"},
		{minimal + "\n[limits]\nmax_message_size = 0\n", "limits.max_message_size"},
		{minimal + "\n[limits]\nsender_rate = -1\n", "limits.sender_rate"},
		{minimal + "\n[hooks]\nurl = \"http://hooks.example.org/x\"\nsecret = \"s\"\n", "plain http only to a loopback"},
		{minimal + "\n[hooks]\nurl = \"https://hooks.example.org/x\"\n", "hooks.secret: required"},
		{minimal + "\n[log]\nlevel = \"verbose\"\n", "log.level"},
		{strings.Replace(minimal, "[webhook]", "[webhook]\npublic_url = \"pbem.example.org\"", 1), "webhook.public_url: \"pbem.example.org\" is not an absolute"},
		{strings.Replace(minimal, "[webhook]", "[webhook]\npublic_url = \"ftp://pbem.example.org\"", 1), "webhook.public_url: \"ftp://"},
		{strings.Replace(minimal, "[webhook]", "[webhook]\npublic_url = \"http://pbem.example.org\"", 1), "use https"},
		{strings.Replace(minimal, "[webhook]", "[webhook]\npublic_url = \"https://pbem.example.org/?x=1\"", 1), "no user, query or fragment"},
		{strings.Replace(strings.Replace(minimal, "[webhook]\naddr = \"127.0.0.1:8025\"\nsecret = \"hook-secret-1\"", "[webhook]\npublic_url = \"https://pbem.example.org\"", 1), "[smtp]", imap+"[smtp]", 1), "webhook.public_url: needs webhook.addr"},
		{"organisers = [\"not an address\"]\n" + minimal, "organisers[0]"},
		{minimal + "[referee]\nlocal_part = \"ref+x\"\n", "referee.local_part"},
	} {
		_, err := Parse([]byte(tc.text), nil)
		if err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("error %v, want one containing %q\nconfig:\n%s", err, tc.err, tc.text)
		}
	}
	// webhook.public_url: https anywhere, plain http to a loopback host.
	for _, u := range []string{"https://pbem.example.org", "https://pbem.example.org/referee/", "http://127.0.0.1:8025", "http://localhost:8025"} {
		c := mustParse(t, strings.Replace(minimal, "[webhook]", "[webhook]\npublic_url = \""+u+"\"", 1), nil)
		if c.Webhook.PublicURL != u {
			t.Errorf("public_url = %q, want %q", c.Webhook.PublicURL, u)
		}
	}
	// Issue 24: with IMAP for the mail, the listener needs no credential
	// to serve the pages (an organiser invents no webhook secret).
	c := mustParse(t, strings.Replace(minimal, `secret = "hook-secret-1"`, "public_url = \"https://pbem.example.org\"", 1)+imap, nil)
	if !c.WebhookEnabled() || c.WebhookIntake() || c.Webhook.PublicURL == "" {
		t.Errorf("pages-only listener: enabled %v, intake %v", c.WebhookEnabled(), c.WebhookIntake())
	}
	// All problems at once.
	_, err := Parse([]byte("[smtp]\nworkers = 0\n[log]\nformat = \"xml\"\n"), nil)
	for _, want := range []string{"domain: required", "smtp.addr: required", "smtp.workers", "log.format", "no intake"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("joined errors %v lack %q", err, want)
		}
	}
}

func TestEnvironmentOverrides(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	text := minimal + "\n[imap]\naddr = \"127.0.0.1:143\"\ntls = \"none\"\nusername = \"u\"\npassword = \"from-file\"\n"

	if c := mustParse(t, text, nil); c.IMAP.Password.Reveal() != "from-file" {
		t.Errorf("file value %q", c.IMAP.Password.Reveal())
	}
	if c := mustParse(t, text, map[string]string{"REFEREE_IMAP_PASSWORD": "from-env"}); c.IMAP.Password.Reveal() != "from-env" {
		t.Errorf("env value %q", c.IMAP.Password.Reveal())
	}
	if c := mustParse(t, text, map[string]string{"REFEREE_IMAP_PASSWORD": ""}); c.IMAP.Password.Reveal() != "from-file" {
		t.Errorf("an empty variable overrode the file: %q", c.IMAP.Password.Reveal())
	}
	text = strings.Replace(text, "[webhook]", "[webhook]\nsendgrid_username = \"sg\"\npostmark_username = \"pm\"", 1)
	all := map[string]string{}
	for i, e := range SecretEnv {
		all[e.Var+"_FILE"] = write(fmt.Sprintf("s%d", i), fmt.Sprintf("secret-%d\r\n", i))
	}
	c := mustParse(t, text, all)
	got := []Secret{c.IMAP.Password, c.SMTP.Password, c.Webhook.Secret, c.Webhook.MailgunSigningKey, c.Webhook.MailgunAPIKey,
		c.Webhook.SendGridPassword, c.Webhook.PostmarkPassword, c.Hooks.Secret}
	for i, s := range got {
		if want := fmt.Sprintf("secret-%d", i); s.Reveal() != want {
			t.Errorf("%s_FILE: %q, want %q", SecretEnv[i].Var, s.Reveal(), want)
		}
	}

	secretFile := write("pw", "do-not-echo-me\n")
	for _, tc := range []struct {
		env map[string]string
		err string
	}{
		{map[string]string{"REFEREE_SMTP_PASSWORD": "a", "REFEREE_SMTP_PASSWORD_FILE": secretFile}, "both set"},
		{map[string]string{"REFEREE_SMTP_PASSWORD_FILE": filepath.Join(dir, "missing")}, "REFEREE_SMTP_PASSWORD_FILE"},
		{map[string]string{"REFEREE_SMTP_PASSWORD_FILE": write("empty", "\n")}, "is empty"},
	} {
		_, err := Parse([]byte(text), env(tc.env))
		if err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%v: error %v, want %q", tc.env, err, tc.err)
		}
		if err != nil && strings.Contains(err.Error(), "do-not-echo-me") {
			t.Errorf("an error shows a secret: %v", err)
		}
	}
}

func TestLoad(t *testing.T) {
	p := filepath.Join(t.TempDir(), "referee.toml")
	if err := os.WriteFile(p, []byte(minimal), 0o600); err != nil {
		t.Fatal(err)
	}
	if c, err := Load(p); err != nil || c.Domain != "pbem.example.org" {
		t.Fatalf("Load: %v", err)
	}
	if err := os.WriteFile(p, []byte(minimal+"\nbogus = 1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(p); err == nil || !strings.Contains(err.Error(), p) || !strings.Contains(err.Error(), "bogus") {
		t.Errorf("Load error %v should name the file and the key", err)
	}
	if _, err := Load(filepath.Join(t.TempDir(), "none.toml")); err == nil {
		t.Error("missing file accepted")
	}
}

// TestSecretsNeverShow prints, marshals and logs a configuration whose
// every secret is set, and looks for the secrets.
func TestSecretsNeverShow(t *testing.T) {
	secrets := map[string]string{
		"REFEREE_IMAP_PASSWORD": "S3cret-imap", "REFEREE_SMTP_PASSWORD": "S3cret-smtp",
		"REFEREE_WEBHOOK_SECRET": "S3cret-webhook", "REFEREE_MAILGUN_SIGNING_KEY": "S3cret-mailgun",
		"REFEREE_SENDGRID_PASSWORD": "S3cret-sendgrid", "REFEREE_POSTMARK_PASSWORD": "S3cret-postmark",
		"REFEREE_HOOKS_SECRET": "S3cret-hooks",
	}
	text := minimal + `
[imap]
addr = "127.0.0.1:143"
tls = "none"
username = "u"
[hooks]
url = "https://user:S3cret-in-url@hooks.example.org/x?token=S3cret-query"
`
	text = strings.Replace(text, "[webhook]", "[webhook]\nsendgrid_username = \"sg\"\npostmark_username = \"pm\"", 1)
	c := mustParse(t, text, secrets)

	var out bytes.Buffer
	fmt.Fprintf(&out, "%v\n%+v\n%#v\n%s\n", *c, *c, *c, c.IMAP.Password)
	fmt.Fprintln(&out, c.IMAP, c.SMTP, c.Webhook, c.Hooks)
	b, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	out.Write(b)
	if err := toml.NewEncoder(&out).Encode(c); err != nil {
		t.Fatal(err)
	}
	for _, h := range []slog.Handler{
		slog.NewTextHandler(&out, &slog.HandlerOptions{Level: slog.LevelDebug}),
		slog.NewJSONHandler(&out, &slog.HandlerOptions{Level: slog.LevelDebug}),
	} {
		l := slog.New(h)
		l.Debug("config", slog.Any("config", *c))
		l.Debug("config", "config", c) // a pointer too
		l.Info("imap", "password", c.IMAP.Password)
	}
	for _, s := range append(mapValues(secrets), "S3cret-in-url", "S3cret-query") {
		if strings.Contains(out.String(), s) {
			t.Errorf("secret %q shows in:\n%s", s, out.String())
		}
	}
	if !strings.Contains(out.String(), Redacted) || !strings.Contains(out.String(), "hooks.example.org/x") {
		t.Errorf("redacted output lacks the markers:\n%s", out.String())
	}
	if c.Webhook.Secret.Reveal() != "S3cret-webhook" {
		t.Error("Reveal")
	}
}

func mapValues(m map[string]string) []string {
	var v []string
	for _, s := range m {
		v = append(v, s)
	}
	return v
}

type nopHandler struct{}

func (nopHandler) HandleMail(context.Context, mailin.Inbound) (referee.Outcome, error) {
	return referee.Outcome{}, nil
}

func TestTransportOptions(t *testing.T) {
	dir := t.TempDir()
	caFile := filepath.Join(dir, "ca.pem")
	if err := os.WriteFile(caFile, caPEM(t), 0o600); err != nil {
		t.Fatal(err)
	}
	text := minimal + `
[imap]
addr = "imap.example.org:993"
ca_file = "` + caFile + `"
username = "referee@pbem.example.org"
password = "imap-pw"
idle = "off"
poll_interval = "2m"
[limits]
max_message_size = 2000000
`
	text = strings.Replace(text, "[smtp]", "[smtp]\nusername = \"referee@pbem.example.org\"\npassword = \"smtp-pw\"\nworkers = 3", 1)
	c := mustParse(t, text, nil)

	io, err := c.IMAPOptions()
	if err != nil {
		t.Fatal(err)
	}
	if io.Addr != "imap.example.org:993" || io.TLS != imapin.TLSImplicit || io.Password != "imap-pw" ||
		io.Idle != imapin.IdleOff || io.PollInterval != 2*time.Minute || io.MaxMessageSize != 2000000 ||
		io.TLSConfig == nil || io.TLSConfig.RootCAs == nil {
		t.Errorf("imap options %+v", io)
	}
	so, err := c.SMTPOptions()
	if err != nil {
		t.Fatal(err)
	}
	if so.Addr != "127.0.0.1:25" || so.TLSPolicy != smtpout.TLSNone || so.Auth != smtpout.AuthPlain ||
		so.Password != "smtp-pw" || so.Workers != 3 || so.HELO != "pbem.example.org" ||
		so.DefaultFrom != "referee@pbem.example.org" || so.GiveUpAfter != 120*time.Hour || so.TLSConfig != nil {
		t.Errorf("smtp options %+v", so)
	}

	// The transports accept them as they are.
	db, err := store.Open(filepath.Join(dir, "referee.db"), &store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	io.Store, io.Handler = db, nopHandler{}
	if _, err := imapin.New(io); err != nil {
		t.Errorf("imapin.New: %v", err)
	}
	so.Store = db
	if _, err := smtpout.New(so); err != nil {
		t.Errorf("smtpout.New: %v", err)
	}

	if err := os.WriteFile(caFile, []byte("not pem"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := c.IMAPOptions(); err == nil || !strings.Contains(err.Error(), "no PEM certificates") {
		t.Errorf("bad CA file: %v", err)
	}
}

func caPEM(t *testing.T) []byte {
	cert, _ := testkit.Server(t)
	return testkit.PEM(cert)
}

// Issue 23's settings: trusted proxies (addresses or CIDR prefixes), the
// Mailgun API key (only with the signing key) and the operator's address
// and daily mail budget.
func TestFrontDoorSettings(t *testing.T) {
	hook := "mailgun_signing_key = \"k\"\n"
	c := mustParse(t, minimal+hook+"trusted_proxies = [\"127.0.0.1\", \"10.0.0.0/8\", \"fd00::/8\", \"::ffff:192.0.2.1\"]\n"+
		"mailgun_api_key = \"api\"\n[operator]\naddress = \"ops@example.org\"\n", nil)
	ps, err := c.TrustedProxyPrefixes()
	if err != nil || fmt.Sprint(ps) != "[127.0.0.1/32 10.0.0.0/8 fd00::/8 192.0.2.1/32]" {
		t.Errorf("trusted proxies %v %v", ps, err)
	}
	if c.Operator.Address != "ops@example.org" || c.Operator.MailsPerDay != 20 || c.Webhook.MailgunAPIKey.Reveal() != "api" {
		t.Errorf("operator %+v, api key set %v", c.Operator, c.Webhook.MailgunAPIKey.IsSet())
	}
	if cl, err := c.MailgunAPIClient(); cl != nil || err != nil {
		t.Errorf("without a CA file the webhook's default client is used: %v %v", cl, err)
	}
	for _, bad := range []struct{ text, want string }{
		{hook + "trusted_proxies = [\"10.0.0.0/33\"]\n", "webhook.trusted_proxies"},
		{hook + "trusted_proxies = [\"proxy.example\"]\n", "webhook.trusted_proxies"},
		{"mailgun_api_key = \"api\"\n", "webhook.mailgun_api_key"},
		{hook + "mailgun_api_hosts = [\"https://api.mailgun.net/\"]\n", "webhook.mailgun_api_hosts"},
		{hook + "mailgun_api_ca_file = \"/nonexistent/ca.pem\"\n", "webhook.mailgun_api_ca_file"},
		{hook + "[operator]\naddress = \"Ops <ops@example.org>\"\n", "operator.address"},
		{hook + "[operator]\naddress = \"ops@example.org\"\nmails_per_day = 0\n", "operator.mails_per_day"},
	} {
		if _, err := Parse([]byte(minimal+bad.text), nil); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%q: %v, want an error on %s", bad.text, err, bad.want)
		}
	}
}
