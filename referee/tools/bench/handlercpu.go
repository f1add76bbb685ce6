package bench

import (
	"bufio"
	"bytes"
	"context"
	"net/textproto"
	"runtime"
	"runtime/trace"
	"strings"
	"sync/atomic"
	"time"

	"github.com/pbem-referee/referee/referee"
	"github.com/pbem-referee/referee/referee/edge/mailin"
)

// handlerCPU is a mail handler measured: the CPU time the handler spends
// on its own thread for each mail (the referee's intake, or the echo),
// apart from the mail servers, the sender, the bots and the garbage
// collector's own workers, which share the process (and the machine's
// cores) in the embedded stack. The goroutine is locked to its thread for
// the call, so that the thread's CPU time is the call's (threadCPU; zero
// where the system has no per-thread figure).
type handlerCPU struct {
	h     mailin.Handler
	cpu   atomic.Int64 // nanoseconds
	mails atomic.Int64
	// handled, if set, is told of each input handled (its Message-ID),
	// when the call began and ended, and the mails it queued (the
	// outcome's Replies), after the timed call.
	handled func(input string, start, end time.Time, replies []string)
	// read, if set, is told the wall time of each reading of an input
	// (Parse: in the intake, before the hand-over; part of the Wait
	// stage).
	read func(input string, d time.Duration)
}

// HandleMail implements mailin.Handler.
func (c *handlerCPU) HandleMail(ctx context.Context, in mailin.Inbound) (referee.Outcome, error) {
	return c.timed(in, func() (referee.Outcome, error) { return c.h.HandleMail(ctx, in) })
}

// Parse implements mailin.Reader when the handler is one (the referee's
// intake; nil for the echo, which takes the raw mail): a transport that
// reads the mail first (imapin's lanes) hands the reading to
// HandleParsed. Its CPU time counts as the handler's, as it did inside
// HandleMail.
func (c *handlerCPU) Parse(in mailin.Inbound) *mailin.Parsed {
	r, ok := c.h.(mailin.Reader)
	if !ok {
		return nil
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	t0, start := threadCPU(), time.Now()
	p := r.Parse(in)
	d := time.Since(start)
	c.cpu.Add(int64(threadCPU() - t0))
	if c.read != nil {
		if id := messageID(in.Raw); id != "" {
			c.read(id, d)
		}
	}
	return p
}

// HandleParsed implements mailin.Reader (see Parse).
func (c *handlerCPU) HandleParsed(ctx context.Context, p *mailin.Parsed) (referee.Outcome, error) {
	return c.timed(p.In, func() (referee.Outcome, error) { return c.h.(mailin.Reader).HandleParsed(ctx, p) })
}

// timed runs one hand-over of in on a locked thread and counts its CPU.
func (c *handlerCPU) timed(in mailin.Inbound, call func() (referee.Outcome, error)) (referee.Outcome, error) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	t0, start := threadCPU(), time.Now()
	// The call is a region of an execution trace (Options.TraceDir).
	region := trace.StartRegion(context.Background(), "handler")
	out, err := call()
	region.End()
	end := time.Now()
	c.cpu.Add(int64(threadCPU() - t0))
	c.mails.Add(1)
	if err == nil && c.handled != nil {
		if id := messageID(in.Raw); id != "" {
			c.handled(id, start, end, out.Replies)
		}
	}
	return out, err
}

// messageID is a raw mail's Message-ID field as written ("" without one).
func messageID(raw []byte) string {
	hdr, _ := headerOf(raw)
	return strings.TrimSpace(hdr.Get("Message-Id"))
}

// headerOf reads a raw mail's header (what it could read, with the error,
// when the header is broken).
func headerOf(raw []byte) (textproto.MIMEHeader, error) {
	if end := bytes.Index(raw, []byte("\r\n\r\n")); end >= 0 {
		raw = raw[:end+4]
	}
	return textproto.NewReader(bufio.NewReader(bytes.NewReader(raw))).ReadMIMEHeader()
}

// perMail is the handler's mean CPU time per mail handled, in
// milliseconds (0 before any).
func (c *handlerCPU) perMail() float64 { return c.share(time.Duration(c.cpu.Load())) }

// share is d per mail handled, in milliseconds (0 before any).
func (c *handlerCPU) share(d time.Duration) float64 {
	n := c.mails.Load()
	if n == 0 {
		return 0
	}
	return float64(d/time.Duration(n)) / float64(time.Millisecond)
}
