package mailmsg

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/emersion/go-msgauth/authres"
	"github.com/emersion/go-msgauth/dkim"
	"golang.org/x/net/publicsuffix"
)

// AuthResult is what the trusted Authentication-Results field says.
type AuthResult struct {
	// Found is true when a field with the authserv-id was found (and
	// parsed).
	Found bool
	// DKIMPass lists the signing domains (header.d) whose DKIM result is
	// pass, lower-cased, in field order.
	DKIMPass []string
	// SPF is the SPF result ("pass", "fail", "softfail", "neutral", "none",
	// ...), "" when absent; SPFDomain the domain of smtp.mailfrom.
	SPF       string
	SPFDomain string
	// DMARC is the DMARC result, "" when absent; DMARCFrom the header.from
	// domain it was evaluated for.
	DMARC     string
	DMARCFrom string
}

// DKIMAligned reports whether one of the passing DKIM domains aligns with
// fromDomain (see Aligned).
func (a AuthResult) DKIMAligned(fromDomain string, strict bool) bool {
	for _, d := range a.DKIMPass {
		if Aligned(fromDomain, d, strict) {
			return true
		}
	}
	return false
}

// AuthResults reads the Authentication-Results field added by the
// receiving server whose authserv-id is authservID (case-insensitive). Only
// the top-most field carrying that id is trusted: fields further down were
// added before the message reached that server, possibly by the sender
// itself. The receiving server must be configured to remove or rename
// incoming fields that claim its authserv-id (RFC 8601 section 5); most
// providers do. An unparseable trusted field is an error.
func AuthResults(m *Message, authservID string) (AuthResult, error) {
	var r AuthResult
	for _, v := range m.AuthenticationResults {
		id, results, err := authres.Parse(v)
		if err != nil {
			// The id is the first token before ';' (a version may follow).
			head := strings.Fields(strings.SplitN(v, ";", 2)[0])
			if len(head) == 0 || !strings.EqualFold(head[0], strings.TrimSpace(authservID)) {
				continue
			}
			return r, fmt.Errorf("mailfmt: authentication-results of %s: %w", authservID, err)
		}
		if !strings.EqualFold(strings.TrimSpace(id), strings.TrimSpace(authservID)) {
			continue
		}
		r.Found = true
		for _, res := range results {
			switch x := res.(type) {
			case *authres.DKIMResult:
				if x.Value == authres.ResultPass && x.Domain != "" {
					r.DKIMPass = append(r.DKIMPass, strings.ToLower(x.Domain))
				}
			case *authres.SPFResult:
				if r.SPF == "" {
					r.SPF = strings.ToLower(string(x.Value))
					_, r.SPFDomain = splitAddr(x.From)
					if r.SPFDomain == "" {
						r.SPFDomain = strings.ToLower(x.From)
					}
				}
			case *authres.DMARCResult:
				if r.DMARC == "" {
					r.DMARC = strings.ToLower(string(x.Value))
					r.DMARCFrom = strings.ToLower(x.From)
				}
			}
		}
		return r, nil
	}
	return r, nil
}

// DKIMResult is the verification of one DKIM signature.
type DKIMResult struct {
	// Domain is the signing domain (d=), lower-cased; Identifier the i= tag.
	Domain     string
	Identifier string
	// Pass is true for a valid signature.
	Pass bool
	// TempFail is true when the failure may go away (DNS trouble).
	TempFail bool
	// Err is why the signature failed (nil when Pass).
	Err error
}

// VerifyDKIM verifies the DKIM signatures of raw, which must be the exact
// bytes received, with go-msgauth (at most 5 signatures). lookupTXT
// resolves DNS TXT records; it is required (this package does no network
// I/O itself). For a failure that may go away it must return a net.Error
// whose Temporary method reports true (net.LookupTXT's *net.DNSError does);
// any other error makes the signature fail permanently. A message without
// signatures gives an empty result.
func VerifyDKIM(raw []byte, lookupTXT func(domain string) ([]string, error)) ([]DKIMResult, error) {
	if lookupTXT == nil {
		return nil, ErrNoLookup
	}
	verifs, err := dkim.VerifyWithOptions(bytes.NewReader(raw), &dkim.VerifyOptions{
		LookupTXT:        lookupTXT,
		MaxVerifications: 5,
	})
	if err != nil && err != dkim.ErrTooManySignatures {
		return nil, fmt.Errorf("mailfmt: dkim: %w", err)
	}
	out := make([]DKIMResult, 0, len(verifs))
	for _, v := range verifs {
		out = append(out, DKIMResult{
			Domain:     strings.ToLower(v.Domain),
			Identifier: v.Identifier,
			Pass:       v.Err == nil,
			TempFail:   v.Err != nil && dkim.IsTempFail(v.Err),
			Err:        v.Err,
		})
	}
	return out, nil
}

// DKIMAligned reports whether one of the passing signatures aligns with
// fromDomain (see Aligned).
func DKIMAligned(results []DKIMResult, fromDomain string, strict bool) bool {
	for _, r := range results {
		if r.Pass && Aligned(fromDomain, r.Domain, strict) {
			return true
		}
	}
	return false
}

// Aligned reports whether a signing (or SPF) domain aligns with the From
// domain in the DMARC sense (RFC 7489 section 3.1): strict alignment needs
// the same domain; relaxed alignment the same organizational domain, that
// is the same registrable domain under the public suffix list
// ("mail.example.co.uk" aligns with "example.co.uk", "a.github.io" does not
// align with "b.github.io"). Comparison ignores case and a trailing dot.
func Aligned(fromDomain, signingDomain string, strict bool) bool {
	f := strings.ToLower(strings.TrimSuffix(strings.TrimSpace(fromDomain), "."))
	s := strings.ToLower(strings.TrimSuffix(strings.TrimSpace(signingDomain), "."))
	if f == "" || s == "" {
		return false
	}
	if f == s {
		return true
	}
	if strict {
		return false
	}
	of, err1 := publicsuffix.EffectiveTLDPlusOne(f)
	os, err2 := publicsuffix.EffectiveTLDPlusOne(s)
	return err1 == nil && err2 == nil && of == os
}
