package referee

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/mailfmt/mailmsg"
	"github.com/pbem-referee/referee/store"
)

// botGame is the whole-game bot loop by mail, written once (issue 25: it
// stood in ten test files). A test sets its game up on the harness (NEW,
// JOIN), then plays it with a bot choosing every answer until the game
// ends; the hooks are where each test probes. Every answer must be applied
// or queued (queued: a sealed answer, issue 11), or the test fails.
type botGame struct {
	h   *harness
	id  string
	bot engine.Bot
	rng *rand.Rand
	// Limit fails the test ("no end") when the game still runs after more
	// answers than this (0: 5000).
	Limit int
	// Moves stops the loop after this many answers, the game running or
	// not (0: to the end); the test then looks at the end itself.
	Moves int
	// Gap is how long a player takes before answer n: the harness clock
	// advances by it (newBotGame: 2 minutes, so the rate limit holds).
	Gap func(n int) time.Duration
	// Mails gets every mail sent, at the start of each turn and once after
	// the loop (nil: the mails stay in the harness for the test).
	Mails func(ms []*Outgoing)
	// Before runs once the turn is known, before the bot chooses; true
	// skips the answer (the hook sent something else in its place).
	Before func(tn *botTurn) bool
	// Answer is the line sent for the bot's option (nil: its command).
	Answer func(tn *botTurn) string
	// After runs once the answer is sent, before the check of its status.
	After func(tn *botTurn, out Outcome)
}

// botTurn is one turn of a botGame: the answer's number, the table, the
// decision of the first seat waited for and that seat's address, then (once
// Before has run) the legal options, the bot's pick and the line sent.
type botTurn struct {
	N     int
	Table *engine.Table
	D     engine.Decision
	Addr  string
	Opts  []engine.Option
	Pick  int
	Line  string
}

// newBotGame makes the loop for game id of the harness, the bot named
// Info().Bots[bot] of the game choosing with a PCG of seed s1, s2.
func (h *harness) newBotGame(id string, bot int, s1, s2 uint64) *botGame {
	h.t.Helper()
	g := h.game(id)
	eg, err := engine.Lookup(g.Game)
	if err != nil {
		h.t.Fatal(err)
	}
	b, err := eg.(engine.BotMaker).NewBot(eg.Info().Bots[bot])
	if err != nil {
		h.t.Fatal(err)
	}
	return &botGame{h: h, id: id, bot: b, rng: rand.New(rand.NewPCG(s1, s2)),
		Gap: func(int) time.Duration { return 2 * time.Minute }}
}

// turn reads whom game id waits for first (failing when nobody is waited
// for) and lets bot choose among the legal options.
func (h *harness) botTurn(id string, bot engine.Bot, rng *rand.Rand) *botTurn {
	h.t.Helper()
	tn := h.waitedTurn(id)
	tn.choose(bot, rng)
	return tn
}

func (h *harness) waitedTurn(id string) *botTurn {
	h.t.Helper()
	tb := h.table(id)
	w := tb.Waiting()
	if len(w) == 0 {
		h.t.Fatalf("%s: nobody waited for at token %d", id, tb.Token())
	}
	d := tb.Prompts[w[0].Seat].Decision
	return &botTurn{Table: tb, D: d, Addr: h.game(id).Seats[d.Seat].Address}
}

func (tn *botTurn) choose(bot engine.Bot, rng *rand.Rand) {
	tn.Opts = tn.Table.State.Legal(tn.D)
	tn.Pick = bot.Choose(tn.Table.State, tn.D, tn.Opts, rng)
	tn.Line = tn.Opts[tn.Pick].Cmd
}

// play plays the game until it ends (or Moves answers), and returns the
// number of turns taken.
func (g *botGame) play() int {
	h := g.h
	h.t.Helper()
	limit := g.Limit
	if limit == 0 {
		limit = 5000
	}
	n := 0
	for ; h.game(g.id).Status == StatusRunning; n++ {
		if g.Moves > 0 && n >= g.Moves {
			break
		}
		if n > limit {
			h.t.Fatalf("%s: no end after %d answers", g.id, n)
		}
		if g.Mails != nil {
			g.Mails(h.mails())
		}
		tn := h.waitedTurn(g.id)
		tn.N = n
		if g.Before != nil && g.Before(tn) {
			continue
		}
		tn.choose(g.bot, g.rng)
		if g.Answer != nil {
			tn.Line = g.Answer(tn)
		}
		if g.Gap != nil {
			h.clock.Advance(g.Gap(n))
		}
		out := h.send(g.id, tn.Addr, tn.Line, tn.Table.Token())
		if g.After != nil {
			g.After(tn, out)
		}
		if out.Status != "applied" && out.Status != "queued" {
			h.t.Fatalf("%s: answer %d %q for %s (seat %d): %+v", g.id, n, tn.Line, tn.D.Kind, tn.D.Seat, out)
		}
	}
	if g.Mails != nil {
		g.Mails(h.mails())
	}
	return n
}

// botRequest is the request of tn's answer as a verified mail of its own
// (a new Message-ID), for the benchmarks that call Process themselves; g
// is the game's record.
func (h *harness) botRequest(tn *botTurn, g *Game) Request {
	s := g.Seats[tn.D.Seat]
	h.n++
	mid := fmt.Sprintf("<m%d@players.test>", h.n)
	return Request{From: s.Address, Kind: "seat", Game: g.ID, Seat: tn.D.Seat, Secret: s.Secret, Token: tn.Table.Token(), Text: tn.Line,
		MessageID: mid, Keys: []string{"msgid:" + mid}, Source: "test", SenderVerified: true}
}

// benchMoves supplies the benchmarks' moves: the greedy bot's next answer
// (a request of its own) in games of game between Ann and Bob, a game
// started (NEW, JOIN) as the last one ends, with ids prefix1, prefix2...
type benchMoves struct {
	h            *harness
	game, prefix string
	games        int
	id           string
	bot          engine.Bot
	rng          *rand.Rand
}

func (h *harness) newBenchMoves(game, prefix string) *benchMoves {
	eg, _ := engine.Lookup(game)
	bot, _ := eg.(engine.BotMaker).NewBot("greedy")
	m := &benchMoves{h: h, game: game, prefix: prefix, bot: bot, rng: rand.New(rand.NewPCG(1, 2))}
	m.start()
	return m
}

func (m *benchMoves) start() {
	m.games++
	m.id = fmt.Sprintf("%s%d", m.prefix, m.games)
	m.h.org("NEW " + m.game + " id=" + m.id + " deadline=none\nPLAYER ann@example.test Ann\nPLAYER bob@example.test Bob")
	m.h.send(m.id, ann, "JOIN", -1)
	m.h.send(m.id, bob, "JOIN", -1)
}

// next is the request of the next answer, a new game started first if the
// last one ended.
func (m *benchMoves) next() Request {
	g := m.h.game(m.id)
	if g.Status != StatusRunning {
		m.start()
		g = m.h.game(m.id)
	}
	return m.h.botRequest(m.h.botTurn(m.id, m.bot, m.rng), g)
}

// newBenchHarness is a harness for the benchmarks of Process: mails
// composed whole, no rate limit.
func newBenchHarness(b *testing.B, opt *store.Options) *harness {
	h := newHarnessStore(b, opt)
	h.r.opt.Compose = Composer(mailmsg.Address{Name: "Referee", Addr: "referee@example.test"})
	h.r.opt.RateLimit = -1
	h.r.rate = newRateLimiter(-1, time.Hour)
	return h
}
