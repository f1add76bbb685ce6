package crashtest

import (
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/pbem-referee/referee/engine"
	_ "github.com/pbem-referee/referee/engine/brewcrafters"
	_ "github.com/pbem-referee/referee/engine/dicebrewing"
	_ "github.com/pbem-referee/referee/engine/fromage"
	_ "github.com/pbem-referee/referee/engine/heavenale"
	"github.com/pbem-referee/referee/mailfmt/mailmsg"
	"github.com/pbem-referee/referee/referee"
	"github.com/pbem-referee/referee/referee/rigs/mailstack"
	"github.com/pbem-referee/referee/referee/rigs/testkit"
	"github.com/pbem-referee/referee/referee/wiring/config"
	"github.com/pbem-referee/referee/referee/wiring/daemon"
	"github.com/pbem-referee/referee/store"
)

const daemonEnv = "REFEREE_CRASHTEST_CONFIG"

// TestMain doubles as the daemon: the test re-executes its own binary with
// the configuration path in the environment, so that the daemon is a real
// process that can be killed.
func TestMain(m *testing.M) {
	if path := os.Getenv(daemonEnv); path != "" {
		os.Exit(runDaemon(path))
	}
	os.Exit(m.Run())
}

func runDaemon(path string) int {
	cfg, err := config.Load(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	d, err := daemon.New(cfg, daemon.Options{})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	if err := d.Run(ctx); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// A game of the tournament.
type spec struct {
	id, game string
	options  map[string]string
	ruleset  string // file of an organiser data override, "" for none
	players  []string
	// sleepy is a player who now and then does not answer (see sleeps):
	// the game has deadlines, and the default move is played for them,
	// so that deadlines fire across the crashes too.
	sleepy string
}

// deadline is the decision time of the games with a sleepy player: long
// enough that an awake bot always answers in time, kills included.
const deadline = 12 * time.Second

// maxSleeps bounds how many decisions a sleepy player lets expire.
const maxSleeps = 3

// sleeps decides, the same way in the mail run and in the simulation,
// whether the sleepy player lets this decision expire (n: the decisions it
// let expire so far).
func sleeps(game string, seat, token int, d engine.Decision, n int) bool {
	return n < maxSleeps && choose(game+"/sleep", seat, token, d, 4) == 0
}

func specs() []spec {
	return []spec{
		{id: "db1", game: "dicebrewing", options: map[string]string{"round_limit": "6"}, players: []string{"ann", "bob"}},
		{id: "fr1", game: "fromage", options: map[string]string{"venues": "CFDB", "tile": "structure", "boards": "fixed"},
			ruleset: "../../../engine/fromage/testdata/short.toml", players: []string{"cat", "dan"}},
		{id: "db2", game: "dicebrewing", options: map[string]string{"round_limit": "4", "unlucky_roll": "true"}, players: []string{"eve", "fay", "gus"},
			sleepy: "gus"},
		{id: "ha1", game: "heavenale", options: map[string]string{"start_player": "1"},
			ruleset: "../../../engine/heavenale/testdata/short.toml", players: []string{"hal", "ivy"}},
		{id: "bc1", game: "brewcrafters", options: map[string]string{"start_player": "1"},
			ruleset: "../../../engine/brewcrafters/testdata/short.toml", players: []string{"jay", "kim"}},
	}
}

// choose is the bots' deterministic choice among the legal answers: the
// same in the mail run and in the uninterrupted simulation.
func choose(game string, seat, token int, d engine.Decision, n int) int {
	h := fnv.New64a()
	fmt.Fprintf(h, "%s/%d/%d/%s/%s", game, seat, token, d.Kind, d.Group)
	return int(h.Sum64() % uint64(n))
}

func TestExactlyOnceUnderSIGKILL(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	users := []string{"referee", "olga"}
	for _, s := range specs() {
		users = append(users, s.players...)
	}
	ms := mailstack.Start(t, users...)
	dir := t.TempDir()
	cfgPath := filepath.Join(dir, "referee.toml")
	cfgText := fmt.Sprintf(`domain = %q
data_dir = %q
organisers = [%q]
[referee]
local_part = "referee"
[imap]
addr = %q
tls = "none"
username = %q
password = "referee-pw"
idle = "off"
poll_interval = "150ms"
resync_interval = "5s"
min_backoff = "50ms"
max_backoff = "1s"
# The kills here are the test's, not the mail's: on a loaded machine several
# kills can land while one slow mail is handled, and the poison-mail rule
# (quarantine after 3 crashes, tested in referee/rigs/abusetest) would set a
# sound mail aside and stall the tournament.
max_crashes = -1
[smtp]
addr = %q
tls = "none"
auth = "none"
min_backoff = "1s"
max_backoff = "5s"
[log]
level = "warn"
`, mailstack.Domain, filepath.Join(dir, "data"), ms.Address("olga"), ms.IMAPAddr, ms.Address("referee"), ms.MXAddr)
	if err := os.WriteFile(cfgPath, []byte(cfgText), 0o600); err != nil {
		t.Fatal(err)
	}
	createGames(t, cfgPath, ms)

	// The bots.
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()
	var wg sync.WaitGroup
	var bots []*bot
	for _, s := range specs() {
		for _, p := range s.players {
			b := &bot{ms: ms, user: p, game: s.id, engine: s.game, answered: map[string]int{}, slept: map[string]bool{},
				sleepy: p == s.sleepy, t: t, w: &testkit.Writer{User: p, Name: p, Lang: "en", Seed: "crash/" + s.id}}
			bots = append(bots, b)
			wg.Add(1)
			go func() { defer wg.Done(); b.run(ctx) }()
		}
	}

	// The daemon, killed with SIGKILL at random moments and restarted.
	rng := rand.New(rand.NewPCG(42, 7))
	kills := 0
	var cmd *exec.Cmd
	start := func() {
		cmd = exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), daemonEnv+"="+cfgPath)
		logf, _ := os.OpenFile(filepath.Join(dir, "daemon.log"), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
		cmd.Stdout, cmd.Stderr = logf, logf
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
	}
	start()
	allDone := func() bool {
		for _, b := range bots {
			if !b.isDone() {
				return false
			}
		}
		return true
	}
	for kills < nominalKills && !allDone() && ctx.Err() == nil {
		time.Sleep(time.Duration(300+rng.IntN(1200)) * time.Millisecond)
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()
		kills++
		start()
	}
	for !allDone() && ctx.Err() == nil {
		time.Sleep(200 * time.Millisecond)
	}
	// The last mails leave the outbox before the daemon stops.
	time.Sleep(2 * time.Second)
	cmd.Process.Signal(syscall.SIGTERM)
	cmd.Wait()
	cancel()
	wg.Wait()
	if !allDone() {
		log, _ := os.ReadFile(filepath.Join(dir, "daemon.log"))
		t.Fatalf("the tournament did not finish (%d kills); daemon log:\n%s", kills, tail(log, 4000))
	}
	if kills < nominalKills {
		t.Errorf("the tournament finished after %d kills, fewer than the nominal %d", kills, nominalKills)
	}
	retries, sleeps := 0, 0
	for _, b := range bots {
		retries += b.retries
		sleeps += b.sleeps
	}
	t.Logf("%d kills of the daemon during the tournament; %d answers sent again; %d deadlines let expire", kills, retries, sleeps)
	if sleeps == 0 {
		t.Error("no deadline expired: the sleepy player never slept")
	}
	verify(t, cfgPath, ms, bots)
	checkMailboxes(t, cfgPath, ms, kills, func() { start() }, func() {
		cmd.Process.Signal(syscall.SIGTERM)
		cmd.Wait()
	})
}

// nominalKills is the number of SIGKILLs the tournament must survive.
const nominalKills = 15

// createGames creates the tournament's games on the stopped daemon's store;
// the invitations wait in the outbox.
func createGames(t *testing.T, cfgPath string, ms *mailstack.Stack) {
	t.Helper()
	r, db := offline(t, cfgPath)
	defer db.Close()
	none, _ := referee.ParsePolicy("none")
	timed := referee.DefaultPolicy()
	timed.Hours, timed.MissLimit = map[string]float64{"*": deadline.Hours()}, 0 // never a bot: the simulation plays defaults
	for _, s := range specs() {
		pol := &none
		if s.sleepy != "" {
			pol = &timed
		}
		ng := referee.NewGame{ID: s.id, Game: s.game, Options: s.options, Organiser: ms.Address("olga"), Seed: "crash/" + s.id, Policy: pol}
		if s.ruleset != "" {
			var err error
			if ng.Ruleset, err = os.ReadFile(s.ruleset); err != nil {
				t.Fatal(err)
			}
		}
		for _, p := range s.players {
			ng.Invite = append(ng.Invite, referee.Invitee{Address: ms.Address(p), Name: p})
		}
		if _, err := r.CreateGame(ng); err != nil {
			t.Fatal(err)
		}
	}
}

// bot is a player reading its Dovecot mailbox and answering over Postfix,
// the way a person does: every mail it sends has a fresh Message-ID, and
// when the same question comes again (a mail doubled by a crash, a
// reminder) it answers again, at most maxRetries times. The referee must
// recognise those answers as resends: nothing may be played twice.
type bot struct {
	t        *testing.T
	ms       *mailstack.Stack
	user     string
	game     string
	engine   string
	mu       sync.Mutex
	done     bool
	joined   bool
	lastUID  uint32
	answered map[string]int // decision key -> answers sent
	sleepy   bool
	slept    map[string]bool // decision key -> let it expire
	sleeps   int
	sent     int
	retries  int
	final    bool // the final mail (with the result) arrived
	// w writes the bot's mails as a person does: a client's layout drawn
	// per mail (testkit.Writer), seeded by the bot's user.
	w *testkit.Writer
	// The last answer, for an impatient resend.
	last    []byte
	lastKey string
	lastCmd string
	lastAt  time.Time
}

// maxRetries bounds the answers a bot sends again to the same question.
const maxRetries = 2

func (b *bot) isDone() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.done
}

type mailJSON struct {
	Game   string          `json:"game"`
	Seat   int             `json:"seat"`
	Token  int             `json:"token"`
	Prompt *engine.Prompt  `json:"prompt"`
	Legal  []engine.Option `json:"legal"`
	Result *engine.Result  `json:"result"`
}

func (b *bot) run(ctx context.Context) {
	for ctx.Err() == nil && !b.isDone() {
		msgs, err := b.fetch()
		if err != nil {
			time.Sleep(200 * time.Millisecond)
			continue
		}
		for _, m := range msgs {
			b.read(m)
		}
		// An impatient player: no news a while after answering, the
		// same answer again (a fresh Message-ID, as a mail client's
		// "send again" gives).
		if len(msgs) == 0 && b.last != nil && time.Since(b.lastAt) > impatience && b.answered[b.lastKey] <= maxRetries {
			b.answered[b.lastKey]++
			b.retries++
			b.sent++
			b.lastAt = time.Now()
			b.reply(b.last, fmt.Sprintf("bot.%s.%d.%d", b.user, b.sent, time.Now().UnixNano()), b.lastCmd)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// impatience is how long a bot waits for news before answering again.
const impatience = 3 * time.Second

func (b *bot) fetch() (out []mailstack.Message, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%v", r)
		}
	}()
	for _, m := range b.ms.Messages(b.t, b.user, "INBOX") {
		if uint32(m.UID) > b.lastUID {
			out = append(out, m)
		}
	}
	return out, nil
}

func (b *bot) read(m mailstack.Message) {
	b.lastUID = uint32(m.UID)
	msg, err := mailmsg.Parse(m.Raw, mailmsg.Options{})
	if err != nil || len(msg.ReplyTo) == 0 {
		return
	}
	js := testkit.JSONPart(m.Raw)
	if js == nil {
		if !b.joined && strings.Contains(msg.Text, "JOIN") {
			b.joined = true
			b.reply(m.Raw, "join."+b.user, "FORMAT json\nJOIN")
		}
		return
	}
	var v mailJSON
	if err := json.Unmarshal(js, &v); err != nil {
		return
	}
	var lg engine.Log
	if json.Unmarshal(js, &lg) == nil && len(lg.Steps) > 0 { // the final mail carries the game's log
		b.mu.Lock()
		b.done, b.final = true, true
		b.mu.Unlock()
		return
	}
	if v.Result != nil {
		b.mu.Lock()
		b.done, b.final = true, true
		b.mu.Unlock()
		return
	}
	if v.Prompt == nil || len(v.Legal) == 0 {
		return
	}
	d := v.Prompt.Decision
	key := fmt.Sprintf("%s.%d.%d.%s.%s", v.Game, v.Seat, v.Token, d.Kind, d.Group)
	if b.sleepy {
		if _, seen := b.slept[key]; !seen {
			b.slept[key] = sleeps(v.Game, v.Seat, v.Token, d, b.sleeps)
			if b.slept[key] {
				b.sleeps++
			}
		}
		if b.slept[key] {
			return // the deadline plays the default
		}
	}
	n := b.answered[key]
	if n > maxRetries {
		return
	}
	b.answered[key] = n + 1
	if n > 0 {
		b.retries++
	}
	i := choose(v.Game, v.Seat, v.Token, d, len(v.Legal))
	b.sent++
	id := fmt.Sprintf("bot.%s.%d.%d", b.user, b.sent, time.Now().UnixNano())
	b.reply(m.Raw, id, v.Legal[i].Cmd)
	b.last, b.lastKey, b.lastCmd, b.lastAt = m.Raw, key, v.Legal[i].Cmd, time.Now()
}

// reply answers the referee's mail orig with text in a layout drawn for
// this mail (Gmail, Outlook, Apple Mail or Thunderbird; a greeting and a
// sign-off now and then; a signature; the referee's mail quoted above or
// below), under Message-ID <id@the client's domain>.
func (b *bot) reply(orig []byte, id, text string) {
	to, raw, _ := b.w.Reply(b.t, orig, b.ms.Address(b.user), id, text)
	for i := 0; i < 50; i++ {
		if err := b.ms.SendErr(b.ms.Address(b.user), []string{to}, raw); err == nil {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	b.t.Errorf("%s could not send its reply %s", b.user, id)
}

// verify compares every game with an uninterrupted simulation.
func verify(t *testing.T, cfgPath string, ms *mailstack.Stack, bots []*bot) {
	r, db := offline(t, cfgPath)
	defer db.Close()
	if err := db.Check(); err != nil {
		t.Fatalf("store: %v", err)
	}
	for _, s := range specs() {
		g, err := r.GameRecord(s.id)
		if err != nil {
			t.Fatal(err)
		}
		if g.Status != referee.StatusOver {
			t.Errorf("%s: status %s", s.id, g.Status)
			continue
		}
		lg, err := r.ExportLog(s.id, true)
		if err != nil {
			t.Fatal(err)
		}
		// No move lost or doubled: the steps' tokens run 1, 2, 3, ...
		for i, st := range lg.Steps {
			if st.Token != i+1 {
				t.Fatalf("%s: step %d has token %d", s.id, i+1, st.Token)
			}
		}
		eg, _ := engine.Lookup(s.game)
		got, err := engine.Replay(eg, *lg)
		if err != nil {
			t.Fatalf("%s: the published log does not replay: %v", s.id, err)
		}
		want := simulate(t, s, lg.Config)
		gh, _ := engine.StateHash(got)
		wh, _ := engine.StateHash(want)
		if gh != wh {
			t.Errorf("%s: final state differs from the uninterrupted run (%d vs %d moves)", s.id, got.Head().Moves, want.Head().Moves)
		} else {
			t.Logf("%s: %d moves, final state identical to the uninterrupted run", s.id, got.Head().Moves)
		}
	}
	for _, b := range bots {
		if !b.final {
			t.Errorf("%s never got the final mail", b.user)
		}
	}
}

// simulate plays a game without any mail: the same seeds, the same bot
// choices, no interruption.
func simulate(t *testing.T, s spec, cfg engine.Config) engine.State {
	t.Helper()
	eg, _ := engine.Lookup(s.game)
	if s.ruleset != "" {
		data, err := os.ReadFile(s.ruleset)
		if err != nil {
			t.Fatal(err)
		}
		cfg.Ruleset = data
	}
	tb, _, _, err := engine.NewTable(eg, cfg)
	if err != nil {
		t.Fatal(err)
	}
	sleepy, slept := -1, 0
	for i, p := range s.players {
		if p == s.sleepy {
			sleepy = i
		}
	}
	seen := map[string]bool{}
	for n := 0; tb.State.Result() == nil; n++ {
		if n > 100000 {
			t.Fatalf("%s: the simulation does not end", s.id)
		}
		w := tb.Waiting()
		d := tb.Prompts[w[0].Seat].Decision
		opts := tb.State.Legal(d)
		// The sleepy player's seat is the seat of that address after the
		// seat order was drawn: the seat names are the players' names.
		if sleepy >= 0 && cfg.Seats[d.Seat] == s.sleepy {
			key := fmt.Sprintf("%d.%d.%s.%s", d.Seat, tb.Token(), d.Kind, d.Group)
			if !seen[key] {
				seen[key] = true
				if sleeps(s.id, d.Seat, tb.Token(), d, slept) {
					slept++
					if _, err := tb.Expire(d.Seat); err != nil {
						t.Fatalf("%s: simulated expiry: %v", s.id, err)
					}
					continue
				}
			}
		}
		i := choose(s.id, d.Seat, tb.Token(), d, len(opts))
		rep, err := tb.Submit(d.Seat, engine.ParseScript(opts[i].Cmd), tb.Token())
		if err != nil || rep.Rejected {
			t.Fatalf("%s: simulated %q refused: %v %+v", s.id, opts[i].Cmd, err, rep)
		}
	}
	return tb.State
}

func tail(b []byte, n int) string {
	if len(b) > n {
		b = b[len(b)-n:]
	}
	return string(b)
}

// checkMailboxes compares every mailbox with the outbox once the daemon is
// stopped: each mail the referee recorded as sent is in its recipient's
// INBOX (nothing lost); a mail is there twice only within the documented
// window between the server's 250 and the commit (at most one per kill and
// sender worker); nothing is left queued (the daemon is run again briefly
// until the outbox is empty).
func checkMailboxes(t *testing.T, cfgPath string, ms *mailstack.Stack, kills int, start, stop func()) {
	t.Helper()
	cfg, err := config.Load(cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	var queued int
	var sent []store.Item
	for attempt := 0; ; attempt++ {
		db, err := store.Open(cfg.StorePath(), nil)
		if err != nil {
			t.Fatal(err)
		}
		sent = sent[:0]
		db.View(func(tx *store.Tx) error {
			queued = tx.QueueLen(referee.OutboxQueue)
			return tx.Retired(referee.OutboxQueue, func(it store.Item) error {
				if it.State == store.Sent {
					sent = append(sent, it)
				}
				return nil
			})
		})
		db.Close()
		if queued == 0 || attempt == 5 {
			break
		}
		start()
		time.Sleep(3 * time.Second)
		stop()
	}
	if queued != 0 {
		t.Errorf("%d mails are still queued in the outbox", queued)
	}
	users := []string{"olga"}
	for _, s := range specs() {
		users = append(users, s.players...)
	}
	inbox := map[string]map[string]int{} // address -> Message-ID -> copies
	for _, u := range users {
		got := map[string]int{}
		for _, m := range ms.Messages(t, u, "INBOX") {
			pm, err := mailmsg.Parse(m.Raw, mailmsg.Options{MaxBytes: 8 << 20})
			if err == nil {
				got[pm.MessageID]++
			}
		}
		inbox[ms.Address(u)] = got
	}
	lost, doubled, checked := 0, 0, 0
	for _, it := range sent {
		got, ok := inbox[strings.ToLower(it.To)]
		if !ok {
			continue
		}
		checked++
		switch n := got[it.Key]; {
		case n == 0:
			lost++
			t.Errorf("%s to %s was recorded as sent but is not in the mailbox", it.Key, it.To)
		case n > 1:
			doubled += n - 1
		}
	}
	const workers = 2 // the sender's default
	if doubled > kills*workers {
		t.Errorf("%d mails arrived twice, more than the %d kills x %d workers the commit window allows", doubled, kills, workers)
	}
	t.Logf("mailboxes against the outbox: %d sent mails checked, %d lost, %d doubled, %d queued", checked, lost, doubled, queued)
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
