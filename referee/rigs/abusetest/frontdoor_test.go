package abusetest

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pbem-referee/referee/referee/edge/hookout"
	"github.com/pbem-referee/referee/referee/rigs/mailstack"
)

// The HTTP front door under attack (issue 11, item 8; issue 23): floods of
// unsigned and badly signed posts, a chunked giant, Mailgun replays and its
// storage API.

// fakeMailgunAPI serves Mailgun's "Retrieving Stored Messages" over TLS
// for the daemon (webhook.mailgun_api_hosts and mailgun_api_ca_file point
// at it): GET with the API key and Accept: message/rfc2822 answers JSON
// whose body-mime is the stored message.
func (s *suite) fakeMailgunAPI(dir string) (hostport, caFile string) {
	s.mgStored = map[string]string{}
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if u, p, ok := r.BasicAuth(); !ok || u != "api" || p != mailgunAPIKey || r.Header.Get("Accept") != "message/rfc2822" {
			http.Error(w, "Forbidden", http.StatusUnauthorized)
			return
		}
		s.mgMu.Lock()
		m, ok := s.mgStored[path.Base(r.URL.Path)]
		s.mgMu.Unlock()
		if !ok {
			http.Error(w, "not found", http.StatusNotFound)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]string{"body-mime": m})
	}))
	s.t.Cleanup(srv.Close)
	caFile = filepath.Join(dir, "mailgun-ca.pem")
	pemBytes := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw})
	if err := os.WriteFile(caFile, pemBytes, 0o600); err != nil {
		s.t.Fatal(err)
	}
	s.mgAPI = srv.URL
	return srv.Listener.Addr().String(), caFile
}

// frontDoor (item 8): floods of unsigned and badly signed posts, a chunked
// giant, and Mailgun replays.
func (s *suite) frontDoor(note func(string, string, ...any)) {
	t := s.t
	client := &http.Client{Timeout: 30 * time.Second}
	post := func(path string, size int64, hdr map[string]string, chunked bool) int {
		body := io.LimitReader(zeros{}, size)
		req, _ := http.NewRequest("POST", s.base+path, body)
		if !chunked {
			req.ContentLength = size
		}
		for k, v := range hdr {
			req.Header.Set(k, v)
		}
		req.Header.Set("Content-Type", "message/rfc822")
		resp, err := client.Do(req)
		if err != nil {
			return -1 // the server hung up on a body it would not read
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode
	}
	start := time.Now()
	codes := map[int]int{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for i := 0; i < 200; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			var c int
			switch i % 4 {
			case 0, 1: // unsigned, 10 MiB announced
				c = post("/inbound", 10<<20, nil, false)
			case 2: // signed with a fresh timestamp but a wrong signature, 2 MiB
				c = post("/inbound", 2<<20, map[string]string{hookout.HeaderTimestamp: fmt.Sprint(time.Now().Unix()),
					hookout.HeaderSignature: "sha256=" + strings.Repeat("0", 64)}, false)
			case 3: // chunked, 8 MiB, stale timestamp
				c = post("/inbound", 8<<20, map[string]string{hookout.HeaderTimestamp: "1000000000",
					hookout.HeaderSignature: "sha256=" + strings.Repeat("0", 64)}, true)
			}
			mu.Lock()
			codes[c]++
			mu.Unlock()
		}(i)
	}
	wg.Wait()
	took := time.Since(start)
	for c := range codes {
		if c == http.StatusOK {
			t.Errorf("a hostile post was accepted: %v", codes)
		}
	}
	rss := s.d.peakRSS()
	if rss > rssLimit {
		t.Errorf("the daemon's peak RSS reached %d MB after the floods", rss>>20)
	}
	note("200 parallel hostile posts (10/2/8 MiB)", "refused %v in %v; peak RSS %d MB", codes, took.Round(time.Millisecond), rss>>20)

	// Mailgun (issue 23): Mailgun signs a timestamp and a token, not the
	// message, and this daemon has no Mailgun API key, so a posted body
	// acts only with a DKIM signature aligned with its From, verified by
	// the referee (the Authentication-Results our MTA writes are not on a
	// posted mail, and one written into it is not believed). Alice's
	// unsigned STATUS, its retry, and a forged PASS posted with the same
	// captured signature: none acts; alice is told at most once; the
	// game is unchanged (verify counts the genuine moves).
	alice := s.box["alice"]
	alice.settle(300 * time.Millisecond)
	orig := alice.latest
	id := newID("alice")
	genuine := replyTo("alice", s.addr("alice"), orig, "", id, "STATUS")
	forgedID := newID("eve")
	forged := replyTo("alice", s.addr("alice"), orig, "", forgedID, "PASS")
	written := []byte(ourAR() + "\r\n" + string(replyTo("alice", s.addr("alice"), orig, "", newID("eve"), "PASS")))
	mg := func(raw []byte, token string) (int, string) {
		return postMailgun(t, client, s.base+"/inbound/mailgun/mime", token,
			url.Values{"body-mime": {string(raw)}, "recipient": {orig.m.ReplyTo[0].Addr}})
	}
	tok := fmt.Sprintf("%050d", time.Now().UnixNano())
	c0, st0 := mg(forged, tok) // the captured signature, first
	c1, st1 := mg(genuine, tok)
	c2, st2 := mg(genuine, tok)
	c3, st3 := mg(written, fmt.Sprintf("%050d", time.Now().UnixNano()))
	for i, c := range []struct {
		code int
		st   string
	}{{c0, st0}, {c1, st1}, {c2, st2}, {c3, st3}} {
		if c.code != 200 || c.st == "applied" || c.st == "answered" || c.st == "queued" {
			t.Errorf("mailgun post %d: %d %s, want 200 and nothing applied", i, c.code, c.st)
		}
	}
	got := alice.settle(2 * time.Second)
	for _, m := range got {
		if m.answers(id) || m.answers(forgedID) {
			t.Errorf("an unproven Mailgun post was answered as alice's: %q", m.text())
		}
	}
	if len(got) > 1 {
		t.Errorf("the unproven Mailgun posts brought alice %d mails, want at most the one refusal", len(got))
	}
	note("Mailgun: captured signature with PASS first, then genuine unsigned, retry, our AR written in",
		"%d %s, %d %s, %d %s, %d %s; nothing applied; alice got %d mails", c0, st0, c1, st1, c2, st2, c3, st3, len(got))

	// With the API key, a store(notify=...) post: the message is fetched
	// from Mailgun's storage and the posted body never used. A captured
	// signature posted with a forged PASS and the genuine storage URL
	// makes the genuine STATUS act (answered), once.
	id2 := newID("alice")
	s.mgMu.Lock()
	s.mgStored["stored1"] = string(replyTo("alice", s.addr("alice"), orig, "", id2, "STATUS"))
	s.mgMu.Unlock()
	postStored := func(token, body string) (int, string) {
		f := url.Values{"message-url": {s.mgAPI + "/v3/domains/" + mailstack.Domain + "/messages/stored1"}, "recipient": {orig.m.ReplyTo[0].Addr}}
		if body != "" {
			f.Set("body-mime", body)
		}
		return postMailgun(t, client, s.base+"/inbound/mailgun", token, f)
	}
	tok2 := fmt.Sprintf("s%049d", time.Now().UnixNano())
	c4, st4 := postStored(tok2, string(forged))
	c5, st5 := postStored(tok2, "")
	if c4 != 200 || st4 != "answered" || c5 != 200 || st5 != "duplicate" {
		t.Errorf("stored Mailgun message: forged body + genuine URL %d %s, retry %d %s", c4, st4, c5, st5)
	}
	alice.next("answering the stored Mailgun message", 30*time.Second, func(m *mail) bool { return m.answers(id2) })
	if extra := alice.settle(time.Second); len(extra) != 0 {
		t.Errorf("the stored message's retry brought alice %d more mails", len(extra))
	}
	note("Mailgun store(notify): forged body + genuine storage URL, retry", "%d %s, %d %s; the genuine mail answered once",
		c4, st4, c5, st5)
}

// zeros is an endless reader of zero bytes.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

// postMailgun posts form f to the front door as Mailgun does, signed with
// token and the current time, and returns the HTTP status and the
// outcome's status (or error).
func postMailgun(t *testing.T, client *http.Client, target, token string, f url.Values) (int, string) {
	t.Helper()
	ts := fmt.Sprint(time.Now().Unix())
	m := hmac.New(sha256.New, []byte(mailgunKey))
	m.Write([]byte(ts + token))
	f.Set("timestamp", ts)
	f.Set("token", token)
	f.Set("signature", hex.EncodeToString(m.Sum(nil)))
	resp, err := client.PostForm(target, f)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out struct{ Status, Error string }
	json.NewDecoder(resp.Body).Decode(&out)
	return resp.StatusCode, out.Status + out.Error
}
