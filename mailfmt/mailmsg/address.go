package mailmsg

import (
	"fmt"
	"net/mail"
	"strings"
	"unicode"
	"unicode/utf8"

	gomail "github.com/emersion/go-message/mail"
)

// Address is a mailbox: an optional display name and an addr-spec.
type Address struct {
	// Name is the decoded display name ("Anna Rossi"), possibly empty.
	Name string
	// Addr is the addr-spec ("anna@example.org"), exactly as written except
	// that the domain is lower-cased.
	Addr string
}

// ParseAddress parses one RFC 5322 mailbox such as
// `"Rossi, Anna" <anna@example.org>` or `anna@example.org`, decoding
// encoded words in any charset.
func ParseAddress(s string) (Address, error) {
	a, err := gomail.ParseAddress(s)
	if err != nil {
		return Address{}, fmt.Errorf("%w: %q: %v", ErrInvalidAddress, s, err)
	}
	return fromMailAddress(a), nil
}

func fromMailAddress(a *mail.Address) Address {
	return Address{Name: a.Name, Addr: lowerDomain(a.Address)}
}

// String formats the address for a header field (RFC 5322, encoded words
// for a non-ASCII display name), the name made safe by CleanName.
func (a Address) String() string {
	if a.Addr == "" {
		return ""
	}
	return (&mail.Address{Name: CleanName(a.Name), Address: a.Addr}).String()
}

// MaxNameRunes is the longest display name kept (issue 23): a longer one is
// cut, on a character boundary.
const MaxNameRunes = 64

// CleanName makes any text a safe display name (issue 23, rule 1): control
// and invisible format characters (bidi overrides such as U+202E, zero-width
// characters, NUL) are removed, invalid UTF-8 is replaced, every run of
// white space becomes one space, and the result is cut to MaxNameRunes
// characters. Quotes, backslashes and any other printable Unicode are kept:
// the header is written by net/mail's own address formatting (quoted-string
// or encoded word), never built by hand, so no name can make a mail
// impossible to compose.
func CleanName(s string) string {
	name := strings.TrimSpace(printable(s, MaxNameRunes))
	if strings.ContainsRune(name, '\\') && !isASCII(name) {
		// net/mail writes a non-ASCII name as a Q encoded word and
		// leaves a backslash in it raw, which no parser reads back
		// (found by FuzzComposeName): the look-alike fullwidth reverse
		// solidus is shown instead.
		name = strings.ReplaceAll(name, "\\", "\uFF3C")
	}
	return name
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// mailAddress is the net/mail form of a, the name cleaned.
func (a Address) mailAddress() *mail.Address {
	return &mail.Address{Name: CleanName(a.Name), Address: a.Addr}
}

// IsZero reports whether the address is empty.
func (a Address) IsZero() bool { return a.Addr == "" }

// Local returns the local part of the address (before the last '@').
func (a Address) Local() string {
	l, _ := splitAddr(a.Addr)
	return l
}

// Domain returns the lower-cased domain of the address.
func (a Address) Domain() string {
	_, d := splitAddr(a.Addr)
	return d
}

// SameMailbox reports whether two addr-specs name the same mailbox, ignoring
// case (in practice every provider treats local parts case-insensitively)
// and any "+detail" part of the local part.
func SameMailbox(a, b string) bool {
	la, da := splitAddr(a)
	lb, db := splitAddr(b)
	if la == "" || lb == "" || da != db {
		return false
	}
	base := func(l string) string {
		if i := strings.IndexByte(l, '+'); i >= 0 {
			l = l[:i]
		}
		return strings.ToLower(l)
	}
	return base(la) == base(lb)
}

// SplitPlus splits an addr-spec "local+detail@domain" into its base local
// part, its detail (the text after the first '+', empty when there is none)
// and its lower-cased domain.
func SplitPlus(addr string) (local, detail, domain string) {
	l, d := splitAddr(addr)
	if i := strings.IndexByte(l, '+'); i >= 0 {
		return l[:i], l[i+1:], d
	}
	return l, "", d
}

// splitAddr splits at the last '@' and lower-cases the domain. It returns
// empty strings when addr has no '@' or an empty side.
func splitAddr(addr string) (local, domain string) {
	addr = strings.TrimSpace(addr)
	addr = strings.TrimSuffix(strings.TrimPrefix(addr, "<"), ">")
	i := strings.LastIndexByte(addr, '@')
	if i <= 0 || i == len(addr)-1 {
		return "", ""
	}
	return addr[:i], strings.ToLower(strings.TrimSuffix(addr[i+1:], "."))
}

func lowerDomain(addr string) string {
	l, d := splitAddr(addr)
	if l == "" {
		return strings.TrimSpace(addr)
	}
	return l + "@" + d
}

// printable is s as CleanName and QuoteLine show it: invalid UTF-8
// replaced, control, invisible format and private-use characters removed,
// every run of white space one space, none at the start, and at most limit
// characters kept (the last may be a space when the text goes on).
func printable(s string, limit int) string {
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	var b strings.Builder
	n, space := 0, false
	for _, r := range s {
		switch {
		case unicode.IsSpace(r):
			space = b.Len() > 0
			continue
		case unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || unicode.Is(unicode.Co, r):
			continue
		}
		if n >= limit {
			break
		}
		if space {
			b.WriteByte(' ')
			n++
			space = false
			if n >= limit {
				break
			}
		}
		b.WriteRune(r)
		n++
	}
	return b.String()
}
