package config

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/BurntSushi/toml"
)

// LookupEnv is the signature of os.LookupEnv, injectable for tests.
type LookupEnv func(key string) (string, bool)

// Load reads the TOML file at path, applies the environment overrides of
// the secrets, fills in defaults and validates the result.
func Load(path string) (*Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	c, err := Parse(data, os.LookupEnv)
	if err != nil {
		return nil, fmt.Errorf("config %s: %w", path, err)
	}
	return c, nil
}

// Parse is Load on bytes, with env for the environment (nil: none).
func Parse(data []byte, env LookupEnv) (*Config, error) {
	c := Default()
	md, err := toml.NewDecoder(bytes.NewReader(data)).Decode(&c)
	if err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return nil, fmt.Errorf("%s", pe.ErrorWithPosition())
		}
		return nil, err
	}
	if und := md.Undecoded(); len(und) > 0 {
		keys := make([]string, len(und))
		for i, k := range und {
			keys[i] = k.String()
		}
		return nil, fmt.Errorf("unknown keys: %s", strings.Join(keys, ", "))
	}
	if md.IsDefined("auth", "require_seat_token") && !c.Auth.RequireSeatToken {
		return nil, errors.New("auth.require_seat_token: cannot be turned off: seat tokens are how players are authenticated")
	}
	if env == nil {
		env = func(string) (string, bool) { return "", false }
	}
	if err := c.applyEnv(env); err != nil {
		return nil, err
	}
	c.fillDerived()
	if err := c.Validate(); err != nil {
		return nil, err
	}
	return &c, nil
}

// SecretEnv lists the environment variables that override secrets, with
// the TOML key each one overrides.
var SecretEnv = []struct {
	Var, Key string
	field    func(*Config) *Secret
}{
	{"REFEREE_IMAP_PASSWORD", "imap.password", func(c *Config) *Secret { return &c.IMAP.Password }},
	{"REFEREE_SMTP_PASSWORD", "smtp.password", func(c *Config) *Secret { return &c.SMTP.Password }},
	{"REFEREE_WEBHOOK_SECRET", "webhook.secret", func(c *Config) *Secret { return &c.Webhook.Secret }},
	{"REFEREE_MAILGUN_SIGNING_KEY", "webhook.mailgun_signing_key", func(c *Config) *Secret { return &c.Webhook.MailgunSigningKey }},
	{"REFEREE_MAILGUN_API_KEY", "webhook.mailgun_api_key", func(c *Config) *Secret { return &c.Webhook.MailgunAPIKey }},
	{"REFEREE_SENDGRID_PASSWORD", "webhook.sendgrid_password", func(c *Config) *Secret { return &c.Webhook.SendGridPassword }},
	{"REFEREE_POSTMARK_PASSWORD", "webhook.postmark_password", func(c *Config) *Secret { return &c.Webhook.PostmarkPassword }},
	{"REFEREE_HOOKS_SECRET", "hooks.secret", func(c *Config) *Secret { return &c.Hooks.Secret }},
}

// applyEnv overrides secrets from VAR or VAR_FILE.
func (c *Config) applyEnv(env LookupEnv) error {
	var errs []error
	for _, e := range SecretEnv {
		val, ok := env(e.Var)
		ok = ok && val != ""
		path, fileOK := env(e.Var + "_FILE")
		fileOK = fileOK && path != ""
		switch {
		case ok && fileOK:
			errs = append(errs, fmt.Errorf("%s and %s_FILE are both set; use one", e.Var, e.Var))
		case ok:
			*e.field(c) = Secret(val)
		case fileOK:
			b, err := os.ReadFile(path)
			if err != nil {
				// The path is not secret, the content would be.
				errs = append(errs, fmt.Errorf("%s_FILE: %w", e.Var, err))
				continue
			}
			s := strings.TrimSuffix(strings.TrimSuffix(string(b), "\n"), "\r")
			if s == "" {
				errs = append(errs, fmt.Errorf("%s_FILE: %s is empty", e.Var, path))
				continue
			}
			*e.field(c) = Secret(s)
		}
	}
	return errors.Join(errs...)
}
