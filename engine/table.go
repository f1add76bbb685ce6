package engine

import (
	"errors"
	"sort"
)

// MaxNumbered is a guard, not a menu size: every decision of our games is
// numbered whole (issue 22, "menus that fit a decision": a long menu is
// grouped by kind of action, never cut to an example). It was 48 (issue
// 12.5), and a third of Dice Brewing's placements (up to 146 options) went
// without a menu. Only a decision of more options than this, which no game
// has, is described, not numbered: a prompt and the per-seat history of
// numbered lists (Table.Asked) stay of sane size.
const MaxNumbered = 1000

// maxSteps guards against an engine that never stops asking itself forced
// questions.
const maxSteps = 1 << 20

// Table drives one game: a State plus every seat's queued orders, halts and
// last prompt. It implements the shared queue mechanism of the contract:
//
//   - A decision with exactly one legal option is applied at once (never
//     asked, never timed, never missed).
//   - A sequential decision takes the seat's first order queued under the
//     decision's Slot and tries its alternatives left to right against the
//     current position. If none is legal, ELSE PASS plays the decision's
//     pass move; otherwise the seat's queue for that slot halts: the rest of
//     it is set aside and the seat is asked, with the reasons.
//   - A simultaneous decision group waits until every seat of the group has
//     a complete sealed answer (or its deadline expired), then applies the
//     answers seat by seat in Rank order. A seat may revise its answer until
//     then: a new message replaces a complete answer and continues an
//     incomplete one.
//
// A Table is not safe for concurrent use. Submit, Expire and Clear either
// succeed completely or leave the Table as it was.
type Table struct {
	game  Game
	State State
	// Queues holds each seat's queued orders, in the order they will be used.
	Queues [][]Order
	// Halts holds, per seat, why its queue stopped (nil: not halted).
	Halts []*Halt
	// Prompts holds, per seat, the question it was last asked (nil: none).
	Prompts []*Prompt
	// Expired holds, per seat, the simultaneous group whose deadline passed
	// for it (its sealed answer is completed with default moves).
	Expired []string
	// NextTag numbers submitted orders, to follow them through the queue.
	NextTag int
	// Asked keeps, per seat, the last few numbered option lists the seat
	// was shown, with the token from which each held, so that a numbered
	// reply binds to the prompt it answers (see Submit).
	Asked [][]Asked
	// Forced keeps, per seat, the commands the game played itself for the
	// seat (forced decisions, Step.How "auto") since the seat's last
	// message, at most maxForced: a later message's leading lines that
	// repeat them are agreement (see Submit and the agreement rule).
	Forced [][]string
	// HashSteps makes every Step record the SHA-256 of the state after it
	// (for logs that replay checks). It costs one JSON encoding per move.
	HashSteps bool

	pending  []Step   // steps recorded and not yet flushed into a report
	script   []Forced // scripted outcomes to attach to the next step
	tagFloor int      // orders with a higher tag belong to the message being submitted
}

// Halt records a seat's stopped queue.
type Halt struct {
	Slot string `json:"slot"`
	// Order is the order that could not be applied, and Errors why (one per
	// alternative tried).
	Order  Order        `json:"order"`
	Errors []*RuleError `json:"errors"`
	// SetAside are the seat's other orders for the slot, dropped by the halt.
	SetAside []Order `json:"set_aside,omitempty"`
}

// Prompt is the question a seat is asked now.
type Prompt struct {
	// Token is the state token (Header.Moves) the prompt was made at.
	Token    int      `json:"token"`
	Decision Decision `json:"decision"`
	// Options are the legal answers; Numbered says whether the prompt
	// numbers them (a reply of "2" then means Options[1]).
	Options  []Option `json:"options,omitempty"`
	Numbered bool     `json:"numbered,omitempty"`
	// Count is the number of legal options (Options is left empty when the
	// set is too large to list).
	Count int `json:"count"`
	// Halt explains why the seat's queued order was not applied.
	Halt *Halt `json:"halt,omitempty"`
	// Sealed is the seat's current sealed answer for a simultaneous group,
	// and Complete whether it finishes the seat's part.
	Sealed   []Order `json:"sealed,omitempty"`
	Complete bool    `json:"complete,omitempty"`
	// legal are the legal options in the game's order, as State.Legal
	// gave them when the prompt was made (Table.Legal); nil in a decoded
	// Table.
	legal []Option
}

// Asked is a numbered option list a seat was shown from state token From
// on (Options nil: no numbered list from then on).
type Asked struct {
	From    int      `json:"from"`
	Options []string `json:"options,omitempty"`
}

// maxAsked bounds the per-seat history of numbered prompts.
const maxAsked = 4

// maxForced bounds the per-seat memory of forced moves (Table.Forced).
const maxForced = 16

// Step is one move applied to the state.
type Step struct {
	Seat int    `json:"seat"`
	Cmd  string `json:"cmd"`
	// How: one of the How* constants (outcome.go): "move" (applied on
	// receipt), "queued", "agreed" (a queued order named the forced
	// option), "auto" (forced, the game did it itself), "else_pass",
	// "default" (deadline), "sealed" (simultaneous answer).
	How string `json:"how"`
	// Tag is the submitted order's tag, 0 for auto and default moves.
	Tag    int     `json:"tag,omitempty"`
	Line   int     `json:"line,omitempty"`
	Events []Event `json:"events,omitempty"`
	// Token is Header.Moves after the step; Hash the state's SHA-256 then
	// (only with Table.HashSteps).
	Token int    `json:"token"`
	Hash  string `json:"hash,omitempty"`
	// Errors are why no alternative of the order could be played, for an
	// "else_pass" step (the pass its ELSE PASS asked for): the player is
	// told the rule, never just that it passed (issue 12.6).
	Errors []*RuleError `json:"errors,omitempty"`
	// Script holds random outcomes scripted just before this step.
	Script []Forced `json:"script,omitempty"`
}

// Report tells what a Submit, Expire or Clear call did.
type Report struct {
	Seat int `json:"seat"`
	// Stale: the message answered an older prompt; its orders were
	// re-validated and those no longer legal were dropped, not rejected.
	Stale bool `json:"stale,omitempty"`
	// Rejected: nothing of the message was applied (see Results).
	Rejected bool `json:"rejected,omitempty"`
	// Results has one entry per submitted order.
	Results []OrderResult `json:"results,omitempty"`
	// Steps are every move applied during the call, by any seat.
	Steps []Step `json:"steps,omitempty"`
	// Halts are the queues that stopped during the call.
	Halts []SeatHalt `json:"halts,omitempty"`
	// Dropped are queued orders dropped because their slot closed.
	Dropped []SeatOrders `json:"dropped,omitempty"`
	// Failed are orders of sealed answers that were illegal when the group
	// was resolved (skipped; the seat's other orders still applied).
	Failed []SeatFailure `json:"failed,omitempty"`
	// Defaults are default moves applied because a deadline passed.
	Defaults []Step `json:"defaults,omitempty"`
	// Revealed lists the simultaneous groups resolved during the call.
	Revealed []string `json:"revealed,omitempty"`
}

// OrderResult is the outcome of one submitted order.
type OrderResult struct {
	Order Order `json:"order"`
	// Status is the line's outcome (outcome.go: applied, agreed,
	// partial, queued, sealed, halted, else_pass, rejected, skipped,
	// failed, dropped); every outcome but applied, agreed, queued and
	// sealed comes with Errors.
	Status Outcome `json:"status"`
	// Cmds are the canonical commands applied or queued for the order.
	Cmds []string `json:"cmds,omitempty"`
	// Errors explain a rejection or failure (one per alternative).
	Errors []*RuleError `json:"errors,omitempty"`
}

// SeatHalt is a halt with its seat.
type SeatHalt struct {
	Seat int  `json:"seat"`
	Halt Halt `json:"halt"`
}

// SeatOrders is a list of orders with their seat; Reasons, when set, has
// why each order was dropped (Report.Dropped).
type SeatOrders struct {
	Seat    int          `json:"seat"`
	Orders  []Order      `json:"orders"`
	Reasons []*RuleError `json:"reasons,omitempty"`
}

// SeatFailure is an order that failed when a sealed group was resolved.
type SeatFailure struct {
	Seat   int          `json:"seat"`
	Order  Order        `json:"order"`
	Errors []*RuleError `json:"errors"`
}

// NewTable sets up a game and runs it until a decision needs somebody's input.
// The returned steps are the automatic moves made before that.
func NewTable(g Game, cfg Config) (*Table, *Report, []Event, error) {
	st, setup, err := g.NewState(cfg)
	if err != nil {
		return nil, nil, nil, err
	}
	t := newTable(g, st)
	rep := &Report{Seat: -1}
	if err := t.advance(rep, nil); err != nil {
		return nil, nil, nil, err
	}
	t.refreshPrompts()
	return t, rep, setup, nil
}

// WrapTable returns a Table around an existing state, with empty queues.
func WrapTable(g Game, st State) *Table {
	t := newTable(g, st)
	t.refreshPrompts()
	return t
}

func newTable(g Game, st State) *Table {
	n := len(st.Head().Seats)
	return &Table{
		game:    g,
		State:   st,
		Queues:  make([][]Order, n),
		Halts:   make([]*Halt, n),
		Prompts: make([]*Prompt, n),
		Expired: make([]string, n),
	}
}

// Game returns the game the table plays.
func (t *Table) Game() Game { return t.game }

// Token returns the current state token (the number of moves applied).
func (t *Table) Token() int { return t.State.Head().Moves }

// Legal returns the legal options of seat's prompt (nil without one) in
// the game's order, as State.Legal gives them: the list the prompt was
// made from while the state is still at the prompt's token, so that a
// mail's JSON part does not compute it a second time (issue 25), else
// computed again (a Table decoded from the store keeps no list).
func (t *Table) Legal(seat int) []Option {
	if seat < 0 || seat >= len(t.Prompts) || t.Prompts[seat] == nil {
		return nil
	}
	p := t.Prompts[seat]
	if p.legal != nil && p.Token == t.Token() {
		return p.legal
	}
	return t.State.Legal(p.Decision)
}

// Seats returns the number of seats.
func (t *Table) Seats() int { return len(t.Queues) }

func (t *Table) clone() *Table {
	c := *t
	c.State = t.State.Clone()
	c.Queues = make([][]Order, len(t.Queues))
	for i, q := range t.Queues {
		c.Queues[i] = append([]Order(nil), q...)
	}
	c.Halts = append([]*Halt(nil), t.Halts...)
	c.Prompts = append([]*Prompt(nil), t.Prompts...)
	c.Expired = append([]string(nil), t.Expired...)
	c.Asked = make([][]Asked, len(t.Asked))
	for i, a := range t.Asked {
		c.Asked[i] = append([]Asked(nil), a...)
	}
	c.Forced = make([][]string, len(t.Forced))
	for i, f := range t.Forced {
		c.Forced[i] = append([]string(nil), f...)
	}
	c.pending, c.script = nil, append([]Forced(nil), t.script...)
	return &c
}

// rejection is the internal signal that a fresh message must be refused.
type rejection struct {
	tag  int
	errs []*RuleError
}

func (r *rejection) Error() string { return "rejected" }

// sameMove reports whether two command lines parse to the same move of
// seat: a menu line may spell option n otherwise than its canonical
// command (a short code, the reader's words), and a copied line that means
// the same move is option n (issue 20).
func (t *Table) sameMove(seat int, a, b string) bool {
	ma, err := t.State.Parse(seat, a)
	if err != nil {
		return false
	}
	mb, err := t.State.Parse(seat, b)
	if err != nil {
		return false
	}
	return ma.String() == mb.String()
}

// Chooser is an optional State method for a game whose Legal is costly:
// HasChoice reports, without listing the options, that decision d has at
// least two legal options, so that it is not forced (false: maybe not; the
// Table then counts Legal's options). Brew Crafters' Brewery decision
// always has B PROCESS and B PASS.
type Chooser interface {
	HasChoice(d Decision) bool
}

// Submit applies one message of orders from a seat (see ParseScript; the
// referee removes its own commands such as STATUS first). token is the state
// token of the prompt the message answers, or -1 when unknown.
//
// A fresh message is atomic: if any order fails to parse or route, or if a
// free action or the order answering the seat's current decision is illegal,
// nothing is applied and Report.Rejected is set. A stale message (token older
// than the current state) is re-validated instead: orders still legal are
// applied, the others are reported as failed and dropped.
//
// The error is non-nil only for engine failures (a bug), never for a rule.
func (t *Table) Submit(seat int, orders []Order, token int) (*Report, error) {
	if seat < 0 || seat >= t.Seats() {
		return nil, Reject("", CodeNotSeated, "seat", seat)
	}
	// The agreement rule, after the fact: leading lines that repeat what
	// the game did itself since the seat's last message are agreed.
	agreed, orders := t.agreedLines(seat, orders)
	rep, err := t.submit(seat, orders, token, false)
	if err != nil || rep == nil {
		return rep, err
	}
	if rep.Rejected && !rep.Stale && t.lateFree(seat, orders) {
		// Free actions are applied on receipt, before the lines that
		// wait for their decisions. When that refuses the mail and a
		// free action was written after a line of the turn in
		// progress, the mail is played again in the order written: the
		// free action may need what the earlier line does (Dice
		// Brewing: PLAY TAKE K5@S, then STORE K5) or change what it
		// names (STORE G3 after PLAY SHIELD G3@A). Issue 21. The first
		// refusal stands if that fails too.
		if rep2, err := t.submit(seat, orders, token, true); err == nil && rep2 != nil && !rep2.Rejected {
			rep = rep2
		}
	}
	if len(agreed) > 0 {
		rep.Results = append(agreed, rep.Results...)
	}
	if !rep.Rejected && seat < len(t.Forced) {
		// Forced moves the seat has now answered are forgotten; those
		// this very message caused are kept for its next one.
		t.Forced[seat] = t.forcedSince(seat, rep)
	}
	return rep, nil
}

// lateFree reports whether a free action of the message comes after a
// line for the seat's turn in progress (routed on a copy).
func (t *Table) lateFree(seat int, orders []Order) bool {
	os := append([]Order(nil), orders...)
	for i := range os {
		os[i].Alts = append([][]string(nil), os[i].Alts...)
	}
	st := t.State.Clone()
	for _, err := range st.Route(seat, os) {
		if err != nil {
			return false
		}
	}
	for i, o := range os {
		if j := lastQueued(os, i); o.Now && j >= 0 && t.inProgress(seat, os[j].Slot) {
			return true
		}
	}
	return false
}

// submit is Submit without the agreed leading lines; written plays free
// actions in the order written within the turn in progress.
func (t *Table) submit(seat int, orders []Order, token int, written bool) (*Report, error) {
	rep := &Report{Seat: seat, Stale: token >= 0 && token != t.Token()}
	if t.State.Result() != nil {
		rep.Rejected = true
		for _, o := range orders {
			rep.Results = append(rep.Results, OrderResult{Order: o, Status: "rejected", Errors: []*RuleError{Reject("", CodeGameOver)}})
		}
		return rep, nil
	}
	w := t.clone()
	w.tagFloor = w.NextTag
	orders = append([]Order(nil), orders...)
	for i := range orders {
		// Route may rewrite an order's alternatives (Heaven & Ale's
		// implied DONE): never the caller's.
		orders[i].Alts = append([][]string(nil), orders[i].Alts...)
		w.NextTag++
		orders[i].Tag = w.NextTag
	}
	// Numbered replies, then routing, then parsing: all before any change.
	bad := false
	results := make([]OrderResult, len(orders))
	for i := range orders {
		results[i].Order = orders[i]
		if n := orders[i].Number(); n > 0 {
			p := w.Prompts[seat]
			now := ""
			if p != nil && p.Numbered && n <= len(p.Options) {
				now = p.Options[n-1].Cmd
			}
			if rep.Stale {
				// The number means what it meant in the prompt the
				// message answers: refused unless that is still the
				// option of that number now.
				if then, ok := w.askedAt(seat, token, n); !ok || then != now {
					results[i].Status, results[i].Errors = "rejected", []*RuleError{Reject("", CodeStaleOption, "n", n, "old", then, "new", now)}
					bad = true
					continue
				}
			}
			if now == "" {
				count := 0
				if p != nil && p.Numbered {
					count = len(p.Options)
				}
				results[i].Status, results[i].Errors = "rejected", []*RuleError{Reject("", CodeNoOption, "n", n, "count", count)}
				bad = true
				continue
			}
			if e := orders[i].copiedMismatch(n, now); e != nil && !w.sameMove(seat, orders[i].Copied, now) {
				results[i].Status, results[i].Errors = "rejected", []*RuleError{e}
				bad = true
				continue
			}
			orders[i].Alts = [][]string{{now}}
		}
	}
	if !bad {
		errs := w.State.Route(seat, orders)
		for i, err := range errs {
			if err != nil {
				results[i].Status, results[i].Errors = "rejected", []*RuleError{asRule(err)}
				bad = true
			}
		}
	}
	if !bad {
		for i, o := range orders {
			for _, alt := range o.Alts {
				for _, line := range alt {
					if _, err := w.State.Parse(seat, line); err != nil {
						if i > 0 && w.parseLater(seat, o, asRule(err)) {
							continue
						}
						results[i].Status = "rejected"
						results[i].Errors = append(results[i].Errors, asRule(err))
						bad = true
					}
				}
			}
			results[i].Order = orders[i]
		}
	}
	if bad {
		return rejected(rep, results), nil
	}
	// Free actions and standing orders: applied on receipt, in message order.
	for i, o := range orders {
		if !o.Now {
			continue
		}
		if j := lastQueued(orders, i); written && j >= 0 && w.inProgress(seat, orders[j].Slot) {
			// Played in the order written (see Submit): a free action
			// after a line of the turn in progress that waits for its
			// decision waits right after that line.
			orders[i].Now, orders[i].Slot = false, orders[j].Slot
			results[i].Order = orders[i]
			continue
		}
		cmds, errs, err := w.tryAlts(seat, o.Slot, o.Alts)
		if err != nil {
			return nil, err
		}
		if cmds == nil {
			if !rep.Stale {
				results[i].Status, results[i].Errors = "rejected", errs
				return rejected(rep, results), nil
			}
			results[i].Status, results[i].Errors = "failed", errs
			continue
		}
		results[i].Status, results[i].Cmds = "applied", cmds
		w.flush(rep, HowMove, o.Tag, o.Line)
	}
	// Lines known to fail whatever happens before their turn are reported
	// now, with their rule (issue 12.6), never shown as queued: a fresh
	// message is refused; a stale one drops them.
	foreseen := map[int]bool{}
	for i, o := range orders {
		if o.Now {
			continue
		}
		if errs := w.foreseeOrder(seat, o); errs != nil {
			results[i].Errors = errs
			if !rep.Stale {
				results[i].Status = "rejected"
				bad = true
				continue
			}
			results[i].Status = "failed"
			foreseen[o.Tag] = true
		}
	}
	if bad {
		return rejected(rep, results), nil
	}
	// Queue the others, slot by slot: a message replaces what is still
	// queued for a slot, except an incomplete sealed answer, which it
	// continues.
	slots := map[string]bool{}
	for _, o := range orders {
		if !o.Now && !foreseen[o.Tag] {
			slots[o.Slot] = true
		}
	}
	for slot := range slots {
		if !w.incompleteSealed(seat, slot) {
			w.removeSlot(seat, slot)
		}
		if h := w.Halts[seat]; h != nil && h.Slot == slot {
			w.Halts[seat] = nil
		}
	}
	for _, o := range orders {
		if !o.Now && !foreseen[o.Tag] {
			w.Queues[seat] = append(w.Queues[seat], o)
		}
	}
	strict := &strictness{seat: seat, on: !rep.Stale}
	if err := w.advance(rep, strict); err != nil {
		var rj *rejection
		if errors.As(err, &rj) {
			for i := range results {
				if results[i].Order.Tag == rj.tag {
					results[i].Status, results[i].Errors = "rejected", rj.errs
				}
			}
			rep.Steps, rep.Halts = nil, nil
			return rejected(rep, results), nil
		}
		return nil, err
	}
	w.fillResults(seat, rep, results)
	w.refreshPrompts()
	*t = *w
	return rep, nil
}

// parseLater reports whether a line of order o that does not parse now,
// after earlier lines of its message, is parsed again when it is played
// instead of refusing the message at once: the mail is played in the order
// written, and the earlier lines of the turn in progress may make it
// readable (Dice Brewing: "STORE G2" moves the dice a later "PLAY SHIELD
// K1@A" names; issue 21). Only errors that depend on the position qualify
// (never a syntax error or an unknown command), and only for a free action
// or a line of the seat's turn in progress: there it is still refused with
// the whole message, with its reason, if it fails when played; a line for
// a later turn is refused at once, as before.
func (t *Table) parseLater(seat int, o Order, re *RuleError) bool {
	if re == nil || re.Code == CodeSyntax || re.Code == CodeUnknownCommand || re.Code == "internal" {
		return false
	}
	return o.Now || t.inProgress(seat, o.Slot)
}

// inProgress reports whether slot is the slot of the seat's pending
// decision (the turn in progress).
func (t *Table) inProgress(seat int, slot string) bool {
	d, ok := t.decisionOf(seat)
	return ok && d.Slot == slot
}

// lastQueued returns the index of the last order before i that is not
// applied on receipt, or -1.
func lastQueued(orders []Order, i int) int {
	for j := i - 1; j >= 0; j-- {
		if !orders[j].Now {
			return j
		}
	}
	return -1
}

// rejected marks a refused message: the orders that were not themselves at
// fault are "skipped" (not applied, because another line was refused).
func rejected(rep *Report, results []OrderResult) *Report {
	for i := range results {
		if results[i].Status == "" || results[i].Status == OutcomeApplied || results[i].Status == OutcomeAgreed {
			results[i].Status, results[i].Cmds = "skipped", nil
		}
	}
	rep.Rejected = true
	rep.Results = results
	return rep
}

// Expire applies the default move of the seat's pending decision because its
// deadline passed: a sequential decision gets its Default at once; a
// simultaneous one is completed with defaults once the seat's sealed answer
// runs out. Report.Defaults lists the default moves applied.
func (t *Table) Expire(seat int) (*Report, error) {
	if seat < 0 || seat >= t.Seats() {
		return nil, Reject("", CodeNotSeated, "seat", seat)
	}
	rep := &Report{Seat: seat}
	w := t.clone()
	d, ok := w.decisionOf(seat)
	if !ok {
		return rep, nil
	}
	if d.Mode == Simultaneous {
		// A halted sealed answer must not keep the seat waiting past its
		// deadline: the halt goes, and defaults complete the answer.
		w.Halts[seat] = nil
		w.Expired[seat] = d.Group
	} else {
		w.Halts[seat] = nil
		if err := w.applyDefault(rep, d); err != nil {
			return nil, err
		}
	}
	if err := w.advance(rep, nil); err != nil {
		return nil, err
	}
	w.refreshPrompts()
	*t = *w
	return rep, nil
}

// Clear drops every order the seat has queued (and its halt). It returns the
// dropped orders.
func (t *Table) Clear(seat int) []Order {
	if seat < 0 || seat >= t.Seats() {
		return nil
	}
	dropped := t.Queues[seat]
	t.Queues[seat] = nil
	t.Halts[seat] = nil
	t.refreshPrompts()
	return dropped
}

// Undo drops the seat's most recently queued order (a sealed answer's last
// line, or the last order queued for a later turn) and returns it.
func (t *Table) Undo(seat int) (Order, bool) {
	if seat < 0 || seat >= t.Seats() || len(t.Queues[seat]) == 0 {
		return Order{}, false
	}
	q := t.Queues[seat]
	last := 0
	for i, o := range q {
		if o.Tag >= q[last].Tag {
			last = i
		}
	}
	o := q[last]
	t.Queues[seat] = append(q[:last:last], q[last+1:]...)
	t.refreshPrompts()
	return o, true
}

// Script pushes scripted random outcomes (offline play, tests). They are
// attached to the next step recorded.
func (t *Table) Script(kind string, values ...string) {
	t.State.Head().Rand.Push(kind, values...)
	for _, v := range values {
		t.script = append(t.script, Forced{Kind: kind, Value: v})
	}
}

// Waiting returns the decisions that wait for a seat's input now: not
// forced, with no usable queued order (or, for a simultaneous group, no
// complete sealed answer). The referee starts deadlines and sends prompts
// for exactly these.
func (t *Table) Waiting() []Decision {
	var out []Decision
	for s, p := range t.Prompts {
		if p != nil && !p.Complete {
			d := p.Decision
			d.Seat = s
			out = append(out, d)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Rank < out[j].Rank })
	return out
}

// Queued returns the seat's queued orders.
func (t *Table) Queued(seat int) []Order { return append([]Order(nil), t.Queues[seat]...) }
