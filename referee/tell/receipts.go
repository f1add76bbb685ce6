package tell

import (
	"slices"
	"time"
)

// Receipts (issue 22, "fewer mails, none wasted"). A receipt is a mail
// that answers a player's message and asks nothing of them: every order
// was applied, queued or sealed, no question is open, no note, no answer
// to HELP or STATUS, nothing refused ("Received; waiting for Bob"). Under
// the default NOTIFY turn a receipt is not sent at once: it is held in the
// seat's record (the store, so it survives a restart) and folded into the
// next mail the player gets, its echo first. When no other mail came
// within Teller.ReceiptWindow (the core's Options.ReceiptWindow), the
// referee's tick sends it alone (the game's wake time covers it). Nothing is lost: every mail to the seat
// carries the held echo, and the end of the game is a mail to everybody.
//
// The player chooses with NOTIFY (Seat.Receipts):
//   - NOTIFY fold (the default): held for the window, as above;
//   - NOTIFY receipts: every receipt at once, alone;
//   - NOTIFY none: never alone, only folded into the next mail, whenever
//     that comes.
//
// A mail that refuses or drops a line, answers a question or explains a
// halt is never held: the player must know at once.
//
// Nothing else coming is what sends a receipt alone, not the clock alone
// (keepHolding): a seat asked nothing (it passed, or waits for the end of
// a phase) while another player's message moved the game on will get a
// mail when the others are done (its next decision, the phase's or the
// game's end), so its held receipt waits for that mail, its window counted
// again from that message. It goes out alone once the game stood still for
// a whole window. (Dice Brewing: a player who passed early got "Received"
// alone five minutes later while the other played on, and a receipt was
// 17% of their mails.)

// Receipt modes of a seat (Seat.Receipts).
const (
	ReceiptsFold = ""     // held for Teller.ReceiptWindow
	ReceiptsEach = "each" // NOTIFY receipts: sent at once
	ReceiptsNone = "none" // NOTIFY none: only inside another mail
)

// DefaultReceiptWindow is the configuration's default receipt window.
const DefaultReceiptWindow = 5 * time.Minute

// HeldReceipt is a receipt waiting in a seat's record for the next mail.
type HeldReceipt struct {
	// Due is when the receipt is sent alone if no other mail came (zero:
	// NOTIFY none, only with the next mail).
	Due time.Time `json:"due,omitempty"`
	// Answering is the Message-ID of the player's message it answers.
	Answering string `json:"answering,omitempty"`
	// Lines are the echoed orders, oldest first; Info the notes on how
	// the player's mails were read.
	Lines []ReplyLine `json:"lines"`
	Info  []string    `json:"info,omitempty"`
}

// AloneAt is when the held receipt h must go out alone (zero: none, or
// only with the next mail).
func (h *HeldReceipt) AloneAt() time.Time {
	if h == nil {
		return time.Time{}
	}
	return h.Due
}

// receiptDue reports whether seat i holds a receipt whose window ended.
func (v *mailView) receiptDue(i int) bool {
	d := v.seats[i].Held.AloneAt()
	return !d.IsZero() && !v.Now.Before(d)
}

// withHeld is rep with seat i's held echo in front (rep itself when
// nothing is held; a new reply when rep is nil).
func (v *mailView) withHeld(i int, rep *Reply) *Reply {
	h := v.seats[i].Held
	if h == nil || len(h.Lines) == 0 {
		return rep
	}
	out := &Reply{}
	if rep != nil {
		*out = *rep
	}
	out.Lines = append(append([]ReplyLine(nil), h.Lines...), out.Lines...)
	info := append([]string(nil), h.Info...)
	for _, in := range out.Info {
		if !slices.Contains(info, in) {
			info = append(info, in)
		}
	}
	out.Info = info
	return out
}

// holdable reports whether seat i's mail with data d, answering rep, is a
// receipt that may wait (see the package comment above).
func (v *mailView) holdable(i int, rep *Reply, notes []string, d *MailData) bool {
	s := v.seats[i]
	if rep == nil || rep.Rejected || rep.Stale || len(rep.Lines) == 0 || len(notes) > 0 {
		return false
	}
	for _, in := range rep.Info {
		if in != rep.Read {
			return false // an answer (HELP, STATUS...) or a warning
		}
	}
	if s.Receipts == ReceiptsEach || (s.Receipts == ReceiptsFold && v.ReceiptWindow <= 0) {
		return false
	}
	if s.Bot != "" || s.State != SeatPlaying || v.Ended || v.of(i).Force || v.of(i).Reminder || v.of(i).Digest ||
		v.of(i).Status || v.of(i).Full {
		return false
	}
	if d.Kind != "reply" || d.Prompt != "" || d.Halt != nil || d.Result != nil || !v.short(i, d) {
		return false
	}
	for _, l := range rep.Lines {
		switch l.Status {
		case LineApplied, LineQueued, LineSealed, LineDone, LineElsePass:
		default:
			return false
		}
		if len(l.Errors) > 0 {
			return false
		}
	}
	return true
}

// hold keeps seat i's receipt (the whole echo, held lines included) in the
// seat's record; the window runs from the first receipt held.
func (v *mailView) hold(i int, rep *Reply, answering string) {
	s := &v.seats[i]
	h := &HeldReceipt{Answering: answering, Lines: append([]ReplyLine(nil), rep.Lines...),
		Info: append([]string(nil), rep.Info...)}
	switch {
	case s.Held != nil && !s.Held.Due.IsZero():
		h.Due = s.Held.Due
	case s.Receipts == ReceiptsFold:
		h.Due = v.Now.Add(v.ReceiptWindow)
	}
	if s.Held != nil && h.Answering == "" {
		h.Answering = s.Held.Answering
	}
	s.Held = h
}

// keepHolding moves seat i's receipt window on when the seat is asked
// nothing and another seat's message moved the game in this unit of work
// (see the package comment above): the next mail of the seat is coming.
// Only the default mode is held for a window; the input's seat is not
// changed (a copy of the receipt is).
func (v *mailView) keepHolding(i int) {
	s := &v.seats[i]
	h := s.Held
	if h == nil || h.Due.IsZero() || !v.Now.Before(h.Due) || s.Receipts != ReceiptsFold || v.ReceiptWindow <= 0 || v.Ended {
		return // none, NOTIFY none or receipts, or its window ended: it goes now
	}
	if p := v.prompt(i); v.Table == nil || v.Game.Status != StatusRunning || (p != nil && !p.Complete) {
		return // not running, or the seat has a question open: the window as it is
	}
	moved := false
	for j := range v.seats {
		r := v.of(j).Reply
		moved = moved || (j != i && r != nil && !r.Rejected && !r.Stale && len(r.Lines) > 0)
	}
	if due := v.Now.Add(v.ReceiptWindow); moved && due.After(h.Due) {
		c := *h
		c.Due = due
		s.Held = &c
	}
}
