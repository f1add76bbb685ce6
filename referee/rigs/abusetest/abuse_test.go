package abusetest

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	_ "github.com/pbem-referee/referee/engine/dicebrewing"
	"github.com/pbem-referee/referee/referee"
	"github.com/pbem-referee/referee/referee/edge/hookout"
	"github.com/pbem-referee/referee/referee/rigs/mailstack"
	"github.com/pbem-referee/referee/referee/wiring/config"
	"github.com/pbem-referee/referee/referee/wiring/daemon"
	"github.com/pbem-referee/referee/store"
)

const (
	webhookSecret = "abuse-webhook-secret-0123456789"
	mailgunKey    = "key-abuse-mailgun-0123456789"
	mailgunAPIKey = "key-abuse-mailgun-api-0123"
	// rssBound bounds the daemon's peak RSS through the bombs (before
	// issue 11 one mail of HELP lines took it to 4.4 GB).
	rssBound = 300 << 20
)

// rssLimit is rssBound, raised under the race detector.
var rssLimit int64 = map[bool]int64{false: rssBound, true: 1 << 30}[raceEnabled]

// suite is the running daemon, its mail stack and the test's users.
type suite struct {
	t       *testing.T
	ms      *mailstack.Stack
	d       *proc
	cfgPath string
	base    string // the webhook's base URL
	box     map[string]*mailbox
	// genuine counts the moves the genuine players made (each numbered
	// answer is one step): the game must hold exactly these.
	genuine int
	syncs   int
	// extraQuarantined counts the fuzzed mails quarantined as never
	// processable (issue 23).
	extraQuarantined int
	// mgStored is what the fake Mailgun storage API holds, by key, and
	// mgAPI its base URL (issue 23: webhook.mailgun_api_key).
	mgMu     sync.Mutex
	mgStored map[string]string
	mgAPI    string
}

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

func (s *suite) addr(user string) string { return s.ms.Address(user) }

func (s *suite) send(envFrom string, to []string, raw []byte) {
	s.t.Helper()
	for i := 0; ; i++ {
		err := s.ms.SendErr(envFrom, to, raw)
		if err == nil {
			return
		}
		if i == 20 {
			s.t.Fatalf("send: %v", err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// say sends a genuine player's reply to a referee mail and returns its
// Message-ID.
func (s *suite) say(user string, orig *mail, subject, body string, headers ...string) string {
	s.t.Helper()
	id := newID(user)
	raw := replyTo(user, s.addr(user), orig, subject, id, body, headers...)
	s.send(s.addr(user), []string{orig.m.ReplyTo[0].Addr}, raw)
	return id
}

// ask sends a genuine player's reply and waits for the referee's answer.
func (s *suite) ask(user string, orig *mail, subject, body string, headers ...string) *mail {
	s.t.Helper()
	id := s.say(user, orig, subject, body, headers...)
	return s.box[user].next("answering "+id, 60*time.Second, func(m *mail) bool { return m.answers(id) })
}

// sync sends a genuine mail that the referee answers and waits for the
// answer: what was sent before it has been handled (the intake keeps the
// order of arrival). Each sync text differs, so that the loop detection
// never counts them as repeats.
func (s *suite) sync(user string) {
	s.t.Helper()
	s.syncs++
	time.Sleep(300 * time.Millisecond) // Postfix delivers in parallel: let what was sent before land first
	s.ask(user, s.box[user].latest, "", fmt.Sprintf("HELP sync%d", s.syncs))
}

// asked returns the user's newest mail when it asks them to decide now.
func (s *suite) asked(user string) *mail {
	s.box[user].poll()
	m := s.box[user].latest
	if m == nil || m.js.Prompt == nil || len(m.js.Legal) == 0 {
		return nil
	}
	for _, other := range s.box {
		if other.latest != nil && other.latest.js.Token > m.js.Token {
			return nil
		}
	}
	return m
}

// play answers the user's current prompt with its first legal option
// ("1" when the prompt numbers its options) and waits for the answer.
func (s *suite) play(user string) *mail {
	s.t.Helper()
	p := s.asked(user)
	if p == nil {
		s.t.Fatalf("%s is not asked anything", user)
	}
	cmd := p.js.Legal[0].Cmd
	if p.js.Prompt.Numbered {
		cmd = "1"
	}
	r := s.ask(user, p, "", cmd)
	if r.js == nil || r.js.Token <= p.js.Token {
		s.t.Fatalf("%s's 1 did not play %q:\n%s", user, p.js.Legal[0].Cmd, r.m.Text)
	}
	s.genuine++
	return r
}

// until plays bob's turns until alice is asked.
func (s *suite) untilAlice() *mail {
	s.t.Helper()
	for i := 0; i < 20; i++ {
		if p := s.asked("alice"); p != nil {
			return p
		}
		if s.asked("bob") != nil {
			s.play("bob")
			continue
		}
		time.Sleep(200 * time.Millisecond)
	}
	s.t.Fatal("alice is never asked")
	return nil
}

func TestAbuseSuite(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	ms := mailstack.Start(t, "referee", "olga", "alice", "bob", "eve", "carl", "ops")
	dir := t.TempDir()
	s := &suite{t: t, ms: ms, box: map[string]*mailbox{}}
	for _, u := range []string{"olga", "alice", "bob", "eve", "carl", "ops"} {
		s.box[u] = &mailbox{t: t, ms: ms, user: u}
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	webAddr := ln.Addr().String()
	ln.Close()
	s.base = "http://" + webAddr
	s.cfgPath = filepath.Join(dir, "referee.toml")
	mgHost, mgCA := s.fakeMailgunAPI(dir)
	cfgText := fmt.Sprintf(`domain = %q
data_dir = %q
organisers = [%q]
[referee]
local_part = "referee"
# Every answer at once: these probes read the answer to each mail they
# send (receipts folding, issue 22, has its own tests).
receipt_window = "0s"
[imap]
addr = %q
tls = "none"
username = %q
password = "referee-pw"
idle = "off"
poll_interval = "100ms"
resync_interval = "5s"
min_backoff = "50ms"
max_backoff = "500ms"
[smtp]
addr = %q
tls = "none"
auth = "none"
min_backoff = "500ms"
max_backoff = "2s"
[webhook]
addr = %q
secret = %q
mailgun_signing_key = %q
mailgun_api_key = %q
mailgun_api_hosts = [%q]
mailgun_api_ca_file = %q
[auth]
trusted_authserv_id = %q
[operator]
address = %q
[log]
level = "warn"
`, mailstack.Domain, filepath.Join(dir, "data"), ms.Address("olga"), ms.IMAPAddr, ms.Address("referee"), ms.MXAddr,
		webAddr, webhookSecret, mailgunKey, mailgunAPIKey, mgHost, mgCA, ourAuthserv, ms.Address("ops"))
	if err := os.WriteFile(s.cfgPath, []byte(cfgText), 0o600); err != nil {
		t.Fatal(err)
	}
	createGame(t, s.cfgPath, ms)
	s.d = &proc{t: t, cfgPath: s.cfgPath, logPath: filepath.Join(dir, "daemon.log")}
	s.d.start()
	defer func() {
		s.d.stop()
		if t.Failed() {
			t.Logf("daemon log:\n%s", s.d.logTail())
		}
	}()
	waitHTTP(t, s.base)

	// Both players join, asking for the JSON view.
	for _, u := range []string{"alice", "bob"} {
		inv := s.box[u].next("inviting", 60*time.Second, func(m *mail) bool { return len(m.m.ReplyTo) > 0 })
		s.say(u, inv, "", "FORMAT json\nJOIN")
	}
	s.box["alice"].next("starting the game", 60*time.Second, func(m *mail) bool { return m.js != nil })
	s.box["bob"].next("starting the game", 60*time.Second, func(m *mail) bool { return m.js != nil })

	type row struct{ probe, got string }
	var table []row
	note := func(probe, format string, args ...any) {
		table = append(table, row{probe, fmt.Sprintf(format, args...)})
	}
	defer func() {
		var b strings.Builder
		for _, r := range table {
			fmt.Fprintf(&b, "  %-46s %s\n", r.probe, r.got)
		}
		t.Logf("probe -> what it gets now:\n%s", b.String())
	}()

	s.forgedSenders(note)
	s.hostileNameMails(note)
	s.wholeMailFuzz(note)
	s.bombs(note)
	s.staleNumbers(note)
	s.autoResponders(note)
	s.outOfOfficeSubjects(note)
	s.hiddenCharacters(note)
	s.forgedBounces(note)
	s.frontDoor(note)
	s.slowFrontDoor(note)
	s.trustChecks(note)
	s.oversized(note)
	s.poison(note)
	s.verify(note)
}

// createGame creates the game on the stopped daemon's store; the
// invitations wait in the outbox.
func createGame(t *testing.T, cfgPath string, ms *mailstack.Stack) {
	t.Helper()
	r, db := offline(t, cfgPath)
	defer db.Close()
	none, _ := referee.ParsePolicy("none")
	ng := referee.NewGame{ID: "g1", Game: "dicebrewing", Organiser: ms.Address("olga"), Seed: "abuse/g1", Policy: &none,
		Invite: []referee.Invitee{{Address: ms.Address("alice"), Name: "alice"}, {Address: ms.Address("bob"), Name: "bob"}}}
	if _, err := r.CreateGame(ng); err != nil {
		t.Fatal(err)
	}
}

func waitHTTP(t *testing.T, base string) {
	t.Helper()
	for i := 0; i < 200; i++ {
		if resp, err := http.Get(base + "/healthz"); err == nil {
			resp.Body.Close()
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatal("the daemon's HTTP listener never came up")
}

// forgedSenders (item 2): sixty-odd mails "from" alice, untagged and with a
// made-up secret, must not silence her: her next genuine mail is answered,
// and she is not flooded with answers to mails she never sent.
func (s *suite) forgedSenders(note func(string, string, ...any)) {
	t := s.t
	alice := s.box["alice"]
	alice.settle(300 * time.Millisecond)
	for i := 0; i < 70; i++ {
		to := "referee+g1.0.aaaaaaaaaaaaaaaa@" + mailstack.Domain
		if i%2 == 0 {
			to = s.addr("referee")
		}
		raw := compose("alice <"+s.addr("alice")+">", to, "Re: your move", newID("eve"), nil, "PASS\nSTATUS")
		s.send(s.addr("eve"), []string{to}, raw)
	}
	p := alice.latest
	r := s.ask("alice", p, "", "STATUS")
	s.sync("alice")
	others := alice.settle(time.Second)
	if len(others) > 2 {
		t.Errorf("70 forged mails brought alice %d mails", len(others))
	}
	if r.js == nil {
		t.Errorf("alice's genuine STATUS got no game view:\n%s", r.m.Text)
	}
	note("70 forged From: alice, then her genuine mail", "genuine mail answered; %d side mails to alice", len(others))

	// REGISTER from a forged From (issue 23, no backscatter): carl gets
	// nothing at all, whatever another server's Authentication-Results
	// says (before: one mail asking him to confirm; 1,000 forged
	// REGISTERs to 1,000 addresses made 1,000 mails).
	carl := s.box["carl"]
	for i := 0; i < 20; i++ {
		var hs []string
		if i%2 == 1 {
			hs = []string{"Authentication-Results: mx.elsewhere.example; dkim=pass header.d=" + mailstack.Domain}
		}
		raw := compose("Mallory <"+s.addr("carl")+">", s.addr("referee"), "register", newID("eve"), hs, "REGISTER Mallory en")
		s.send(s.addr("eve"), []string{s.addr("referee")}, raw)
	}
	s.sync("alice")
	if got := carl.settle(time.Second); len(got) != 0 {
		t.Errorf("20 forged REGISTERs brought carl %d mails", len(got))
	}
	note("20 REGISTERs with a forged From: carl", "0 mails to carl (before: 1 per address); no player")
}

// oversized (item 9): a mail over the size limit is quarantined unread and
// its registered sender told.
func (s *suite) oversized(note func(string, string, ...any)) {
	alice := s.box["alice"]
	s.say("alice", alice.latest, "", strings.Repeat("STATUS and some padding to make it big\n", 32000)) // 1.2 MB
	alice.next("saying the mail was too large", 60*time.Second, func(m *mail) bool { return strings.Contains(m.text(), "too large") })
	note("a 1.2 MB mail (limit 1 MiB)", "quarantined unread; alice told")
}

// bombs (item 1): one mail of HELP lines, then one of LOG, OBSERVE and SAY
// lines. Each gets one answer of bounded size; memory stays bounded.
func (s *suite) bombs(note func(string, string, ...any)) {
	t := s.t
	alice, bob := s.box["alice"], s.box["bob"]
	bob.settle(300 * time.Millisecond)
	help := strings.Repeat("HELP\n", 150000) // 750 KB
	r := s.ask("alice", alice.latest, "", help)
	if len(r.raw) > 200<<10 {
		t.Errorf("the answer to a HELP bomb is %d bytes", len(r.raw))
	}
	if !strings.Contains(r.text(), "answered once") {
		t.Errorf("the answer does not say the repeated commands were answered once:\n%.600s", r.m.Text)
	}
	var b strings.Builder
	for i := 0; i < 2000; i++ {
		b.WriteString("LOG 500\n")
	}
	for i := 0; i < 200; i++ {
		fmt.Fprintf(&b, "OBSERVE x%d\nOBSERVE g1\nSAY all: hello number %d\n", i, i)
	}
	r2 := s.ask("alice", alice.latest, "", b.String())
	if len(r2.raw) > 200<<10 {
		t.Errorf("the answer to a LOG/OBSERVE/SAY bomb is %d bytes", len(r2.raw))
	}
	if !strings.Contains(r2.text(), "not answered") {
		t.Errorf("the answer does not say that questions were left out:\n%.800s", r2.m.Text)
	}
	s.sync("alice")
	extra := alice.settle(time.Second)
	says := 0
	for _, m := range bob.settle(time.Second) {
		says += strings.Count(m.m.Text, "hello number")
	}
	if len(extra) > 1 || says > referee.DefaultMaxInfo {
		t.Errorf("the bomb brought alice %d more mails and bob %d relayed SAYs", len(extra), says)
	}
	rss := s.d.peakRSS()
	if rss > rssLimit {
		t.Errorf("the daemon's peak RSS reached %d MB", rss>>20)
	}
	note("150,000 HELP lines (750 KB)", "one answer of %d KB, \"answered once\"", len(r.raw)>>10)
	note("2,000 LOG 500 + 200 OBSERVE + 200 SAY all", "one answer of %d KB; %d observe mails; %d SAYs relayed", len(r2.raw)>>10, len(extra), says)
	note("peak RSS through the mail bombs", "%d MB (limit %d MB)", rss>>20, rssLimit>>20)
}

// staleNumbers (item 3): alice's "1" answers a prompt; once she is asked
// something else, the same "1" resent to the old prompt is a duplicate,
// and another number to the old prompt is refused, showing both options.
func (s *suite) staleNumbers(note func(string, string, ...any)) {
	t := s.t
	alice := s.box["alice"]
	// Alice answers a numbered prompt with "1"; then the game goes on
	// until she is asked again with numbered options that differ.
	var p0, p1 *mail
	for i := 0; p1 == nil; i++ {
		if i > 40 {
			t.Fatal("alice was never asked two different numbered questions in a row")
		}
		p := s.untilAlice()
		numbered := p.js.Prompt.Numbered
		if p0 != nil && numbered && !slicesEqualCmds(p0, p) {
			p1 = p
			break
		}
		if numbered {
			p0 = p
		} else {
			p0 = nil
		}
		s.play("alice")
	}
	alice.settle(300 * time.Millisecond)
	// The same "1", resent to the old prompt.
	s.say("alice", p0, "", "1")
	s.sync("alice")
	// Never silent (issue 20): told once that it was already applied.
	if got := alice.settle(time.Second); len(got) != 1 || !strings.Contains(got[0].text(), "already applied") {
		t.Errorf("a resent stale 1 got %d mails, want one saying it was already applied", len(got))
	}
	// Another number to the old prompt, whose option has changed.
	n := 0 // not 1: that one was played, so "1" is the resend above
	for i := 1; i < len(p0.js.Legal) && n == 0; i++ {
		if i >= len(p1.js.Legal) || p1.js.Legal[i].Cmd != p0.js.Legal[i].Cmd {
			n = i + 1
		}
	}
	if n == 0 {
		t.Fatal("the old and the new prompt agree on every number")
	}
	r := s.ask("alice", p0, "", fmt.Sprint(n))
	if !strings.Contains(r.text(), "older question") || !strings.Contains(r.text(), p0.js.Legal[n-1].Cmd) {
		t.Errorf("stale %d: the answer does not refuse it showing the old option %q:\n%s", n, p0.js.Legal[n-1].Cmd, r.m.Text)
	}
	if r.js == nil || r.js.Token != p1.js.Token {
		t.Errorf("a stale number changed the state")
	}
	note("resent \"1\" to an answered older prompt", "duplicate: nothing played, told so once")
	note(fmt.Sprintf("\"%d\" to an older prompt, option changed", n), "refused, old %q shown; state unchanged", p0.js.Legal[n-1].Cmd)
}

// autoResponders (item 4): vacation notices without automation headers, in
// six languages, and the same mail ten times.
func (s *suite) autoResponders(note func(string, string, ...any)) {
	t := s.t
	alice := s.box["alice"]
	alice.settle(300 * time.Millisecond)
	bodies := []string{
		"Ich bin bis zum 5. Dezember nicht im Büro. Ihre Nachricht wird nicht weitergeleitet.",
		"Sono fuori ufficio fino al 5 dicembre, con accesso limitato alla posta.",
		"Je suis absente du bureau jusqu'au 5 décembre. Merci de votre message.",
		"Ik ben afwezig tot en met 5 december en lees mijn mail niet.",
		"Estoy fuera de la oficina hasta el 5 de diciembre. Gracias por su mensaje.",
		"I am out of the office until 5 December with limited access to e-mail.",
	}
	for _, body := range bodies {
		s.say("alice", alice.latest, "", body)
	}
	s.sync("alice")
	got := alice.settle(time.Second)
	// A seat's first three mails a day without a command are answered
	// (a player's tries, issue 20), never with an error.
	if len(got) > 3 {
		t.Errorf("six vacation notices got %d answers", len(got))
	}
	for _, m := range got {
		if !strings.Contains(m.text(), "reads as a command") {
			t.Errorf("a vacation notice got an error reply:\n%s", m.m.Text)
		}
	}
	note("vacation bodies de/it/fr/nl/es/en, no headers", "%d answers (the first three a day: nothing read)", len(got))
	// The same mail ten times (a responder that sends back the command
	// it read): answered at most three times.
	orig := alice.latest
	for i := 0; i < 10; i++ {
		s.say("alice", orig, "", "LOG 5")
	}
	s.sync("alice")
	got = alice.settle(time.Second)
	if len(got) > 3 || len(got) == 0 {
		var what []string
		for _, m := range got {
			what = append(what, fmt.Sprintf("%v: %.300s", m.m.InReplyTo, m.text()))
		}
		t.Errorf("ten identical mails got %d answers:\n%s", len(got), strings.Join(what, "\n"))
	} else if told := slices.ContainsFunc(got, func(m *mail) bool { return strings.Contains(m.text(), "same mail") }); !told {
		t.Errorf("no answer says why the others are not answered")
	}
	note("the same LOG 5 mail ten times", "%d answers, one says it stops", len(got))
}

// outOfOfficeSubjects (item 5): real commands under vacation subjects, and
// a forged out-of-office.
func (s *suite) outOfOfficeSubjects(note func(string, string, ...any)) {
	t := s.t
	alice := s.box["alice"]
	from := time.Now().AddDate(0, 0, 7).Format("2006-01-02")
	to := time.Now().AddDate(0, 0, 9).Format("2006-01-02")
	r := s.ask("alice", alice.latest, "On vacation next week", "VACATION "+from+" "+to)
	if !strings.Contains(r.text(), "Absence registered") {
		t.Errorf("VACATION under an out-of-office subject:\n%s", r.m.Text)
	}
	r = s.ask("alice", alice.latest, "absent tomorrow", "STATUS")
	if r == nil {
		t.Error("STATUS under \"absent tomorrow\" was not answered")
	}
	note("VACATION under \"On vacation next week\"", "applied: absence registered")
	note("STATUS under \"absent tomorrow\"", "answered")
	// A forged out-of-office with a made-up secret.
	fake := "referee+g1.0.bbbbbbbbbbbbbbbb@" + mailstack.Domain
	raw := compose("alice <"+s.addr("alice")+">", fake, "Automatic reply: out of office", newID("eve"),
		[]string{"Auto-Submitted: auto-replied"}, "I am away until 30 December.")
	s.send(s.addr("eve"), []string{fake}, raw)
	s.sync("alice")
	if got := alice.settle(time.Second); len(got) != 0 {
		t.Errorf("a forged out-of-office brought alice %d mails", len(got))
	}
	note("forged out-of-office, made-up secret", "ignored: no absence offer")
}

// hiddenCharacters (item 9): PASS with a zero-width space or a bidi
// override inside is refused, not played.
func (s *suite) hiddenCharacters(note func(string, string, ...any)) {
	t := s.t
	p := s.untilAlice()
	// Issue 23: bidi controls at a word's edge and confusable letters too.
	for _, cmd := range []string{"PA\u200bSS", "PA\u202eSS", "\u202ePASS", "PASS\u2069", "P\u0410SS", "\uff30\uff21\uff33\uff33"} {
		r := s.ask("alice", p, "", cmd)
		if r.js == nil || r.js.Token != p.js.Token || strings.Contains(r.text(), "PASS:") {
			t.Errorf("%q was played:\n%s", cmd, r.m.Text)
		}
	}
	note("PA<U+200B>SS, PA<U+202E>SS, <U+202E>PASS, PASS<U+2069>, P<Cyrillic A>SS, fullwidth PASS", "refused; state unchanged (before: <U+202E>PASS played)")
}

// forgedBounces (item 6): delivery reports about alice without a VERP id
// of ours change nothing and alert nobody; reports through a real VERP id
// about bob alert the organiser at most three times, quoting the remote
// text.
func (s *suite) forgedBounces(note func(string, string, ...any)) {
	t := s.t
	olga, bob := s.box["olga"], s.box["bob"]
	olga.settle(300 * time.Millisecond)
	dsn := func(to, rcpt, id string) []byte {
		return []byte("From: Mail Delivery System <MAILER-DAEMON@" + mailstack.Domain + ">\r\nTo: " + to + "\r\n" +
			"Subject: Undelivered Mail Returned to Sender\r\nMessage-ID: " + id + "\r\nDate: " + time.Now().Format(time.RFC1123Z) +
			"\r\nAuto-Submitted: auto-replied\r\nMIME-Version: 1.0\r\n" +
			"Content-Type: multipart/report; report-type=delivery-status; boundary=\"b\"\r\n\r\n--b\r\nContent-Type: text/plain\r\n\r\nBounced.\r\n" +
			"--b\r\nContent-Type: message/delivery-status\r\n\r\nReporting-MTA: dns; mx.evil.example\r\n\r\nFinal-Recipient: rfc822; " + rcpt + "\r\n" +
			"Action: failed\r\nStatus: 5.1.1\r\nDiagnostic-Code: smtp; 550 5.1.1 account closed, reset it at http://evil.example/\r\n\r\n--b--\r\n")
	}
	for i := 0; i < 5; i++ {
		to := s.addr("referee")
		if i%2 == 1 {
			to = "referee+bounce.0123456789abcdef@" + mailstack.Domain
		}
		s.send("", []string{to}, dsn(to, s.addr("alice"), newID("eve")))
	}
	s.sync("alice")
	if got := olga.settle(time.Second); len(got) != 0 {
		t.Errorf("five forged bounces sent the organiser %d alerts", len(got))
	}
	note("5 DSNs about alice, no VERP id of ours", "ignored: alice not failing, no alert")
	// Through the VERP address of a real mail to bob.
	bob.poll()
	verp := ""
	for _, m := range append([]*mail{bob.latest}, bob.unread...) {
		if m == nil {
			continue
		}
		if rp := m.m.Header("Return-Path"); len(rp) > 0 && strings.Contains(rp[0], "+bounce.") {
			verp = strings.Trim(rp[0], "<> ")
		}
	}
	if verp == "" {
		t.Fatal("bob's mail has no VERP Return-Path")
	}
	for i := 0; i < 5; i++ {
		s.send("", []string{verp}, dsn(verp, s.addr("bob"), newID("mx")))
	}
	got := olga.next("alerting the bounce", 30*time.Second, func(m *mail) bool { return strings.Contains(m.text(), "bounced") })
	if !strings.Contains(got.m.Text, "  > 5.1.1 550 5.1.1 account closed") || !strings.Contains(got.m.Text, "unchecked") {
		t.Errorf("the diagnostic is not quoted as untrusted:\n%s", got.m.Text)
	}
	more := olga.settle(1500 * time.Millisecond)
	if n := 1 + len(more); n > 3 {
		t.Errorf("five real bounces sent %d alerts", n)
	}
	note("5 DSNs for bob through a real VERP id", "%d alerts (at most 3 a day), diagnostic quoted", 1+len(more))
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
		ts := fmt.Sprint(time.Now().Unix())
		m := hmac.New(sha256.New, []byte(mailgunKey))
		m.Write([]byte(ts + token))
		f := url.Values{"timestamp": {ts}, "token": {token}, "signature": {hex.EncodeToString(m.Sum(nil))},
			"body-mime": {string(raw)}, "recipient": {orig.m.ReplyTo[0].Addr}}
		resp, err := client.PostForm(s.base+"/inbound/mailgun/mime", f)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var out struct{ Status, Error string }
		json.NewDecoder(resp.Body).Decode(&out)
		return resp.StatusCode, out.Status + out.Error
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
		ts := fmt.Sprint(time.Now().Unix())
		m := hmac.New(sha256.New, []byte(mailgunKey))
		m.Write([]byte(ts + token))
		f := url.Values{"timestamp": {ts}, "token": {token}, "signature": {hex.EncodeToString(m.Sum(nil))},
			"message-url": {s.mgAPI + "/v3/domains/" + mailstack.Domain + "/messages/stored1"}, "recipient": {orig.m.ReplyTo[0].Addr}}
		if body != "" {
			f.Set("body-mime", body)
		}
		resp, err := client.PostForm(s.base+"/inbound/mailgun", f)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var out struct{ Status, Error string }
		json.NewDecoder(resp.Body).Decode(&out)
		return resp.StatusCode, out.Status + out.Error
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

// poison (item 1): a mail that kills the daemon each time it is handed
// over is quarantined after three crashes, alice is told, and the intake
// moves on to her next mail.
func (s *suite) poison(note func(string, string, ...any)) {
	t := s.t
	alice := s.box["alice"]
	alice.settle(300 * time.Millisecond)
	before := s.d.crashCount()
	s.say("alice", alice.latest, "", "STATUS", crashHeader)
	told := alice.next("telling alice her mail was set aside", 90*time.Second, func(m *mail) bool {
		return strings.Contains(m.text(), "could not be read")
	})
	crashes := s.d.crashCount() - before
	if crashes != 3 {
		t.Errorf("the poison message crashed the daemon %d times, want 3", crashes)
	}
	_ = told
	// Issue 23: the operator is told by mail (operator.address).
	ops := s.box["ops"].next("telling the operator", 60*time.Second, func(m *mail) bool {
		return strings.Contains(m.text(), "set aside") && strings.Contains(m.text(), "crashed")
	})
	for _, l := range strings.Split(ops.m.Text, "\n") {
		if len([]rune(strings.TrimRight(l, "\r"))) > 80 {
			t.Errorf("the operator's mail has a line over 80 columns: %q", l)
		}
	}
	s.ask("alice", alice.latest, "", "STATUS")
	note("a mail that kills the daemon (SIGKILL)", "%d crashes, then quarantined; alice and the operator told; intake moves on", crashes)
}

// verify stops the daemon and checks the whole run: nothing lost (the
// referee's INBOX is empty, the outbox drained), the game holds exactly
// the genuine moves, nobody was marked failing or offered an absence by a
// forger.
func (s *suite) verify(note func(string, string, ...any)) {
	t := s.t
	deadline := time.Now().Add(30 * time.Second)
	for s.ms.Count(t, "referee", "INBOX") != 0 {
		if time.Now().After(deadline) {
			t.Fatalf("the referee's INBOX still holds %d mails", s.ms.Count(t, "referee", "INBOX"))
		}
		time.Sleep(100 * time.Millisecond)
	}
	time.Sleep(2 * time.Second) // the last answers leave the outbox
	s.d.stop()
	r, db := offline(t, s.cfgPath)
	defer db.Close()
	if err := db.Check(); err != nil {
		t.Errorf("store: %v", err)
	}
	lg, err := r.ExportLog("g1", true)
	if err != nil {
		t.Fatal(err)
	}
	human := 0
	for _, st := range lg.Steps {
		if st.How == "move" || st.How == "queued" {
			human++
		}
	}
	if human != s.genuine {
		t.Errorf("the game holds %d moves by players, the genuine players made %d", human, s.genuine)
	}
	g, err := r.GameRecord("g1")
	if err != nil {
		t.Fatal(err)
	}
	queued := 0
	var alice referee.Player
	db.View(func(tx *store.Tx) error {
		queued = tx.QueueLen(referee.OutboxQueue)
		raw, err := tx.Player(s.addr("alice"))
		if err == nil {
			json.Unmarshal(raw, &alice)
		}
		return nil
	})
	if queued != 0 {
		t.Errorf("%d mails still queued in the outbox", queued)
	}
	if alice.Failing || alice.Bounces != 0 {
		t.Errorf("forged bounces marked alice: failing=%v bounces=%d", alice.Failing, alice.Bounces)
	}
	for _, st := range g.Seats {
		if st.AbsenceOffer != nil {
			t.Errorf("%s has an absence offer nobody made", st.Name)
		}
	}
	quarantined := s.ms.Count(t, "referee", "Quarantine")
	if quarantined != 2+s.extraQuarantined {
		t.Errorf("%d mails in quarantine, want the oversized and the poison message and %d fuzzed ones:\n%s", quarantined,
			s.extraQuarantined, s.d.logLines("quarantining mail"))
	}
	var carl referee.Player
	db.View(func(tx *store.Tx) error {
		raw, err := tx.Player(s.addr("carl"))
		if err == nil {
			json.Unmarshal(raw, &carl)
		}
		return nil
	})
	if !carl.Pending {
		t.Errorf("a forged REGISTER made carl a player: %+v", carl)
	}
	note("whole run", "%d player moves = %d genuine; INBOX empty; outbox drained; %d quarantined", human, s.genuine, quarantined)
}

// slicesEqualCmds reports whether two prompts list the same options.
func slicesEqualCmds(a, b *mail) bool {
	if len(a.js.Legal) != len(b.js.Legal) {
		return false
	}
	for i := range a.js.Legal {
		if a.js.Legal[i].Cmd != b.js.Legal[i].Cmd {
			return false
		}
	}
	return true
}

// offline opens the stopped daemon's store and referee from its
// configuration file, as the organiser's command line does; the caller
// closes the store.
func offline(t *testing.T, cfgPath string) (*referee.Referee, *store.DB) {
	t.Helper()
	cfg, err := config.Load(cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	r, db, err := daemon.Offline(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return r, db
}
