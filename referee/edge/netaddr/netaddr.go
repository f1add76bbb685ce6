// Package netaddr holds the checks every transport makes on the address of a
// mail server: that it is "host:port", and whether it is on this machine (the
// only place a connection in clear text is allowed without AllowInsecure).
//
// It owns the syntax check of a server address and the rule of what
// counts as this machine (localhost, 127.0.0.0/8, ::1). It must not resolve
// names, dial, or decide a transport's policy: each transport (smtpout,
// imapin, the wiring) asks it and decides.
package netaddr

import (
	"fmt"
	"net"
	"strconv"
)

// SplitServer parses a server address "host:port": the host must not be
// empty and the port must be 1..65535.
func SplitServer(addr string) (host string, port int, err error) {
	host, p, err := net.SplitHostPort(addr)
	if err != nil || host == "" {
		return "", 0, fmt.Errorf("%q is not host:port", addr)
	}
	port, err = strconv.Atoi(p)
	if err != nil || port <= 0 || port > 65535 {
		return host, 0, fmt.Errorf("%q has a bad port", addr)
	}
	return host, port, nil
}

// IsLoopback reports whether host (a name or an IP literal) is a loopback
// address: "localhost", 127.0.0.0/8 or ::1.
func IsLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
