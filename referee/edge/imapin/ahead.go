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
// with no commit of its own. Watcher.ahead holds the keys so presumed by
// this process and not yet used: a commit that begins such a mail's
// hand-over otherwise takes the presumption back first (endAhead), so that
// in this process a presumption is never counted as a hand-over; after a
// crash every one still standing counts as one.

// aheadWindow is how many UIDs above a look are presumed begun.
func (w *Watcher) aheadWindow() int { return w.o.FetchBatch }

// attemptKey is the intake key of a message: its attempts' key in the
// store, the one the referee records the mail under.
func (w *Watcher) attemptKey(validity uint32, uid imap.UID) string {
	return fmt.Sprintf("imap:%s/%s/%d/%d", w.o.Account, w.o.Mailbox, validity, uid)
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

// dropGone takes back the presumptions of this process for UIDs the
// server says will never come (doc.go, "Rolling in"): under another
// UIDVALIDITY than the mailbox's now, or at most the highest UID above
// the cursor and not among them (uids: every UID above cur.LastUID,
// ascending; a UID skipped is one expunged before it was seen, or never
// given, and a later message gets a higher one). One commit, and only
// when there are some: they no longer stand as attempt records until a
// graceful stop, nor count after a crash.
func (w *Watcher) dropGone(cur store.Cursor, uids []imap.UID) error {
	top := imap.UID(cur.LastUID)
	if len(uids) > 0 {
		top = max(top, uids[len(uids)-1])
	}
	prefix := fmt.Sprintf("imap:%s/%s/", w.o.Account, w.o.Mailbox)
	var gone []string
	for k := range w.ahead {
		v, u, ok := strings.Cut(strings.TrimPrefix(k, prefix), "/")
		validity, verr := strconv.ParseUint(v, 10, 32)
		uid, uerr := strconv.ParseUint(u, 10, 32)
		if !ok || verr != nil || uerr != nil {
			continue
		}
		if uint32(validity) != cur.UIDValidity {
			gone = append(gone, k)
			continue
		}
		if _, found := slices.BinarySearch(uids, imap.UID(uid)); imap.UID(uid) <= top && !found {
			gone = append(gone, k)
		}
	}
	if len(gone) == 0 {
		return nil
	}
	err := w.o.Store.Group(func(tx *store.Tx) error {
		for _, k := range gone {
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
	return nil
}
