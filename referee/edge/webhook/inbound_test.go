package webhook

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pbem-referee/referee/mailfmt/mailmsg"
	"github.com/pbem-referee/referee/referee"
	"github.com/pbem-referee/referee/store"
)

func TestRawAccepted(t *testing.T) {
	ts := newTestServer(t, nil)
	body := []byte(sampleMail)
	hdr := signed(rawSecret, ts.now.Add(-time.Minute), body)
	hdr.Set("Idempotency-Key", "relay-42")
	rec := ts.do("POST", "/inbound", "message/rfc822", body, hdr)
	if rec.Code != 200 {
		t.Fatalf("status %d: %s", rec.Code, rec.Body)
	}
	out := decode[referee.Outcome](t, rec)
	if out.Status != "applied" || out.Game != "g1" {
		t.Errorf("answer %+v", out)
	}
	in := ts.h.last(t)
	if !bytes.Equal(in.Raw, body) || in.Source != "webhook:raw" || len(in.Keys) != 1 || in.Keys[0] != "raw:relay-42" ||
		!in.Received.Equal(ts.now) {
		t.Errorf("handed over %+v", in)
	}
	// No content type at all is fine too.
	if rec := ts.do("POST", "/inbound", "", body, signed(rawSecret, ts.now, body)); rec.Code != 200 {
		t.Errorf("without content type: %d", rec.Code)
	}
}

func TestRawRefused(t *testing.T) {
	ts := newTestServer(t, func(o *Options) { o.MaxBodySize = 2048 })
	body := []byte(sampleMail)
	tampered := bytes.Replace(body, []byte("ROLL"), []byte("HOLD"), 1)
	big := append(bytes.Repeat([]byte("X-Padding: 0123456789\r\n"), 100), body...)
	cases := []struct {
		name   string
		method string
		ct     string
		body   []byte
		hdr    http.Header
		code   int
	}{
		{"no signature", "POST", "message/rfc822", body, nil, 401},
		{"wrong secret", "POST", "message/rfc822", body, signed("guess", ts.now, body), 401},
		{"tampered body", "POST", "message/rfc822", tampered, signed(rawSecret, ts.now, body), 401},
		{"stale timestamp", "POST", "message/rfc822", body, signed(rawSecret, ts.now.Add(-6*time.Minute), body), 401},
		{"future timestamp", "POST", "message/rfc822", body, signed(rawSecret, ts.now.Add(6*time.Minute), body), 401},
		{"too large", "POST", "message/rfc822", big, signed(rawSecret, ts.now, big), 413},
		{"wrong content type", "POST", "application/json", body, signed(rawSecret, ts.now, body), 415},
		{"wrong method", "GET", "", nil, nil, 405},
		{"PUT", "PUT", "message/rfc822", body, signed(rawSecret, ts.now, body), 405},
		{"empty", "POST", "message/rfc822", nil, signed(rawSecret, ts.now, nil), 400},
	}
	for _, c := range cases {
		rec := ts.do(c.method, "/inbound", c.ct, c.body, c.hdr)
		if rec.Code != c.code {
			t.Errorf("%s: status %d, want %d (%s)", c.name, rec.Code, c.code, rec.Body)
		}
		if c.code == 401 && strings.Contains(rec.Body.String(), rawSecret) {
			t.Errorf("%s: the answer repeats the secret", c.name)
		}
	}
	if n := ts.h.n(); n != 0 {
		t.Errorf("the handler was called %d times for refused requests", n)
	}
}

// The handler's verdict decides the answer: permanent means "do not
// retry", anything else "retry later".
func TestRawHandlerErrors(t *testing.T) {
	ts := newTestServer(t, nil)
	body := []byte(sampleMail)
	ts.h.set(referee.Outcome{}, referee.Permanent("unparseable message: no header"))
	if rec := ts.do("POST", "/inbound", "message/rfc822", body, signed(rawSecret, ts.now, body)); rec.Code != 422 {
		t.Errorf("permanent: %d", rec.Code)
	}
	ts.h.set(referee.Outcome{}, errors.New("store: disk full"))
	rec := ts.do("POST", "/inbound", "message/rfc822", body, signed(rawSecret, ts.now, body))
	if rec.Code != 503 || rec.Header().Get("Retry-After") == "" {
		t.Errorf("transient: %d, Retry-After %q", rec.Code, rec.Header().Get("Retry-After"))
	}
	if strings.Contains(rec.Body.String(), "disk full") {
		t.Errorf("the internal error leaks: %s", rec.Body)
	}
}

func TestMailgunRawMIME(t *testing.T) {
	ts := newTestServer(t, nil)
	tok := strings.Repeat("a", 50)
	f := mgSign(mgKey, ts.now.Add(-30*time.Second), tok)
	f["body-mime"] = sampleMail
	f["recipient"] = "referee+g1.0.abcdefghijklmnop@example.test"
	for _, path := range []string{"/inbound/mailgun/mime"} {
		rec := ts.do("POST", path, "application/x-www-form-urlencoded", urlencoded(f), nil)
		if rec.Code != 200 {
			t.Fatalf("%s: %d %s", path, rec.Code, rec.Body)
		}
	}
	in := ts.h.last(t)
	want := "X-Original-To: referee+g1.0.abcdefghijklmnop@example.test\r\n" + sampleMail
	if string(in.Raw) != want || in.Source != "webhook:mailgun" || len(in.Keys) != 1 || in.Keys[0] != "mailgun:"+tok {
		t.Errorf("handed over %q %s %v", in.Raw, in.Source, in.Keys)
	}
	// Multipart, with the message as a file part and an attachment.
	f = mgSign(mgKey, ts.now, strings.Repeat("b", 50))
	f["body-mime"] = sampleMail
	ct, body := multipartForm(t, f, "body-mime")
	if rec := ts.do("POST", "/inbound/mailgun", ct, body, nil); rec.Code != 200 {
		t.Fatalf("multipart: %d %s", rec.Code, rec.Body)
	}
	if in := ts.h.last(t); string(in.Raw) != sampleMail {
		t.Errorf("multipart handed over %q", in.Raw)
	}
	// A subaccount's parent signature.
	f = mgSign(mgKey, ts.now, strings.Repeat("c", 50))
	f["parent-signature"], f["signature"] = f["signature"], strings.Repeat("0", 64)
	f["body-mime"] = sampleMail
	if rec := ts.do("POST", "/inbound/mailgun/mime", "application/x-www-form-urlencoded", urlencoded(f), nil); rec.Code != 200 {
		t.Errorf("parent-signature: %d %s", rec.Code, rec.Body)
	}
}

// Mailgun's parsed post (no body-mime) is refused: the signature does not
// cover the message, so only the full MIME message, whose Message-ID binds
// the token, is accepted (issue 11, item 8).
func TestMailgunParsedRefused(t *testing.T) {
	ts := newTestServer(t, nil)
	f := mgSign(mgKey, ts.now, strings.Repeat("d", 50))
	hdrs, _ := json.Marshal([][]string{{"From", "Zoë <zoe@example.test>"}, {"Message-Id", "<zoe-1@example.test>"}})
	f["message-headers"] = string(hdrs)
	f["body-plain"] = "BID 3\r\n"
	rec := ts.do("POST", "/inbound/mailgun", "application/x-www-form-urlencoded", urlencoded(f), nil)
	if rec.Code != 406 || !strings.Contains(rec.Body.String(), "body-mime") {
		t.Fatalf("%d %s", rec.Code, rec.Body)
	}
	if n := ts.h.n(); n != 0 {
		t.Errorf("handler called %d times", n)
	}
}

func TestMailgunRefused(t *testing.T) {
	ts := newTestServer(t, func(o *Options) { o.MaxBodySize = 4096 })
	form := func(key string, at time.Time, tok string) []byte {
		f := mgSign(key, at, tok)
		f["body-mime"] = sampleMail
		return urlencoded(f)
	}
	const ct = "application/x-www-form-urlencoded"
	bad := mgSign(mgKey, ts.now, strings.Repeat("e", 50))
	bad["timestamp"] = bad["timestamp"][:len(bad["timestamp"])-1] + "9" // signed another time
	bad["body-mime"] = sampleMail
	noSig := mgSign(mgKey, ts.now, strings.Repeat("f", 50))
	delete(noSig, "signature")
	noSig["body-mime"] = sampleMail
	bigForm := mgSign(mgKey, ts.now, strings.Repeat("g", 50))
	bigForm["body-mime"] = strings.Repeat("x", 5000)
	neither := mgSign(mgKey, ts.now, strings.Repeat("h", 50))
	cases := []struct {
		name string
		ct   string
		body []byte
		code int
	}{
		{"wrong key", ct, form("key-wrong", ts.now, strings.Repeat("1", 50)), 401},
		{"altered timestamp", ct, urlencoded(bad), 401},
		{"no signature", ct, urlencoded(noSig), 401},
		{"stale", ct, form(mgKey, ts.now.Add(-10*time.Minute), strings.Repeat("2", 50)), 401},
		{"not a form", "application/json", []byte(`{"token":"x"}`), 406},
		{"too large", ct, urlencoded(bigForm), 406},
		{"no message", ct, urlencoded(neither), 406},
	}
	for _, c := range cases {
		if rec := ts.do("POST", "/inbound/mailgun/mime", c.ct, c.body, nil); rec.Code != c.code {
			t.Errorf("%s: %d, want %d (%s)", c.name, rec.Code, c.code, rec.Body)
		}
	}
	if rec := ts.do("GET", "/inbound/mailgun", "", nil, nil); rec.Code != 405 {
		t.Errorf("GET: %d", rec.Code)
	}
	if n := ts.h.n(); n != 0 {
		t.Errorf("handler called %d times", n)
	}
}

// A token is accepted once; after a transient failure the same token may
// come back (the provider's retry), after a final answer it may not.
func TestMailgunReplay(t *testing.T) {
	ts := newTestServer(t, nil)
	f := mgSign(mgKey, ts.now, strings.Repeat("r", 50))
	f["body-mime"] = sampleMail
	body := urlencoded(f)
	const ct = "application/x-www-form-urlencoded"
	ts.h.set(referee.Outcome{}, errors.New("store busy"))
	if rec := ts.do("POST", "/inbound/mailgun/mime", ct, body, nil); rec.Code != 503 {
		t.Fatalf("transient: %d", rec.Code)
	}
	ts.h.set(referee.Outcome{Status: "applied"}, nil)
	if rec := ts.do("POST", "/inbound/mailgun/mime", ct, body, nil); rec.Code != 200 {
		t.Fatalf("retry after a transient failure: %d %s", rec.Code, rec.Body)
	}
	// The same token with the same message is Mailgun's retry: handed
	// over again (the referee answers it as a duplicate), 200.
	if rec := ts.do("POST", "/inbound/mailgun/mime", ct, body, nil); rec.Code != 200 {
		t.Fatalf("retry of a handled post: %d %s", rec.Code, rec.Body)
	}
	// The same token with another message is a replay (the signature does
	// not cover the message): handed over under its own key, unbound,
	// so that only a DKIM proof lets it act (issue 23).
	f["body-mime"] = strings.Replace(sampleMail, "<m1@players.test>", "<forged@players.test>", 1)
	if rec := ts.do("POST", "/inbound/mailgun/mime", ct, urlencoded(f), nil); rec.Code != 200 {
		t.Fatalf("replay with another message: %d %s", rec.Code, rec.Body)
	}
	if in := ts.h.last(t); !in.Unbound || len(in.Keys) != 1 || !strings.HasPrefix(in.Keys[0], "mailgun:"+strings.Repeat("r", 50)+"/") {
		t.Errorf("the replay was handed over as %v %v", in.Unbound, in.Keys)
	}
	if n := ts.h.n(); n != 4 {
		t.Errorf("handler called %d times, want 4", n)
	}
	// Permanent failures keep the token too, and answer 406.
	f = mgSign(mgKey, ts.now, strings.Repeat("p", 50))
	f["body-mime"] = "garbage"
	ts.h.set(referee.Outcome{}, referee.Permanent("unparseable message"))
	if rec := ts.do("POST", "/inbound/mailgun/mime", ct, urlencoded(f), nil); rec.Code != 406 {
		t.Errorf("permanent: %d", rec.Code)
	}
	// Tokens expire with the timestamp window.
	c := newTokenCache(time.Minute, func() time.Time { return ts.now }, nil)
	if c.reserve("t", "<a@x>") != nil || c.reserve("t", "<b@x>") == nil || c.reserve("t", "<a@x>") != nil {
		t.Fatal("reserve")
	}
	ts.now = ts.now.Add(2 * time.Minute)
	if err := c.reserve("t", "<b@x>"); err != nil {
		t.Errorf("expired token still refused: %v", err)
	}
}

// With the referee's store, Mailgun tokens survive a restart of the server.
func TestMailgunTokensSurviveRestart(t *testing.T) {
	db, err := store.Open(filepath.Join(t.TempDir(), "s.db"), &store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ref, err := referee.New(referee.Options{DB: db, Domain: "example.test", Compose: referee.Composer(mailmsg.Address{Addr: "referee@example.test"})})
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	if err := newTokenCache(10*time.Minute, clock, ref).reserve("t", "<a@x>"); err != nil {
		t.Fatal(err)
	}
	c := newTokenCache(10*time.Minute, clock, ref) // after a restart
	if err := c.reserve("t", "<b@x>"); !errors.Is(err, errReplay) {
		t.Errorf("replay after a restart: %v", err)
	}
	if err := c.reserve("t", "<a@x>"); err != nil {
		t.Errorf("retry after a restart: %v", err)
	}
}

func TestSendGrid(t *testing.T) {
	ts := newTestServer(t, nil)
	ct, body := multipartForm(t, map[string]string{"email": sampleMail, "envelope": `{"to":["referee+g1.0.abcdefghijklmnop@example.test"],"from":"ann@example.test"}`,
		"headers": "ignored when email is there", "spam_score": "0.1"})
	rec := ts.do("POST", "/inbound/sendgrid", ct, body, basic(sgUser, sgPass))
	if rec.Code != 200 {
		t.Fatalf("%d %s", rec.Code, rec.Body)
	}
	in := ts.h.last(t)
	if string(in.Raw) != "X-Original-To: referee+g1.0.abcdefghijklmnop@example.test\r\n"+sampleMail || in.Source != "webhook:sendgrid" {
		t.Errorf("handed over %q from %s", in.Raw, in.Source)
	}
	// The parsed form: headers and text, in the declared charset.
	ct, body = multipartForm(t, map[string]string{
		"headers":  "From: Ann <ann@example.test>\nTo: referee+g1.0.abcdefghijklmnop@example.test\nSubject: Re: move\n  continued\nMessage-ID: <sg-1@example.test>\nContent-Type: multipart/mixed; boundary=zz\n",
		"text":     "HOLD\n",
		"charsets": `{"text":"utf-8","subject":"UTF-8"}`,
	})
	if rec := ts.do("POST", "/inbound/sendgrid", ct, body, basic(sgUser, sgPass)); rec.Code != 200 {
		t.Fatalf("parsed: %d %s", rec.Code, rec.Body)
	}
	m, err := mailmsg.Parse(ts.h.last(t).Raw, mailmsg.Options{})
	if err != nil || m.MessageID != "<sg-1@example.test>" || m.Subject != "Re: move continued" || strings.TrimSpace(m.Text) != "HOLD" {
		t.Errorf("rebuilt: %v %+v", err, m)
	}
	calls := ts.h.n()
	for name, c := range map[string]struct {
		hdr  http.Header
		ct   string
		body []byte
		code int
	}{
		"no credentials":  {nil, ct, body, 401},
		"wrong password":  {basic(sgUser, "guess"), ct, body, 401},
		"wrong user":      {basic("admin", sgPass), ct, body, 401},
		"not multipart":   {basic(sgUser, sgPass), "text/plain", []byte("hello"), 400},
		"neither":         {basic(sgUser, sgPass), "application/x-www-form-urlencoded", []byte("to=x"), 400},
		"bad credentials": {http.Header{"Authorization": {"Bearer " + sgPass}}, ct, body, 401},
	} {
		rec := ts.do("POST", "/inbound/sendgrid", c.ct, c.body, c.hdr)
		if rec.Code != c.code {
			t.Errorf("%s: %d, want %d", name, rec.Code, c.code)
		}
		if c.code == 401 && !strings.HasPrefix(rec.Header().Get("WWW-Authenticate"), "Basic") {
			t.Errorf("%s: no Basic challenge", name)
		}
	}
	if ts.h.n() != calls {
		t.Error("the handler was called for a refused request")
	}
	ts.h.set(referee.Outcome{}, referee.Permanent("never"))
	if rec := ts.do("POST", "/inbound/sendgrid", ct, body, basic(sgUser, sgPass)); rec.Code != 422 {
		t.Errorf("permanent: %d", rec.Code)
	}
	ts.h.set(referee.Outcome{}, errors.New("later"))
	if rec := ts.do("POST", "/inbound/sendgrid", ct, body, basic(sgUser, sgPass)); rec.Code != 503 {
		t.Errorf("transient: %d", rec.Code)
	}
	small := newTestServer(t, func(o *Options) { o.MaxBodySize = 512 })
	if rec := small.do("POST", "/inbound/sendgrid", ct, body, basic(sgUser, sgPass)); rec.Code != 413 {
		t.Errorf("too large: %d", rec.Code)
	}
}

func TestPostmark(t *testing.T) {
	ts := newTestServer(t, nil)
	js := func(v map[string]any) []byte { b, _ := json.Marshal(v); return b }
	withRaw := js(map[string]any{"MessageID": "22c74902-a0c1-4511-804f-341342852c90", "RawEmail": sampleMail,
		"OriginalRecipient": "referee+g1.0.abcdefghijklmnop@example.test", "TextBody": "ignored"})
	rec := ts.do("POST", "/inbound/postmark", "application/json", withRaw, basic(pmUser, pmPass))
	if rec.Code != 200 {
		t.Fatalf("%d %s", rec.Code, rec.Body)
	}
	in := ts.h.last(t)
	if string(in.Raw) != "X-Original-To: referee+g1.0.abcdefghijklmnop@example.test\r\n"+sampleMail || in.Source != "webhook:postmark" ||
		len(in.Keys) != 1 || in.Keys[0] != "postmark:22c74902-a0c1-4511-804f-341342852c90" {
		t.Errorf("handed over %q %s %v", in.Raw, in.Source, in.Keys)
	}
	// Rebuilt from the fields, keeping the original Message-ID.
	parsed := js(map[string]any{"MessageID": "pm-2", "FromFull": map[string]string{"Email": "bob@example.test", "Name": "Bob B."},
		"From": "bob@example.test", "To": "referee+g1.1.qrstuvwxyzabcdef@example.test", "Subject": "Re: [g1.1.3] ton tour",
		"Date": "Mon, 23 Nov 2026 10:00:00 +0000", "TextBody": "BID 2\n", "StrippedTextReply": "BID 2",
		"Headers": []map[string]string{{"Name": "Message-ID", "Value": "<bob-77@example.test>"}, {"Name": "X-Spam-Status", "Value": "No"},
			{"Name": "Subject", "Value": "must not be duplicated"}, {"Name": "Bad\nName", "Value": "x"}}})
	if rec := ts.do("POST", "/inbound/postmark", "application/json", parsed, basic(pmUser, pmPass)); rec.Code != 200 {
		t.Fatalf("parsed: %d %s", rec.Code, rec.Body)
	}
	in = ts.h.last(t)
	m, err := mailmsg.Parse(in.Raw, mailmsg.Options{})
	if err != nil || m.MessageID != "<bob-77@example.test>" || m.From.Addr != "bob@example.test" || m.From.Name != "Bob B." ||
		m.Subject != "Re: [g1.1.3] ton tour" || strings.TrimSpace(m.Text) != "BID 2" {
		t.Errorf("rebuilt: %v %q %+v %q %q", err, m.MessageID, m.From, m.Subject, m.Text)
	}
	if bytes.Count(in.Raw, []byte("Subject:")) != 1 || in.Keys[0] != "postmark:pm-2" {
		t.Errorf("raw %s keys %v", in.Raw, in.Keys)
	}
	calls := ts.h.n()
	for name, c := range map[string]struct {
		hdr  http.Header
		body []byte
		code int
	}{
		"no credentials": {nil, withRaw, 401},
		"wrong password": {basic(pmUser, "x"), withRaw, 401},
		"not JSON":       {basic(pmUser, pmPass), []byte("From: x"), 403},
		"no sender":      {basic(pmUser, pmPass), []byte(`{"TextBody":"hi"}`), 403},
	} {
		if rec := ts.do("POST", "/inbound/postmark", "application/json", c.body, c.hdr); rec.Code != c.code {
			t.Errorf("%s: %d, want %d", name, rec.Code, c.code)
		}
	}
	if ts.h.n() != calls {
		t.Error("the handler was called for a refused request")
	}
	ts.h.set(referee.Outcome{}, referee.Permanent("never"))
	if rec := ts.do("POST", "/inbound/postmark", "application/json", withRaw, basic(pmUser, pmPass)); rec.Code != 403 {
		t.Errorf("permanent: %d", rec.Code)
	}
	ts.h.set(referee.Outcome{}, errors.New("later"))
	if rec := ts.do("POST", "/inbound/postmark", "application/json", withRaw, basic(pmUser, pmPass)); rec.Code != 503 {
		t.Errorf("transient: %d", rec.Code)
	}
	small := newTestServer(t, func(o *Options) { o.MaxBodySize = 100 })
	if rec := small.do("POST", "/inbound/postmark", "application/json", withRaw, basic(pmUser, pmPass)); rec.Code != 403 {
		t.Errorf("too large: %d", rec.Code)
	}
}

// Endpoints without credentials are not mounted.
func TestUnconfiguredEndpoints(t *testing.T) {
	h := &fakeHandler{}
	s, err := New(Options{Handler: h, Secret: rawSecret})
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	s.Register(mux)
	for _, p := range []string{"/inbound/mailgun", "/inbound/mailgun/mime", "/inbound/sendgrid", "/inbound/postmark", "/games/g1/commands"} {
		rec := httptestDo(mux, "POST", p)
		if rec != 404 {
			t.Errorf("%s: %d, want 404", p, rec)
		}
	}
	if got := strings.Join(s.Routes(), ","); got != "POST /inbound" {
		t.Errorf("routes %s", got)
	}
	if _, err := New(Options{Secret: "x"}); err == nil {
		t.Error("credentials without a handler accepted")
	}
	if _, err := New(Options{Handler: h, SendGridPassword: "x"}); err == nil {
		t.Error("a password without a user name accepted")
	}
}
