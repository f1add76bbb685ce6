package config

import (
	"log/slog"
	"net/url"
)

// Redacted is what a set secret shows in logs and printed values.
const Redacted = "[redacted]"

// Secret is a credential. It prints, marshals and logs as "[redacted]" (or
// "" when unset); Reveal returns the value for the one place that needs it.
type Secret string

// Reveal returns the secret's value.
func (s Secret) Reveal() string { return string(s) }

// IsSet reports whether the secret has a value.
func (s Secret) IsSet() bool { return s != "" }

func (s Secret) redacted() string {
	if s == "" {
		return ""
	}
	return Redacted
}

// String implements fmt.Stringer: fmt's %s, %v and %+v never show the value.
func (s Secret) String() string { return s.redacted() }

// GoString implements fmt.GoStringer: %#v never shows the value.
func (s Secret) GoString() string { return `config.Secret("` + s.redacted() + `")` }

// LogValue implements slog.LogValuer.
func (s Secret) LogValue() slog.Value { return slog.StringValue(s.redacted()) }

// MarshalText implements encoding.TextMarshaler, so JSON and TOML encodings
// of a Config are redacted too.
func (s Secret) MarshalText() ([]byte, error) { return []byte(s.redacted()), nil }

// UnmarshalText implements encoding.TextUnmarshaler (reading the file).
func (s *Secret) UnmarshalText(b []byte) error {
	*s = Secret(b)
	return nil
}

// URL is an endpoint that may carry credentials (user info, a token in the
// query). It prints, marshals and logs without them; Reveal returns it
// whole.
type URL string

// Reveal returns the whole URL.
func (u URL) Reveal() string { return string(u) }

func (u URL) redacted() string {
	if u == "" {
		return ""
	}
	p, err := url.Parse(string(u))
	if err != nil {
		return Redacted
	}
	r := &url.URL{Scheme: p.Scheme, Host: p.Host, Path: p.Path}
	if p.User != nil {
		r.User = url.User(Redacted)
	}
	if p.RawQuery != "" {
		r.RawQuery = "" + Redacted
	}
	return r.String()
}

// String implements fmt.Stringer.
func (u URL) String() string { return u.redacted() }

// GoString implements fmt.GoStringer.
func (u URL) GoString() string { return `config.URL("` + u.redacted() + `")` }

// LogValue implements slog.LogValuer.
func (u URL) LogValue() slog.Value { return slog.StringValue(u.redacted()) }

// MarshalText implements encoding.TextMarshaler.
func (u URL) MarshalText() ([]byte, error) { return []byte(u.redacted()), nil }

// UnmarshalText implements encoding.TextUnmarshaler.
func (u *URL) UnmarshalText(b []byte) error {
	*u = URL(b)
	return nil
}
