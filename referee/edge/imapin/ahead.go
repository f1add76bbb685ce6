package imapin

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/emersion/go-imap/v2"

	"github.com/pbem-referee/referee/store"
)

// The presumption written ahead (doc.go, "Rolling in", issue 25: the
// commits of a mail): the commit that puts a look's hand-overs on record
// (beginAll), and a beginMore when one is still needed, also put on record
// the hand-overs of the next aheadWindow UIDs above the look, which have
// no mail yet: the mail rolled in with one of those UIDs is handed over
// with no commit of its own. So does each ride of a look that rolls mail
// in (laneCursor.presume, in the mail's own commit), above the highest
// UID the look has taken: a mail rolled in past the window a committed
// ride presumed pays no beginMore either (laneCursor.ridden). Watcher.ahead
// holds the keys so presumed by this process and not yet used (the
// rides' join it when the look's lanes are done, laneCursor.ridesAhead;
// until then only the Watcher's goroutine reads them, under the
// laneCursor's lock, while the lanes' commits write them): a commit that
// begins such a mail's hand-over otherwise takes the presumption back
// first (endAhead), so that in this process a presumption is never
// counted as a hand-over; after a crash every one still standing counts
// as one, and the next process takes back those whose UIDs never come
// (readDead, dropGone).

// aheadWindow is how many UIDs above a look are presumed begun.
func (w *Watcher) aheadWindow() int { return w.o.FetchBatch }

// attemptKey is the intake key of a message: its attempts' key in the
// store, the one the referee records the mail under.
func (w *Watcher) attemptKey(validity uint32, uid imap.UID) string {
	return fmt.Sprintf("%s%d/%d", w.keyPrefix(), validity, uid)
}

// presumeAhead puts on record, in tx, the hand-overs of the window of UIDs
// above top that have none (and are not presumed by this process already),
// and returns their keys: Watcher.ahead takes them once tx is committed.
func (w *Watcher) presumeAhead(tx *store.Tx, validity uint32, top imap.UID) ([]string, error) {
	var keys []string
	for u := top + 1; u <= top+imap.UID(w.aheadWindow()); u++ {
		k := w.attemptKey(validity, u)
		if w.ahead[k] || tx.AttemptCount(k) > 0 {
			continue
		}
		if _, err := tx.BeginAttemptFrom(k, 0); err != nil {
			return nil, err
		}
		keys = append(keys, k)
	}
	return keys, nil
}

// presume puts on record, in tx (the commit of u's ride), the hand-overs
// of the window above the highest UID the look has taken that have none,
// while the look rolls mail in and the mailbox's UIDVALIDITY (validity,
// the stored cursor's) is the look's, and notes them as the UIDs u's ride
// presumed: this run's, since a ride runs again when its transaction is
// retried, and a run whose transaction is not committed presumed nothing.
func (lc *laneCursor) presume(tx *store.Tx, u imap.UID, validity uint32, key func(uint32, imap.UID) string) error {
	lc.mu.Lock()
	defer lc.mu.Unlock()
	delete(lc.presumed, u)
	if !lc.rolling || validity != lc.validity {
		return nil
	}
	top := lc.uids[len(lc.uids)-1]
	var uids []imap.UID
	for x := top + 1; x <= top+imap.UID(lc.window); x++ {
		k := key(lc.validity, x)
		if tx.AttemptCount(k) > 0 {
			continue // taken, presumed already, or a dead process's
		}
		if _, err := tx.BeginAttemptFrom(k, 0); err != nil {
			return err
		}
		uids = append(uids, x)
	}
	lc.presumed[u] = uids
	return nil
}

// ridden reports whether a committed ride presumed x: its hand-over is on
// record, with no commit of its own.
func (lc *laneCursor) ridden(x imap.UID) bool {
	lc.mu.Lock()
	defer lc.mu.Unlock()
	for u, uids := range lc.presumed {
		if slices.Contains(uids, x) && lc.hs[u] != nil && lc.hs[u].ride.Committed() {
			return true
		}
	}
	return false
}

// stopRolling ends the rides' presumptions: the look takes no more mail.
func (lc *laneCursor) stopRolling() {
	lc.mu.Lock()
	lc.rolling = false
	lc.mu.Unlock()
}

// ridesAhead returns, once every lane of the look is done, the UIDs the
// committed rides presumed whose mails the look did not take: their
// presumptions stand, and Watcher.ahead takes them.
func (lc *laneCursor) ridesAhead() []imap.UID {
	lc.mu.Lock()
	defer lc.mu.Unlock()
	var out []imap.UID
	for u, uids := range lc.presumed {
		if lc.hs[u] == nil || !lc.hs[u].ride.Committed() {
			continue
		}
		for _, x := range uids {
			if lc.hs[x] == nil {
				out = append(out, x)
			}
		}
	}
	return out
}

// endAhead takes back, in tx, the presumption this process wrote for key,
// if it stands, before the hand-over of its mail is put on record: the
// hand-over then counts what was recorded before the presumption only.
func (w *Watcher) endAhead(tx *store.Tx, key string) error {
	if !w.ahead[key] {
		return nil
	}
	return tx.EndAttempt(key)
}

// usedAhead settles Watcher.ahead after a commit: the keys whose
// presumption was used or taken back leave it, the new ones join it.
func (w *Watcher) usedAhead(used []string, added []string) {
	for _, k := range used {
		delete(w.ahead, k)
	}
	if len(added) > 0 && w.ahead == nil {
		w.ahead = map[string]bool{}
	}
	for _, k := range added {
		w.ahead[k] = true
	}
}

// aheadKeys lists the presumptions standing (for disarm).
func (w *Watcher) aheadKeys() []string {
	keys := make([]string, 0, len(w.ahead))
	for k := range w.ahead {
		keys = append(keys, k)
	}
	return keys
}

// dropGone takes back the presumptions for UIDs the server says will
// never come (doc.go, "Rolling in"): under another UIDVALIDITY than the
// mailbox's now, or at most the highest UID above the cursor and not among
// them (uids: every UID above cur.LastUID, ascending; a UID skipped is one
// expunged before it was seen, or never given, and a later message gets a
// higher one). This process's (Watcher.ahead) at any UID at most that
// one; a dead process's (Watcher.dead, read at the first look) above the
// cursor only, since below it a record is a leftover's hand-over, counted
// for its crashes. One commit, and only when there are some: they no
// longer stand as attempt records until a graceful stop, nor count after
// a crash.
func (w *Watcher) dropGone(cur store.Cursor, uids []imap.UID) error {
	if w.dead == nil {
		if err := w.readDead(); err != nil {
			return err
		}
	}
	top := imap.UID(cur.LastUID)
	if len(uids) > 0 {
		top = max(top, uids[len(uids)-1])
	}
	var gone, goneDead []string
	for k := range w.ahead {
		validity, uid, ok := w.keyUID(k)
		if !ok {
			continue
		}
		if _, found := slices.BinarySearch(uids, uid); validity != cur.UIDValidity || uid <= top && !found {
			gone = append(gone, k)
		}
	}
	for k := range w.dead {
		validity, uid, _ := w.keyUID(k)
		_, listed := slices.BinarySearch(uids, uid)
		switch {
		case validity != cur.UIDValidity:
			goneDead = append(goneDead, k)
		case uid <= imap.UID(cur.LastUID) || listed:
			// Its mail came: its hand-over counts the record and ends it.
			delete(w.dead, k)
		case uid <= top:
			goneDead = append(goneDead, k)
		}
	}
	if len(gone)+len(goneDead) == 0 {
		return nil
	}
	err := w.o.Store.Group(func(tx *store.Tx) error {
		for _, k := range slices.Concat(gone, goneDead) {
			if err := tx.EndAttempt(k); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("take back the presumptions of UIDs gone: %w", err)
	}
	w.usedAhead(gone, nil)
	for _, k := range goneDead {
		delete(w.dead, k)
	}
	return nil
}

// readDead fills Watcher.dead, at the first look of the Watcher, with the
// hand-overs of this mailbox on record that no process of it began (a
// dead process's presumptions, or hand-overs it began): dropGone decides
// each, at this look and the later ones.
func (w *Watcher) readDead() error {
	var keys []string
	if err := w.o.Store.View(func(tx *store.Tx) error {
		keys = tx.AttemptKeys(w.keyPrefix())
		return nil
	}); err != nil {
		return fmt.Errorf("read the hand-overs on record: %w", err)
	}
	w.dead = map[string]bool{}
	for _, k := range keys {
		if _, _, ok := w.keyUID(k); ok && !w.ahead[k] {
			w.dead[k] = true
		}
	}
	return nil
}

// keyPrefix is the part of attemptKey before the UIDVALIDITY.
func (w *Watcher) keyPrefix() string { return fmt.Sprintf("imap:%s/%s/", w.o.Account, w.o.Mailbox) }

// keyUID parses an attemptKey of this mailbox (false: not one).
func (w *Watcher) keyUID(k string) (uint32, imap.UID, bool) {
	v, u, ok := strings.Cut(strings.TrimPrefix(k, w.keyPrefix()), "/")
	validity, verr := strconv.ParseUint(v, 10, 32)
	uid, uerr := strconv.ParseUint(u, 10, 32)
	if !ok || verr != nil || uerr != nil || !strings.HasPrefix(k, w.keyPrefix()) {
		return 0, 0, false
	}
	return uint32(validity), imap.UID(uid), true
}
