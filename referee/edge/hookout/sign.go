package hookout

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// The headers of a signed call.
const (
	HeaderID        = "X-Referee-Id"
	HeaderHook      = "X-Referee-Hook"
	HeaderAttempt   = "X-Referee-Attempt"
	HeaderTimestamp = "X-Referee-Timestamp"
	HeaderSignature = "X-Referee-Signature"
)

// DefaultMaxSkew is the age beyond which Verify rejects a timestamp when
// given no other limit.
const DefaultMaxSkew = 5 * time.Minute

// Verification errors.
var (
	// ErrNoSignature: the timestamp or signature header is missing.
	ErrNoSignature = errors.New("hookout: missing signature or timestamp")
	// ErrBadSignature: no signature matches the body.
	ErrBadSignature = errors.New("hookout: signature does not match")
	// ErrStale: the timestamp is further from now than the allowed skew.
	ErrStale = errors.New("hookout: timestamp outside the allowed clock skew")
)

// Sign returns the X-Referee-Signature value of body signed at timestamp
// (decimal Unix seconds): "sha256=" followed by the lower-case hex
// HMAC-SHA256 of timestamp + "." + body, keyed with secret.
func Sign(secret, timestamp string, body []byte) string {
	return "sha256=" + hex.EncodeToString(mac(secret, timestamp, body))
}

func mac(secret, timestamp string, body []byte) []byte {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write([]byte(timestamp))
	m.Write([]byte{'.'})
	m.Write(body)
	return m.Sum(nil)
}

// Verify checks a signed request: the X-Referee-Timestamp header must be
// within maxSkew of now (DefaultMaxSkew if maxSkew <= 0), and one of the
// comma-separated "sha256=<hex>" values of X-Referee-Signature must be the
// HMAC of timestamp + "." + body under secret (compared in constant time).
// body must be the raw bytes received, before any JSON decoding.
//
// The referee's webhook front door checks raw-message posts with the same
// scheme.
func Verify(secret string, h http.Header, body []byte, now time.Time, maxSkew time.Duration) error {
	ts, sigs := h.Get(HeaderTimestamp), h.Get(HeaderSignature)
	if ts == "" || sigs == "" {
		return ErrNoSignature
	}
	return VerifySignature(secret, ts, sigs, body, now, maxSkew)
}

// VerifySignature is Verify with the two header values given directly.
func VerifySignature(secret, timestamp, signature string, body []byte, now time.Time, maxSkew time.Duration) error {
	if secret == "" {
		return ErrBadSignature
	}
	if maxSkew <= 0 {
		maxSkew = DefaultMaxSkew
	}
	sec, err := strconv.ParseInt(strings.TrimSpace(timestamp), 10, 64)
	if err != nil {
		return ErrNoSignature
	}
	if d := now.Sub(time.Unix(sec, 0)); d > maxSkew || d < -maxSkew {
		return ErrStale
	}
	want := mac(secret, strings.TrimSpace(timestamp), body)
	for _, s := range strings.Split(signature, ",") {
		hexSig, ok := strings.CutPrefix(strings.TrimSpace(s), "sha256=")
		if !ok {
			continue
		}
		got, err := hex.DecodeString(hexSig)
		if err != nil {
			continue
		}
		if hmac.Equal(got, want) {
			return nil
		}
	}
	return ErrBadSignature
}
