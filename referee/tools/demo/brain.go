package demo

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/mailfmt/mailmsg"
)

// MailView is the JSON part of a mail to a FORMAT json player: the fields
// a bot reads.
type MailView struct {
	Game   string `json:"game"`
	Seat   int    `json:"seat"`
	Token  int    `json:"token"`
	Status string `json:"status"`
	Kind   string `json:"kind"`
	// Prompt is what the player must decide now (nil when nothing), and
	// Legal every legal answer to it.
	Prompt *engine.Prompt                  `json:"prompt"`
	Legal  []engine.Option                 `json:"legal"`
	Reply  *struct{ Rejected, Stale bool } `json:"reply"`
	Result *engine.Result                  `json:"result"`
	View   json.RawMessage                 `json:"view"`
}

// Decider chooses the command lines answering a prompt. It returns no
// lines when the mail is stale (the game moved on: a newer mail follows).
type Decider interface {
	Decide(ctx context.Context, v *MailView) ([]string, error)
}

// GameBrain plays one seat of one game by mail: it accepts the invitation
// with JOIN and FORMAT json, answers every prompt once with the Decider's
// lines, and is done when the final mail with the game's log arrives.
type GameBrain struct {
	Decider Decider
	// MaxRejections bounds the answers the referee may refuse before the
	// brain gives up with an error (default 20).
	MaxRejections int

	mu         sync.Mutex
	game       string
	seat       int
	joined     bool
	reformat   bool
	answered   map[string]bool
	orders     int
	rejections int
	last       *MailView
	finalLog   []byte
	finalText  string
}

// Start implements Brain: a game player waits for its invitation.
func (b *GameBrain) Start() (string, string, string) { return "", "", "" }

// Answer implements Brain.
func (b *GameBrain) Answer(ctx context.Context, in *Incoming) (string, bool, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.answered == nil {
		b.answered = map[string]bool{}
	}
	if !b.joined {
		t, ok := seatTag(in.Msg)
		if !ok {
			return "", false, nil
		}
		b.joined, b.game, b.seat = true, t.Game, t.Seat
		// Ask for the JSON part from now on, and accept. FORMAT comes
		// first: the JOIN that fills the table starts the game and
		// reshuffles the seats, and the referee would apply a later
		// command of the same mail to the seat's old number.
		return "FORMAT json\nJOIN", false, nil
	}
	if in.JSON == nil {
		if _, ok := seatTag(in.Msg); ok && !b.reformat && strings.Contains(in.Msg.Text, "WHAT YOU NEED TO DO NOW") {
			// A prompt without the JSON part: ask again, once.
			b.reformat = true
			return "FORMAT json", false, nil
		}
		return "", false, nil
	}
	if isLog(in.JSON) {
		b.finalLog, b.finalText = in.JSON, in.Msg.Text
		return "", true, nil
	}
	var v MailView
	if err := json.Unmarshal(in.JSON, &v); err != nil {
		return "", false, fmt.Errorf("json part: %w", err)
	}
	b.last = &v
	if v.Reply != nil && v.Reply.Rejected {
		b.rejections++
		max := b.MaxRejections
		if max <= 0 {
			max = 20
		}
		if b.rejections > max {
			return "", false, fmt.Errorf("game %s seat %d: %d answers refused", v.Game, v.Seat, b.rejections)
		}
	}
	p := v.Prompt
	if p == nil || p.Complete || v.Status != "running" || len(v.Legal) == 0 {
		return "", false, nil
	}
	key := fmt.Sprintf("%d/%s/%s/%d/%v", p.Token, p.Decision.Group, p.Decision.Slot, len(p.Sealed), p.Halt != nil)
	if b.answered[key] && (v.Reply == nil || !v.Reply.Rejected) {
		return "", false, nil
	}
	lines, err := b.Decider.Decide(ctx, &v)
	if err != nil || len(lines) == 0 {
		return "", false, err
	}
	b.answered[key] = true
	b.orders++
	return strings.Join(lines, "\n"), false, nil
}

// Orders returns the number of mails with orders the brain answered.
func (b *GameBrain) Orders() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.orders
}

// Final returns the game log of the final mail and that mail's text (nil
// before the game ended).
func (b *GameBrain) Final() ([]byte, string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.finalLog, b.finalText
}

// Seat returns the game and seat of the invitation.
func (b *GameBrain) Seat() (string, int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.game, b.seat
}

// seatTag returns the seat tag of a mail's Reply-To plus address.
func seatTag(m *mailmsg.Message) (mailmsg.Tag, bool) {
	for _, a := range m.ReplyTo {
		_, detail, _ := mailmsg.SplitPlus(a.Addr)
		if detail == "" {
			continue
		}
		if t, err := mailmsg.ParseTag(detail); err == nil && t.Kind == mailmsg.TagSeat {
			return t, true
		}
	}
	return mailmsg.Tag{}, false
}

// isLog reports whether a JSON part is an engine log (the final mail's
// attachment) rather than a view.
func isLog(data []byte) bool {
	var probe struct {
		Steps  json.RawMessage `json:"steps"`
		Config json.RawMessage `json:"config"`
		Status *string         `json:"status"`
	}
	return json.Unmarshal(data, &probe) == nil && probe.Steps != nil && probe.Config != nil && probe.Status == nil
}

// TableLoader reads a game's current table, read-only, for a PeekDecider.
type TableLoader func(game string) (*engine.Table, error)

// PeekDecider is the demo's shortcut for choosing well: it reads the
// game's current state (read-only) from the referee's store and asks the
// game's engine bot, exactly as the referee does for a seat it plays
// itself (the random source blinded, the seat's whole sealed answer of a
// simultaneous decision simulated on a copy). The transport stays pure
// mail: the bot learns of its turn by mail and answers by mail, and the
// first line is always one of the mail's legal answers. A mail whose token
// is older than the store's is stale and gets no answer (a newer one
// follows).
type PeekDecider struct {
	Load TableLoader
	Bot  engine.Bot
	Rand *rand.Rand
}

// Decide implements Decider.
func (d *PeekDecider) Decide(_ context.Context, v *MailView) ([]string, error) {
	tb, err := d.Load(v.Game)
	if err != nil {
		return nil, err
	}
	if tb.Token() != v.Token || v.Prompt == nil || v.Prompt.Token != v.Token {
		return nil, nil
	}
	lines, err := engine.BotAnswer(tb.State, v.Seat, v.Prompt.Decision.Group, d.Bot, d.Rand)
	if err != nil {
		return nil, err
	}
	if len(lines) > 0 && !slices.ContainsFunc(v.Legal, func(o engine.Option) bool { return o.Cmd == lines[0] }) {
		// The mail and the store disagree: trust the mail.
		return []string{v.Legal[d.Rand.IntN(len(v.Legal))].Cmd}, nil
	}
	return lines, nil
}

// MailDecider decides from the mail alone, as a person would: one of the
// mail's legal answers, at random. It needs nothing but the JSON part, but
// answers one decision per mail, so it suits games whose simultaneous
// decisions take one order per seat (a sealed answer of several orders
// would need the position after the first, which the mail does not give).
type MailDecider struct {
	Rand *rand.Rand
}

// Decide implements Decider.
func (d *MailDecider) Decide(_ context.Context, v *MailView) ([]string, error) {
	if len(v.Legal) == 0 {
		return nil, nil
	}
	return []string{v.Legal[d.Rand.IntN(len(v.Legal))].Cmd}, nil
}
