package abusetest

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/pbem-referee/referee/mailfmt/mailmsg"
	"github.com/pbem-referee/referee/referee/edge/hookout"
	"github.com/pbem-referee/referee/referee/rigs/mailstack"
)

// The probes of issue 23 ("nothing one sender can do stops the referee").

// ourAuthserv is the authserv-id the suite's configuration trusts; the
// test stands in for the receiving MTA, which writes (and strips forged
// copies of) this Authentication-Results header.
const ourAuthserv = "mx.abuse.test"

// hostileNames are display names of the kind that stalled the intake
// before issue 23 (an unbalanced quote, a trailing backslash) and of
// every neighbouring kind.
var hostileNames = []string{
	`Pat O"Brien`, `Pat O\"Brien`, `Pat\`, `"`, `\`, `""\`, "\u202ePASS", "Pat\u200bO", "é \"q\\",
	"日本語\\", "=?utf-8?q?=22?=", "(comment", "<x@y>", strings.Repeat("ä\"", 120),
}

// ourAR is the header our own MTA writes for an aligned DKIM pass.
func ourAR() string {
	return "Authentication-Results: " + ourAuthserv + "; dkim=pass header.d=" + mailstack.Domain + " header.s=s1"
}

// hostileNameMails (rule 1, through IMAP and the webhook): authenticated
// REGISTERs whose From display name and REGISTER argument are hostile
// names each get their confirmation (nothing is retried for ever); the
// same through the signed raw webhook; the intake moves on.
func (s *suite) hostileNameMails(note func(string, string, ...any)) {
	t := s.t
	carl := s.box["carl"]
	carl.settle(300 * time.Millisecond)
	sent, answered := 0, 0
	qBefore := s.ms.Count(t, "referee", "Quarantine")
	for i, name := range hostileNames {
		from := `"` + strings.ReplaceAll(name, "\n", "") + `" <` + s.addr("carl") + `>`
		if i%2 == 0 {
			from = mailmsg.Address{Name: name, Addr: s.addr("carl")}.String()
		}
		raw := compose(from, s.addr("referee"), "register", newID("carl"), []string{ourAR()}, "REGISTER "+name)
		if i%3 == 2 {
			// The same mail through the front door.
			if c := s.signedPost(raw); c != http.StatusOK {
				t.Errorf("REGISTER %q through the webhook: %d", name, c)
			}
		} else {
			s.send(s.addr("carl"), []string{s.addr("referee")}, raw)
		}
		sent++
		// Once a day per address: the first confirmation, then nothing;
		// the day is moved on by a new address for each name instead.
		if i == 0 {
			carl.next("confirming carl's REGISTER", 60*time.Second, func(m *mail) bool { return strings.Contains(m.text(), "not you, ignore") })
			answered++
		}
	}
	s.sync("alice")
	if got := carl.settle(time.Second); len(got) != 0 {
		t.Errorf("%d more REGISTERs from carl in a day brought %d more mails", sent-1, len(got))
	}
	// A From written with a raw unbalanced quote does not parse: that
	// mail is quarantined as never processable (not retried).
	q := s.ms.Count(t, "referee", "Quarantine") - qBefore
	s.extraQuarantined += q
	note(fmt.Sprintf("%d REGISTERs, hostile display names", sent), "%d confirmation (once a day), %d unparseable quarantined; intake moves on; before: retried for ever",
		answered, q)
}

// signedPost posts a raw message to /inbound, signed.
func (s *suite) signedPost(raw []byte) int {
	return s.signedPostFrom("127.0.0.1", raw)
}

func (s *suite) signedPostFrom(src string, raw []byte) int {
	ts := fmt.Sprint(time.Now().Unix())
	req, _ := http.NewRequest("POST", s.base+"/inbound", bytes.NewReader(raw))
	req.Header.Set("Content-Type", "message/rfc822")
	req.Header.Set(hookout.HeaderTimestamp, ts)
	req.Header.Set(hookout.HeaderSignature, hookout.Sign(webhookSecret, ts, raw))
	resp, err := clientFrom(src).Do(req)
	if err != nil {
		s.t.Fatalf("post: %v", err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode
}

func clientFrom(src string) *http.Client {
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(src)}, Timeout: 5 * time.Second}
	return &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{DialContext: d.DialContext, DisableKeepAlives: true}}
}

// wholeMailFuzz (rule 2): generated hostile mails, a base mail with its
// bytes mutated, through IMAP and the webhook. None may stall the intake:
// each is processed, refused or set aside, and alice's next mail is
// answered.
func (s *suite) wholeMailFuzz(note func(string, string, ...any)) {
	t := s.t
	rng := rand.New(rand.NewPCG(23, 23))
	codes := map[int]int{}
	const n = 60
	qBefore := s.ms.Count(t, "referee", "Quarantine")
	for i := 0; i < n; i++ {
		name := hostileNames[rng.IntN(len(hostileNames))]
		base := compose(mailmsg.Address{Name: name, Addr: s.addr("eve")}.String(), s.addr("referee"),
			"Re: "+name, newID("eve"), []string{"In-Reply-To: <" + name + ">"}, "REGISTER "+name+"\nSTATUS\nSAY all: "+name)
		b := []byte(string(base))
		for k := rng.IntN(8); k > 0; k-- { // mutate a few bytes of the head
			j := rng.IntN(min(len(b), 300))
			b[j] = byte(0x20 + rng.IntN(0xe0)) // no NUL, CR or LF: Postfix must take it
		}
		if i%2 == 0 {
			codes[s.signedPost(b)]++
		} else {
			s.send(s.addr("eve"), []string{s.addr("referee")}, b)
		}
	}
	s.sync("alice")
	for c := range codes {
		if c >= 500 {
			t.Errorf("a fuzzed mail got %d from the webhook: %v", c, codes)
		}
	}
	// A mail that can never be processed (a permanent error) is
	// quarantined, not retried: counted here for verify.
	fq := s.ms.Count(t, "referee", "Quarantine") - qBefore
	s.extraQuarantined += fq
	var reasons []string
	logText, _ := os.ReadFile(s.d.logPath)
	for _, l := range strings.Split(string(logText), "\n") {
		if strings.Contains(l, "quarantining mail") && strings.Contains(l, "abuse.eve.") {
			if _, r, ok := strings.Cut(l, "reason="); ok {
				reasons = append(reasons, r)
			}
		}
	}
	t.Logf("fuzzed mails quarantined over IMAP: %d %v", fq, reasons)
	note(fmt.Sprintf("%d fuzzed whole mails (IMAP, webhook)", n), "webhook answers %v; %d quarantined over IMAP; intake moves on",
		codes, fq)
}

// slowFrontDoor (front door): 500 slow connections (half trickling their
// headers, half a large unauthenticated body) held against the daemon,
// while signed posts from another address, GET /healthz and a page still
// answer at once. Before issue 23 four slow posts took the four slots and
// every endpoint answered 503.
func (s *suite) slowFrontDoor(note func(string, string, ...any)) {
	t := s.t
	addr := strings.TrimPrefix(s.base, "http://")
	var conns []net.Conn
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	for i := 0; i < 250; i++ {
		for _, text := range []string{
			"POST /inbound HTTP/1.1\r\nHost: x\r\nContent-Ty",
			fmt.Sprintf("POST /inbound HTTP/1.1\r\nHost: x\r\nContent-Type: message/rfc822\r\nContent-Length: %d\r\n%s: %d\r\n"+
				"%s: sha256=%s\r\n\r\nFrom: a", 1<<20, hookout.HeaderTimestamp, time.Now().Unix(), hookout.HeaderSignature, strings.Repeat("0", 64)),
		} {
			c, err := net.DialTimeout("tcp", addr, 5*time.Second)
			if err != nil {
				t.Fatalf("slow connection %d: %v", len(conns), err)
			}
			c.Write([]byte(text))
			conns = append(conns, c)
		}
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-stop:
				return
			case <-time.After(200 * time.Millisecond):
				for _, c := range conns {
					c.Write([]byte("x"))
				}
			}
		}
	}()
	defer func() { close(stop); wg.Wait() }()
	time.Sleep(300 * time.Millisecond)
	start := time.Now()
	ok := 0
	alice := s.box["alice"]
	var ids []string
	for i := 0; i < 5; i++ {
		id := newID("alice")
		raw := replyTo("alice", s.addr("alice"), alice.latest, "", id, fmt.Sprintf("HELP door%d", i))
		if c := s.signedPostFrom("127.0.0.2", raw); c == http.StatusOK {
			ok++
		} else {
			t.Errorf("a signed post during the slow flood: %d", c)
		}
		ids = append(ids, id)
	}
	for _, path := range []string{"/healthz", "/t/"} {
		resp, err := clientFrom("127.0.0.1").Get(s.base + path)
		if err != nil || resp.StatusCode != 200 {
			t.Errorf("GET %s during the slow flood: %v %v", path, err, resp)
		} else {
			resp.Body.Close()
		}
	}
	took := time.Since(start)
	for _, id := range ids {
		alice.next("answering a post made during the flood", 60*time.Second, func(m *mail) bool { return m.answers(id) })
	}
	note("500 slow connections + 5 signed posts, 2 GETs", "%d/5 posts 200, pages and health answer, in %v; before: 503", ok, took.Round(time.Millisecond))
}

// trustChecks: the page headers on every page, the commands endpoint's
// one answer for an unknown game and a bad token, and list mail from a
// registered player told once a day (issue 23).
func (s *suite) trustChecks(note func(string, string, ...any)) {
	t := s.t
	c := clientFrom("127.0.0.1")
	for _, path := range []string{"/t/", "/t/nosuch-abc", "/g/g1-0000"} {
		resp, err := c.Get(s.base + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		h := resp.Header
		// A page is revalidated at every view (private, no-cache, with its
		// ETag: issue 24) and an error page is not kept (no-store).
		cc := h.Get("Cache-Control")
		if !(cc == "no-store" || cc == "private, no-cache") || h.Get("X-Content-Type-Options") != "nosniff" ||
			!strings.Contains(h.Get("Content-Security-Policy"), "frame-ancestors 'none'") {
			t.Errorf("GET %s (%d): Cache-Control %q, X-Content-Type-Options %q, CSP %q", path, resp.StatusCode,
				h.Get("Cache-Control"), h.Get("X-Content-Type-Options"), h.Get("Content-Security-Policy"))
		}
	}
	cmd := func(game string) (int, string) {
		req, _ := http.NewRequest("POST", s.base+"/games/"+game+"/commands", strings.NewReader(`{"text":"STATUS"}`))
		req.Header.Set("Authorization", "Bearer nosuchtokenxxxxxx")
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	c1, b1 := cmd("nosuchgame")
	c2, b2 := cmd("g1")
	if c1 != c2 || b1 != b2 {
		t.Errorf("commands: unknown game %d %q, bad token %d %q", c1, b1, c2, b2)
	}
	note("POST /games/<unknown>/commands vs bad token", "both %d, same body (before: 404 vs 401)", c1)

	alice := s.box["alice"]
	alice.settle(300 * time.Millisecond)
	s.say("alice", alice.latest, "", "STATUS", "List-Id: <players.lists.example>")
	told := alice.next("telling alice about her list mail", 60*time.Second, func(m *mail) bool {
		return strings.Contains(m.text(), "never acts on mail sent by lists")
	})
	s.say("alice", alice.latest, "", "STATUS", "Precedence: bulk")
	s.say("alice", alice.latest, "", "STATUS", "X-Loop: robot@lists.example")
	s.sync("alice")
	if more := alice.settle(time.Second); len(more) != 0 {
		t.Errorf("two more list mails brought alice %d mails, want none (once a day)", len(more))
	}
	_ = told
	note("List-Id, Precedence: bulk, X-Loop from alice", "not applied; told once (before: silently dropped)")
}
