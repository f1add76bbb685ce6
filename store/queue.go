package store

import (
	"encoding/binary"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/pbem-referee/referee/store/rowform"
	bolt "go.etcd.io/bbolt"
)

// Item is one unit of work in a durable queue: a mail to send or a
// webhook call (store/rowform: its fields, and its row's form).
type Item = rowform.Item

// Item states.
const (
	Pending = "pending"
	Sent    = "sent"
	Failed  = "failed"
)

func (tx *Tx) queue(q string) (live, done *bolt.Bucket, err error) {
	live, done = tx.b([]byte("queue."+q)), tx.b([]byte("done."+q))
	if live == nil || done == nil {
		return nil, nil, fmt.Errorf("store: no queue %q", q)
	}
	return live, done, nil
}

// dueIndex is the bucket of a queue's index of live items by due time:
// from schema 8 the queue's own bucket, under dueEntry keys (flatlog.go).
func (tx *Tx) dueIndex(q string) *bolt.Bucket { return tx.b([]byte("queue." + q)) }

// duePrefix starts the due index's keys in a queue's bucket: after every
// item id (8 bytes, never 0xFF first).
const duePrefix = 0xFF

// dueEntry is the key of a live item in its queue's due index, as older
// stores wrote it (before dueLatest, below).
func dueEntry(due time.Time, id uint64) []byte { return append([]byte{duePrefix}, dueKey(due, id)...) }

// dueKey orders an index entry by due time, then id.
func dueKey(due time.Time, id uint64) []byte {
	k := make([]byte, 16)
	binary.BigEndian.PutUint64(k[:8], uint64(due.UnixNano()))
	binary.BigEndian.PutUint64(k[8:], id)
	return k
}

// The due index by latest due (issue 25): an entry is 0xFE + the due
// time's bits inverted + the id's bits inverted (dueLatest), so that the
// latest due sorts first, right after the newest rows, in their leaf. The
// index is read from the end of that run backwards, merged with the
// entries of the older form (dueEntry): earliest due first, then the id.
const dueLatestPrefix = 0xFE

// dueLatest is the key of a live item in its queue's due index.
func dueLatest(due time.Time, id uint64) []byte {
	k := make([]byte, 17)
	k[0] = dueLatestPrefix
	binary.BigEndian.PutUint64(k[1:9], ^uint64(due.UnixNano()))
	binary.BigEndian.PutUint64(k[9:], ^id)
	return k
}

// putDue indexes a live item by its due time.
func (tx *Tx) putDue(q string, due time.Time, id uint64) error {
	return tx.dueIndex(q).Put(dueLatest(due, id), nil)
}

// deleteDue takes a live item out of the due index, in either form.
func (tx *Tx) deleteDue(q string, due time.Time, id uint64) error {
	idx := tx.dueIndex(q)
	if err := idx.Delete(dueLatest(due, id)); err != nil {
		return err
	}
	return idx.Delete(dueEntry(due, id))
}

// Enqueue adds an item to queue q and returns its id. The caller sets
// Created (the store reads no clock); Due defaults to Created. The payload
// is compressed here (PackBody), before the write lock when tx is a
// speculation's: its commit writes the bytes only.
func (tx *Tx) Enqueue(q string, it Item) (uint64, error) {
	return tx.EnqueueBody(q, it, PackBody(it.Payload))
}

// EnqueueBody is Enqueue of an item whose payload the caller packed
// (PackBody, which may run anywhere, before the transaction): it.Payload
// is ignored.
func (tx *Tx) EnqueueBody(q string, it Item, body Body) (uint64, error) {
	it.Payload = nil
	if tx.spec != nil {
		// The id is known at the commit only (no caller of a speculation
		// uses it). A copy, that the closure does not move it to the heap.
		it := it
		return 0, tx.specOp(func(tx *Tx) error { _, err := tx.EnqueueBody(q, it, body); return err })
	}
	live, _, err := tx.queue(q)
	if err != nil {
		return 0, err
	}
	// Items arrive in id order, at the end of the rows: fill the leaves
	// (a leaf split in halves left the older half written once more for
	// nothing and the newer half split again by the next move).
	live.FillPercent = queueFill
	id, err := live.NextSequence()
	if err != nil {
		return 0, err
	}
	it.ID, it.State = id, Pending
	if it.Due.IsZero() {
		it.Due = it.Created
	}
	if err := tx.putDue(q, it.Due, id); err != nil {
		return 0, err
	}
	if err := tx.putBody(q, id, body); err != nil {
		return 0, err
	}
	raw := encodeRow(it)
	tx.data += int64(len(raw))
	if tx.db != nil {
		// Marked now, not on commit: bbolt runs commit handlers after a
		// reader can see the commit, so a dispatcher looking then found
		// the item not fresh and recorded its attempt in a commit of its
		// own (7% of the deliveries in the bench, issue 25). An id of a
		// transaction rolled back is given again by the queue's sequence
		// to an item this process enqueues: fresh too.
		tx.db.fresh.add(q, id)
		tx.tellQueued(q)
	}
	return id, live.Put(u64(id), raw)
}

// Queued items wake their sender from the commit (issue 25, the send
// wait; doc.go, "Rules of the write path").
type queuedHooks struct {
	mu sync.Mutex
	m  map[string][]*queuedHook
}

type queuedHook struct{ fn func() }

// OnQueued has fn called after every commit that enqueued an item in
// queue q, on the committing goroutine, once a commit; fn must not block
// (a sender's Kick). The returned function stops the calls.
func (db *DB) OnQueued(q string, fn func()) (stop func()) {
	h := &queuedHook{fn: fn}
	qh := &db.queued
	qh.mu.Lock()
	defer qh.mu.Unlock()
	if qh.m == nil {
		qh.m = map[string][]*queuedHook{}
	}
	qh.m[q] = append(qh.m[q], h)
	return func() {
		qh.mu.Lock()
		defer qh.mu.Unlock()
		qh.m[q] = slices.DeleteFunc(qh.m[q], func(x *queuedHook) bool { return x == h })
	}
}

// tellQueued has the commit of tx make q's OnQueued calls.
func (tx *Tx) tellQueued(q string) {
	if slices.Contains(tx.told, q) {
		return
	}
	qh := &tx.db.queued
	qh.mu.Lock()
	hooks := slices.Clone(qh.m[q])
	qh.mu.Unlock()
	if len(hooks) == 0 {
		return
	}
	tx.told = append(tx.told, q)
	tx.tx.OnCommit(func() {
		for _, h := range hooks {
			h.fn()
		}
	})
}

// queueFill is the fill of a queue's leaves that an enqueue splits.
const queueFill = 0.95

// Fresh items (issue 25: one write transaction per delivery; doc.go,
// "Rules of the write path"): an item this process enqueued and has not
// attempted yet has its first attempt presumed, recorded with its outcome.
type freshItems struct {
	mu sync.Mutex
	m  map[freshKey]struct{}
}

type freshKey struct {
	q  string
	id uint64
}

// maxFresh bounds the set: beyond it, attempts are simply recorded.
const maxFresh = 1 << 16

func (f *freshItems) add(q string, id uint64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.m == nil {
		f.m = map[freshKey]struct{}{}
	}
	if len(f.m) < maxFresh {
		f.m[freshKey{q, id}] = struct{}{}
	}
}

// TakeFresh reports whether item id of queue q is fresh (enqueued by this
// process, never attempted) and makes it no longer so: its first attempt
// may start without Attempt's commit, the caller recording the attempt
// with the outcome (Attempt and Finish or Retry in one transaction).
func (db *DB) TakeFresh(q string, id uint64) bool {
	db.fresh.mu.Lock()
	defer db.fresh.mu.Unlock()
	_, ok := db.fresh.m[freshKey{q, id}]
	delete(db.fresh.m, freshKey{q, id})
	return ok
}

// QueueItem returns an item, live or retired.
func (tx *Tx) QueueItem(q string, id uint64) (Item, error) {
	live, done, err := tx.queue(q)
	if err != nil {
		return Item{}, err
	}
	for _, b := range []*bolt.Bucket{live, done} {
		if it, ok, err := getRow(b, id); err != nil || ok {
			tx.withBody(q, &it)
			return it, err
		}
	}
	return Item{}, fmt.Errorf("%w: %s item %d", ErrNotFound, q, id)
}

// Due returns up to limit live items whose Due is at or before now,
// earliest first (0: no limit), each with its payload, by the due index.
func (tx *Tx) Due(q string, now time.Time, limit int) ([]Item, error) {
	out, err := tx.DueRows(q, now, limit)
	for i := range out {
		tx.withBody(q, &out[i])
	}
	return out, err
}

// DueRows is Due without the payloads: the delivery state only, no body
// read or inflated (a delivery loop reads the payloads of the items it
// starts, Tx.Payload).
func (tx *Tx) DueRows(q string, now time.Time, limit int) ([]Item, error) {
	live, _, err := tx.queue(q)
	if err != nil {
		return nil, err
	}
	var out []Item
	err = tx.DueOrder(q, func(due time.Time, id uint64) (bool, error) {
		if due.After(now) || (limit > 0 && len(out) >= limit) {
			return false, nil
		}
		it, ok, err := getRow(live, id)
		if err != nil {
			return false, err
		}
		if ok {
			out = append(out, it)
		}
		return true, nil
	})
	return out, err
}

// Payload returns the payload of item id of queue q, live or retired (nil
// when it has none: pruned, or never stored). It is the only read of the
// queue's bodies a delivery makes.
func (tx *Tx) Payload(q string, id uint64) []byte {
	tx.widen()
	it := Item{ID: id}
	tx.withBody(q, &it)
	return it.Payload
}

// DueOrder calls fn with the due time and id of the live items, earliest
// first, until fn returns false or an error.
func (tx *Tx) DueOrder(q string, fn func(due time.Time, id uint64) (bool, error)) error {
	if _, _, err := tx.queue(q); err != nil {
		return err
	}
	idx := tx.dueIndex(q)
	// The older form, earliest first.
	olds := idx.Cursor()
	ko, _ := olds.Seek([]byte{duePrefix})
	// The newer form, from the end of its run backwards.
	news := idx.Cursor()
	kn, _ := news.Seek([]byte{duePrefix})
	if kn == nil {
		kn, _ = news.Last()
	} else {
		kn, _ = news.Prev()
	}
	for {
		var due time.Time
		var id uint64
		okOld := len(ko) == 17 && ko[0] == duePrefix
		okNew := len(kn) == 17 && kn[0] == dueLatestPrefix
		var dueOld, dueNew int64
		var idOld, idNew uint64
		if okOld {
			dueOld, idOld = int64(binary.BigEndian.Uint64(ko[1:9])), binary.BigEndian.Uint64(ko[9:])
		}
		if okNew {
			dueNew, idNew = int64(^binary.BigEndian.Uint64(kn[1:9])), ^binary.BigEndian.Uint64(kn[9:])
		}
		switch {
		case okOld && (!okNew || dueOld < dueNew || (dueOld == dueNew && idOld < idNew)):
			due, id = time.Unix(0, dueOld), idOld
			ko, _ = olds.Next()
		case okNew:
			due, id = time.Unix(0, dueNew), idNew
			kn, _ = news.Prev()
		default:
			return nil
		}
		more, err := fn(due, id)
		if err != nil || !more {
			return err
		}
	}
}

// NextDue returns the earliest Due of the live items.
func (tx *Tx) NextDue(q string) (time.Time, bool, error) {
	var first time.Time
	found := false
	err := tx.DueOrder(q, func(due time.Time, _ uint64) (bool, error) {
		first, found = due, true
		return false, nil
	})
	return first, found, err
}

// QueueLen returns the number of live items: its due index's entries.
func (tx *Tx) QueueLen(q string) int {
	n := 0
	_ = tx.DueOrder(q, func(time.Time, uint64) (bool, error) { n++; return true, nil })
	return n
}

// Items calls fn for every live item, in id order.
func (tx *Tx) Items(q string, fn func(Item) error) error {
	live, _, err := tx.queue(q)
	if err != nil {
		return err
	}
	var ids []uint64
	if err := tx.DueOrder(q, func(_ time.Time, id uint64) (bool, error) { ids = append(ids, id); return true, nil }); err != nil {
		return err
	}
	slices.Sort(ids)
	for _, id := range ids {
		it, err := liveItem(live, q, id)
		if err != nil {
			return err
		}
		tx.withBody(q, &it)
		if err := fn(it); err != nil {
			return err
		}
	}
	return nil
}

// liveItem reads live item id of queue q, or fails with ErrNotFound.
func liveItem(live *bolt.Bucket, q string, id uint64) (Item, error) {
	it, ok, err := getRow(live, id)
	if err == nil && (!ok || it.State != Pending) {
		err = fmt.Errorf("%w: live %s item %d", ErrNotFound, q, id)
	}
	return it, err
}

func (tx *Tx) update(q string, id uint64, fn func(*Item)) (Item, error) {
	live, _, err := tx.queue(q)
	if err != nil {
		return Item{}, err
	}
	it, err := liveItem(live, q, id)
	if err != nil {
		return it, err
	}
	if err := tx.moveBody(q, &it); err != nil {
		return it, err
	}
	old := it.Due
	fn(&it)
	if !it.Due.Equal(old) {
		if err := tx.deleteDue(q, old, id); err != nil {
			return it, err
		}
		// As an enqueue: next to the rows, which Finish rewrites.
		if err := tx.putDue(q, it.Due, id); err != nil {
			return it, err
		}
	}
	return it, live.Put(u64(id), encodeRow(it))
}

// Attempt records that a delivery attempt starts now; if it never reports
// back (a crash), the item becomes due again at next. Call it in its own
// transaction before the network I/O. Like Retry and Finish, it returns
// the item's delivery state, without its payload (Tx.Payload reads it).
func (tx *Tx) Attempt(q string, id uint64, now, next time.Time) (Item, error) {
	return tx.update(q, id, func(it *Item) {
		it.Attempts++
		it.LastAttempt = now
		it.Due = next
		it.LastError = "attempt in progress"
	})
}

// Retry records a transient failure: the item is due again at due.
func (tx *Tx) Retry(q string, id uint64, due time.Time, errText string) (Item, error) {
	return tx.update(q, id, func(it *Item) {
		it.Due = due
		it.LastError = errText
	})
}

// Finish retires an item as Sent or Failed (permanently), in place (doc.go,
// "A mail's rows"), kept until keepUntil for inspection and duplicates.
func (tx *Tx) Finish(q string, id uint64, state string, now, keepUntil time.Time, errText string) (Item, error) {
	if state != Sent && state != Failed {
		return Item{}, fmt.Errorf("store: finish with state %q", state)
	}
	live, _, err := tx.queue(q)
	if err != nil {
		return Item{}, err
	}
	it, err := liveItem(live, q, id)
	if err != nil {
		return it, err
	}
	if err := tx.deleteDue(q, it.Due, id); err != nil {
		return it, err
	}
	it.State, it.Finished, it.KeepUntil = state, now, keepUntil
	if errText != "" || state == Sent {
		it.LastError = errText
	}
	if err := tx.moveBody(q, &it); err != nil {
		return it, err
	}
	return it, live.Put(u64(id), encodeRow(it))
}

// Retired calls fn for every retired item of queue q: those of an older
// store (every row of "done.<queue>") first, then in id order.
func (tx *Tx) Retired(q string, fn func(Item) error) error {
	live, done, err := tx.queue(q)
	if err != nil {
		return err
	}
	for _, b := range []*bolt.Bucket{done, live} {
		err := eachItem(b, func(it Item) error {
			if b == live && it.State == Pending {
				return nil
			}
			tx.withBody(q, &it)
			return fn(it)
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// eachItem decodes every item of a queue's bucket in key order (the due
// index's keys, after them, are not items).
func eachItem(b *bolt.Bucket, fn func(Item) error) error {
	return b.ForEach(func(k, v []byte) error {
		if len(k) != 8 {
			return nil
		}
		it, err := decodeRow(binary.BigEndian.Uint64(k), v)
		if err != nil {
			return err
		}
		return fn(it)
	})
}

// PruneRetired deletes retired items whose KeepUntil has passed.
func (tx *Tx) PruneRetired(q string, now time.Time) (int, error) {
	live, done, err := tx.queue(q)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, b := range []*bolt.Bucket{done, live} {
		var del []uint64
		err := b.ForEach(func(k, v []byte) error {
			if len(k) != 8 {
				return nil
			}
			it, err := decodeRow(binary.BigEndian.Uint64(k), v)
			if err == nil && (b == done || it.State != Pending) && it.KeepUntil.Before(now) {
				del = append(del, binary.BigEndian.Uint64(k))
			}
			return nil
		})
		if err != nil {
			return n, err
		}
		for _, id := range del {
			if err := b.Delete(u64(id)); err != nil {
				return n, err
			}
			if err := tx.deleteBody(q, id); err != nil {
				return n, err
			}
		}
		n += len(del)
	}
	return n, nil
}

// encodeRow is the stored form of an item's row (doc.go, "A mail's rows":
// a JSON row, '{' first, is an older store's).
func encodeRow(it Item) []byte { return rowform.AppendItem(nil, it) }

// decodeRow reads the row of item id, of either form.
func decodeRow(id uint64, v []byte) (Item, error) {
	if len(v) > 0 && v[0] == rowform.ItemForm {
		it, err := rowform.ParseItem(id, v)
		if err != nil {
			err = fmt.Errorf("store: decode item %d: %w", id, err)
		}
		return it, err
	}
	var it Item
	_, err := decodeJSON(v, u64(id), &it)
	return it, err
}

// getRow reads item id's row from a queue's bucket (false: none).
func getRow(b *bolt.Bucket, id uint64) (Item, bool, error) {
	v := b.Get(u64(id))
	if v == nil {
		return Item{}, false, nil
	}
	it, err := decodeRow(id, v)
	return it, true, err
}
