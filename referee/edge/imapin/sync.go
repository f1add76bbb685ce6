package imapin

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"slices"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"

	"github.com/pbem-referee/referee/referee"
	"github.com/pbem-referee/referee/referee/edge/mailin"
	"github.com/pbem-referee/referee/store"
)

// sync processes the new messages; with sweep it first hands over again
// the messages still in the mailbox below the cursor (left by a crash or a
// failed MOVE) so that they get filed.
func (s *session) sync(ctx context.Context, sweep bool) error {
	if sweep && s.mode != modeFlags && s.cur.LastUID > 0 {
		left, err := s.search(1, imap.UID(s.cur.LastUID))
		if err != nil {
			return err
		}
		left = slices.DeleteFunc(left, func(u imap.UID) bool { return uint32(u) > s.cur.LastUID })
		if len(left) > 0 {
			s.log.Info("handing over again messages left below the cursor", slog.Int("count", len(left)),
				slog.Uint64("last_uid", uint64(s.cur.LastUID)))
			if err := s.process(ctx, left); err != nil {
				return err
			}
		}
	}
	uids, err := s.search(imap.UID(s.cur.LastUID)+1, 0)
	if err != nil {
		return err
	}
	// "UID SEARCH UID n:*" also returns the highest UID when it is below n
	// (RFC 3501: "*" is the largest UID in use): filter ourselves.
	uids = slices.DeleteFunc(uids, func(u imap.UID) bool { return uint32(u) <= s.cur.LastUID })
	if err := s.w.dropGone(s.cur, uids); err != nil {
		// They stand as before, until a graceful stop.
		s.log.Warn("could not take back presumed intake attempts", slog.Any("err", err))
	}
	if err := s.process(ctx, uids); err != nil {
		return err
	}
	s.w.unread = false
	return nil
}

// search returns the UIDs in from:to (to 0 meaning "*"), ascending.
func (s *session) search(from, to imap.UID) ([]imap.UID, error) {
	var set imap.UIDSet
	set.AddRange(from, to)
	data, err := s.c.UIDSearch(&imap.SearchCriteria{UID: []imap.UIDSet{set}}, nil).Wait()
	if err != nil {
		return nil, fmt.Errorf("uid search: %w", err)
	}
	uids := data.AllUIDs()
	slices.Sort(uids)
	return slices.Compact(uids), nil
}

// process hands the messages over in UID order, FetchBatch at a time.
func (s *session) process(ctx context.Context, uids []imap.UID) error {
	s.looked = 0
	for len(uids) > 0 {
		n := min(len(uids), s.w.o.FetchBatch)
		if err := s.processChunk(ctx, uids[:n]); err != nil {
			return err
		}
		// A look that rolled newer mail in took some of the next chunks.
		uids = slices.DeleteFunc(uids[n:], func(u imap.UID) bool { return u <= s.looked })
	}
	return nil
}

func uidSet(uids []imap.UID) imap.UIDSet {
	var set imap.UIDSet
	for _, u := range uids {
		set.AddNum(u)
	}
	return set
}

// fetch fetches the envelopes and sizes of a few messages, and the bodies
// of those that are neither too large nor poison.
func (s *session) fetch(chunk []imap.UID) (map[imap.UID]*imapclient.FetchMessageBuffer, map[imap.UID][]byte, error) {
	w := s.w
	meta, err := s.c.Fetch(uidSet(chunk), &imap.FetchOptions{
		UID: true, RFC822Size: true, InternalDate: true, Envelope: true,
	}).Collect()
	if err != nil {
		return nil, nil, fmt.Errorf("fetch sizes: %w", err)
	}
	info := make(map[imap.UID]*imapclient.FetchMessageBuffer, len(meta))
	var want []imap.UID
	for _, m := range meta {
		info[m.UID] = m
	}
	for _, u := range chunk {
		if m := info[u]; m != nil && (w.o.MaxMessageSize <= 0 || m.RFC822Size <= w.o.MaxMessageSize) && s.poison[u] == "" {
			want = append(want, u)
		}
	}
	section := &imap.FetchItemBodySection{Peek: true}
	bodies := make(map[imap.UID][]byte, len(want))
	if len(want) > 0 {
		msgs, err := s.c.Fetch(uidSet(want), &imap.FetchOptions{
			UID: true, BodySection: []*imap.FetchItemBodySection{section},
		}).Collect()
		if err != nil {
			return nil, nil, fmt.Errorf("fetch bodies: %w", err)
		}
		for _, m := range msgs {
			if b := m.FindBodySection(section); b != nil {
				bodies[m.UID] = b
			}
		}
	}
	return info, bodies, nil
}

// processChunk fetches and hands over a few messages, then files them.
func (s *session) processChunk(ctx context.Context, chunk []imap.UID) error {
	w := s.w
	info, bodies, err := s.fetch(chunk)
	if err != nil {
		return err
	}
	s.parsed = map[imap.UID]*mailin.Parsed{}
	defer func() { s.parsed = nil }()

	// Two senders or more: their messages are handed over at once, in
	// lanes (lanes.go); the loop below then files them in UID order with
	// the handlers' answers.
	chunk, lanes, err := s.handLanes(ctx, chunk, info, bodies)
	if err != nil {
		return &transientError{uid: chunk[0], err: err, notMessage: true}
	}

	var processed, quarantined []imap.UID
	// The cursor past a handled message is written with the next
	// message's intake attempt, in one commit (issue 13.5: two commits
	// per message instead of three); the last one before the messages
	// are filed. A crash in between is a crash before the cursor update:
	// the message is handed over again and recognised as a duplicate.
	var pending *cursorUpdate
	saved := func() error {
		u := pending
		pending = nil
		s.cur = u.cur
		if w.afterCursor != nil {
			return w.afterCursor(u.uid)
		}
		return nil
	}
	flush := func() error {
		if pending == nil {
			return nil
		}
		if err := w.saveCursor(pending.cur, pending.keys...); err != nil {
			return err
		}
		return saved()
	}
	file := func() error {
		if err := flush(); err != nil {
			return err
		}
		if err := s.file(processed, w.o.ProcessedFolder, false); err != nil {
			return err
		}
		return s.file(quarantined, w.o.QuarantineFolder, true)
	}
	for _, uid := range chunk {
		m := info[uid]
		if m == nil {
			continue // expunged by someone else meanwhile
		}
		if ctx.Err() != nil {
			return errors.Join(ctx.Err(), file())
		}
		log := s.log.With(slog.Uint64("uid", uint64(uid)))
		if m.Envelope != nil && m.Envelope.MessageID != "" {
			log = log.With(slog.String("msgid", "<"+m.Envelope.MessageID+">"))
		}
		reason := s.poison[uid]
		rode := false
		key := w.attemptKey(s.cur.UIDValidity, uid)
		switch {
		case reason != "":
			// MaxAttempts failures in a row: the sender and the operator
			// are told, the intake moves on (issue 23, rule 2).
			w.notify(ctx, m, key, referee.QuarantineNotice{Reason: "failed", Detail: reason, Size: m.RFC822Size}, log)
		case w.o.MaxMessageSize > 0 && m.RFC822Size > w.o.MaxMessageSize:
			reason = fmt.Sprintf("message too large: %d bytes, the limit is %d", m.RFC822Size, w.o.MaxMessageSize)
			w.notify(ctx, m, key, referee.QuarantineNotice{Reason: "too_large", Detail: reason, Size: m.RFC822Size,
				Max: w.o.MaxMessageSize}, log)
		case lanes[uid] != nil:
			h := lanes[uid]
			if w.o.MaxCrashes > 0 && h.n > w.o.MaxCrashes {
				reason = fmt.Sprintf("poison message: handling began %d times and never finished", h.n-1)
				w.notify(ctx, m, key, referee.QuarantineNotice{Reason: "crashed", Detail: reason, Size: m.RFC822Size}, log)
				break
			}
			if !h.ran {
				// Its lane stopped at an earlier mail of its sender: the
				// next look hands it over again, after that one.
				return file()
			}
			// The cursor past it is committed when a ride moved it there.
			rode = h.rode && s.cur.LastUID >= uint32(uid)
			var pe *panicError
			if h.err != nil && !errors.As(h.err, &pe) && !referee.IsPermanent(h.err) {
				if eerr := w.endAttempt(s, key, uint32(uid) > s.cur.LastUID); eerr != nil {
					log.Warn("could not clear the intake attempt", slog.Any("err", eerr))
				}
			}
			if stop, err := w.answered(h.out, h.err, &reason, log); stop {
				if ferr := file(); ferr != nil {
					return ferr
				}
				return &transientError{uid: uid, err: err}
			}
		default:
			raw, ok := bodies[uid]
			if !ok {
				continue // expunged between the two fetches
			}
			received := w.o.Now()
			if !m.InternalDate.IsZero() && m.InternalDate.Before(received) {
				received = m.InternalDate
			}
			// The attempt is on record before the hand-over: a message
			// that kills the process is recognised after the restart.
			// Usually the commit of the message before put it there
			// (Cursor.Armed), and this costs no commit (issue 25).
			n, err := w.beginAttempt(s, key, uid, pending)
			if err != nil {
				if ferr := file(); ferr != nil {
					return errors.Join(err, ferr)
				}
				return &transientError{uid: uid, err: err, notMessage: true}
			}
			if pending != nil {
				if err := saved(); err != nil {
					return err
				}
			}
			if w.o.MaxCrashes > 0 && n > w.o.MaxCrashes {
				reason = fmt.Sprintf("poison message: handling began %d times and never finished", n-1)
				w.notify(ctx, m, key, referee.QuarantineNotice{Reason: "crashed", Detail: reason, Size: m.RFC822Size}, log)
				break
			}
			// The end of the attempt and the cursor past the message ride
			// in the commit that records the message (store.DB.Ride).
			next, moved := s.cur, uint32(uid) > s.cur.LastUID
			if moved {
				next.LastUID, next.Armed = uint32(uid), 1
			}
			ride := w.o.Store.Ride(key, func(tx *store.Tx) error {
				if err := tx.EndAttempt(key); err != nil {
					return err
				}
				if !moved {
					return nil
				}
				return tx.PutCursor(w.cursorKey, next)
			})
			out, err := w.handle(ctx, mailin.Inbound{
				Raw:      raw,
				Source:   "imap",
				Keys:     []string{key},
				Received: received,
			}, s.parsed[uid], log)
			if ride.Done() {
				rode = true
				if moved {
					s.cur, w.armed = next, next
				}
			}
			var pe *panicError
			if err != nil && !errors.As(err, &pe) && !referee.IsPermanent(err) {
				// A transient failure (the store, a deadline) is not
				// the message's fault: it does not count as a crash.
				if eerr := w.endAttempt(s, key, uint32(uid) > s.cur.LastUID); eerr != nil {
					log.Warn("could not clear the intake attempt", slog.Any("err", eerr))
				}
			}
			if stop, err := w.answered(out, err, &reason, log); stop {
				if ferr := file(); ferr != nil {
					return ferr // the connection is in trouble: reconnect
				}
				return &transientError{uid: uid, err: err}
			}
		}
		if w.afterHandle != nil {
			if err := w.afterHandle(uid); err != nil {
				return err
			}
		}
		last := s.cur.LastUID
		if pending != nil {
			last = pending.cur.LastUID
		}
		switch {
		case rode:
			// The cursor and the end of the attempt are committed.
			if w.afterCursor != nil {
				if err := w.afterCursor(uid); err != nil {
					return err
				}
			}
		case uint32(uid) > last:
			next := s.cur
			next.LastUID, next.Armed = uint32(uid), 1
			u := &cursorUpdate{cur: next, keys: []string{key}, uid: uid}
			if pending != nil {
				// Not flushed by a hand-over between (a message set
				// aside, or handed over in a lane): its attempt ends too.
				u.keys = append(pending.keys, key)
			}
			pending = u
		default:
			if err := w.endAttempt(s, key, false); err != nil {
				return errors.Join(err, file())
			}
			if w.afterCursor != nil {
				if err := w.afterCursor(uid); err != nil {
					return err
				}
			}
		}
		if reason != "" {
			w.quarantined.Add(1)
			delete(s.poison, uid)
			log.Warn("quarantining mail", slog.String("folder", w.o.QuarantineFolder), slog.String("reason", reason))
			quarantined = append(quarantined, uid)
		} else {
			processed = append(processed, uid)
		}
	}
	return file()
}

// answered counts a handler's answer; stop is true for a transient
// failure (the batch stops), and a permanent one sets the reason to
// quarantine the message.
func (w *Watcher) answered(out referee.Outcome, err error, reason *string, log *slog.Logger) (stop bool, _ error) {
	switch {
	case err == nil:
		w.handled.Add(1)
		if out.Status == referee.OutcomeDuplicate {
			w.duplicates.Add(1)
		}
		log.Info("mail handled", slog.String("status", string(out.Status)), slog.String("game", out.Game),
			slog.String("detail", out.Detail))
	case referee.IsPermanent(err):
		*reason = err.Error()
	default:
		w.transient.Add(1)
		return true, err
	}
	return false, nil
}

// panicError is a handler panic: transient, but it counts as a crash for
// MaxCrashes.
type panicError struct{ v any }

func (e *panicError) Error() string { return fmt.Sprintf("imapin: mail handler panicked: %v", e.v) }

// handle calls the handler, turning a panic into a transient error: with
// the mail's one reading p when the handler made it (mailin.Reader),
// else with the raw mail.
func (w *Watcher) handle(ctx context.Context, in mailin.Inbound, p *mailin.Parsed, log *slog.Logger) (out referee.Outcome, err error) {
	defer func() {
		if r := recover(); r != nil {
			log.Error("mail handler panicked", slog.Any("panic", r), slog.String("stack", string(debug.Stack())))
			err = &panicError{v: r}
		}
	}()
	if rd, ok := w.o.Handler.(mailin.Reader); ok && p != nil {
		return rd.HandleParsed(ctx, p)
	}
	return w.o.Handler.HandleMail(ctx, in)
}

// notify tells the handler, when it can tell the sender, that a message is
// quarantined without being handed over. A failure is logged, never
// blocks the intake.
func (w *Watcher) notify(ctx context.Context, m *imapclient.FetchMessageBuffer, key string, n referee.QuarantineNotice,
	log *slog.Logger) {
	qn, ok := w.o.Handler.(referee.QuarantineNotifier)
	if !ok {
		return
	}
	if m.Envelope != nil {
		if len(m.Envelope.From) > 0 {
			n.From = m.Envelope.From[0].Addr()
		}
		if m.Envelope.MessageID != "" {
			n.MessageID = "<" + m.Envelope.MessageID + ">"
		}
	}
	n.Source, n.Keys = "imap", []string{key}
	if _, err := qn.NotifyQuarantined(ctx, n); err != nil {
		log.Warn("could not tell the sender of a quarantined mail", slog.Any("err", err))
	}
}

// cursorUpdate is a cursor past a handled message (uid, intake key), not
// yet written.
type cursorUpdate struct {
	cur  store.Cursor
	keys []string
	uid  imap.UID
}

// beginAttempt puts a hand-over on record and returns the count: no
// commit when the cursor's commit presumed it (Cursor.Armed, written by
// this process and not used yet: the message is the first after the
// cursor); otherwise one commit that also writes the pending cursor
// update, if any.
func (w *Watcher) beginAttempt(s *session, key string, uid imap.UID, prev *cursorUpdate) (int, error) {
	if prev == nil && uint32(uid) > s.cur.LastUID && s.cur.Armed > 0 && w.armed == s.cur {
		w.armed = store.Cursor{}
		w.usedAhead([]string{key}, nil) // its record, if any, ends with it
		return s.cur.Armed, nil
	}
	if prev == nil && s.cur.Armed == 0 && w.ahead[key] {
		// Presumed ahead by this process (ahead.go): on record already.
		w.usedAhead([]string{key}, nil)
		return 1, nil
	}
	w.armed = store.Cursor{}
	var n int
	cur, floor := s.cur, 0
	if prev != nil {
		// The cursor past the message before is written now: nothing
		// was presumed of this one.
		cur = prev.cur
	} else if uint32(uid) > cur.LastUID {
		// The presumed hand-overs become the message's own count.
		floor = cur.Armed
	}
	cur.Armed = 0
	// Grouped with the store's concurrent commits (the outbox's, the
	// referee's): durable when it returns, as with Update.
	err := w.o.Store.Group(func(tx *store.Tx) error {
		if prev != nil {
			for _, k := range prev.keys {
				if err := tx.EndAttempt(k); err != nil {
					return err
				}
			}
		}
		if prev != nil || s.cur.Armed > 0 {
			if err := tx.PutCursor(w.cursorKey, cur); err != nil {
				return err
			}
		}
		if err := w.endAhead(tx, key); err != nil {
			return err
		}
		var err error
		n, err = tx.BeginAttemptFrom(key, floor)
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("record intake attempt: %w", err)
	}
	w.usedAhead([]string{key}, nil)
	if prev != nil {
		prev.cur = cur
	} else {
		s.cur = cur
	}
	return n, nil
}

// endAttempt forgets the attempts of a message and, when it is the first
// after the cursor (next), the one the cursor presumed.
func (w *Watcher) endAttempt(s *session, key string, next bool) error {
	cur := s.cur
	cur.Armed = 0
	err := w.o.Store.Group(func(tx *store.Tx) error {
		if err := tx.EndAttempt(key); err != nil {
			return err
		}
		if !next || s.cur.Armed == 0 {
			return nil
		}
		return tx.PutCursor(w.cursorKey, cur)
	})
	if err == nil && next {
		s.cur, w.armed = cur, store.Cursor{}
	}
	return err
}

// file moves messages to folder, or flags them when the server can move
// nothing safely.
func (s *session) file(uids []imap.UID, folder string, quarantine bool) error {
	if len(uids) == 0 {
		return nil
	}
	set := uidSet(uids)
	switch s.mode {
	case modeMove, modeCopyExpunge:
		// With MOVE this is UID MOVE; with UIDPLUS only, the library
		// issues UID COPY, UID STORE +FLAGS.SILENT \Deleted and UID
		// EXPUNGE of exactly these UIDs. (chooseMode never lets it fall
		// back to a plain EXPUNGE.)
		if _, err := s.c.Move(set, folder).Wait(); err != nil {
			return fmt.Errorf("move to %s: %w", folder, err)
		}
	default:
		if quarantine {
			if _, err := s.c.Copy(set, folder).Wait(); err != nil {
				return fmt.Errorf("copy to %s: %w", folder, err)
			}
		}
		flags := []imap.Flag{imap.FlagSeen}
		if quarantine {
			flags = append(flags, imap.FlagFlagged)
		}
		if err := s.c.Store(set, &imap.StoreFlags{Op: imap.StoreFlagsAdd, Silent: true, Flags: flags}, nil).Close(); err != nil {
			return fmt.Errorf("flag: %w", err)
		}
	}
	return nil
}
