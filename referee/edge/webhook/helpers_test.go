package webhook

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/pbem-referee/referee/referee"
	"github.com/pbem-referee/referee/referee/edge/hookout"
	"github.com/pbem-referee/referee/referee/edge/mailin"
)

// fakeHandler records the messages handed to the referee.
type fakeHandler struct {
	mu    sync.Mutex
	calls []mailin.Inbound
	out   referee.Outcome
	err   error
}

func (f *fakeHandler) HandleMail(_ context.Context, in mailin.Inbound) (referee.Outcome, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls = append(f.calls, in)
	if f.err != nil {
		return referee.Outcome{}, f.err
	}
	return f.out, nil
}

func (f *fakeHandler) n() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.calls)
}

func (f *fakeHandler) last(t *testing.T) mailin.Inbound {
	t.Helper()
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.calls) == 0 {
		t.Fatal("the handler was not called")
	}
	return f.calls[len(f.calls)-1]
}

func (f *fakeHandler) set(out referee.Outcome, err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.out, f.err = out, err
}

const (
	rawSecret  = "raw-secret-0123456789"
	mgKey      = "key-mailgun-signing-0123"
	sgUser     = "sendgrid"
	sgPass     = "sg-pass-0123456789"
	pmUser     = "postmark"
	pmPass     = "pm-pass-0123456789"
	sampleMail = "From: Ann <ann@example.test>\r\nTo: referee+g1.0.abcdefghijklmnop@example.test\r\nSubject: Re: [g1.0.7] your move\r\n" +
		"Message-ID: <m1@players.test>\r\nDate: Mon, 23 Nov 2026 10:00:00 +0000\r\n\r\nROLL\r\n"
)

// testServer is a Server on a mux with every inbound endpoint and a fixed
// clock.
type testServer struct {
	t   *testing.T
	h   *fakeHandler
	s   *Server
	mux *http.ServeMux
	now time.Time
}

func newTestServer(t *testing.T, mod func(*Options)) *testServer {
	t.Helper()
	ts := &testServer{t: t, h: &fakeHandler{out: referee.Outcome{Status: "applied", Game: "g1", Seat: 0}},
		now: time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)}
	o := Options{Handler: ts.h, Now: func() time.Time { return ts.now }, Secret: rawSecret, MailgunSigningKey: mgKey,
		SendGridUsername: sgUser, SendGridPassword: sgPass, PostmarkUsername: pmUser, PostmarkPassword: pmPass}
	if mod != nil {
		mod(&o)
	}
	s, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	ts.s, ts.mux = s, http.NewServeMux()
	s.Register(ts.mux)
	return ts
}

// do serves one request and returns the recorder.
func (ts *testServer) do(method, target, contentType string, body []byte, hdr http.Header) *httptest.ResponseRecorder {
	req := httptest.NewRequest(method, target, bytes.NewReader(body))
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	for k, vs := range hdr {
		req.Header[k] = vs
	}
	rec := httptest.NewRecorder()
	ts.mux.ServeHTTP(rec, req)
	return rec
}

// signed returns the headers of a raw post signed at t.
func signed(secret string, t time.Time, body []byte) http.Header {
	ts := strconv.FormatInt(t.Unix(), 10)
	return http.Header{hookout.HeaderTimestamp: {ts}, hookout.HeaderSignature: {hookout.Sign(secret, ts, body)}}
}

// mgSign returns Mailgun's signature fields.
func mgSign(key string, t time.Time, token string) map[string]string {
	ts := strconv.FormatInt(t.Unix(), 10)
	m := hmac.New(sha256.New, []byte(key))
	m.Write([]byte(ts + token))
	return map[string]string{"timestamp": ts, "token": token, "signature": hex.EncodeToString(m.Sum(nil))}
}

func urlencoded(fields map[string]string) []byte {
	v := url.Values{}
	for k, f := range fields {
		v.Set(k, f)
	}
	return []byte(v.Encode())
}

// multipartForm builds a multipart/form-data body; fields named in files
// are sent as file parts.
func multipartForm(t *testing.T, fields map[string]string, files ...string) (string, []byte) {
	t.Helper()
	var b bytes.Buffer
	mw := multipart.NewWriter(&b)
	isFile := map[string]bool{}
	for _, f := range files {
		isFile[f] = true
	}
	for k, v := range fields {
		var w io.Writer
		var err error
		if isFile[k] {
			w, err = mw.CreateFormFile(k, k+".eml")
		} else {
			w, err = mw.CreateFormField(k)
		}
		if err != nil {
			t.Fatal(err)
		}
		io.WriteString(w, v)
	}
	// An attachment the front door must skip.
	w, _ := mw.CreateFormFile("attachment-1", "big.bin")
	w.Write(bytes.Repeat([]byte{0}, 1000))
	mw.Close()
	return mw.FormDataContentType(), b.Bytes()
}

func decode[T any](t *testing.T, rec *httptest.ResponseRecorder) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(rec.Body.Bytes(), &v); err != nil {
		t.Fatalf("answer %d is not JSON: %q", rec.Code, rec.Body.String())
	}
	return v
}

func basic(user, pass string) http.Header {
	r := httptest.NewRequest("POST", "/", nil)
	r.SetBasicAuth(user, pass)
	return http.Header{"Authorization": r.Header["Authorization"]}
}

func httptestDo(h http.Handler, method, target string) int {
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(method, target, nil))
	return rec.Code
}
