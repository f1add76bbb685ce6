package webhook_test

import (
	"bytes"
	"crypto/ed25519"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/emersion/go-msgauth/dkim"
	"github.com/pbem-referee/referee/engine/enginetest"
	"github.com/pbem-referee/referee/mailfmt/mailmsg"
	"github.com/pbem-referee/referee/referee"
	"github.com/pbem-referee/referee/referee/edge/mailin"
	"github.com/pbem-referee/referee/referee/edge/webhook"
	"github.com/pbem-referee/referee/store"
)

const mgSigningKey = "key-binding-signing-0123"

// binding is a real referee behind the intake and the Mailgun endpoint,
// players whose domain signs with DKIM, and optionally a fake Mailgun
// storage API over TLS.
type binding struct {
	t      *testing.T
	db     *store.DB
	ref    *referee.Referee
	front  *httptest.Server
	priv   ed25519.PrivateKey
	record string
	// stored is what the fake Mailgun API holds, by storage key.
	stored  map[string]string
	api     *httptest.Server
	apiHits atomic.Int32
	n       int
}

func newBinding(t *testing.T, withAPI bool) *binding {
	t.Helper()
	enginetest.RegisterClaim()
	b := &binding{t: t, stored: map[string]string{}}
	pub, priv, err := ed25519.GenerateKey(bytes.NewReader(bytes.Repeat([]byte{3}, 64)))
	if err != nil {
		t.Fatal(err)
	}
	b.priv, b.record = priv, "v=DKIM1; k=ed25519; p="+base64.StdEncoding.EncodeToString(pub)
	if b.db, err = store.Open(filepath.Join(t.TempDir(), "r.db"), &store.Options{NoSync: true}); err != nil {
		t.Fatal(err)
	}
	b.ref, err = referee.New(referee.Options{DB: b.db, Domain: "example.test", Organisers: map[string]string{olga: orgSecret},
		Compose: referee.Composer(mailmsg.Address{Name: "Referee", Addr: "referee@example.test"})})
	if err != nil {
		t.Fatal(err)
	}
	lookup := func(name string) ([]string, error) {
		if name == "sel._domainkey.example.test" {
			return []string{b.record}, nil
		}
		return nil, errors.New("no record " + name)
	}
	o := webhook.Options{Handler: mailin.New(b.ref, mailin.Options{Auth: mailin.AuthPolicy{AuthservID: "mx.example.test", LookupTXT: lookup}}),
		Replay: b.ref, MailgunSigningKey: mgSigningKey}
	if withAPI {
		b.api = httptest.NewTLSServer(http.HandlerFunc(b.serveAPI))
		o.MailgunAPIKey = "key-api-0123"
		o.MailgunAPIHosts = []string{b.api.Listener.Addr().String()}
		c := b.api.Client()
		c.Timeout = 5 * time.Second
		c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
		o.MailgunClient = c
	}
	front, err := webhook.New(o)
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	front.Register(mux)
	b.front = httptest.NewServer(mux)
	t.Cleanup(func() {
		b.front.Close()
		if b.api != nil {
			b.api.Close()
		}
		if err := b.db.Check(); err != nil {
			t.Errorf("store check: %v", err)
		}
		b.db.Close()
	})
	return b
}

// serveAPI is Mailgun's "Retrieving Stored Messages": GET with the API key
// as basic authentication and Accept: message/rfc2822 answers JSON whose
// body-mime is the message.
func (b *binding) serveAPI(w http.ResponseWriter, r *http.Request) {
	b.apiHits.Add(1)
	if u, p, ok := r.BasicAuth(); !ok || u != "api" || p != "key-api-0123" {
		http.Error(w, "Forbidden", http.StatusUnauthorized)
		return
	}
	if r.Method != "GET" || r.Header.Get("Accept") != "message/rfc2822" {
		http.Error(w, "bad request", http.StatusBadRequest)
		return
	}
	key := strings.TrimPrefix(r.URL.Path, "/v3/domains/example.test/messages/")
	switch key {
	case "redirect":
		http.Redirect(w, r, "https://evil.example/steal", http.StatusFound)
		return
	case "broken":
		http.Error(w, "oops", http.StatusInternalServerError)
		return
	}
	m, ok := b.stored[key]
	if !ok {
		http.Error(w, `{"message":"Message not found"}`, http.StatusNotFound)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]string{"body-mime": m, "recipients": "referee@example.test"})
}

func (b *binding) storageURL(key string) string {
	return b.api.URL + "/v3/domains/example.test/messages/" + key
}

func (b *binding) sign(raw []byte) []byte {
	b.t.Helper()
	var out bytes.Buffer
	if err := dkim.Sign(&out, bytes.NewReader(raw), &dkim.SignOptions{Domain: "example.test", Selector: "sel", Signer: b.priv,
		HeaderKeys: []string{"From", "To", "Subject", "Date", "Message-ID"}}); err != nil {
		b.t.Fatal(err)
	}
	return out.Bytes()
}

// inbox drains the outbox: the raw mails by recipient.
func (b *binding) inbox() map[string][][]byte {
	b.t.Helper()
	out := map[string][][]byte{}
	now := time.Now()
	err := b.db.Update(func(tx *store.Tx) error {
		due, err := tx.Due(referee.OutboxQueue, now.Add(1000*time.Hour), 0)
		if err != nil {
			return err
		}
		for _, it := range due {
			out[it.To] = append(out[it.To], it.Payload)
			if _, err := tx.Finish(referee.OutboxQueue, it.ID, store.Sent, now, now, ""); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		b.t.Fatal(err)
	}
	return out
}

// reply is a player's reply to a referee mail.
func (b *binding) reply(orig []byte, from, text string) []byte {
	b.t.Helper()
	m, err := mailmsg.Parse(orig, mailmsg.Options{})
	if err != nil {
		b.t.Fatal(err)
	}
	b.n++
	return []byte(fmt.Sprintf("From: Player <%s>\r\nTo: %s\r\nSubject: Re: %s\r\nMessage-ID: <bind%d@example.test>\r\n"+
		"Date: Mon, 23 Nov 2026 10:00:00 +0000\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n%s\r\n",
		from, m.ReplyTo[0].Addr, m.Subject, b.n, text))
}

// capture is one genuine Mailgun signature (what a captured post reveals).
func capture(token string) url.Values {
	ts := fmt.Sprint(time.Now().Unix())
	m := hmac.New(sha256.New, []byte(mgSigningKey))
	m.Write([]byte(ts + token))
	return url.Values{"timestamp": {ts}, "token": {token}, "signature": {hex.EncodeToString(m.Sum(nil))}}
}

// post posts the signature with the given fields, url-encoded or as a
// multipart form, with a real HTTP client.
func (b *binding) post(sig url.Values, fields map[string]string, multi bool) (int, referee.Outcome) {
	b.t.Helper()
	v := url.Values{}
	for k, vs := range sig {
		v[k] = vs
	}
	for k, f := range fields {
		v.Set(k, f)
	}
	var body bytes.Buffer
	ct := "application/x-www-form-urlencoded"
	if multi {
		mw := multipart.NewWriter(&body)
		for k, vs := range v {
			mw.WriteField(k, vs[0])
		}
		mw.Close()
		ct = mw.FormDataContentType()
	} else {
		body.WriteString(v.Encode())
	}
	path := "/inbound/mailgun/mime"
	if _, ok := fields["body-mime"]; !ok {
		path = "/inbound/mailgun" // a store(notify=...) route's URL needs no "mime"
	}
	resp, err := http.Post(b.front.URL+path, ct, &body)
	if err != nil {
		b.t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var out referee.Outcome
	json.Unmarshal(raw, &out)
	return resp.StatusCode, out
}

// newGame makes a two-seat claim game and returns each seat's invitation.
func (b *binding) newGame(id string) (annInv, bobInv []byte) {
	b.t.Helper()
	if _, err := b.ref.Organise(olga, "NEW claim id="+id+"\nPLAYER "+ann+" Ann\nPLAYER "+bob+" Bob"); err != nil {
		b.t.Fatal(err)
	}
	in := b.inbox()
	return in[ann][0], in[bob][0]
}

func (b *binding) joined(id string) int {
	g, err := b.ref.GameRecord(id)
	if err != nil {
		b.t.Fatal(err)
	}
	n := 0
	for _, s := range g.Seats {
		if s.State == referee.SeatJoined {
			n++
		}
	}
	return n
}

// TestMailgunForgedBodyFirst is issue 23's captured Mailgun signature,
// posted before the genuine post with a forged body, without an API key:
// Mailgun's signature covers no message, so the posted body acts only when
// DKIM proves its sender. For every kind of forged body (unsigned; with
// our own authserv-id's pass written in; signed by another domain; a
// signed mail with its body changed) and both form encodings, the forged
// post acts for nobody, and the genuine signed post that follows with the
// same signature is applied.
func TestMailgunForgedBodyFirst(t *testing.T) {
	forgeries := []struct {
		name  string
		forge func(b *binding, inv []byte) []byte
	}{
		{"unsigned", func(b *binding, inv []byte) []byte { return b.reply(inv, ann, "JOIN") }},
		{"our authserv-id written in", func(b *binding, inv []byte) []byte {
			return append([]byte("Authentication-Results: mx.example.test; dkim=pass header.d=example.test header.s=sel\r\n"),
				b.reply(inv, ann, "JOIN")...)
		}},
		{"signed, body changed", func(b *binding, inv []byte) []byte {
			return bytes.Replace(b.sign(b.reply(inv, ann, "NOTE hi")), []byte("NOTE hi"), []byte("JOIN"), 1)
		}},
		{"the genuine Message-ID reused", func(b *binding, inv []byte) []byte {
			b.n-- // the next reply, the genuine one, gets the same Message-ID
			return b.reply(inv, ann, "JOIN")
		}},
	}
	for i, f := range forgeries {
		for _, multi := range []bool{false, true} {
			b := newBinding(t, false)
			id := fmt.Sprintf("f%d", i)
			inv, _ := b.newGame(id)
			sig := capture(fmt.Sprintf("%050d", i))
			code, out := b.post(sig, map[string]string{"body-mime": string(f.forge(b, inv))}, multi)
			if code != 200 || out.Status == referee.OutcomeAnswered || out.Status == referee.OutcomeApplied || b.joined(id) != 0 {
				t.Fatalf("%s (multipart %v): the forged body, first: %d %+v, %d joined", f.name, multi, code, out, b.joined(id))
			}
			genuine := b.sign(b.reply(inv, ann, "JOIN"))
			code, out = b.post(sig, map[string]string{"body-mime": string(genuine)}, multi)
			if code != 200 || out.Status != referee.OutcomeAnswered || b.joined(id) != 1 {
				t.Errorf("%s (multipart %v): the genuine post after the forged one: %d %+v, %d joined",
					f.name, multi, code, out, b.joined(id))
			}
		}
	}
}

// TestMailgunStoredMessageFetched is the binding with an API key: a post
// carrying message-url has its message fetched from Mailgun's storage
// (with the key, a real HTTP client over TLS, no redirect followed), and
// the posted body is never used: a forged body posted first with a
// captured signature and the genuine storage URL makes the genuine mail
// act, once; a storage URL off Mailgun's hosts is never fetched.
func TestMailgunStoredMessageFetched(t *testing.T) {
	b := newBinding(t, true)
	inv, _ := b.newGame("s1")
	genuine := b.reply(inv, ann, "JOIN") // unsigned: storage binds it
	b.stored["k1"] = string(genuine)
	forged := strings.Replace(string(genuine), "JOIN", "PASS", 1)
	sig := capture(strings.Repeat("s", 50))
	code, out := b.post(sig, map[string]string{"body-mime": forged, "message-url": b.storageURL("k1")}, false)
	if code != 200 || out.Status != referee.OutcomeAnswered || b.joined("s1") != 1 {
		t.Fatalf("a forged body with the genuine storage URL: %d %+v, %d joined", code, out, b.joined("s1"))
	}
	// Mailgun's retry: the same stored message, a duplicate.
	if code, out := b.post(sig, map[string]string{"message-url": b.storageURL("k1")}, true); code != 200 || out.Status != referee.OutcomeDuplicate {
		t.Errorf("the retry: %d %+v", code, out)
	}
	// Not at Mailgun, or not Mailgun: 406 (never retried), nothing applied.
	evilHits := atomic.Int32{}
	evil := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { evilHits.Add(1) }))
	defer evil.Close()
	host := b.api.Listener.Addr().String()
	hits := b.apiHits.Load()
	for i, u := range []string{
		evil.URL + "/v3/domains/example.test/messages/k1",
		"http://" + host + "/v3/domains/example.test/messages/k1",
		"https://api:key@" + host + "/v3/domains/example.test/messages/k1",
		"https://api.mailgun.net.evil.example/v3/domains/example.test/messages/k1",
		"https://evil.example/api.mailgun.net/v3/domains/example.test/messages/k1",
		"//" + host + "/v3/domains/example.test/messages/k1",
		"https://" + host + "@evil.example/v3/domains/example.test/messages/k1",
	} {
		code, out := b.post(capture(fmt.Sprintf("u%049d", i)), map[string]string{"body-mime": forged, "message-url": u}, false)
		if code != 406 || out.Status != "" {
			t.Errorf("storage URL %q: %d %+v", u, code, out)
		}
	}
	if evilHits.Load() != 0 || b.apiHits.Load() != hits {
		t.Errorf("a URL off Mailgun's hosts was fetched: evil %d, api %d more", evilHits.Load(), b.apiHits.Load()-hits)
	}
	// Gone at Mailgun: 406; Mailgun failing or redirecting: 503 (retried),
	// the redirect not followed.
	for key, want := range map[string]int{"missing": 406, "broken": 503, "redirect": 503} {
		if code, _ := b.post(capture("x"+key+strings.Repeat("0", 40)), map[string]string{"message-url": b.storageURL(key)}, false); code != want {
			t.Errorf("stored message %q: %d, want %d", key, code, want)
		}
	}
	if g := b.joined("s1"); g != 1 {
		t.Errorf("%d seats joined, want 1", g)
	}
	// A forward() post (no message-url) falls back to the DKIM rule even
	// with an API key: the unsigned PASS-for-JOIN body acts for nobody.
	_, bobInv := b.newGame("s2")
	if code, out := b.post(capture(strings.Repeat("w", 50)), map[string]string{"body-mime": string(b.reply(bobInv, bob, "JOIN"))}, false); code != 200 ||
		out.Status == referee.OutcomeAnswered || b.joined("s2") != 0 {
		t.Errorf("an unsigned forward() post with an API key: %d %+v", code, out)
	}
}
