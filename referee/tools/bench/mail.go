package bench

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"runtime/pprof"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/referee"
	"github.com/pbem-referee/referee/referee/edge/mailin"
	"github.com/pbem-referee/referee/referee/tools/demo"
	"github.com/pbem-referee/referee/referee/wiring/daemon"
)

// Throughput is one run of bot traffic through a mail stack.
type Throughput struct {
	// Referee is "referee" or "echo".
	Referee string `json:"referee"`
	// Games is the number of concurrent games (for the echo: concurrent
	// players, one per game of the referee run); Players the seats per
	// game.
	Games   int `json:"games"`
	Players int `json:"players"`
	// Seconds is the wall time from the first mail to the last.
	Seconds float64 `json:"seconds"`
	// Moves is the number of engine moves applied (for the echo: mails
	// answered, one "move" each); PlayerMails the mails players sent and
	// Mails every mail delivered, both directions.
	Moves       int `json:"moves"`
	PlayerMails int `json:"player_mails"`
	Mails       int `json:"mails"`
	// MovesPerSec and MailsPerSec are Moves and Mails over Seconds.
	MovesPerSec float64 `json:"moves_per_sec"`
	MailsPerSec float64 `json:"mails_per_sec"`
	// Latency is from a player's mail being appended to the referee's
	// mailbox to the referee's answer being appended to the player's
	// (measured at the mail server; only on the embedded stack). The
	// referee holds a receipt that asks nothing and folds it into the
	// player's next mail (issue 22), so its answer to a move often comes
	// after the other seats moved: Reaction is the referee's own part,
	// from a player's mail being appended to the referee's mailbox to the
	// first mail the referee queued for it (the Outcome's Replies, to any
	// seat) being appended to its reader's; for the echo, its reply.
	Latency  *Dist `json:"latency,omitempty"`
	Reaction *Dist `json:"reaction,omitempty"`
	// Stages split the reaction (embedded stack): Wait from the mail's
	// arrival to its hand-over to the handler (the intake: the look at
	// the mailbox, the fetch, the attempts on record, the mails of the
	// fetch before it), Handler the handler's call (wall time: parse,
	// apply, tell, the commit), Send from the handler's return to the
	// first mail it queued delivered (the sender; negative when the mail
	// was out before the call returned). All three are wall times: on
	// the embedded stack they include the waits for a core that the
	// players and the mail servers hold, and Handler the wait for the
	// store's group commit (the fsync).
	Stages *Stages `json:"stages,omitempty"`
	// RoundTrip is from the player's SMTP server accepting its mail to the
	// player reading the answer (measured at the player; every stack).
	RoundTrip *Dist `json:"round_trip"`
	// OutPerIn is the mails the referee (or echo) sent per mail it
	// received, and OutBytes their mean size (embedded stack only): the
	// echo run copies both from the referee run, to compare like with
	// like.
	OutPerIn float64 `json:"out_per_in,omitempty"`
	OutBytes int     `json:"out_bytes,omitempty"`
	// Commits is the store's write transactions during the run (grouped
	// ones counting once) and CommitsPerInput the same per player mail;
	// DiskSeconds the time spent writing them, fsyncs included.
	Commits         int64   `json:"commits"`
	CommitsPerInput float64 `json:"commits_per_input"`
	DiskSeconds     float64 `json:"disk_seconds"`
	// DiskBytesPerInput is what the store wrote to its file per player
	// mail (every page of every commit: store.WriteStats, issue 25), and
	// DataBytesPerInput the log entries and queue rows it added per player
	// mail, the figure the disk bytes are held to.
	DiskBytesPerInput    float64 `json:"disk_bytes_per_input"`
	DataBytesPerInput    float64 `json:"data_bytes_per_input"`
	diskBytes, dataBytes int64
	// PagesPerInput (Options.Pages) is the pages the store's commits
	// wrote per player mail, by top-level bucket and kind ("log.flat
	// leaf", "meta": one a commit; store.DB.PageCensus): what
	// DiskBytesPerInput is made of, page by page.
	PagesPerInput map[string]float64 `json:"pages_per_input,omitempty"`
	pages         map[string]int64
	// HeaderMerges is how many times the store merged the tree of its
	// top-level buckets back into one leaf (store.DB.HeaderMerges).
	HeaderMerges int64 `json:"header_merges"`
	// CPUSeconds is the process's CPU time during the run (servers,
	// daemon and bots together when the stack is embedded).
	CPUSeconds float64 `json:"cpu_seconds"`
	// HandlerCPU is the mail handler's own CPU time per mail it handled
	// (the referee's intake, or the echo), in milliseconds, on its
	// thread (handlerCPU): parse, apply, tell, render, and the store's
	// commits its goroutine wrote. It leaves out the commits of its
	// writes that another goroutine wrote: a caller that finds a commit
	// being written waits, and the store starts a goroutine to write the
	// next group (store.DB.Group; in a profile, group.(*Group[...]).lead
	// outside HandleMail, where the sender's delivery records are too).
	// It includes the garbage collector's assists its goroutine paid,
	// which grow with the whole process's garbage. (The runtime's
	// /cpu/classes/gc figures are no substitute for a profile: they
	// count idle processors as the collector's.)
	HandlerCPU float64 `json:"handler_cpu_ms"`
	// GroupCPU is the CPU time of the commits HandlerCPU leaves out, per
	// mail handled, in milliseconds: the groups the store wrote on
	// goroutines of its own (store.DB.MeasureGroupCPU), whoever's writes
	// they held: the handler's, the sender's delivery records, the
	// intake's attempts. HandlerCPU + GroupCPU bounds the handler's CPU
	// with every commit of its writes from above.
	GroupCPU float64 `json:"group_cpu_ms"`
	// SchedWait is the goroutines' wait for a core (schedwait.go).
	SchedWait *SchedWait `json:"sched_wait,omitempty"`
	// Bots says how the referee run's players decide: "scripted" (the
	// default: every answer decided before the run by PlanGame, the
	// engine alone playing the same games with the same bots and seeds;
	// a player only reads its mail and sends the planned answer) or
	// "deciding" (Options.DecidingBots: each player decides on reading
	// the prompt, reading the game's table from the referee's store).
	// Empty for the echo.
	Bots string `json:"bots,omitempty"`
	// Verified says every game's log replays to the referee's final
	// state and every player mail was processed exactly once; Problems
	// lists what did not.
	Verified bool     `json:"verified"`
	Problems []string `json:"problems,omitempty"`
}

// Stages are the parts of the reaction latency.
type Stages struct {
	Wait    *Dist `json:"wait"`
	Handler *Dist `json:"handler"`
	Send    *Dist `json:"send"`
	// Read is the wall time of the handler's reading of the mail in the
	// intake (mailin.Reader.Parse, before the hand-over: a part of Wait
	// that is the referee's own CPU, counted in HandlerCPU); none for
	// the echo, which reads nothing.
	Read *Dist `json:"read,omitempty"`
}

// Dist is a latency distribution in milliseconds.
type Dist struct {
	N      int     `json:"n"`
	Median float64 `json:"median_ms"`
	P99    float64 `json:"p99_ms"`
	Max    float64 `json:"max_ms"`
}

func distOf(ds []time.Duration) *Dist {
	if len(ds) == 0 {
		return nil
	}
	sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	q := func(p float64) time.Duration {
		i := int(p*float64(len(ds))+0.5) - 1
		return ds[min(max(i, 0), len(ds)-1)]
	}
	return &Dist{N: len(ds), Median: ms(q(0.5)), P99: ms(q(0.99)), Max: ms(ds[len(ds)-1])}
}

// recorder collects delivery and player timestamps.
type recorder struct {
	referee string // the referee's address

	mu        sync.Mutex
	arrived   map[string]time.Time // player mail (Message-ID) appended to the referee's mailbox
	answers   []answer
	sentAt    map[string]time.Time // player mail accepted by SMTP
	rtt       []time.Duration
	delivered atomic.Int64
	// in and out count the mails delivered to the referee and from it;
	// outBytes sums the sizes of the latter.
	in, out, outBytes int
	// outAt is when each of the referee's mails was delivered (its
	// Message-ID, the first delivery), causes the input that queued it,
	// and calls when the handler's call on each input began and ended:
	// the reaction latencies and their stages.
	outAt  map[string]time.Time
	causes map[string]string
	calls  map[string][2]time.Time
	reads  map[string]time.Duration
}

type answer struct {
	parent string
	at     time.Time
}

func newRecorder() *recorder {
	return &recorder{arrived: map[string]time.Time{}, sentAt: map[string]time.Time{}, outAt: map[string]time.Time{},
		causes: map[string]string{}, calls: map[string][2]time.Time{}, reads: map[string]time.Duration{}}
}

func (r *recorder) deliver(d demo.Delivery) {
	r.delivered.Add(1)
	r.mu.Lock()
	defer r.mu.Unlock()
	if strings.EqualFold(d.Account, r.referee) {
		r.arrived[d.MessageID] = d.At
		r.in++
		return
	}
	if sameMailbox(d.From, r.referee) {
		r.out++
		r.outBytes += d.Size
		if _, ok := r.outAt[d.MessageID]; !ok {
			r.outAt[d.MessageID] = d.At
		}
	}
	if d.InReplyTo != "" {
		r.answers = append(r.answers, answer{parent: strings.TrimSpace(d.InReplyTo), at: d.At})
	}
}

func (r *recorder) observe(ev demo.MailEvent) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if ev.Sent {
		r.sentAt[ev.MessageID] = ev.At
		return
	}
	if t, ok := r.sentAt[ev.InReplyTo]; ok {
		r.rtt = append(r.rtt, ev.At.Sub(t))
		delete(r.sentAt, ev.InReplyTo) // the first answer counts
	}
}

// handled notes the handler's call on an input and the mails it queued
// (the handler may return after they were delivered: the sender runs
// from the commit on).
func (r *recorder) handled(input string, start, end time.Time, replies []string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, id := range replies {
		r.causes[id] = input
	}
	if _, ok := r.calls[input]; !ok {
		r.calls[input] = [2]time.Time{start, end}
	}
}

// read notes the wall time of an input's reading in the intake (the
// first).
func (r *recorder) read(input string, d time.Duration) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, ok := r.reads[input]; !ok {
		r.reads[input] = d
	}
}

// reactions returns, for each player mail the referee (or the echo)
// queued mails for, the time from its arrival to the first of them
// delivered, and the stages of those.
func (r *recorder) reactions() ([]time.Duration, *Stages) {
	r.mu.Lock()
	defer r.mu.Unlock()
	first := map[string]time.Time{}
	for id, input := range r.causes {
		at, ok := r.outAt[id]
		if !ok {
			continue
		}
		if f, seen := first[input]; !seen || at.Before(f) {
			first[input] = at
		}
	}
	var out, wait, handler, send, read []time.Duration
	for input, at := range first {
		t, ok := r.arrived[input]
		if !ok {
			continue
		}
		out = append(out, at.Sub(t))
		if c, ok := r.calls[input]; ok {
			wait, handler, send = append(wait, c[0].Sub(t)), append(handler, c[1].Sub(c[0])), append(send, at.Sub(c[1]))
			if d, ok := r.reads[input]; ok {
				read = append(read, d)
			}
		}
	}
	var st *Stages
	if len(wait) > 0 {
		st = &Stages{Wait: distOf(wait), Handler: distOf(handler), Send: distOf(send)}
		if len(read) > 0 {
			st.Read = distOf(read)
		}
	}
	return out, st
}

// sameMailbox reports whether two addresses name the same mailbox, plus
// tags aside (the referee's envelope sender may carry a VERP tag).
func sameMailbox(a, b string) bool {
	base := func(s string) string {
		local, domain, _ := strings.Cut(strings.ToLower(s), "@")
		local, _, _ = strings.Cut(local, "+")
		return local + "@" + domain
	}
	return base(a) == base(b)
}

// latencies returns the delivery-to-delivery latencies (first answer to
// each player mail).
func (r *recorder) latencies() []time.Duration {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []time.Duration
	seen := map[string]bool{}
	for _, a := range r.answers {
		if t, ok := r.arrived[a.parent]; ok && !seen[a.parent] {
			seen[a.parent] = true
			out = append(out, a.at.Sub(t))
		}
	}
	return out
}

// stackEnv is a mail stack for one run: the stack, whether it reports
// deliveries, and how to stop it.
type stackEnv struct {
	stack    demo.MailStack
	rec      *recorder
	embedded *demo.MailServer
	close    func()
	name     string
}

// gameSeat is one bot of the referee run; over reports that its final
// mail arrived.
type gameSeat struct {
	player *demo.Player
	over   func() bool
}

// runGames plays n concurrent bot games through the stack and measures.
func runGames(ctx context.Context, env *stackEnv, o *Options, dir string, log *slog.Logger) (*Throughput, error) {
	hc := &handlerCPU{handled: env.rec.handled, read: env.rec.read}
	var site *demo.Site
	var err error
	labeled(partReferee, func() {
		site, err = demo.StartSite(ctx, env.stack, demo.SiteOptions{Dir: dir, Logger: log,
			Handler: func(d *daemon.Daemon) mailin.Handler { hc.h = d.Intake; return hc }})
	})
	if err != nil {
		return nil, err
	}
	defer site.Stop()
	env.rec.referee = site.Referee.Addr
	org, err := env.stack.Account("organiser", "Organiser")
	if err != nil {
		return nil, err
	}
	if _, err := site.Daemon.Referee.AddOrganiser(org.Addr); err != nil {
		return nil, err
	}
	games, err := demo.PickGames(o.GameNames)
	if err != nil {
		return nil, err
	}
	type plan struct {
		id    string
		ng    referee.NewGame
		seats []*gameSeat
		plan  *demo.Plan
	}
	var plans []*plan
	for i := 0; i < o.Games; i++ {
		g := games[i%len(games)]
		info := g.Info()
		maker, ok := g.(engine.BotMaker)
		if !ok {
			return nil, fmt.Errorf("bench: %s has no bots", info.Name)
		}
		n := info.NearestPlayers(o.Players)
		id := fmt.Sprintf("b%d", i+1)
		p := &plan{id: id, ng: referee.NewGame{ID: id, Game: info.Name, Players: n, Organiser: org.Addr,
			Seed: fmt.Sprintf("%s/%d", o.Seed, i), Options: o.GameOptions[info.Name],
			Policy: &referee.Policy{Hours: map[string]float64{}, VacationDays: 14}}}
		botName := info.BestBot()
		// The plan: the same bots (name, seed) decide every answer
		// now, on the engine alone; the run checks that the referee
		// played exactly these moves, whoever decides during it.
		var deciders []*demo.PeekDecider
		var names []string
		for k := 0; k < n; k++ {
			d, err := demo.NewBotDecider(maker, botName, botKey(o.Seed, i, k), nil)
			if err != nil {
				return nil, err
			}
			deciders, names = append(deciders, d), append(names, fmt.Sprintf("P%d", k+1))
		}
		p.plan, err = demo.PlanGame(id, g, engine.Config{Options: p.ng.Options, Seats: names, Seed: p.ng.Seed}, deciders)
		if err != nil {
			return nil, err
		}
		for k := 0; k < n; k++ {
			acc, err := env.stack.Account(fmt.Sprintf("g%dp%d", i+1, k+1), names[k])
			if err != nil {
				return nil, err
			}
			seat := &gameSeat{}
			var brain demo.Brain
			if o.DecidingBots {
				gb, err := site.BotBrain(maker, botName, botKey(o.Seed, i, k))
				if err != nil {
					return nil, err
				}
				brain, seat.over = gb, func() bool { lg, _ := gb.Final(); return lg != nil }
			} else {
				sb := &demo.ScriptBrain{Plan: p.plan}
				brain, seat.over = sb, sb.Over
			}
			seat.player = &demo.Player{Account: acc, Brain: brain, Logger: log, Observe: env.rec.observe}
			p.seats = append(p.seats, seat)
			p.ng.Invite = append(p.ng.Invite, referee.Invitee{Address: acc.Addr, Name: acc.Name, Lang: "en"})
		}
		plans = append(plans, p)
	}
	var players []*demo.Player
	for _, p := range plans {
		for _, s := range p.seats {
			players = append(players, s.player)
		}
	}
	// The profile covers the timed run only (not the plans).
	stopProfile, err := o.profile("referee")
	if err != nil {
		return nil, err
	}
	defer stopProfile()
	site.Daemon.DB.MeasureGroupCPU(threadCPU)
	if err := o.startCensus(site.Daemon.DB); err != nil {
		return nil, err
	}
	start, cpu0, ws0, g0, sched0 := time.Now(), cpuTime(), site.Daemon.DB.WriteStats(), site.Daemon.DB.GroupCPU(), readSched()
	deliv0 := env.rec.delivered.Load()
	wait := runPlayers(ctx, players)
	for _, p := range plans {
		if _, err := site.Daemon.Referee.CreateGame(p.ng); err != nil {
			return nil, err
		}
	}
	done := func() bool {
		for _, p := range plans {
			for _, s := range p.seats {
				if !s.over() {
					return false
				}
			}
		}
		return true
	}
	if err := waitFor(ctx, o.Timeout, wait, done, func() string { return gamesState(site) }); err != nil {
		return nil, err
	}
	stopProfile()
	sched1 := readSched()
	t := &Throughput{Referee: "referee", Games: o.Games, Players: o.Players, Seconds: time.Since(start).Seconds(),
		CPUSeconds: (cpuTime() - cpu0).Seconds(), HandlerCPU: hc.perMail()}
	// The last deliveries' outcomes ride in a commit of the run's.
	if err := site.Daemon.Settle(ctx); err != nil {
		return nil, err
	}
	ws := site.Daemon.DB.WriteStats().Sub(ws0)
	t.writes(ws.Commits, ws.WriteTime, ws.DiskBytes, ws.DataBytes)
	t.census(o, site.Daemon.DB)
	t.HeaderMerges = site.Daemon.DB.HeaderMerges()
	t.GroupCPU = hc.share(site.Daemon.DB.GroupCPU() - g0)
	var ids []string
	byID := map[string]*demo.Plan{}
	for _, p := range plans {
		ids = append(ids, p.id)
		byID[p.id] = p.plan
		for _, s := range p.seats {
			t.PlayerMails += int(s.player.Sent())
			t.Mails += int(s.player.Sent() + s.player.Received())
		}
	}
	if env.embedded != nil {
		t.Mails = int(env.rec.delivered.Load() - deliv0)
	}
	// Verify before stopping: the store is read through the daemon.
	sent := map[string]int{}
	for _, p := range plans {
		for _, s := range p.seats {
			sent[p.id] += int(s.player.Sent())
		}
	}
	t.Moves, t.Problems = verifyGames(site, ids, sent, byID)
	if o.afterGames != nil {
		o.afterGames(site, ids, sent, byID)
	}
	t.Bots = "scripted"
	if o.DecidingBots {
		t.Bots = "deciding"
	}
	t.Verified = len(t.Problems) == 0
	t.SchedWait = schedWait(sched0, sched1, t.PlayerMails)
	t.finish(env.rec)
	return t, nil
}

// runEcho plays the echo run: one player per game of the referee run, each
// pinging the echo referee rounds times.
//
// like is the referee run: the echo sends as many mails per input, of the
// same mean size (copies to the next player, which it ignores), so that
// the two runs differ by the referee's own work only. Nil: one small
// echo per mail.
func runEcho(ctx context.Context, env *stackEnv, o *Options, dir string, clients, rounds int, like *Throughput,
	log *slog.Logger) (*Throughput, error) {
	var echo *Echo
	hc := &handlerCPU{handled: env.rec.handled, read: env.rec.read}
	addrs := map[string]string{} // player -> the next one, for the copies
	var site *demo.Site
	var err error
	labeled(partReferee, func() {
		site, err = demo.StartSite(ctx, env.stack, demo.SiteOptions{Dir: dir, Logger: log,
			Handler: func(d *daemon.Daemon) mailin.Handler {
				echo = &Echo{Referee: d.Referee, Domain: env.stack.Domain(), From: "referee@" + env.stack.Domain(), Kick: d.Sender.Kick}
				if like != nil && like.OutPerIn > 1 {
					echo.Copies, echo.Size = like.OutPerIn-1, like.OutBytes
					echo.CopyTo = func(to string) string {
						if n, ok := addrs[strings.ToLower(to)]; ok {
							return n
						}
						return to
					}
				}
				hc.h = echo
				return hc
			}})
	})
	if err != nil {
		return nil, err
	}
	defer site.Stop()
	env.rec.referee = site.Referee.Addr
	var players []*demo.Player
	for i := 0; i < clients; i++ {
		acc, err := env.stack.Account(fmt.Sprintf("e%d", i+1), fmt.Sprintf("E%d", i+1))
		if err != nil {
			return nil, err
		}
		players = append(players, &demo.Player{Account: acc, Brain: &echoBrain{to: site.Referee.Addr, rounds: rounds},
			Logger: log, Observe: env.rec.observe})
	}
	for i, p := range players {
		addrs[strings.ToLower(p.Account.Addr)] = players[(i+1)%len(players)].Account.Addr
	}
	stopProfile, err := o.profile("echo")
	if err != nil {
		return nil, err
	}
	defer stopProfile()
	site.Daemon.DB.MeasureGroupCPU(threadCPU)
	if err := o.startCensus(site.Daemon.DB); err != nil {
		return nil, err
	}
	start, cpu0, ws0, g0, sched0 := time.Now(), cpuTime(), site.Daemon.DB.WriteStats(), site.Daemon.DB.GroupCPU(), readSched()
	deliv0 := env.rec.delivered.Load()
	wait := runPlayers(ctx, players)
	if err := waitFor(ctx, o.Timeout, wait, nil, func() string { return fmt.Sprintf("echo answered %d", echo.Handled()) }); err != nil {
		return nil, err
	}
	stopProfile()
	sched1 := readSched()
	t := &Throughput{Referee: "echo", Games: clients, Players: 1, Seconds: time.Since(start).Seconds(),
		CPUSeconds: (cpuTime() - cpu0).Seconds(), HandlerCPU: hc.perMail(), Moves: int(echo.Handled())}
	// The last deliveries' outcomes ride in a commit of the run's.
	if err := site.Daemon.Settle(ctx); err != nil {
		return nil, err
	}
	ws := site.Daemon.DB.WriteStats().Sub(ws0)
	t.writes(ws.Commits, ws.WriteTime, ws.DiskBytes, ws.DataBytes)
	t.census(o, site.Daemon.DB)
	t.HeaderMerges = site.Daemon.DB.HeaderMerges()
	t.GroupCPU = hc.share(site.Daemon.DB.GroupCPU() - g0)
	for _, p := range players {
		t.PlayerMails += int(p.Sent())
		t.Mails += int(p.Sent() + p.Received())
	}
	if env.embedded != nil {
		t.Mails = int(env.rec.delivered.Load() - deliv0)
	}
	if t.Moves != t.PlayerMails {
		t.Problems = append(t.Problems, fmt.Sprintf("echo answered %d mails of %d sent", t.Moves, t.PlayerMails))
	}
	t.Verified = len(t.Problems) == 0
	t.SchedWait = schedWait(sched0, sched1, t.PlayerMails)
	t.finish(env.rec)
	return t, nil
}

// writes sets the store's write figures of the run.
func (t *Throughput) writes(commits int64, disk time.Duration, diskBytes, dataBytes int64) {
	t.Commits, t.DiskSeconds = commits, disk.Seconds()
	t.diskBytes, t.dataBytes = diskBytes, dataBytes
}

func (t *Throughput) finish(rec *recorder) {
	if t.PlayerMails > 0 && t.pages != nil {
		t.PagesPerInput = map[string]float64{}
		for k, n := range t.pages {
			t.PagesPerInput[k] = float64(n) / float64(t.PlayerMails)
		}
	}
	if t.PlayerMails > 0 {
		t.CommitsPerInput = float64(t.Commits) / float64(t.PlayerMails)
		t.DiskBytesPerInput = float64(t.diskBytes) / float64(t.PlayerMails)
		t.DataBytesPerInput = float64(t.dataBytes) / float64(t.PlayerMails)
	}
	if t.Seconds > 0 {
		t.MovesPerSec = float64(t.Moves) / t.Seconds
		t.MailsPerSec = float64(t.Mails) / t.Seconds
	}
	reactions, stages := rec.reactions()
	t.Latency, t.Reaction, t.Stages = distOf(rec.latencies()), distOf(reactions), stages
	rec.mu.Lock()
	if rec.in > 0 && rec.out > 0 {
		t.OutPerIn, t.OutBytes = float64(rec.out)/float64(rec.in), rec.outBytes/rec.out
	}
	t.RoundTrip = distOf(append([]time.Duration(nil), rec.rtt...))
	rec.mu.Unlock()
}

// The parts of the process a CPU profile of a mail run tells apart, by the
// label partLabel on their goroutines (inherited by the goroutines they
// start): the referee's daemon (or the echo's: its watcher, handler,
// commits, sender), the players, the embedded mail servers. Samples
// without it are the runtime's own (the garbage collector's workers).
const (
	partLabel   = "bench"
	partReferee = "daemon"
	partPlayers = "players"
	partServers = "mail servers"
)

// labeled runs fn with the profile label of a part: the goroutines fn
// starts keep it.
func labeled(part string, fn func()) {
	pprof.Do(context.Background(), pprof.Labels(partLabel, part), func(context.Context) { fn() })
}

// runPlayers starts the players; the returned channel gets one result per
// player.
func runPlayers(ctx context.Context, players []*demo.Player) <-chan error {
	out := make(chan error, len(players))
	for _, p := range players {
		go func(p *demo.Player) {
			defer func() {
				if r := recover(); r != nil {
					out <- fmt.Errorf("bench: player panicked: %v\n%s", r, debug.Stack())
				}
			}()
			pprof.Do(ctx, pprof.Labels(partLabel, partPlayers), func(ctx context.Context) { out <- p.Run(ctx) })
		}(p)
	}
	return waitAll(out, len(players))
}

// waitAll turns n results into one: the first error, or nil once all
// succeeded.
func waitAll(in <-chan error, n int) <-chan error {
	out := make(chan error, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				out <- fmt.Errorf("bench: panic: %v", r)
			}
		}()
		for i := 0; i < n; i++ {
			if err := <-in; err != nil {
				out <- err
				return
			}
		}
		out <- nil
	}()
	return out
}

// waitFor waits for the players to finish (and done, if given), a player
// error, the timeout or ctx.
func waitFor(ctx context.Context, timeout time.Duration, players <-chan error, done func() bool, state func() string) error {
	var tc <-chan time.Time
	if timeout > 0 {
		t := time.NewTimer(timeout)
		defer t.Stop()
		tc = t.C
	}
	for {
		select {
		case err := <-players:
			if err != nil {
				return err
			}
			if done == nil || done() {
				return nil
			}
			return fmt.Errorf("bench: the players stopped before the end: %s", state())
		case <-tc:
			return fmt.Errorf("bench: not finished after %v: %s", timeout, state())
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// gamesState describes the games, for a timeout message.
func gamesState(site *demo.Site) string {
	var b strings.Builder
	_ = site.Daemon.Referee.EachGame(func(g *referee.Game) error {
		fmt.Fprintf(&b, "%s %s %d; ", g.ID, g.Status, g.Steps)
		return nil
	})
	return b.String()
}

// verifyGames checks each game: it is over, its exported log replays from
// the seed to the referee's own final state, its moves and final state
// are its plan's (the bots' own choices: demo.PlanGame), and the referee
// logged exactly one input per mail its players sent (none lost, none
// doubled). It returns the engine moves applied and the problems.
func verifyGames(site *demo.Site, ids []string, sent map[string]int, plans map[string]*demo.Plan) (int, []string) {
	moves := 0
	var problems []string
	for _, id := range ids {
		tb, err := site.Tables()(id)
		if err != nil {
			problems = append(problems, fmt.Sprintf("%s: %v", id, err))
			continue
		}
		moves += tb.Token()
		if tb.State.Result() == nil {
			problems = append(problems, id+": not over")
		}
		lg, err := site.Daemon.Referee.ExportLog(id, true)
		if err != nil {
			problems = append(problems, fmt.Sprintf("%s: export: %v", id, err))
			continue
		}
		eg, err := engine.Lookup(lg.Game)
		if err != nil {
			problems = append(problems, err.Error())
			continue
		}
		st, err := engine.Replay(eg, *lg)
		if err != nil {
			problems = append(problems, fmt.Sprintf("%s (%s): replay: %v", id, lg.Game, err))
			continue
		}
		h1, err1 := engine.StateHash(st)
		h2, err2 := engine.StateHash(tb.State)
		if err := errors.Join(err1, err2); err != nil || h1 != h2 || st.Head().Moves != tb.Token() {
			problems = append(problems, fmt.Sprintf("%s: the replay ends at move %d, the referee at %d (hashes equal: %v)",
				id, st.Head().Moves, tb.Token(), h1 == h2))
		}
		if pl := plans[id]; pl == nil {
			problems = append(problems, id+": no plan")
		} else if err := pl.Check(lg, tb.State); err != nil {
			problems = append(problems, fmt.Sprintf("%s: not the bots' game: %v", id, err))
		}
		inputs := 0
		log, err := site.Daemon.Referee.Entries(id)
		for _, e := range log {
			if e.Kind == referee.EntryInput {
				inputs++
			}
		}
		if err != nil {
			problems = append(problems, fmt.Sprintf("%s: log: %v", id, err))
		} else if inputs != sent[id] {
			problems = append(problems, fmt.Sprintf("%s: the players sent %d mails, the referee logged %d inputs", id, sent[id], inputs))
		}
	}
	return moves, problems
}

// botKey is the seed of the random source of game i's k-th invitee's bot.
func botKey(seed string, i, k int) string { return fmt.Sprintf("%s/%d/%d", seed, i, k) }
