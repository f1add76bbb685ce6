package imapin

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net"
	"runtime/debug"
	"sync/atomic"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"

	"github.com/pbem-referee/referee/referee/edge/dispatch"
	"github.com/pbem-referee/referee/referee/edge/mailin"
	"github.com/pbem-referee/referee/store"
)

// Stats are the Watcher's counters since it was created.
type Stats struct {
	// Handled counts messages for which HandleMail returned nil, including
	// those the referee reported as duplicates.
	Handled uint64
	// Duplicates counts the Handled messages whose Outcome.Status was
	// "duplicate".
	Duplicates uint64
	// Quarantined counts messages sent to the quarantine folder: permanent
	// HandleMail errors, oversized messages, and messages that exhausted
	// Options.MaxAttempts.
	Quarantined uint64
	// Transient counts transient HandleMail errors (the batch was stopped
	// and retried later).
	Transient uint64
	// Reconnects counts connections that failed or were lost.
	Reconnects uint64
	// Connected reports whether a session is established now.
	Connected bool
	// LastSync is when the last complete look at the mailbox ended (zero
	// before the first).
	LastSync time.Time
}

// Watcher watches one mailbox. Create it with New and start it with Run.
type Watcher struct {
	o         Options
	kick      chan struct{}
	running   atomic.Bool
	cursorKey string

	handled, duplicates, quarantined, transient, reconnects atomic.Uint64
	connected                                               atomic.Bool
	lastSync                                                atomic.Int64
	// rolledIn counts the messages rolled into running lanes (lanes.go),
	// rolledAhead those of them whose hand-over was presumed ahead, with
	// no commit of their own (ahead.go).
	rolledIn, rolledAhead atomic.Uint64

	// Test hooks (nil in production). afterHandle runs when HandleMail has
	// returned nil or a permanent error, before the cursor update;
	// afterCursor runs after the cursor update, before the message is
	// filed. An error from either ends the session as a crash would.
	afterHandle func(uid imap.UID) error
	afterCursor func(uid imap.UID) error

	// armed is the cursor whose Armed presumption this process wrote and
	// has not used (sync.go: beginAttempt); zero when none.
	armed store.Cursor
	// ahead holds the intake keys whose hand-overs this process presumed
	// begun ahead of their mails and has not used (ahead.go).
	ahead map[string]bool
	// dead holds the hand-overs on record that no process of this
	// Watcher began, above the cursor or under another UIDVALIDITY, whose
	// mail has not come (ahead.go, readDead: nil until the first look).
	dead map[string]bool
	// unread: a presumption no process of this Watcher wrote was found (a
	// crash, maybe in a reading): every look goes one message at a time,
	// each mail read in its hand-over, until a sync hands over all it
	// found (lanes.go, handLanes; doc.go, "One reading").
	unread bool
}

// New validates the options, fills in defaults and returns a Watcher.
func New(o Options) (*Watcher, error) {
	o.setDefaults()
	if err := o.validate(); err != nil {
		return nil, err
	}
	return &Watcher{
		o:         o,
		kick:      make(chan struct{}, 1),
		cursorKey: "imap:" + o.Account + "/" + o.Mailbox,
	}, nil
}

// Kick asks for a look at the mailbox now (it never blocks). The Watcher
// kicks itself when the server reports new mail during IDLE; the daemon may
// call it too, for example after a webhook says mail arrived.
func (w *Watcher) Kick() {
	select {
	case w.kick <- struct{}{}:
	default:
	}
}

// Stats returns the counters.
func (w *Watcher) Stats() Stats {
	st := Stats{
		Handled: w.handled.Load(), Duplicates: w.duplicates.Load(), Quarantined: w.quarantined.Load(),
		Transient: w.transient.Load(), Reconnects: w.reconnects.Load(), Connected: w.connected.Load(),
	}
	if ns := w.lastSync.Load(); ns != 0 {
		st.LastSync = time.Unix(0, ns)
	}
	return st
}

// CursorKey is the store key of the Watcher's cursor
// ("imap:<account>/<mailbox>").
func (w *Watcher) CursorKey() string { return w.cursorKey }

// Run watches the mailbox until ctx is cancelled, reconnecting with backoff
// after any connection error, and returns nil after a graceful stop (the
// message in hand is finished, IDLE is ended, the session logged out).
func (w *Watcher) Run(ctx context.Context) error {
	if !w.running.CompareAndSwap(false, true) {
		return errors.New("imapin: Run called twice")
	}
	defer w.running.Store(false)
	log := w.o.Logger.With(slog.String("mailbox", w.o.Mailbox))
	log.Info("imap watcher started", slog.Any("imap", w.o))
	failures := 0
	for {
		healthy, err := w.safeSession(ctx)
		w.connected.Store(false)
		if ctx.Err() != nil {
			w.disarm(log)
			log.Info("imap watcher stopped")
			return nil
		}
		w.reconnects.Add(1)
		if healthy {
			failures = 0
		}
		failures++
		d := dispatch.Backoff(failures, w.o.MinBackoff, w.o.MaxBackoff, rand.Float64())
		log.Warn("imap session ended; reconnecting", slog.Any("err", err), slog.Duration("delay", d),
			slog.Int("failures", failures))
		t := time.NewTimer(d)
		select {
		case <-ctx.Done():
			t.Stop()
			w.disarm(log)
			log.Info("imap watcher stopped")
			return nil
		case <-t.C:
		}
	}
}

// safeSession runs one session, turning a panic into an error.
func (w *Watcher) safeSession(ctx context.Context) (healthy bool, err error) {
	defer func() {
		if r := recover(); r != nil {
			w.o.Logger.Error("imap session panicked", slog.Any("panic", r), slog.String("stack", string(debug.Stack())))
			err = fmt.Errorf("imapin: panic: %v", r)
		}
	}()
	return w.session(ctx)
}

// connect dials, sets up TLS and waits for the greeting.
func (w *Watcher) connect(ctx context.Context) (*imapclient.Client, error) {
	dctx, cancel := context.WithTimeout(ctx, w.o.DialTimeout)
	defer cancel()
	conn, err := w.o.Dial(dctx, "tcp", w.o.Addr)
	if err != nil {
		return nil, fmt.Errorf("dial %s: %w", w.o.Addr, err)
	}
	// Until the greeting is in, cancellation or the dial timeout closes
	// the connection.
	stop := context.AfterFunc(dctx, func() { _ = conn.Close() })
	host, _, _ := net.SplitHostPort(w.o.Addr)
	tc := &tls.Config{}
	if w.o.TLSConfig != nil {
		tc = w.o.TLSConfig.Clone()
	}
	if tc.ServerName == "" {
		tc.ServerName = host
	}
	opts := &imapclient.Options{
		TLSConfig: tc,
		// Runs on the client's reader goroutine: never issue a command
		// here, only kick.
		UnilateralDataHandler: &imapclient.UnilateralDataHandler{
			Mailbox: func(d *imapclient.UnilateralDataMailbox) {
				if d.NumMessages != nil {
					w.Kick()
				}
			},
		},
	}
	var c *imapclient.Client
	switch w.o.TLS {
	case TLSImplicit:
		tconn := tls.Client(conn, tc)
		if err := tconn.HandshakeContext(dctx); err != nil {
			stop()
			_ = conn.Close()
			return nil, fmt.Errorf("tls handshake with %s: %w", w.o.Addr, err)
		}
		c = imapclient.New(tconn, opts)
	case TLSStartTLS:
		if c, err = imapclient.NewStartTLS(conn, opts); err != nil {
			stop()
			return nil, fmt.Errorf("starttls with %s: %w", w.o.Addr, err)
		}
	default:
		c = imapclient.New(conn, opts)
	}
	err = c.WaitGreeting()
	if !stop() || err != nil {
		_ = c.Close()
		if err == nil {
			err = dctx.Err()
		}
		return nil, fmt.Errorf("greeting from %s: %w", w.o.Addr, err)
	}
	return c, nil
}

// fileMode is how processed and quarantined messages leave the mailbox.
type fileMode int

const (
	modeMove        fileMode = iota // UID MOVE
	modeCopyExpunge                 // UID COPY + STORE \Deleted + UID EXPUNGE (UIDPLUS)
	modeFlags                       // flags only; quarantined messages copied; nothing expunged
)

func (m fileMode) String() string {
	return [...]string{"move", "copy+uid-expunge", "flags"}[m]
}

func chooseMode(caps imap.CapSet) fileMode {
	switch {
	case caps.Has(imap.CapMove):
		return modeMove
	case caps.Has(imap.CapUIDPlus):
		return modeCopyExpunge
	default:
		return modeFlags
	}
}

// session is one connection's state.
type session struct {
	w    *Watcher
	c    *imapclient.Client
	log  *slog.Logger
	mode fileMode
	idle bool
	cur  store.Cursor
	// poison maps messages that exhausted MaxAttempts to the reason for
	// quarantining them.
	poison map[imap.UID]string
	// looked is the highest UID a look of this sync took, rolled in
	// included (lanes.go, roll).
	looked imap.UID
	// parsed holds the readings of a look handed over one message at a
	// time (lanes.go, handLanes), by UID: their hand-overs take them.
	parsed map[imap.UID]*mailin.Parsed
}

// transientError is a transient HandleMail failure on one message.
type transientError struct {
	uid imap.UID
	err error
	// notMessage: the failure was recording the attempt (the store), not
	// handling the message; it does not count towards MaxAttempts.
	notMessage bool
}

func (e *transientError) Error() string {
	return fmt.Sprintf("transient error on uid %d: %v", e.uid, e.err)
}

func (e *transientError) Unwrap() error { return e.err }

// session runs one connection: log in, select, then sync and wait until ctx
// is cancelled or an error occurs. healthy reports whether the session got
// as far as a sync, which resets the reconnect backoff.
func (w *Watcher) session(ctx context.Context) (healthy bool, err error) {
	c, err := w.connect(ctx)
	if err != nil {
		return false, err
	}
	defer func() { _ = c.Close() }()
	// After cancellation the session may finish the message in hand and
	// log out for ShutdownGrace; then the connection is closed under it.
	var force atomic.Pointer[time.Timer]
	stopForce := context.AfterFunc(ctx, func() {
		force.Store(time.AfterFunc(w.o.ShutdownGrace, func() { _ = c.Close() }))
	})
	defer func() {
		stopForce()
		if t := force.Load(); t != nil {
			t.Stop()
		}
	}()

	if err := c.Login(w.o.Username, w.o.Password).Wait(); err != nil {
		return false, fmt.Errorf("login as %s: %w", w.o.Username, err)
	}
	caps := c.Caps()
	s := &session{w: w, c: c, mode: chooseMode(caps), poison: map[imap.UID]string{}}
	s.log = w.o.Logger.With(slog.String("mailbox", w.o.Mailbox))
	switch {
	case w.o.Idle == IdleOff:
	case caps.Has(imap.CapIdle):
		s.idle = true
	case w.o.Idle == IdleOn:
		s.log.Warn("imap server does not support IDLE; polling", slog.Duration("interval", w.o.PollInterval))
	}
	if s.mode == modeFlags {
		s.log.Warn("imap server has neither MOVE nor UIDPLUS: processed mail stays in the mailbox, marked \\Seen")
	} else if err := s.ensureFolder(w.o.ProcessedFolder); err != nil {
		return false, err
	}
	if err := s.ensureFolder(w.o.QuarantineFolder); err != nil {
		return false, err
	}
	sel, err := c.Select(w.o.Mailbox, nil).Wait()
	if err != nil {
		return false, fmt.Errorf("select %s: %w", w.o.Mailbox, err)
	}
	if s.cur, err = w.loadCursor(sel.UIDValidity, s.log); err != nil {
		return false, err
	}
	w.connected.Store(true)
	s.log.Info("imap connected", slog.String("addr", w.o.Addr), slog.String("username", w.o.Username),
		slog.String("filing", s.mode.String()), slog.Bool("idle", s.idle),
		slog.Uint64("uidvalidity", uint64(sel.UIDValidity)), slog.Uint64("last_uid", uint64(s.cur.LastUID)),
		slog.Uint64("messages", uint64(sel.NumMessages)))

	now := w.o.Now()
	nextResync := now // the first sync also sweeps
	var retryAt time.Time
	failures := 0
	var failUID imap.UID
	failCount := 0
	for ctx.Err() == nil {
		select { // a kick that arrives from here on triggers another sync
		case <-w.kick:
		default:
		}
		now = w.o.Now()
		sweep := !now.Before(nextResync)
		if sweep {
			nextResync = now.Add(w.o.ResyncInterval)
		}
		err := s.sync(ctx, sweep)
		var te *transientError
		switch {
		case err == nil:
			healthy = true
			failures, failCount, retryAt = 0, 0, time.Time{}
			w.lastSync.Store(w.o.Now().UnixNano())
		case ctx.Err() != nil:
		case errors.As(err, &te) && te.notMessage:
			healthy = true
			failures++
			retryAt = w.o.Now().Add(dispatch.Backoff(failures, w.o.MinBackoff, w.o.MaxBackoff, rand.Float64()))
			s.log.Warn("could not record an intake attempt; retrying later", slog.Any("err", te.err),
				slog.Time("retry_at", retryAt))
		case errors.As(err, &te):
			healthy = true
			failures++
			if te.uid == failUID {
				failCount++
			} else {
				failUID, failCount = te.uid, 1
			}
			if w.o.MaxAttempts > 0 && failCount >= w.o.MaxAttempts {
				s.poison[te.uid] = fmt.Sprintf("%d consecutive failures, the last: %v", failCount, te.err)
			}
			retryAt = w.o.Now().Add(dispatch.Backoff(failures, w.o.MinBackoff, w.o.MaxBackoff, rand.Float64()))
			s.log.Warn("transient error handling mail; retrying later", slog.Uint64("uid", uint64(te.uid)),
				slog.Any("err", te.err), slog.Time("retry_at", retryAt), slog.Int("attempt", failCount))
		default:
			return healthy, err
		}
		if ctx.Err() != nil {
			break
		}
		deadline := nextResync
		if poll := w.o.Now().Add(w.o.PollInterval); !s.idle && poll.Before(deadline) {
			deadline = poll
		}
		if !retryAt.IsZero() {
			deadline = retryAt
		}
		if err := s.wait(ctx, deadline, !retryAt.IsZero()); err != nil {
			if ctx.Err() != nil {
				break
			}
			return healthy, err
		}
	}
	if err := c.Logout().Wait(); err != nil {
		s.log.Debug("imap logout", slog.Any("err", err))
	}
	return healthy, nil
}

// loadCursor reads the cursor and resets it when UIDVALIDITY changed.
func (w *Watcher) loadCursor(validity uint32, log *slog.Logger) (store.Cursor, error) {
	var cur store.Cursor
	err := w.o.Store.View(func(tx *store.Tx) error {
		var err error
		cur, err = tx.Cursor(w.cursorKey)
		return err
	})
	if err != nil {
		return cur, fmt.Errorf("read cursor: %w", err)
	}
	if cur.UIDValidity == validity {
		return cur, nil
	}
	if cur.UIDValidity != 0 {
		log.Warn("UIDVALIDITY changed; rescanning the whole mailbox (duplicates are recognised by the referee)",
			slog.Uint64("old", uint64(cur.UIDValidity)), slog.Uint64("new", uint64(validity)),
			slog.Uint64("old_last_uid", uint64(cur.LastUID)))
	}
	cur = store.Cursor{UIDValidity: validity}
	if err := w.saveCursor(cur); err != nil {
		return cur, err
	}
	return cur, nil
}

// disarm takes back, at a graceful stop, the hand-overs presumed and that
// never began (the cursor's, those written ahead), so that a restart does
// not count them.
func (w *Watcher) disarm(log *slog.Logger) {
	if w.armed == (store.Cursor{}) && len(w.ahead) == 0 {
		return
	}
	cur := w.armed
	cur.Armed = 0
	ahead := w.aheadKeys()
	err := w.o.Store.Group(func(tx *store.Tx) error {
		for _, k := range ahead {
			if err := tx.EndAttempt(k); err != nil {
				return err
			}
		}
		if w.armed == (store.Cursor{}) {
			return nil
		}
		if got, err := tx.Cursor(w.cursorKey); err != nil || got != w.armed {
			return err // moved by another: not ours to change
		}
		return tx.PutCursor(w.cursorKey, cur)
	})
	if err != nil {
		log.Warn("could not take back the presumed intake attempt", slog.Any("err", err))
	} else {
		w.usedAhead(ahead, nil)
	}
	w.armed = store.Cursor{}
}

// saveCursor stores the cursor and, in the same transaction, ends the
// intake attempts of the given keys.
func (w *Watcher) saveCursor(cur store.Cursor, done ...string) error {
	err := w.o.Store.Group(func(tx *store.Tx) error {
		for _, k := range done {
			if err := tx.EndAttempt(k); err != nil {
				return err
			}
		}
		return tx.PutCursor(w.cursorKey, cur)
	})
	if err != nil {
		return fmt.Errorf("write cursor: %w", err)
	}
	w.armed = store.Cursor{}
	if cur.Armed > 0 {
		w.armed = cur
	}
	return nil
}

// ensureFolder creates a folder unless it exists.
func (s *session) ensureFolder(name string) error {
	list, err := s.c.List("", name, nil).Collect()
	if err != nil {
		return fmt.Errorf("list %s: %w", name, err)
	}
	if len(list) > 0 {
		return nil
	}
	if err := s.c.Create(name, nil).Wait(); err != nil {
		var ie *imap.Error
		if errors.As(err, &ie) && ie.Code == imap.ResponseCodeAlreadyExists {
			return nil
		}
		return fmt.Errorf("create %s: %w", name, err)
	}
	s.log.Info("created folder", slog.String("folder", name))
	return nil
}

// wait idles (or just waits, when polling) until the deadline, a kick
// (unless deferKicks), cancellation, or the loss of the connection. IDLE is
// always ended and waited for before it returns nil.
func (s *session) wait(ctx context.Context, deadline time.Time, deferKicks bool) error {
	d := deadline.Sub(s.w.o.Now())
	if d <= 0 {
		return nil
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	var idle *imapclient.IdleCommand
	if s.idle {
		var err error
		if idle, err = s.c.Idle(); err != nil {
			return fmt.Errorf("idle: %w", err)
		}
	}
loop:
	for {
		select {
		case <-ctx.Done():
			break loop
		case <-timer.C:
			break loop
		case <-s.w.kick:
			if !deferKicks {
				break loop
			}
		case <-s.c.Closed():
			return errors.New("connection closed")
		}
	}
	if idle != nil {
		if err := idle.Close(); err != nil {
			return fmt.Errorf("end idle: %w", err)
		}
		if err := idle.Wait(); err != nil {
			return fmt.Errorf("idle: %w", err)
		}
	}
	return nil
}
