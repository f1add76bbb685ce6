package webhook

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"log/slog"
	"mime"
	"net/http"
	"net/mail"
	"strconv"
	"strings"
	"time"

	"github.com/pbem-referee/referee/referee/edge/hookout"
)

// raw serves POST /inbound: a raw message signed with the shared secret
// (the scheme of the referee's outgoing hooks, hookout.Verify).
func (s *Server) raw(w http.ResponseWriter, r *http.Request) {
	p := rawProvider
	if ct := r.Header.Get("Content-Type"); ct != "" {
		mt, _, err := mime.ParseMediaType(ct)
		if err != nil || (mt != "message/rfc822" && mt != "text/plain" && mt != "application/octet-stream") {
			s.fail(w, r, p, http.StatusUnsupportedMediaType, "send the message as message/rfc822")
			return
		}
	}
	if r.Header.Get(hookout.HeaderSignature) == "" || r.Header.Get(hookout.HeaderTimestamp) == "" {
		s.fail(w, r, p, p.unauthorized, "missing X-Referee-Timestamp or X-Referee-Signature")
		return
	}
	// What can be checked without the body is checked before reading it
	// (issue 11, item 8): the timestamp's freshness and the size.
	if sec, err := strconv.ParseInt(strings.TrimSpace(r.Header.Get(hookout.HeaderTimestamp)), 10, 64); err != nil {
		s.fail(w, r, p, p.unauthorized, "bad timestamp")
		return
	} else if d := s.o.Now().Sub(time.Unix(sec, 0)); d > s.o.MaxClockSkew || d < -s.o.MaxClockSkew {
		s.fail(w, r, p, p.unauthorized, "timestamp outside the allowed clock skew")
		return
	}
	// The signature covers the body: it is read under the
	// unauthenticated budgets, and the slot is taken only once it verifies
	// (issue 23).
	release, ok := s.unauthenticated(w, r, p)
	if !ok {
		return
	}
	defer release()
	body, ok := s.readBody(w, r, p, s.o.MaxBodySize)
	if !ok {
		return
	}
	if err := hookout.Verify(s.o.Secret, r.Header, body, s.o.Now(), s.o.MaxClockSkew); err != nil {
		reason := "bad signature"
		if errors.Is(err, hookout.ErrStale) {
			reason = "timestamp outside the allowed clock skew"
		}
		s.fail(w, r, p, p.unauthorized, reason)
		return
	}
	if len(body) == 0 {
		s.fail(w, r, p, p.malformed, "empty message")
		return
	}
	var keys []string
	if k := strings.TrimSpace(r.Header.Get("Idempotency-Key")); k != "" {
		if len(k) > 200 {
			s.fail(w, r, p, p.malformed, "Idempotency-Key longer than 200 characters")
			return
		}
		keys = append(keys, "raw:"+k)
	}
	release()
	s.deliver(w, r, p, body, keys)
}

// mailgun serves Mailgun's route posts.
func (s *Server) mailgun(w http.ResponseWriter, r *http.Request) {
	p := mailgunProvider
	// Mailgun's signature is in the form: read under the unauthenticated
	// budgets (issue 23).
	release, ok := s.unauthenticated(w, r, p)
	if !ok {
		return
	}
	defer release()
	body, ok := s.readBody(w, r, p, s.o.MaxBodySize)
	if !ok {
		return
	}
	f, err := parseForm(r.Header.Get("Content-Type"), body, "timestamp", "token", "signature", "parent-signature",
		"body-mime", "message-headers", "body-plain", "recipient", "message-url")
	if err != nil {
		s.fail(w, r, p, p.malformed, err.Error())
		return
	}
	if reason := s.mailgunVerify(f); reason != "" {
		s.fail(w, r, p, p.unauthorized, reason)
		return
	}
	token := f["token"]
	// The signature covers the timestamp and the token, not the message
	// (issue 23): with an API key and a stored message, the message is
	// fetched from Mailgun and the posted body never used; otherwise the
	// posted full MIME message is handed over as unbound (it must prove
	// its sender by DKIM). See mailgunstore.go.
	var raw []byte
	unbound := true
	if mu := f["message-url"]; mu != "" && s.o.MailgunAPIKey != "" {
		// Still under the read budgets: a replayed signature cannot
		// start more fetches at once than MaxPerClient.
		stored, err := s.fetchStored(r.Context(), mu)
		switch {
		case errors.Is(err, errStoredURL), errors.Is(err, errStoredGone):
			s.fail(w, r, p, p.permanent, err.Error())
			return
		case err != nil:
			s.log.Warn("webhook: fetching a stored Mailgun message failed", slog.Any("err", err))
			s.fail(w, r, p, http.StatusServiceUnavailable, "could not fetch the stored message; retry later")
			return
		}
		raw, unbound = stored, false
	} else {
		raw = []byte(f["body-mime"])
	}
	if len(raw) == 0 {
		s.fail(w, r, p, p.malformed, "no body-mime: route the message to a URL ending in \"mime\" (/inbound/mailgun/mime)")
		return
	}
	// The token is bound to the message's Message-ID and to a digest of
	// its bytes (issue 23): a forged body reusing the genuine Message-ID
	// is a replay too, not a retry.
	msgid := mailgunMessageID(raw) + " " + digest(raw)
	switch err := s.tokens.reserve(token, msgid); {
	case errors.Is(err, errReplay) && unbound:
		// An unbound message acts only when DKIM proves it (mailin.
		// Inbound.Unbound): whichever of the two posts is forged, it
		// acts for nobody, and the genuine one, signed, is applied
		// (issue 23). Handed over under its own key.
		raw = prependHeaders(raw, originalTo(strings.Split(f["recipient"], ",")))
		release()
		s.deliverInbound(w, r, p, raw, []string{"mailgun:" + token + "/" + digest(raw)}, true)
		return
	case errors.Is(err, errReplay):
		// Two messages fetched from Mailgun's storage under one token
		// (a captured signature pointed at another stored message):
		// both are genuine mail, but only Mailgun's retry may reuse a
		// token. Mailgun signs the timestamp and token, not the message: a
		// captured signature posted first with a forged body takes the
		// token. The later post may be the genuine mail, so it is not
		// lost: it is kept whole for the operator and its sender told
		// (issue 23). The answer stays 406: Mailgun must not retry.
		s.keep(context.WithoutCancel(r.Context()), p, raw, []string{"mailgun-replay:" + token + "/" + digest(raw)}, "replayed",
			"Mailgun token "+token+" came earlier with another message; one of the two is forged")
		s.fail(w, r, p, http.StatusNotAcceptable, "token already used for another message; this one is kept for the operator")
		return
	case err != nil:
		s.fail(w, r, p, http.StatusServiceUnavailable, err.Error())
		return
	}
	raw = prependHeaders(raw, originalTo(strings.Split(f["recipient"], ",")))
	release()
	s.deliverInbound(w, r, p, raw, []string{"mailgun:" + token}, unbound)
}

// mailgunMessageID returns the Message-ID of a MIME message ("" if none),
// reading only its header.
func mailgunMessageID(raw []byte) string {
	m, err := mail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		return ""
	}
	return strings.TrimSpace(m.Header.Get("Message-Id"))
}

// mailgunVerify checks Mailgun's signature: hex HMAC-SHA256 keyed with the
// signing key over timestamp + token, and the timestamp's freshness. It
// returns "" when the request is authentic.
func (s *Server) mailgunVerify(f map[string]string) string {
	ts, token := f["timestamp"], f["token"]
	if ts == "" || token == "" || (f["signature"] == "" && f["parent-signature"] == "") {
		return "missing timestamp, token or signature"
	}
	if len(token) > 256 {
		return "token too long"
	}
	m := hmac.New(sha256.New, []byte(s.o.MailgunSigningKey))
	m.Write([]byte(ts + token))
	want := m.Sum(nil)
	valid := false
	for _, field := range []string{"signature", "parent-signature"} {
		if got, err := hex.DecodeString(strings.TrimSpace(f[field])); err == nil && hmac.Equal(got, want) {
			valid = true
		}
	}
	if !valid {
		return "bad signature"
	}
	sec, err := strconv.ParseInt(strings.TrimSpace(ts), 10, 64)
	if err != nil {
		return "bad timestamp"
	}
	if d := s.o.Now().Sub(time.Unix(sec, 0)); d > s.o.MaxClockSkew || d < -s.o.MaxClockSkew {
		return "timestamp outside the allowed clock skew"
	}
	return ""
}

// sendgrid serves SendGrid Inbound Parse posts.
func (s *Server) sendgrid(w http.ResponseWriter, r *http.Request) {
	p := sendgridProvider
	if !basicAuth(r, s.o.SendGridUsername, s.o.SendGridPassword) {
		s.unauthorizedBasic(w, r, p)
		return
	}
	body, ok := s.readBody(w, r, p, s.o.MaxBodySize)
	if !ok {
		return
	}
	f, err := parseForm(r.Header.Get("Content-Type"), body, "email", "headers", "text", "html", "charsets", "envelope")
	if err != nil {
		s.fail(w, r, p, p.malformed, err.Error())
		return
	}
	raw := []byte(f["email"])
	if len(raw) == 0 {
		if f["headers"] == "" {
			s.fail(w, r, p, p.malformed, "neither email nor headers: enable \"POST the raw, full MIME message\"")
			return
		}
		var cs map[string]string
		_ = json.Unmarshal([]byte(f["charsets"]), &cs)
		if f["text"] != "" || f["html"] == "" {
			raw = buildMessage(parseHeaderBlock(f["headers"]), "text/plain", cs["text"], []byte(f["text"]))
		} else {
			raw = buildMessage(parseHeaderBlock(f["headers"]), "text/html", cs["html"], []byte(f["html"]))
		}
	}
	var env struct {
		To []string `json:"to"`
	}
	_ = json.Unmarshal([]byte(f["envelope"]), &env)
	s.deliver(w, r, p, prependHeaders(raw, originalTo(env.To)), nil)
}

// postmarkInbound is the part of Postmark's inbound JSON the referee reads.
type postmarkInbound struct {
	MessageID string
	RawEmail  string
	FromFull  struct {
		Email, Name string
	}
	From, To, Cc, ReplyTo, Subject, Date string
	OriginalRecipient                    string
	Headers                              []struct{ Name, Value string }
	TextBody, HtmlBody                   string
}

// postmark serves Postmark's inbound webhook.
func (s *Server) postmark(w http.ResponseWriter, r *http.Request) {
	p := postmarkProvider
	if !basicAuth(r, s.o.PostmarkUsername, s.o.PostmarkPassword) {
		s.unauthorizedBasic(w, r, p)
		return
	}
	body, ok := s.readBody(w, r, p, s.o.MaxBodySize)
	if !ok {
		return
	}
	var m postmarkInbound
	if err := json.Unmarshal(body, &m); err != nil {
		s.fail(w, r, p, p.malformed, "not Postmark inbound JSON")
		return
	}
	raw := []byte(m.RawEmail)
	if len(raw) == 0 {
		var err error
		if raw, err = postmarkRebuild(&m); err != nil {
			s.fail(w, r, p, p.malformed, err.Error())
			return
		}
	}
	var keys []string
	if id := strings.TrimSpace(m.MessageID); id != "" && len(id) <= 200 {
		keys = append(keys, "postmark:"+id)
	}
	s.deliver(w, r, p, prependHeaders(raw, originalTo([]string{m.OriginalRecipient})), keys)
}

// postmarkRebuild rebuilds a message from Postmark's fields. The original
// Message-ID comes from Headers (Postmark's MessageID is its own id).
func postmarkRebuild(m *postmarkInbound) ([]byte, error) {
	from := m.From
	if m.FromFull.Email != "" {
		from = (&mail.Address{Name: m.FromFull.Name, Address: m.FromFull.Email}).String()
	}
	if from == "" {
		return nil, errors.New("no sender (From, FromFull)")
	}
	hs := []header{{"From", from}}
	top := map[string]string{"To": m.To, "Cc": m.Cc, "Reply-To": m.ReplyTo, "Subject": m.Subject, "Date": m.Date}
	for _, n := range []string{"To", "Cc", "Reply-To", "Subject", "Date"} {
		if top[n] != "" {
			hs = append(hs, header{n, top[n]})
		}
	}
	for _, h := range m.Headers {
		n := strings.ToLower(strings.TrimSpace(h.Name))
		if n == "from" || n == "to" || n == "cc" || n == "reply-to" || n == "subject" || n == "date" {
			continue
		}
		hs = append(hs, header{h.Name, h.Value})
	}
	if m.TextBody == "" && m.HtmlBody != "" {
		return buildMessage(hs, "text/html", "utf-8", []byte(m.HtmlBody)), nil
	}
	return buildMessage(hs, "text/plain", "utf-8", []byte(m.TextBody)), nil
}

// digest is a short hex digest of a message.
func digest(raw []byte) string {
	d := sha256.Sum256(raw)
	return hex.EncodeToString(d[:12])
}
