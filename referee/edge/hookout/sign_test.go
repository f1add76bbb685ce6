package hookout

import (
	"errors"
	"net/http"
	"strconv"
	"testing"
	"time"
)

func TestSignKnownVector(t *testing.T) {
	// Computed independently with Python:
	// hmac.new(b'topsecret', b'1700000000.{"id":"g1-abc-1"}', hashlib.sha256).hexdigest()
	got := Sign("topsecret", "1700000000", []byte(`{"id":"g1-abc-1"}`))
	want := "sha256=001bb1987de87a13b92aec4ef0f9506509d08cab604b3f1fe7ddc248e92e9600"
	if got != want {
		t.Fatalf("Sign = %q, want %q", got, want)
	}
}

func TestVerify(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	body := []byte(`{"id":"g1-h1-3","game":"g1"}`)
	ts := strconv.FormatInt(now.Unix(), 10)
	good := Sign("s3cret", ts, body)
	hdr := func(ts, sig string) http.Header {
		h := http.Header{}
		if ts != "" {
			h.Set(HeaderTimestamp, ts)
		}
		if sig != "" {
			h.Set(HeaderSignature, sig)
		}
		return h
	}
	old := strconv.FormatInt(now.Add(-6*time.Minute).Unix(), 10)
	future := strconv.FormatInt(now.Add(6*time.Minute).Unix(), 10)
	cases := []struct {
		name   string
		secret string
		h      http.Header
		body   []byte
		want   error
	}{
		{"valid", "s3cret", hdr(ts, good), body, nil},
		{"valid among several (key rotation)", "s3cret", hdr(ts, "sha256=00ff, "+good), body, nil},
		{"valid 4 minutes old", "s3cret", hdr(strconv.FormatInt(now.Add(-4*time.Minute).Unix(), 10),
			Sign("s3cret", strconv.FormatInt(now.Add(-4*time.Minute).Unix(), 10), body)), body, nil},
		{"tampered body", "s3cret", hdr(ts, good), []byte(`{"id":"g1-h1-3","game":"g2"}`), ErrBadSignature},
		{"wrong secret", "other", hdr(ts, good), body, ErrBadSignature},
		{"empty secret", "", hdr(ts, good), body, ErrBadSignature},
		{"timestamp changed", "s3cret", hdr(strconv.FormatInt(now.Unix()-1, 10), good), body, ErrBadSignature},
		{"stale", "s3cret", hdr(old, Sign("s3cret", old, body)), body, ErrStale},
		{"from the future", "s3cret", hdr(future, Sign("s3cret", future, body)), body, ErrStale},
		{"no prefix", "s3cret", hdr(ts, good[len("sha256="):]), body, ErrBadSignature},
		{"not hex", "s3cret", hdr(ts, "sha256=zz"), body, ErrBadSignature},
		{"missing signature", "s3cret", hdr(ts, ""), body, ErrNoSignature},
		{"missing timestamp", "s3cret", hdr("", good), body, ErrNoSignature},
		{"bad timestamp", "s3cret", hdr("yesterday", good), body, ErrNoSignature},
	}
	for _, c := range cases {
		err := Verify(c.secret, c.h, c.body, now, 5*time.Minute)
		if !errors.Is(err, c.want) || (c.want == nil && err != nil) {
			t.Errorf("%s: Verify = %v, want %v", c.name, err, c.want)
		}
	}
}
