package hookout

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"syscall"
	"time"
)

// ErrBlocked is returned (wrapped) when a hook's address is internal and not
// allowed by Options.Allow.
var ErrBlocked = errors.New("hookout: destination address not allowed")

// internalNets are the ranges refused besides what netip.Addr classifies as
// loopback, private, link-local, multicast or unspecified.
var internalNets = []netip.Prefix{
	netip.MustParsePrefix("0.0.0.0/8"),       // "this network"
	netip.MustParsePrefix("100.64.0.0/10"),   // carrier-grade NAT
	netip.MustParsePrefix("192.0.0.0/24"),    // IETF protocol assignments
	netip.MustParsePrefix("192.0.2.0/24"),    // documentation
	netip.MustParsePrefix("198.18.0.0/15"),   // benchmarking
	netip.MustParsePrefix("198.51.100.0/24"), // documentation
	netip.MustParsePrefix("203.0.113.0/24"),  // documentation
	netip.MustParsePrefix("240.0.0.0/4"),     // reserved, broadcast
	netip.MustParsePrefix("64:ff9b:1::/48"),  // local-use NAT64
	netip.MustParsePrefix("100::/64"),        // discard-only
	netip.MustParsePrefix("2001:db8::/32"),   // documentation
	netip.MustParsePrefix("fec0::/10"),       // deprecated site-local
	netip.MustParsePrefix("::ffff:0:0:0/96"), // IPv4-translated
}

var (
	nat64     = netip.MustParsePrefix("64:ff9b::/96") // well-known NAT64: IPv4 in the last 32 bits
	sixToFour = netip.MustParsePrefix("2002::/16")    // 6to4: IPv4 in bits 16-47
)

// Internal reports whether a is an address a hook must not reach by
// default: loopback, private (RFC 1918, ULA), link-local (including cloud
// metadata at 169.254.169.254), multicast, unspecified, CGNAT, reserved or
// documentation ranges. IPv4-mapped IPv6 addresses are judged as IPv4.
func Internal(a netip.Addr) bool {
	a = a.Unmap()
	if !a.IsValid() || a.IsLoopback() || a.IsPrivate() || a.IsLinkLocalUnicast() || a.IsLinkLocalMulticast() ||
		a.IsInterfaceLocalMulticast() || a.IsMulticast() || a.IsUnspecified() {
		return true
	}
	for _, p := range internalNets {
		if p.Contains(a) {
			return true
		}
	}
	// Addresses that embed an IPv4 address are judged by it.
	b := a.As16()
	switch {
	case nat64.Contains(a):
		return Internal(netip.AddrFrom4([4]byte(b[12:16])))
	case sixToFour.Contains(a):
		return Internal(netip.AddrFrom4([4]byte(b[2:6])))
	}
	return false
}

// guard decides which addresses may be dialled.
type guard struct{ allow []netip.Prefix }

func (g guard) check(a netip.Addr) error {
	a = a.Unmap()
	for _, p := range g.allow {
		if p.Contains(a) {
			return nil
		}
	}
	if Internal(a) {
		return fmt.Errorf("%w: %s is internal", ErrBlocked, a)
	}
	return nil
}

// control runs after name resolution, just before connect: checking here
// (not before resolving) also defeats DNS rebinding.
func (g guard) control(network, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return fmt.Errorf("%w: unparseable address %q", ErrBlocked, address)
	}
	return g.check(ap.Addr())
}

// dialer returns a dialer that refuses internal addresses.
func (g guard) dialer(timeout time.Duration) *net.Dialer {
	return &net.Dialer{Timeout: timeout, KeepAlive: 30 * time.Second, Control: g.control}
}

// dialContext is the dialer's DialContext.
func (g guard) dialContext(timeout time.Duration) func(ctx context.Context, network, addr string) (net.Conn, error) {
	return g.dialer(timeout).DialContext
}
