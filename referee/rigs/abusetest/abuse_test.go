package abusetest

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	_ "github.com/pbem-referee/referee/engine/dicebrewing"
	"github.com/pbem-referee/referee/referee"
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
	cmd, played := p.js.Legal[0].Cmd, p.js.Legal[0].Cmd
	if p.js.Prompt.Numbered {
		cmd, played = "1", p.js.Prompt.Options[0].Cmd
	}
	r := s.ask(user, p, "", cmd)
	if r.js == nil || r.js.Token <= p.js.Token {
		s.t.Fatalf("%s's 1 did not play %q:\n%s", user, played, r.m.Text)
	}
	s.genuine += r.moves()
	return r
}

// moves is the number of moves the answer says the player's line played:
// one per command after its "=>" ("1  =>  BUY FRUIT; NOBUY": the last
// purchase line ends the turn, two moves), else one.
func (m *mail) moves() int {
	for _, l := range strings.Split(m.m.Text, "\n") {
		if _, played, ok := strings.Cut(l, "=>"); ok {
			return 1 + strings.Count(played, ";")
		}
	}
	return 1
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
	s.placedSignature(note)
	s.keywordCompany(note)
	s.personShapedAnswers(note)
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
