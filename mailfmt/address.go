package mailfmt

import (
	"fmt"
	"net/mail"
	"strings"

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
// for a non-ASCII display name).
func (a Address) String() string {
	if a.Addr == "" {
		return ""
	}
	return (&mail.Address{Name: a.Name, Address: a.Addr}).String()
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
