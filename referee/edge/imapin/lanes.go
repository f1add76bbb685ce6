package imapin

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"

	"github.com/pbem-referee/referee/mailfmt/mailmsg"
	"github.com/pbem-referee/referee/referee"
	"github.com/pbem-referee/referee/referee/edge/mailin"
	"github.com/pbem-referee/referee/store"
)

// Lanes (issue 25: throughput): the messages of one fetch from different
// senders are handed over at once, one lane per sender, so that the
// handlers' commits share the store's group commits (store.DB.Commit)
// instead of paying one fsync each, one after the other. See doc.go,
// "Lanes", for the rule; this file is its machinery.

// rollFactor bounds a look: Options.FetchBatch*rollFactor messages at most,
// the first fetch's and those rolled in while its lanes run.
const rollFactor = 4

// handover is one message of a fetch handed over in a lane.
type handover struct {
	uid imap.UID
	key string
	in  mailin.Inbound
	// p is the mail's one reading (Watcher.read), handed to the handler
	// (mailin.Reader.HandleParsed); nil when it was not read here.
	p   *mailin.Parsed
	log *slog.Logger
	// n is the attempt count recorded before the hand-over.
	n int
	// ran: handed over (a lane stops at a transient failure); out and err
	// are the handler's answer.
	ran  bool
	out  referee.Outcome
	err  error
	ride *store.Ride
	// rode: the ride (the end of the attempt, maybe the cursor) was
	// committed with the message's record.
	rode bool
}

// laneCursor moves the cursor from the lanes' rides: a ride moves it past
// its message and the messages after it whose rides are committed (or
// written in the same transaction), never past a message whose record is
// not: the cursor still never passes a message not handed over.
type laneCursor struct {
	validity uint32
	uids     []imap.UID // every message of the chunk, ascending
	hs       map[imap.UID]*handover

	mu     sync.Mutex
	inTx   map[imap.UID]*store.Tx
	target map[imap.UID]uint32 // the cursor each ride wrote (its last run)
	// rolling: the look rolls mail in (roll runs); each ride then presumes
	// the window of window UIDs above the highest the look has taken
	// (presume). presumed holds the UIDs each ride presumed (its last
	// run): a committed ride's stand on record until their mails are
	// rolled in (ridden) or the look ends (ridesAhead).
	rolling  bool
	window   int
	presumed map[imap.UID][]imap.UID
}

// advance returns the cursor past u and the messages it may pass, from
// last (the cursor stored in tx).
func (lc *laneCursor) advance(tx *store.Tx, u imap.UID, last uint32) uint32 {
	lc.mu.Lock()
	defer lc.mu.Unlock()
	lc.inTx[u] = tx
	v := last
	for _, x := range lc.uids {
		if uint32(x) <= last {
			continue
		}
		h := lc.hs[x]
		if x != u && (h == nil || (lc.inTx[x] != tx && !h.ride.Committed())) {
			break
		}
		v = uint32(x)
	}
	lc.target[u] = v
	return v
}

// groupLanes names each message's lane, given each one's lane keys: two
// messages that share a key, directly or through others, share a lane
// (a later message may tie two earlier lanes together); messages without
// a key share the lane "".
func groupLanes(keyOf [][]string) []string {
	joined := laneOf{}
	for _, keys := range keyOf {
		joined.join(keys)
	}
	names := make([]string, len(keyOf))
	for i, keys := range keyOf {
		if len(keys) > 0 {
			names[i] = joined.root(keys[0])
		}
	}
	return names
}

// laneOf groups messages into lanes: two messages that share a lane key,
// directly or through others, are in one lane (a union of their keys).
type laneOf map[string]string

func (l laneOf) root(k string) string {
	for l[k] != "" && l[k] != k {
		k = l[k]
	}
	return k
}

// join puts the keys in one lane and returns it ("" for a message with no
// key: the lane of messages without an envelope).
func (l laneOf) join(keys []string) string {
	if len(keys) == 0 {
		return ""
	}
	r := l.root(keys[0])
	l[r] = r
	for _, k := range keys[1:] {
		if o := l.root(k); o != r {
			l[o] = r
		}
	}
	return r
}

// lane is one lane's queue of hand-overs, run by one goroutine at a time.
type lane struct {
	queue   []*handover
	running bool
	// stopped: a transient failure; the rest of the queue waits for the
	// next look.
	stopped bool
}

// laneRun runs the lanes of one look (a fetch and the messages rolled in
// while its lanes ran).
type laneRun struct {
	w     *Watcher
	ctx   context.Context
	sem   chan struct{}
	wg    sync.WaitGroup
	mu    sync.Mutex
	byKey map[string]*lane // each lane key's lane
	// stopped: a lane stopped on a transient failure (no more is rolled in).
	stopped bool
}

// add queues h in l and starts the lane unless it runs (or stopped).
func (r *laneRun) add(l *lane, h *handover) {
	r.mu.Lock()
	defer r.mu.Unlock()
	l.queue = append(l.queue, h)
	if !l.running && !l.stopped {
		l.running = true
		r.wg.Add(1)
		go r.run(l)
	}
}

// busy reports whether a lane still runs, and whether one stopped.
func (r *laneRun) busy() (running, stopped bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, l := range r.byKey {
		running = running || l.running
	}
	return running, r.stopped
}

// run hands l's messages over one after the other; every message handed
// over kicks the Watcher, which then looks for new mail to roll in.
func (r *laneRun) run(l *lane) {
	defer r.wg.Done()
	w := r.w
	for {
		r.mu.Lock()
		if l.stopped || len(l.queue) == 0 {
			l.running = false
			r.mu.Unlock()
			w.Kick()
			return
		}
		h := l.queue[0]
		l.queue = l.queue[1:]
		r.mu.Unlock()
		if w.o.MaxCrashes > 0 && h.n > w.o.MaxCrashes {
			continue // quarantined by processChunk, never handed over again
		}
		r.sem <- struct{}{}
		h.out, h.err = w.handle(r.ctx, h.in, h.p, h.log)
		<-r.sem
		h.ran = true
		var pe *panicError
		if h.err != nil && (errors.As(h.err, &pe) || !referee.IsPermanent(h.err)) {
			r.mu.Lock()
			l.stopped, r.stopped = true, true // the lane's later mails wait: their order is kept
			r.mu.Unlock()
		}
		w.Kick()
	}
}

// handover makes the hand-over of an ordinary message of the look (one
// with its body, neither poison nor too large); nil otherwise.
func (s *session) handover(uid imap.UID, m *imapclient.FetchMessageBuffer, bodies map[imap.UID][]byte) *handover {
	w := s.w
	raw, ok := bodies[uid]
	if m == nil || !ok || s.poison[uid] != "" || (w.o.MaxMessageSize > 0 && m.RFC822Size > w.o.MaxMessageSize) {
		return nil
	}
	received := w.o.Now()
	if !m.InternalDate.IsZero() && m.InternalDate.Before(received) {
		received = m.InternalDate
	}
	log := s.log.With(slog.Uint64("uid", uint64(uid)))
	if m.Envelope != nil && m.Envelope.MessageID != "" {
		log = log.With(slog.String("msgid", "<"+m.Envelope.MessageID+">"))
	}
	key := w.attemptKey(s.cur.UIDValidity, uid)
	return &handover{uid: uid, key: key, in: mailin.Inbound{Raw: raw, Source: "imap", Keys: []string{key}, Received: received},
		log: log}
}

// read makes h's one reading (doc.go, "One reading"): the handler's
// Parse when it is a mailin.Reader, which its hand-over then takes
// (HandleParsed), the lane keys taken from it. A handler that reads no
// mail in two steps (not a Reader, or its Parse returns nil: a wrapper
// around the bench's echo) gets the raw mail, its lane keys taken from
// the IMAP envelope (envelopeKeys). It returns h's lane keys; ok is false
// when the reading panicked (h is then handed over unread, alone, where
// the panic counts as a crash).
func (w *Watcher) read(h *handover, m *imapclient.FetchMessageBuffer) (keys []string, ok bool) {
	defer func() {
		if r := recover(); r != nil {
			h.p, keys, ok = nil, nil, false
			h.log.Warn("reading the mail for its lane panicked", slog.Any("panic", r))
		}
	}()
	if rd, isReader := w.o.Handler.(mailin.Reader); isReader {
		if h.p = rd.Parse(h.in); h.p != nil {
			return h.p.LaneKeys(), true
		}
	}
	return envelopeKeys(m), true
}

// envelopeKeys are the lane keys of a message whose handler reads it raw:
// mailin.Parsed.LaneKeys as far as the IMAP envelope tells them (the From
// address; the games of the tags in To, Cc, the subject and In-Reply-To),
// without reading the mail here.
func envelopeKeys(m *imapclient.FetchMessageBuffer) []string {
	e := m.Envelope
	if e == nil {
		return nil
	}
	var keys []string
	add := func(k string) {
		if !slices.Contains(keys, k) {
			keys = append(keys, k)
		}
	}
	if len(e.From) > 0 && e.From[0].Addr() != "" {
		add("from:" + strings.ToLower(e.From[0].Addr()))
	}
	game := func(t mailmsg.Tag) {
		if t.Game != "" {
			add("game:" + strings.ToLower(t.Game))
		}
	}
	for _, a := range append(slices.Clone(e.To), e.Cc...) {
		if _, detail, _ := mailmsg.SplitPlus(a.Addr()); detail != "" {
			if t, err := mailmsg.ParseTag(detail); err == nil {
				game(t)
			}
		}
	}
	if t, ok := mailmsg.ParseSubjectTag(e.Subject); ok {
		game(t)
	}
	for _, id := range e.InReplyTo {
		if r, err := mailmsg.ParseMessageID(id); err == nil {
			game(r.Tag())
		}
	}
	return keys
}

// ride prepares h's ride: the end of its attempt and the cursor past it
// (laneCursor.advance) in the commit that records it.
func (w *Watcher) ride(lc *laneCursor, h *handover) {
	h.ride = w.o.Store.Ride(h.key, func(tx *store.Tx) error {
		if err := tx.EndAttempt(h.key); err != nil {
			return err
		}
		stored, err := tx.Cursor(w.cursorKey)
		if err != nil {
			return err
		}
		if err := lc.presume(tx, h.uid, stored.UIDValidity, w.attemptKey); err != nil || stored.UIDValidity != lc.validity {
			return err
		}
		if v := lc.advance(tx, h.uid, stored.LastUID); v > stored.LastUID {
			return tx.PutCursor(w.cursorKey, store.Cursor{UIDValidity: lc.validity, LastUID: v, Armed: 1})
		}
		return nil
	})
}

// handLanes hands the chunk's ordinary messages (want, with their bodies)
// over in lanes when they come from two senders or more and Options.Lanes
// allows it; nil when the chunk is to be handed over one message at a
// time (the plain path of processChunk). While the lanes run it rolls
// newer mail in (roll): the chunk it returns is the look's, ascending. An
// error is the store's, from recording the attempts: nothing was handed
// over.
func (s *session) handLanes(ctx context.Context, chunk []imap.UID, info map[imap.UID]*imapclient.FetchMessageBuffer,
	bodies map[imap.UID][]byte) ([]imap.UID, map[imap.UID]*handover, error) {
	w := s.w
	if w.o.Lanes < 2 {
		return chunk, nil, nil
	}
	lc := &laneCursor{validity: s.cur.UIDValidity, hs: map[imap.UID]*handover{}, inTx: map[imap.UID]*store.Tx{},
		target: map[imap.UID]uint32{}, window: w.aheadWindow(), presumed: map[imap.UID][]imap.UID{}}
	var all []*handover
	for _, uid := range chunk {
		m := info[uid]
		if m == nil {
			continue
		}
		lc.uids = append(lc.uids, uid)
		h := s.handover(uid, m, bodies)
		if h == nil {
			continue // set aside by processChunk, one at a time
		}
		lc.hs[uid] = h
		all = append(all, h)
	}
	// The lanes need each mail's one reading before any hand-over is on
	// record (doc.go, "One reading"): only under a presumption this
	// process wrote and no hand-over used (the cursor's Armed, written
	// now when none stands), so that a mail whose reading kills the
	// process leaves a presumption no process wrote, and the looks after
	// the restart go one message at a time (Watcher.unread, until a sync
	// hands over all it found), each mail read in its hand-over once its
	// attempt is on record. The sweep goes one message at a time too.
	if s.cur.Armed > 0 && w.armed != s.cur {
		w.unread = true
	}
	if len(all) < 2 || uint32(lc.uids[0]) <= s.cur.LastUID || w.unread {
		return chunk, nil, nil
	}
	if s.cur.Armed == 0 {
		if armed, err := w.arm(s, all); err != nil || !armed {
			return chunk, nil, err
		}
	}
	keyOf := make([][]string, len(all)) // each of all's lane keys
	for i, h := range all {
		var ok bool
		if keyOf[i], ok = w.read(h, info[h.uid]); !ok {
			s.readOnce(all)
			return chunk, nil, nil
		}
	}
	laneNames := groupLanes(keyOf)
	r := &laneRun{w: w, ctx: ctx, sem: make(chan struct{}, w.o.Lanes), byKey: map[string]*lane{}}
	lanes := map[string]*lane{}
	var order []string
	for i := range all {
		k := laneNames[i]
		l := lanes[k]
		if l == nil {
			l = &lane{}
			lanes[k] = l
			order = append(order, k)
		}
		if len(keyOf[i]) == 0 {
			r.byKey[""] = l
		}
		for _, key := range keyOf[i] {
			r.byKey[key] = l
		}
	}
	if len(order) < 2 {
		s.readOnce(all)
		return chunk, nil, nil
	}
	// Every attempt on record before any hand-over, in one commit: the
	// first message after the cursor counts the hand-overs the cursor
	// presumed.
	if err := w.beginAll(s, all, lc.uids[0], lc.uids[len(lc.uids)-1]); err != nil {
		return chunk, nil, err
	}
	// After a crash (a hand-over on record that never finished), the chunk
	// is handed over one message at a time, in UID order: a message that
	// kills the process must not count against the others in flight.
	// Only a look at new mail rolls newer mail in (not the sweep below the
	// cursor).
	roll := uint32(lc.uids[0]) > s.cur.LastUID
	for _, h := range all {
		if h.n > 1 {
			one := &lane{}
			r.byKey = map[string]*lane{"": one}
			lanes, roll = map[string]*lane{"": one}, false
			for i := range all {
				laneNames[i] = ""
			}
			break
		}
	}
	lc.rolling = roll // before any ride runs
	for _, h := range all {
		w.ride(lc, h)
	}
	for i, h := range all {
		r.add(lanes[laneNames[i]], h)
	}
	if roll {
		chunk = s.roll(r, lc, chunk, info, bodies)
		s.looked = max(s.looked, chunk[len(chunk)-1])
		lc.stopRolling()
	}
	r.wg.Wait()
	// The rides' presumptions of mail the look did not take stand.
	var ridden []string
	for _, u := range lc.ridesAhead() {
		ridden = append(ridden, w.attemptKey(lc.validity, u))
	}
	w.usedAhead(nil, ridden)
	all = all[:0]
	for _, u := range lc.uids {
		if h := lc.hs[u]; h != nil {
			all = append(all, h)
		}
	}
	// The cursor the committed rides wrote; the attempts of the messages
	// a stopped lane never handed over are taken back (they never began).
	var last uint32
	var unbegun []string
	for _, h := range all {
		h.rode = h.ride.Done()
		if h.rode {
			lc.mu.Lock()
			last = max(last, lc.target[h.uid])
			lc.mu.Unlock()
		}
		if !h.ran && !(w.o.MaxCrashes > 0 && h.n > w.o.MaxCrashes) {
			unbegun = append(unbegun, h.key)
		}
	}
	if last > s.cur.LastUID {
		s.cur = store.Cursor{UIDValidity: lc.validity, LastUID: last, Armed: 1}
		w.armed = s.cur
	}
	if len(unbegun) > 0 {
		if err := w.o.Store.Group(func(tx *store.Tx) error {
			for _, k := range unbegun {
				if err := tx.EndAttempt(k); err != nil {
					return err
				}
			}
			return nil
		}); err != nil {
			s.log.Warn("could not clear the intake attempts of messages not handed over", slog.Any("err", err))
		}
	}
	return chunk, lc.hs, nil
}

// arm writes the cursor's presumption (Armed 1) before the look's mails
// are read for their lanes, unless one of them has a hand-over on record
// (a crash, a panic: armed is false and the look goes one message at a
// time, each count read where it is recorded).
func (w *Watcher) arm(s *session, hs []*handover) (armed bool, _ error) {
	cur := s.cur
	cur.Armed = 1
	err := w.o.Store.Group(func(tx *store.Tx) error {
		for _, h := range hs {
			if tx.AttemptCount(h.key) > 0 && !w.ahead[h.key] {
				return nil
			}
		}
		armed = true
		return tx.PutCursor(w.cursorKey, cur)
	})
	if err != nil || !armed {
		return false, err
	}
	s.cur, w.armed = cur, cur
	return true, nil
}

// readOnce keeps the readings of a look handed over one message at a
// time (processChunk's plain path), for their hand-overs.
func (s *session) readOnce(hs []*handover) {
	for _, h := range hs {
		if h.p != nil {
			s.parsed[h.uid] = h.p
		}
	}
}

// errBegun aborts rolling a message in: its hand-over began before.
var errBegun = errors.New("imapin: a hand-over on record")

// roll (doc.go, "Rolling in"): while the look's lanes run, every kick
// (new mail, a message handed over) makes the Watcher look for newer mail
// and hand it to its lane at once, behind the lane's earlier messages, or
// to a new lane. It stops at the first message it may not roll in (one
// tied to two lanes, set aside, or with a hand-over on record), when a
// lane stops, when the look holds Options.FetchBatch*RollFactor
// messages, or when every lane is done. It returns the look's chunk.
func (s *session) roll(r *laneRun, lc *laneCursor, chunk []imap.UID, info map[imap.UID]*imapclient.FetchMessageBuffer,
	bodies map[imap.UID][]byte) []imap.UID {
	w := s.w
	// Its waits take the kicks of new mail: the next look is owed one.
	defer w.Kick()
	ceiling := w.o.FetchBatch * rollFactor
	for r.ctx.Err() == nil && len(chunk) < ceiling {
		if running, stopped := r.busy(); !running || stopped {
			break
		}
		if err := s.wait(r.ctx, w.o.Now().Add(w.o.ResyncInterval), false); err != nil {
			break
		}
		if running, stopped := r.busy(); !running || stopped {
			break
		}
		top := chunk[len(chunk)-1]
		more, err := s.search(top+1, 0)
		if err != nil {
			break
		}
		more = slices.DeleteFunc(more, func(u imap.UID) bool { return u <= top })
		if len(more) == 0 {
			continue
		}
		more = more[:min(len(more), ceiling-len(chunk), w.o.FetchBatch)]
		mInfo, mBodies, err := s.fetch(more)
		if err != nil {
			break
		}
		// The messages rolled in: a prefix of more, each with its lane.
		var take []*handover
		var to []*lane
		closed := false
		for _, u := range more {
			m := mInfo[u]
			if m == nil {
				continue // expunged meanwhile: the look passes it
			}
			h := s.handover(u, m, mBodies)
			if h == nil {
				closed = true
				break
			}
			ks, ok := w.read(h, m)
			if !ok {
				closed = true // handed over alone by a later look
				break
			}
			if len(ks) == 0 {
				ks = []string{""}
			}
			var l *lane
			for _, k := range ks {
				if o := r.byKey[k]; o != nil && o != l {
					if l != nil {
						l = nil // tied to two lanes: their order with it is the next look's
						closed = true
						break
					}
					l = o
				}
			}
			if closed {
				break
			}
			if l == nil {
				l = &lane{}
			}
			for _, k := range ks {
				r.mu.Lock()
				r.byKey[k] = l
				r.mu.Unlock()
			}
			take, to = append(take, h), append(to, l)
		}
		if len(take) > 0 {
			if err := w.beginMore(lc, take); err != nil {
				if !errors.Is(err, errBegun) {
					s.log.Warn("could not record intake attempts; the next look takes the mail", slog.Any("err", err))
				}
				break
			}
			for _, h := range take {
				w.ride(lc, h)
			}
			lc.mu.Lock()
			for _, h := range take {
				lc.uids = append(lc.uids, h.uid)
				lc.hs[h.uid] = h
			}
			lc.mu.Unlock()
			for _, h := range take {
				info[h.uid], bodies[h.uid] = mInfo[h.uid], mBodies[h.uid]
				chunk = append(chunk, h.uid)
			}
			for i, h := range take {
				r.add(to[i], h)
			}
			w.rolledIn.Add(uint64(len(take)))
		}
		if closed || len(take) == 0 {
			break
		}
	}
	return chunk
}

// beginMore puts the hand-overs of messages rolled in on record in one
// commit, unless this process presumed them all (ahead.go: a look's
// commit, or a committed ride of the look): then none; errBegun (nothing
// written) when one of them began before (a crash: it is handed over
// alone by a later look). The commit presumes the window above the last
// of them too.
func (w *Watcher) beginMore(lc *laneCursor, hs []*handover) error {
	var used, rest []*handover
	for _, h := range hs {
		if w.ahead[h.key] || lc.ridden(h.uid) {
			h.n = 1 // on record since the commit that presumed it
			used = append(used, h)
			w.rolledAhead.Add(1)
		} else {
			rest = append(rest, h)
		}
	}
	keys := func(hs []*handover) []string {
		var ks []string
		for _, h := range hs {
			ks = append(ks, h.key)
		}
		return ks
	}
	if len(rest) == 0 {
		w.usedAhead(keys(used), nil)
		return nil
	}
	var added []string
	err := w.o.Store.Group(func(tx *store.Tx) error {
		for _, h := range rest {
			if tx.AttemptCount(h.key) > 0 {
				return errBegun
			}
			var err error
			if h.n, err = tx.BeginAttemptFrom(h.key, 0); err != nil {
				return err
			}
		}
		var err error
		added, err = w.presumeAhead(tx, lc.validity, hs[len(hs)-1].uid)
		return err
	})
	if err != nil {
		return err
	}
	w.usedAhead(keys(used), added)
	return nil
}

// beginAll puts the hand-overs of a chunk's lanes on record in one commit
// (Watcher.beginAttempt for several): the chunk's first message, when it is
// the first after the cursor, counts what the cursor presumed.
func (w *Watcher) beginAll(s *session, hs []*handover, first, top imap.UID) error {
	cur := s.cur
	cur.Armed = 0
	var used, added []string
	err := w.o.Store.Group(func(tx *store.Tx) error {
		used = used[:0]
		if s.cur.Armed > 0 {
			if err := tx.PutCursor(w.cursorKey, cur); err != nil {
				return err
			}
		}
		for _, h := range hs {
			floor := 0
			if h.uid == first && uint32(h.uid) > s.cur.LastUID {
				// Presumed by a commit of this process and not used: the
				// presumption is this very hand-over. Else (a restart)
				// it is one that began before.
				floor = s.cur.Armed
				if floor > 0 && w.armed == s.cur {
					floor--
				}
			}
			if w.ahead[h.key] {
				if err := w.endAhead(tx, h.key); err != nil {
					return err
				}
				used = append(used, h.key)
			}
			var err error
			if h.n, err = tx.BeginAttemptFrom(h.key, floor); err != nil {
				return err
			}
		}
		var err error
		added, err = w.presumeAhead(tx, s.cur.UIDValidity, top)
		return err
	})
	if err != nil {
		return fmt.Errorf("record intake attempts: %w", err)
	}
	s.cur, w.armed = cur, store.Cursor{}
	w.usedAhead(used, added)
	return nil
}
