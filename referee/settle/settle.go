package settle

import (
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/referee/lifecycle"
	"github.com/pbem-referee/referee/referee/reading"
	"github.com/pbem-referee/referee/referee/records"
)

// Game is one game of the unit of work, as the settling changes it.
type Game interface {
	// Record is the game's record, changed in place; Engine its engine;
	// Table its table (nil before the start).
	Record() *records.Game
	Engine() engine.Game
	Table() *engine.Table
	// Log appends an entry to the game's log; LogReport the steps of an
	// engine report.
	Log(e records.Entry) error
	LogReport(rep *engine.Report) error
	// Announce queues an announcement to seats (nil: every seat) by the
	// name of its template; ToOrganiser a note to the game's organiser.
	Announce(seats []int, name string, kv ...any)
	ToOrganiser(name string, kv ...any)
	// Submit hands a seat's orders to the table (as its own mail would)
	// and logs what happened.
	Submit(seat int, orders []engine.Order, token int) (*engine.Report, error)
	// Dropped tells the owners of the queued lines a report dropped.
	Dropped(rep *engine.Report)
	// Acted reports whether the seat moved in this unit of work.
	Acted(seat int) bool
	// Mark marks a seat for the tell stage.
	Mark(seat int, m Mark)
	// Ended reports whether the game ended in this unit of work; End
	// marks it so.
	Ended() bool
	End()
}

// Mark is what a seat's mail must carry.
type Mark int

const (
	// Asked: the seat's decision clock started.
	Asked Mark = iota
	// Reminder, Digest: the seat's reminder or digest is due.
	Reminder
	Digest
	// Force: the seat gets a mail even if nothing else changed for it.
	Force
)

// Settle lets bots play their seats until a human must act, ends the game
// when it is over, and restarts the clocks of the seats newly asked.
func Settle(gm Game, now time.Time) error {
	g, tb := gm.Record(), gm.Table()
	if tb == nil || g.Status != records.StatusRunning {
		return nil
	}
	for i := 0; i < 100000; i++ {
		if tb.State.Result() != nil {
			return end(gm, now)
		}
		moved := false
		for _, d := range tb.Waiting() {
			if g.Seats[d.Seat].Bot == "" {
				continue
			}
			if err := botMove(gm, d.Seat); err != nil {
				return err
			}
			moved = true
			break
		}
		if !moved {
			break
		}
	}
	if tb.State.Result() != nil {
		return end(gm, now)
	}
	// The clocks (lifecycle.Clocks): the seats whose clock started are asked.
	for _, i := range lifecycle.Clocks(g, tb.Waiting(), gm.Acted, now) {
		gm.Mark(i, Asked)
	}
	return nil
}

// botMove lets the engine's bot answer a seat's waiting decision: one move
// for a sequential decision, the seat's whole sealed answer for a
// simultaneous one.
func botMove(gm Game, seat int) error {
	g, tb := gm.Record(), gm.Table()
	name := g.Seats[seat].Bot
	maker, ok := gm.Engine().(engine.BotMaker)
	if !ok {
		return Expire(gm, seat, false)
	}
	bot, err := maker.NewBot(name)
	if err != nil {
		if bot, err = maker.NewBot("random"); err != nil {
			return Expire(gm, seat, false)
		}
	}
	h := fnv.New64a()
	fmt.Fprintf(h, "%s/%d/%d", g.Seed, seat, tb.Token())
	rng := rand.New(rand.NewPCG(h.Sum64(), 0x5eed))
	p := tb.Prompts[seat]
	if p == nil {
		return nil
	}
	lines, err := engine.BotAnswer(tb.State, seat, p.Decision.Group, bot, rng)
	if err != nil {
		return err
	}
	if len(lines) == 0 {
		return Expire(gm, seat, false)
	}
	rep, err := gm.Submit(seat, reading.Script(lines), tb.Token())
	if err != nil {
		return err
	}
	if rep.Rejected {
		// The bot's plan did not fit (a blinded draw differed): fall back
		// to the default move so the game never stalls.
		return Expire(gm, seat, false)
	}
	return nil
}

// end closes a finished game: the result, the seed and the full log are
// published to every player.
func end(gm Game, now time.Time) error {
	g := gm.Record()
	if gm.Ended() || !lifecycle.End(g, now) {
		return nil
	}
	gm.End()
	res := gm.Table().State.Result()
	for i := range g.Seats {
		gm.Mark(i, Force)
	}
	if err := gm.Log(records.Entry{Kind: records.EntryEnd, Seat: -1, Vis: engine.Public,
		Params: map[string]any{"rank": res.Rank, "seed": g.Seed}}); err != nil {
		return err
	}
	gm.ToOrganiser("org_end")
	return nil
}

// Tick handles what fell due at now in a running game (lifecycle.Tick):
// an expired deadline is the default move, counted as missed; reminders
// and digests are marked.
func Tick(gm Game, now time.Time) error {
	g := gm.Record()
	if g.Status != records.StatusRunning || gm.Table() == nil {
		return nil
	}
	for i := range g.Seats {
		due := lifecycle.Tick(&g.Seats[i], now)
		if due.Expired {
			if err := Expire(gm, i, true); err != nil {
				return err
			}
			continue
		}
		if due.Reminder {
			gm.Mark(i, Reminder)
		}
		if due.Digest {
			gm.Mark(i, Digest)
		}
	}
	return nil
}

// Expire applies the default move of a seat; missed counts it as a missed
// move (a deadline passed) rather than a bot fallback.
func Expire(gm Game, seat int, missed bool) error {
	rep, err := gm.Table().Expire(seat)
	if err != nil {
		return err
	}
	gm.Dropped(rep)
	if err := gm.LogReport(rep); err != nil {
		return err
	}
	if !missed || len(rep.Defaults) == 0 && len(rep.Revealed) == 0 {
		return nil
	}
	g := gm.Record()
	s := &g.Seats[seat]
	toBot := lifecycle.Missed(s, g.Policy, gm.Engine().Info().Bots)
	// The public log names only the defaults whose effects are public: a
	// default that chose something hidden (a face-down token, DB-6.6) is
	// told to its seat alone (the announcement below), never in the log
	// others read (issue 21).
	var cmds, public []string
	for _, d := range rep.Defaults {
		if d.Seat == seat {
			cmds = append(cmds, d.Cmd)
			if stepPublic(d) {
				public = append(public, d.Cmd)
			}
		}
	}
	entry := records.Entry{Kind: records.EntryMissed, Seat: seat, Vis: engine.Public, Params: map[string]any{"cmds": public, "missed": s.Missed}}
	if len(public) == 0 && len(cmds) > 0 {
		entry.Vis, entry.Params["cmds"] = engine.Only(seat), cmds
	}
	if err := gm.Log(entry); err != nil {
		return err
	}
	gm.Announce([]int{seat}, "missed", "cmds", cmds, "missed", s.Missed, "limit", g.Policy.MissLimit)
	if toBot {
		if err := gm.Log(records.Entry{Kind: records.EntryBot, Seat: seat, Vis: engine.Public, Params: map[string]any{"bot": s.Bot, "missed": s.Missed}}); err != nil {
			return err
		}
		gm.Announce(nil, "bot", "seat", seat, "name", s.Greeting(), "missed", s.Missed)
		gm.ToOrganiser("org_bot", "seat", seat, "name", s.Greeting(), "address", s.Address, "missed", s.Missed)
	}
	return nil
}

// stepPublic reports whether every event of a step is seen whole by every
// reader: its command then tells nothing hidden.
func stepPublic(st engine.Step) bool {
	for _, e := range st.Events {
		if !e.Vis.Public || e.Redacted != nil {
			return false
		}
	}
	return true
}

// Why a game the organiser (or a tournament) decided is closed: Close's
// why, the one word of its writers (Adjudicate, and the tournament desk
// through the core: bymail.CloseAdjudicated and its kin are these) and
// of its reader (Result, through ClosedAs: the organiser's entry Close
// logs).
const (
	// CloseAdjudicated: scored as it stands, with a "result".
	CloseAdjudicated = "adjudicated"
	// CloseForfeit: the "names" who lose forfeit.
	CloseForfeit = "forfeit"
	// CloseRepaired: stopped by REPAIR, drawn again.
	CloseRepaired = "repaired"
)

// ClosedAs reports whether e is the organiser's entry Close logged for a
// game closed for why.
func ClosedAs(e records.Entry, why string) bool {
	return e.Kind == records.EntryOrg && e.Params["command"] == strings.ToUpper(why)
}

// Close stops a game the organiser decided (why: CloseAdjudicated with a
// result, CloseForfeit with the names who lose) at now; the players are
// told the result and the seed. A game stopped by REPAIR (CloseRepaired)
// is logged but not announced: the round mail drawn again tells its
// players, one mail each (issue 24).
func Close(gm Game, now time.Time, why string, kv ...any) error {
	g := gm.Record()
	g.Status, g.Ended = records.StatusAborted, now
	for i := range g.Seats {
		g.Seats[i].Deadline = nil
	}
	if err := gm.Log(records.Entry{Kind: records.EntryOrg, Seat: -1, Vis: engine.Public, Params: map[string]any{"command": strings.ToUpper(why), "args": []string{}}}); err != nil {
		return err
	}
	if why == CloseRepaired {
		return nil
	}
	note := "aborted"
	switch why {
	case CloseAdjudicated:
		note = "adjudicated"
	case CloseForfeit:
		note = "forfeited"
	}
	gm.Announce(nil, note, append([]any{"seed", g.Seed}, kv...)...)
	return nil
}

// Adjudicate ends a late game at now. Where the game can score a position
// as it stands (its state has Adjudicate: every game of the referee, by
// its own final scoring), that is the result (res, and line, its places),
// and the game is closed; otherwise (a game without it, or a position it
// cannot score) res is nil: every seat is a bot's and the bots finish the
// game from the position, deterministically from the game's seed (a
// paused game runs again), its end reported as adjudicated.
func Adjudicate(gm Game, now time.Time) (res *engine.Result, line string, err error) {
	g := gm.Record()
	if adj, ok := gm.Table().State.(interface{ Adjudicate() *engine.Result }); ok {
		if res := adj.Adjudicate(); res != nil {
			line := lifecycle.ResultLine(g, res)
			if err := Close(gm, now, CloseAdjudicated, "result", line); err != nil {
				return nil, "", err
			}
			return res, line, nil
		}
	}
	if g.Status == records.StatusPaused {
		g.Status, g.PausedAt = records.StatusRunning, time.Time{}
	}
	for i := range g.Seats {
		g.Seats[i].Bot = lifecycle.BotName(gm.Engine().Info().Bots)
	}
	return nil, "", nil
}
