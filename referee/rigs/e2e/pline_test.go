package e2e_test

import (
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/referee"
	"github.com/pbem-referee/referee/referee/lifecycle"
	"github.com/pbem-referee/referee/referee/records"
	"github.com/pbem-referee/referee/referee/rigs/testkit"
)

// handOverAt is the move before which the P<n> test hands Bob's seat on.
const handOverAt = 4

// pLineGame is the P<n> test's game replayed in the engine alone: the
// table, and the engine's bot choosing the moves with a random source
// seeded by the game's seed, as the mail test copies them.
type pLineGame struct {
	tb  *engine.Table
	bot engine.Bot
	rng *rand.Rand
}

func newPLineGame(t *testing.T, seed string, names []string) *pLineGame {
	t.Helper()
	eg, err := engine.Lookup("dicebrewing")
	if err != nil {
		t.Fatal(err)
	}
	tb, _, _, err := engine.NewTable(eg, engine.Config{Seats: names, Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	bot, err := eg.(engine.BotMaker).NewBot(eg.Info().Bots[0])
	if err != nil {
		t.Fatal(err)
	}
	h := fnv.New64a()
	h.Write([]byte(seed))
	return &pLineGame{tb: tb, bot: bot, rng: rand.New(rand.NewPCG(h.Sum64(), 24))}
}

// choice is the option (1-based in the seat's menu) the mail test copies
// at seat's turn: the first naming Bob's seat once it is handed on
// (named), else the bot's.
func (g *pLineGame) choice(seat int, handed bool) (cmd string, opt int, named bool) {
	opts := g.tb.Prompts[seat].Options
	if handed {
		for i, o := range opts {
			if strings.Contains(o.Cmd, "Bob:") {
				return o.Cmd, i + 1, true
			}
		}
	}
	w := g.tb.Waiting()[0]
	legal := g.tb.State.Legal(w)
	cmd = legal[g.bot.Choose(g.tb.State, w, legal, g.rng)].Cmd
	return cmd, slices.IndexFunc(opts, func(o engine.Option) bool { return o.Cmd == cmd }) + 1, false
}

func (g *pLineGame) play(t *testing.T, seat int, cmd string) {
	t.Helper()
	if rep, err := g.tb.Submit(seat, engine.ParseScript(cmd), g.tb.Token()); err != nil || rep.Rejected {
		t.Fatalf("the replay's %q: %v %+v", cmd, err, rep)
	}
}

// pLineSeed finds, by replaying Dice Brewing in the engine alone, the
// first game seed (of a few hundred) under which a menu offers a line
// naming Bob's seat (a card played on another's die or building) within
// moves, after the seat is handed on: it returns the seed, the seat
// order's game names and the move (0-based) at which that line is
// offered.
func pLineSeed(t *testing.T, moves int) (seed string, names []string, at int) {
	t.Helper()
	at = moves
	for k := 0; k < 300 && seed == ""; k++ {
		s := fmt.Sprintf("pline%d", k)
		g := &records.Game{Seed: s, Seats: []records.Seat{{Name: "Ann"}, {Name: "Bob"}}}
		lifecycle.DrawSeatOrder(g)
		sim := newPLineGame(t, s, g.Names())
		for i := 0; i < at && sim.tb.State.Result() == nil; i++ {
			w := sim.tb.Waiting()
			if len(w) == 0 {
				break
			}
			cmd, _, named := sim.choice(w[0].Seat, i >= handOverAt)
			if named {
				seed, names, at = s, g.Names(), i
				break
			}
			sim.play(t, w[0].Seat, cmd)
		}
	}
	if seed == "" {
		t.Fatalf("no seed of 300 deals a card naming Bob's seat within %d moves", moves)
	}
	return seed, names, at
}

// queued is what the table's queued orders mean (a card played in a later
// window waits there): each alternative as the game reads it, by seat.
func queued(tb *engine.Table) string {
	var b strings.Builder
	for s := range tb.Queues {
		for _, o := range tb.Queued(s) {
			for _, alt := range o.Alts {
				for _, c := range alt {
					if mv, err := tb.State.Parse(s, c); err != nil {
						fmt.Fprintf(&b, "seat %d: %q unread (%v)\n", s, c, err)
					} else {
						fmt.Fprintf(&b, "seat %d: %v\n", s, mv)
					}
				}
			}
		}
	}
	return b.String()
}

// Issue 24 (a seat handed on mid-game), a P<n> menu line copied back by
// real mail: the game's seed is chosen (pLineSeed, the engine alone) so
// that after Bob's seat is handed on to Carla (REPLACE, Italian), a card
// naming that seat is offered; the menu shows it as P<n> (its holder now
// is not the one the game knows by name). Every move is a menu line
// copied in a layout drawn per mail (testkit.Writer: Ann in English, Bob
// in Dutch, Carla in Italian), and the game by mail stays in step with the
// engine's replay (the same state after each move): the copied P<n> line
// plays on the seat it names. That reply, resent with the same
// Message-ID, is neither played nor answered again.
func TestCopiedPLinePlaysOnTheHandedOnSeat_Issue24(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	const moves = 30
	began := time.Now()
	seed, names, at := pLineSeed(t, moves)
	t.Logf("seed %q (seats %q): a line naming Bob's seat at move %d (found in %v)", seed, names, at, time.Since(began))
	sim := newPLineGame(t, seed, names)
	ms, d, orgTo := startReferee(t, "ann", "bob", "carla")
	organise(t, ms, orgTo, "e2e-pl1", "NEW dicebrewing id=pl1 deadline=none seed="+seed+"\r\nPLAYER ann@example.test Ann en\r\nPLAYER bob@example.test Bob nl\r\n")
	ms.WaitCount(t, "ann", "INBOX", 1, 20*time.Second)
	ms.WaitCount(t, "bob", "INBOX", 1, 20*time.Second)
	writers := map[string]*testkit.Writer{}
	for u, lang := range map[string]string{"ann": "en", "bob": "nl", "carla": "it"} {
		writers[u] = &testkit.Writer{User: u, Name: strings.ToUpper(u[:1]) + u[1:] + " Example", Lang: lang, Seed: seed}
	}
	for _, u := range []string{"ann", "bob"} {
		to, raw, _ := writers[u].Reply(t, ms.Messages(t, u, "INBOX")[0].Raw, ms.Address(u), "pl-join-"+u, "JOIN")
		ms.Send(t, ms.Address(u), []string{to}, raw)
	}
	table := func() (*referee.Game, *engine.Table) { return gameTable(t, d, "pl1") }
	waitRunning(t, d, "pl1")
	same := func(when string) {
		t.Helper()
		_, tb := table()
		got, err1 := engine.StateHash(tb.State)
		want, err2 := engine.StateHash(sim.tb.State)
		if err1 != nil || err2 != nil || got != want || tb.Token() != sim.tb.Token() {
			t.Fatalf("%s: the game by mail is not the engine's replay (tokens %d, %d; %v %v)", when, tb.Token(), sim.tb.Token(), err1, err2)
		}
		if q, sq := queued(tb), queued(sim.tb); q != sq {
			t.Fatalf("%s: the orders queued by mail are not the replay's:\n%s\nwant\n%s", when, q, sq)
		}
	}
	same("at the start")
	todo := map[string]string{"ann": "WHAT YOU NEED TO DO NOW", "bob": "WAT JE NU MOET DOEN", "carla": "COSA DEVI FARE ADESSO"}
	for i := 0; i <= at; i++ {
		if i == handOverAt {
			olgaN := ms.Count(t, "olga", "INBOX")
			organise(t, ms, orgTo, "e2e-pl2", "REPLACE pl1 Bob carla@example.test Carla it\r\n")
			_, ans := newMail(t, ms, "olga", olgaN, "")
			if g, _ := table(); !slices.ContainsFunc(g.Seats, func(s referee.Seat) bool { return strings.HasPrefix(s.Address, "carla@") }) {
				t.Fatalf("the seat was not handed on: %+v\n%s", g.Seats, ans)
			}
		}
		g, tb := table()
		seat := tb.Waiting()[0].Seat
		u := strings.TrimSuffix(g.Seats[seat].Address, "@example.test")
		prompt, pm := latestMenu(t, ms, u, todo[u])
		cmd, opt, named := sim.choice(seat, i >= handOverAt)
		line := menuLine(pm.Text, opt)
		if opt == 0 || line == "" {
			t.Fatalf("move %d: %q is not a line of %s's menu:\n%s", i, cmd, u, pm.Text)
		}
		bobSeat := slices.Index(names, "Bob")
		if named && !strings.Contains(line, fmt.Sprintf("P%d:", bobSeat+1)) {
			t.Fatalf("move %d: option %d %q is shown as %q, not by the seat's number P%d:\n%s", i, opt, cmd, line, bobSeat+1, pm.Text)
		}
		id := fmt.Sprintf("pl-%d-%s", i, u)
		to, raw, client := writers[u].Reply(t, prompt, ms.Address(u), id, fmt.Sprintf("%d) %s", opt, line))
		before, n := tb.Token(), ms.Count(t, u, "INBOX")
		ms.Send(t, ms.Address(u), []string{to}, raw)
		what := fmt.Sprintf("move %d: %s's %s reply %q", i, u, client, line)
		waitOrShow(t, ms, u, n, what+" to be played", func() bool {
			_, tb := table()
			return tb.Token() != before
		})
		sim.play(t, seat, cmd)
		same(what)
		_, echo := newMail(t, ms, u, n, "")
		for _, bad := range []string{"REFUSED", "RESPINTO", "GEWEIGERD"} {
			if strings.Contains(echo, bad) {
				t.Errorf("%s: %q in the echo:\n%s", what, bad, echo)
			}
		}
		lang := map[string]string{"ann": "en", "bob": "nl", "carla": "it"}[u]
		testkit.CheckPersonMail(t, lang, what, "", echo, append(testkit.OwnLines(t, raw, prompt),
			writers[u].Name, "Ann", "Bob", "Carla", "Dice Brewing", "pl1")...)
		if named {
			// The P<n> reply again, the same Message-ID: neither played
			// nor answered.
			done := ms.Count(t, "referee", "Processed")
			ms.Send(t, ms.Address(u), []string{to}, raw)
			waitFor(t, "the resent mail to be read", func() bool { return ms.Count(t, "referee", "Processed") > done })
			same(what + ", resent")
			time.Sleep(time.Second)
			if got := ms.Count(t, u, "INBOX"); got != n+1 {
				t.Errorf("%s resent: %d mails after it, want 1 (the first's echo)", what, got-n)
			}
			t.Logf("%s played, naming seat %d (P%d) as the replay did", what, bobSeat, bobSeat+1)
		}
	}
}
