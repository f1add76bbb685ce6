package referee

import (
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"time"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/referee/lifecycle"
	"github.com/pbem-referee/referee/referee/reading"
)

// The end of the apply stage (settling): once the commands of a unit of
// work are applied, the bots play their seats until a human must act, the
// game ends when it is over, and each seat's clock starts, stays or stops.

// settle lets bots play their seats until a human must act, ends the game
// when it is over, and restarts the clocks of the seats newly asked.
func (gw settling) settle() error {
	if gw.tb == nil || gw.g.Status != StatusRunning {
		return nil
	}
	for i := 0; i < 100000; i++ {
		if gw.tb.State.Result() != nil {
			return gw.end()
		}
		moved := false
		for _, d := range gw.tb.Waiting() {
			if gw.g.Seats[d.Seat].Bot == "" {
				continue
			}
			if err := gw.botMove(d.Seat); err != nil {
				return err
			}
			moved = true
			break
		}
		if !moved {
			break
		}
	}
	if gw.tb.State.Result() != nil {
		return gw.end()
	}
	gw.clocks()
	return nil
}

// botMove lets the engine's bot answer a seat's waiting decision: one move
// for a sequential decision, the seat's whole sealed answer for a
// simultaneous one.
func (gw settling) botMove(seat int) error {
	name := gw.g.Seats[seat].Bot
	maker, ok := gw.eg.(engine.BotMaker)
	if !ok {
		return gw.expire(seat, false)
	}
	bot, err := maker.NewBot(name)
	if err != nil {
		if bot, err = maker.NewBot("random"); err != nil {
			return gw.expire(seat, false)
		}
	}
	h := fnv.New64a()
	fmt.Fprintf(h, "%s/%d/%d", gw.g.Seed, seat, gw.tb.Token())
	rng := rand.New(rand.NewPCG(h.Sum64(), 0x5eed))
	p := gw.tb.Prompts[seat]
	if p == nil {
		return nil
	}
	lines, err := engine.BotAnswer(gw.tb.State, seat, p.Decision.Group, bot, rng)
	if err != nil {
		return err
	}
	if len(lines) == 0 {
		return gw.expire(seat, false)
	}
	rep, err := gw.submit(seat, reading.Script(lines), gw.tb.Token())
	if err != nil {
		return err
	}
	if rep.Rejected {
		// The bot's plan did not fit (a blinded draw differed): fall back
		// to the default move so the game never stalls.
		return gw.expire(seat, false)
	}
	return nil
}

// clocks starts, keeps or stops each seat's deadline (lifecycle.Clocks);
// the seats whose clock started are asked.
func (gw settling) clocks() {
	acted := func(seat int) bool { return gw.of(seat).acted }
	for _, i := range lifecycle.Clocks(gw.g, gw.tb.Waiting(), acted, gw.w.now) {
		gw.seat(i).asked = true
	}
}

// wake returns when the game next needs attention (lifecycle.Wake).
func (gw settling) wake() time.Time { return lifecycle.Wake(gw.g) }

// end closes a finished game: the result, the seed and the full log are
// published to every player.
func (gw settling) end() error {
	if gw.ended || !lifecycle.End(gw.g, gw.w.now) {
		return nil
	}
	gw.ended = true
	res := gw.tb.State.Result()
	for i := range gw.g.Seats {
		gw.seat(i).force = true
	}
	if _, err := gw.log(Entry{Kind: EntryEnd, Seat: -1, Vis: engine.Public,
		Params: map[string]any{"rank": res.Rank, "seed": gw.g.Seed}}); err != nil {
		return err
	}
	gw.toOrganiser("org_end")
	return nil
}
