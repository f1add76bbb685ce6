package commands

import (
	"strings"

	"github.com/pbem-referee/referee/engine"
)

// SeatCall is one referee command of a seat's mail, as its handler sees
// it: the line is done unless the handler fails it.
type SeatCall struct {
	Host Seat
	Row  *Row
	// Line is the line as read (the engine's words, the keyword first);
	// Args its words after the keyword.
	Line string
	Args []string
	// Text, when set, is the line the answer echoes instead of the mail's.
	Text string
	// Errors: the line is rejected with these.
	Errors []*engine.RuleError
}

// NewSeatCall makes the call of a row on a line.
func NewSeatCall(h Seat, r *Row, line string) *SeatCall {
	f := strings.Fields(line)
	if len(f) > 0 {
		f = f[1:]
	}
	return &SeatCall{Host: h, Row: r, Line: line, Args: f}
}

// Run runs the row's handler.
func (c *SeatCall) Run() error { return c.Row.Seat(c) }

// Fail rejects the line with an error code and its parameters.
func (c *SeatCall) Fail(code string, params map[string]any) error {
	c.Errors = append(c.Errors, &engine.RuleError{Code: code, Params: params})
	return nil
}

// UsageError rejects the line with the row's syntax.
func (c *SeatCall) UsageError() error {
	c.Errors = append(c.Errors, Usage(c.Row))
	return nil
}

// PlayerCall is one command of a player's mail to their own address: the
// handler adds the lines of the answer, or says that another mail answers
// (Acted).
type PlayerCall struct {
	Host Player
	Row  *Row
	// Keyword is the canonical keyword; Words the line's words, the
	// keyword first.
	Keyword string
	Words   []string
	Lines   []string
	Acted   bool
}

// Run runs the row's handler.
func (c *PlayerCall) Run() (bool, error) { return c.Row.Player(c) }

func (c *PlayerCall) text(name string, data map[string]any) {
	c.Lines = append(c.Lines, c.Host.Text(name, data))
}

func (c *PlayerCall) usage() {
	c.text("error.usage", map[string]any{"Params": Usage(c.Row).Params})
}
