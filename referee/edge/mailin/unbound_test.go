package mailin

import (
	"bytes"
	"crypto/ed25519"
	"encoding/base64"
	"errors"
	"strings"
	"testing"

	"github.com/emersion/go-msgauth/dkim"
	"github.com/pbem-referee/referee/referee"
)

// dkimSigner signs mails for domain with a key it publishes through its
// lookup.
type dkimSigner struct {
	domain string
	priv   ed25519.PrivateKey
	record string
}

func newDKIMSigner(t *testing.T, domain string) *dkimSigner {
	t.Helper()
	pub, priv, err := ed25519.GenerateKey(bytes.NewReader(bytes.Repeat([]byte{9}, 64)))
	if err != nil {
		t.Fatal(err)
	}
	return &dkimSigner{domain: domain, priv: priv, record: "v=DKIM1; k=ed25519; p=" + base64.StdEncoding.EncodeToString(pub)}
}

func (s *dkimSigner) lookup(name string) ([]string, error) {
	if name == "sel._domainkey."+s.domain {
		return []string{s.record}, nil
	}
	return nil, errors.New("no such record: " + name)
}

func (s *dkimSigner) sign(t *testing.T, raw []byte) []byte {
	t.Helper()
	var out bytes.Buffer
	if err := dkim.Sign(&out, bytes.NewReader(raw), &dkim.SignOptions{Domain: s.domain, Selector: "sel", Signer: s.priv,
		HeaderKeys: []string{"From", "To", "Subject", "Date", "Message-ID"}}); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// Issue 23, a captured Mailgun signature: bytes that no transport vouches
// for (Inbound.Unbound) act for a seat only with a DKIM signature verified
// here and aligned with the From domain. Every other proof a forger can
// write into the body (our own authserv-id's Authentication-Results, a
// DMARC pass, a signature by another domain) is refused, under every
// policy; and an untagged REGISTER is answered only with the DKIM proof.
func TestUnboundMailNeedsItsOwnDKIM(t *testing.T) {
	signer := newDKIMSigner(t, "example.test")
	other := newDKIMSigner(t, "evil.example")
	for _, pol := range []AuthPolicy{
		{},
		{AuthservID: "mx.example.test"},
		{RequireDKIM: true, AuthservID: "mx.example.test"},
		{DMARCDomains: true},
	} {
		h := newMailHarness(t, func(o *referee.Options) { o.RegisterNeedsAuth = true })
		if _, err := h.r.Organise(org, "NEW claim id=c1\nPLAYER ann@example.test Ann\nPLAYER bob@example.test Bob"); err != nil {
			t.Fatal(err)
		}
		in := h.inbox()
		pol.LookupTXT = func(name string) ([]string, error) {
			if strings.HasSuffix(name, "evil.example") {
				return other.lookup(name)
			}
			return signer.lookup(name)
		}
		h.in = New(h.r, Options{Auth: pol})
		send := func(raw []byte) referee.Outcome {
			t.Helper()
			out, err := h.in.HandleMail(t.Context(), Inbound{Raw: raw, Source: "webhook:mailgun", Received: h.clock.Now(), Unbound: true})
			if err != nil {
				t.Fatal(err)
			}
			return out
		}
		forgeries := map[string][]byte{
			"unsigned": h.reply(in[ann][0], ann, "JOIN"),
			"our authserv-id's pass": append([]byte("Authentication-Results: mx.example.test; dkim=pass header.d=example.test header.s=s1\r\n"),
				h.reply(in[ann][0], ann, "JOIN")...),
			"a DMARC pass": append([]byte("Authentication-Results: mx.example.test; dkim=fail; dmarc=pass header.from=example.test\r\n"),
				h.reply(in[ann][0], ann, "JOIN")...),
			"another domain's signature": other.sign(t, h.reply(in[ann][0], ann, "JOIN")),
			"a signature, then the body changed": bytes.Replace(signer.sign(t, h.reply(in[ann][0], ann, "JOIN")),
				[]byte("\r\nJOIN"), []byte("\r\nJOIN\r\nJOIN"), 1),
		}
		for name, raw := range forgeries {
			if out := send(raw); out.Status == referee.OutcomeAnswered || out.Status == referee.OutcomeApplied {
				t.Errorf("policy %+v: %s made an unbound JOIN count: %+v", pol, name, out)
			}
		}
		if out := send(signer.sign(t, h.reply(in[ann][0], ann, "JOIN"))); out.Status != referee.OutcomeAnswered {
			t.Errorf("policy %+v: a DKIM-signed unbound JOIN: %+v", pol, out)
		}
		// Untagged: REGISTER is answered only with the DKIM proof.
		h.inbox()
		ar := "Authentication-Results: mx.example.test; dkim=pass header.d=example.org header.s=s1\r\n"
		send(registerMail(900, "Pat <pat@example.test>", "REGISTER", ar))
		if got := len(h.inbox()["pat@example.test"]); got != 0 {
			t.Errorf("policy %+v: an unbound REGISTER with a written pass got %d mails", pol, got)
		}
		send(signer.sign(t, registerMail(901, "Pat <pat@example.test>", "REGISTER", "")))
		if got := len(h.inbox()["pat@example.test"]); got != 1 {
			t.Errorf("policy %+v: a DKIM-signed unbound REGISTER got %d mails, want 1", pol, got)
		}
	}
}
