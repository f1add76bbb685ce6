package demo

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"strings"
	"sync"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/mailfmt/mailmsg"
	"github.com/pbem-referee/referee/referee/lifecycle"
	"github.com/pbem-referee/referee/referee/reading"
	"github.com/pbem-referee/referee/referee/records"
)

// NewBotDecider returns the deciding bot of one player: the bot name of
// maker with a random source of its own seeded from key, reading the
// game's table through load. The same maker, name and key give the same
// choices, whether the bot decides during the game (GameBrain) or before
// it (PlanGame).
func NewBotDecider(maker engine.BotMaker, name, key string, load TableLoader) (*PeekDecider, error) {
	bot, err := maker.NewBot(name)
	if err != nil {
		return nil, err
	}
	h := fnv.New64a()
	h.Write([]byte(key))
	return &PeekDecider{Load: load, Bot: bot, Rand: rand.New(rand.NewPCG(h.Sum64(), 7))}, nil
}

// Plan is one game decided before it is played: the answer of every seat
// at every state token the seat is asked at, the moves the game makes and
// its final state, as the engine alone plays them.
type Plan struct {
	// Game is the game's id.
	Game string
	// Final is the state token at the end and FinalHash the final state's
	// hash (engine.StateHash).
	Final     int
	FinalHash string
	// Moves are the game's steps, seat and command, in order: the seats'
	// own and the game's automatic ones.
	Moves []PlanMove
	// Answers counts the answers the seats send.
	Answers int

	answers map[[2]int]string // seat, token -> the mail's text
}

// PlanMove is one step of a planned game: who, what, and the state token
// after it.
type PlanMove struct {
	Seat  int
	Cmd   string
	Token int
}

// Answer returns the text a seat answers at a state token (false when it
// is not asked there).
func (p *Plan) Answer(seat, token int) (string, bool) {
	s, ok := p.answers[[2]int{seat, token}]
	return s, ok
}

// PlanGame plays a game through the engine alone, as the referee would
// play it by mail with deciding bots for players (GameBrain with a
// PeekDecider), and returns the plan that ScriptBrain players follow.
//
// cfg is the game's configuration with its seats in the order of the
// invitations; the seats are drawn from cfg.Seed as the referee draws
// them at the start (lifecycle.DrawSeatOrder: the game is not Ordered).
// deciders[k] is the k-th invitee's bot (NewBotDecider; Load unused): it
// answers for whichever seat the draw gives that invitee, every prompt
// the referee would send it (engine.Table.Waiting), from the state the
// referee would have then, as PeekDecider does. The answers of one token
// are decided on the same state before any is submitted: the seats of a
// simultaneous group answer sealed (the state moves once they all did).
// It fails if a planned answer is refused, stale, or the game stalls.
func PlanGame(id string, eg engine.Game, cfg engine.Config, deciders []*PeekDecider) (*Plan, error) {
	n := len(cfg.Seats)
	if len(deciders) != n {
		return nil, fmt.Errorf("demo: plan %s: %d deciders for %d seats", id, len(deciders), n)
	}
	perm := lifecycle.DrawSeatOrder(&records.Game{Seed: cfg.Seed, Seats: make([]records.Seat, n)})
	names := make([]string, n)
	bySeat := make([]*PeekDecider, n)
	for s, k := range perm {
		names[s], bySeat[s] = cfg.Seats[k], deciders[k]
	}
	cfg.Seats = names
	tb, rep, _, err := engine.NewTable(eg, cfg)
	if err != nil {
		return nil, fmt.Errorf("demo: plan %s: %w", id, err)
	}
	tb.HashSteps = true
	p := &Plan{Game: id, answers: map[[2]int]string{}}
	p.record(rep)
	for k := 0; tb.State.Result() == nil; k++ {
		if k > 100000 {
			return nil, fmt.Errorf("demo: plan %s: no end after %d prompts", id, k)
		}
		waiting := tb.Waiting()
		if len(waiting) == 0 {
			return nil, fmt.Errorf("demo: plan %s: nobody is asked anything at token %d and the game is not over", id, tb.Token())
		}
		token := tb.Token()
		type answer struct {
			seat int
			text string
		}
		var batch []answer
		for _, d := range waiting {
			dec := bySeat[d.Seat]
			lines, err := engine.BotAnswer(tb.State, d.Seat, d.Group, dec.Bot, dec.Rand)
			if err != nil {
				return nil, fmt.Errorf("demo: plan %s: seat %d at %d: %w", id, d.Seat, token, err)
			}
			if len(lines) == 0 {
				return nil, fmt.Errorf("demo: plan %s: seat %d asked %s at %d with nothing to say", id, d.Seat, d.Kind, token)
			}
			key := [2]int{d.Seat, token}
			if _, dup := p.answers[key]; dup {
				return nil, fmt.Errorf("demo: plan %s: seat %d asked twice at %d", id, d.Seat, token)
			}
			text := strings.Join(lines, "\n")
			p.answers[key] = text
			batch = append(batch, answer{d.Seat, text})
		}
		for _, a := range batch {
			rep, err := tb.Submit(a.seat, reading.Script(strings.Split(a.text, "\n")), token)
			if err != nil {
				return nil, fmt.Errorf("demo: plan %s: %w", id, err)
			}
			if rep.Rejected || rep.Stale {
				return nil, fmt.Errorf("demo: plan %s: seat %d's answer %q at %d refused (stale %v)", id, a.seat, a.text, token, rep.Stale)
			}
			p.record(rep)
			p.Answers++
		}
	}
	p.Final = tb.Token()
	if p.FinalHash, err = engine.StateHash(tb.State); err != nil {
		return nil, err
	}
	return p, nil
}

func (p *Plan) record(rep *engine.Report) {
	if rep == nil {
		return
	}
	for _, s := range rep.Steps {
		p.Moves = append(p.Moves, PlanMove{Seat: s.Seat, Cmd: s.Cmd, Token: s.Token})
	}
}

// Check compares a game's exported log with the plan: the same moves in
// the same order, ending in the same state. It returns what differs (nil
// when nothing does).
func (p *Plan) Check(lg *engine.Log, final engine.State) error {
	var errs []error
	if len(lg.Steps) != len(p.Moves) {
		errs = append(errs, fmt.Errorf("%d moves logged, %d planned", len(lg.Steps), len(p.Moves)))
	}
	for i := range min(len(lg.Steps), len(p.Moves)) {
		if s, m := lg.Steps[i], p.Moves[i]; s.Seat != m.Seat || s.Cmd != m.Cmd || s.Token != m.Token {
			errs = append(errs, fmt.Errorf("move %d: seat %d %q (token %d) logged, seat %d %q (token %d) planned",
				i+1, s.Seat, s.Cmd, s.Token, m.Seat, m.Cmd, m.Token))
			break
		}
	}
	if final != nil {
		h, err := engine.StateHash(final)
		if err != nil {
			errs = append(errs, err)
		} else if h != p.FinalHash || final.Head().Moves != p.Final {
			errs = append(errs, fmt.Errorf("final state at token %d differs from the plan's at %d", final.Head().Moves, p.Final))
		}
	}
	return errors.Join(errs...)
}

// ScriptBrain plays one seat of a planned game (PlanGame) by mail: it
// accepts the invitation as a GameBrain does (FORMAT json, JOIN: the
// referee renders the same mails), then reads each mail that asks it to
// act (the prompt's heading in its text), takes the state token and seat
// from its Message-ID and answers with the plan's text for them, once, and
// is done when the final mail with the game's log arrives. It decides
// nothing and reads neither the referee's store nor the JSON part.
type ScriptBrain struct {
	Plan *Plan

	mu       sync.Mutex
	joined   bool
	answered map[int]bool
	over     bool
	orders   int
}

// promptHeading starts the part of an English mail that asks the reader
// to act (templates/referee/en/mail.tmpl).
const promptHeading = "WHAT YOU NEED TO DO NOW"

// Start implements Brain: a game player waits for its invitation.
func (b *ScriptBrain) Start() (string, string, string) { return "", "", "" }

// WithoutJSON implements jsonless: the Player need not look for the JSON
// part.
func (b *ScriptBrain) WithoutJSON() bool { return true }

// Answer implements Brain.
func (b *ScriptBrain) Answer(_ context.Context, in *Incoming) (string, bool, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if !b.joined {
		if t, ok := seatTag(in.Msg); !ok || t.Game != b.Plan.Game {
			return "", false, nil
		}
		b.joined, b.answered = true, map[int]bool{}
		return "FORMAT json\nJOIN", false, nil
	}
	ref, err := mailmsg.ParseMessageID(in.Msg.MessageID)
	if err != nil || ref.Game != b.Plan.Game || ref.Seat < 0 || ref.Token < 0 {
		return "", false, nil
	}
	token := int(ref.Token)
	if token == b.Plan.Final && bytes.Contains(in.Raw, []byte(b.Plan.Game+"-log.json")) {
		b.over = true
		return "", true, nil
	}
	text, ok := b.Plan.Answer(ref.Seat, token)
	// Only a mail that asks (the English prompt's heading; the bench
	// invites in English): before the start, the mails of the forming
	// game carry token 0 too.
	if !ok || b.answered[token] || !strings.Contains(in.Msg.Text, promptHeading) {
		return "", false, nil
	}
	b.answered[token] = true
	b.orders++
	return text, false, nil
}

// Over reports whether the final mail arrived.
func (b *ScriptBrain) Over() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.over
}

// Orders returns the number of mails with orders the brain answered.
func (b *ScriptBrain) Orders() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.orders
}
