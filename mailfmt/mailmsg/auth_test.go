package mailmsg

import (
	"bytes"
	"crypto/ed25519"
	"encoding/base64"
	"errors"
	"net"
	"strings"
	"testing"

	"github.com/emersion/go-msgauth/dkim"
)

// signed returns a message signed by a key generated here for
// sel._domainkey.<domain>, and the fake TXT lookup that publishes it.
func signed(t *testing.T, domain string, msg string) ([]byte, func(string) ([]string, error)) {
	t.Helper()
	pub, priv, err := ed25519.GenerateKey(bytes.NewReader(bytes.Repeat([]byte{7}, 64)))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	err = dkim.Sign(&out, strings.NewReader(strings.ReplaceAll(msg, "\n", "\r\n")), &dkim.SignOptions{
		Domain: domain, Selector: "sel", Signer: priv,
		HeaderCanonicalization: dkim.CanonicalizationRelaxed, BodyCanonicalization: dkim.CanonicalizationRelaxed,
		HeaderKeys: []string{"From", "To", "Subject", "Date", "Message-ID"},
	})
	if err != nil {
		t.Fatal(err)
	}
	record := "v=DKIM1; k=ed25519; p=" + base64.StdEncoding.EncodeToString(pub)
	lookup := func(name string) ([]string, error) {
		if name == "sel._domainkey."+domain {
			return []string{record}, nil
		}
		return nil, errors.New("no such record: " + name)
	}
	return out.Bytes(), lookup
}

const dkimMsg = `From: Anna Rossi <anna@mail.rossi.example>
To: referee+g42.1.abcdefghijkl.57@example.test
Subject: Re: [g42 #57] Dice Brewing
Date: Tue, 12 May 2026 10:20:03 +0200
Message-ID: <dkim-1@mail.rossi.example>

PLACE MH1 SEED, MH1+ B3
`

func TestVerifyDKIM(t *testing.T) {
	raw, lookup := signed(t, "rossi.example", dkimMsg)
	res, err := VerifyDKIM(raw, lookup)
	if err != nil || len(res) != 1 || !res[0].Pass || res[0].Domain != "rossi.example" {
		t.Fatalf("VerifyDKIM = %+v, %v", res, err)
	}
	m, err := Parse(raw, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !DKIMAligned(res, m.From.Domain(), false) {
		t.Error("relaxed alignment of mail.rossi.example with rossi.example failed")
	}
	if DKIMAligned(res, m.From.Domain(), true) {
		t.Error("strict alignment of mail.rossi.example with rossi.example must fail")
	}

	// A changed body breaks the signature.
	tampered := bytes.Replace(raw, []byte("PLACE MH1 SEED"), []byte("PLACE MH2 SEED"), 1)
	res, err = VerifyDKIM(tampered, lookup)
	if err != nil || len(res) != 1 || res[0].Pass || res[0].Err == nil {
		t.Errorf("tampered body verified: %+v, %v", res, err)
	}
	if DKIMAligned(res, "rossi.example", false) {
		t.Error("a failed signature must not align")
	}

	// A temporary DNS failure (a net.Error that says so) is a temporary
	// failure; any other lookup error is permanent.
	res, err = VerifyDKIM(raw, func(name string) ([]string, error) {
		return nil, &net.DNSError{Err: "i/o timeout", Name: name, IsTimeout: true, IsTemporary: true}
	})
	if err != nil || len(res) != 1 || res[0].Pass || !res[0].TempFail {
		t.Errorf("temporary lookup failure: %+v, %v", res, err)
	}
	res, err = VerifyDKIM(raw, func(string) ([]string, error) { return nil, errors.New("NXDOMAIN") })
	if err != nil || len(res) != 1 || res[0].Pass || res[0].TempFail {
		t.Errorf("permanent lookup failure: %+v, %v", res, err)
	}

	// No signature: no results, no error.
	res, err = VerifyDKIM([]byte(strings.ReplaceAll(dkimMsg, "\n", "\r\n")), lookup)
	if err != nil || len(res) != 0 {
		t.Errorf("unsigned: %+v, %v", res, err)
	}
	if _, err := VerifyDKIM(raw, nil); !errors.Is(err, ErrNoLookup) {
		t.Errorf("nil lookup: %v", err)
	}
}

func TestAuthResults(t *testing.T) {
	m := mustParse(t, `Authentication-Results: mx.example.test;
	dkim=pass header.d=rossi.example header.s=sel;
	dkim=fail header.d=evil.example;
	spf=pass smtp.mailfrom=anna@rossi.example;
	dmarc=pass header.from=rossi.example
Authentication-Results: other.example; dkim=pass header.d=evil.example
Authentication-Results: mx.example.test; dkim=pass header.d=forged.example; dmarc=pass header.from=forged.example
From: Anna <anna@rossi.example>

x
`)
	r, err := AuthResults(m, "MX.example.test")
	if err != nil {
		t.Fatal(err)
	}
	if !r.Found || len(r.DKIMPass) != 1 || r.DKIMPass[0] != "rossi.example" {
		t.Errorf("DKIM = %+v", r)
	}
	if r.SPF != "pass" || r.SPFDomain != "rossi.example" || r.DMARC != "pass" || r.DMARCFrom != "rossi.example" {
		t.Errorf("SPF/DMARC = %+v", r)
	}
	if !r.DKIMAligned("rossi.example", true) || r.DKIMAligned("forged.example", false) {
		t.Errorf("alignment from the trusted field only: %+v", r)
	}
	// Another server's id: nothing trusted.
	if r, err := AuthResults(m, "mx.elsewhere.test"); err != nil || r.Found {
		t.Errorf("unknown authserv-id: %+v, %v", r, err)
	}
	// A trusted field that does not parse is an error.
	bad := mustParse(t, "Authentication-Results: mx.example.test; dkim\nFrom: a@b.example\n\nx\n")
	if _, err := AuthResults(bad, "mx.example.test"); err == nil {
		t.Error("unparseable trusted field accepted")
	}
}

func TestAligned(t *testing.T) {
	tests := []struct {
		from, sig string
		strict    bool
		want      bool
	}{
		{"example.org", "example.org", true, true},
		{"Example.ORG.", "example.org", true, true},
		{"mail.example.org", "example.org", true, false},
		{"mail.example.org", "example.org", false, true},
		{"a.example.org", "b.example.org", false, true},
		{"example.co.uk", "mail.example.co.uk", false, true},
		{"example.co.uk", "other.co.uk", false, false},
		{"co.uk", "co.uk", false, true},
		{"example.org", "example.net", false, false},
		{"alice.github.io", "bob.github.io", false, false},
		{"", "example.org", false, false},
		{"example.org", "", false, false},
	}
	for _, tt := range tests {
		if got := Aligned(tt.from, tt.sig, tt.strict); got != tt.want {
			t.Errorf("Aligned(%q, %q, %v) = %v, want %v", tt.from, tt.sig, tt.strict, got, tt.want)
		}
	}
}
