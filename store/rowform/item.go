package rowform

import (
	"cmp"
	"encoding/binary"
	"errors"
	"maps"
	"slices"
	"time"
)

// Item is one unit of work in a durable queue of the store (store.Item):
// a mail to send (queue "outbox") or a webhook call (queue "hooks"). The
// store writes it in the same transaction as the change that caused it; a
// worker delivers it after commit, recording each attempt before the
// network I/O, so a crash during delivery gives a delayed retry, never a
// lost item. Its JSON is an older store's row. The row of this form
// (AppendItem) holds neither Payload (the store keeps it apart) nor ID
// (the row's key).
type Item struct {
	ID uint64 `json:"id"`
	// Key identifies the item to its receiver: the mail's Message-ID, the
	// webhook's event id. It is stable across retries.
	Key  string `json:"key"`
	Game string `json:"game,omitempty"`
	Kind string `json:"kind,omitempty"` // what it is ("prompt", "summary", "invite", ...)
	To   string `json:"to"`             // recipient address or URL
	// Payload is the composed message, or the request body: stored once,
	// apart from the row, and filled in by every read of the store's.
	Payload []byte            `json:"payload,omitempty"`
	Meta    map[string]string `json:"meta,omitempty"`
	Created time.Time         `json:"created"`
	// Due is when the next attempt may start.
	Due         time.Time `json:"due"`
	Attempts    int       `json:"attempts,omitzero"`
	LastAttempt time.Time `json:"last_attempt,omitzero"`
	LastError   string    `json:"last_error,omitempty"`
	// State: "pending" while queued; "sent" or "failed" once retired.
	State     string    `json:"state"`
	Finished  time.Time `json:"finished,omitzero"`
	KeepUntil time.Time `json:"keep_until,omitzero"`
}

// ItemForm is the first byte of an item's row in this form (a JSON row
// starts with '{').
const ItemForm = 0x01

// Which optional fields a row holds (the uvarint after ItemForm).
const (
	hasGame = 1 << iota
	hasKind
	hasMeta
	hasCreated
	hasDue
	hasAttempts
	hasLastAttempt
	hasLastError
	hasFinished
	hasKeepUntil
	hasState // a state not in states, kept as a string
)

// states are the states kept as one byte (their index): the store's
// Pending, Sent and Failed.
var states = []string{"pending", "sent", "failed"}

// AppendItem appends it's row to b: ItemForm, the flags of the fields it
// holds, Key, To, the state, the optional strings and Meta (by key), the
// attempts, then the times, each in nanoseconds after Created (Created's
// from 1970). A row of a mail is 140-170 bytes where its JSON was 450-480.
func AppendItem(b []byte, it Item) []byte {
	var flags uint64
	set := func(bit uint64, on bool) {
		if on {
			flags |= bit
		}
	}
	set(hasGame, it.Game != "")
	set(hasKind, it.Kind != "")
	set(hasMeta, len(it.Meta) > 0)
	set(hasCreated, !it.Created.IsZero())
	set(hasDue, !it.Due.IsZero())
	set(hasAttempts, it.Attempts != 0)
	set(hasLastAttempt, !it.LastAttempt.IsZero())
	set(hasLastError, it.LastError != "")
	set(hasFinished, !it.Finished.IsZero())
	set(hasKeepUntil, !it.KeepUntil.IsZero())
	state := slices.Index(states, it.State)
	set(hasState, state < 0)
	b = slices.Grow(b, itemSize(it)) // one allocation a row (issue 24)
	b = binary.AppendUvarint(append(b, ItemForm), flags)
	str := func(bit uint64, s string) {
		if flags&bit == bit {
			b = append(binary.AppendUvarint(b, uint64(len(s))), s...)
		}
	}
	str(0, it.Key)
	str(0, it.To)
	if str(hasState, it.State); state >= 0 {
		b = append(b, byte(state))
	}
	str(hasGame, it.Game)
	str(hasKind, it.Kind)
	str(hasLastError, it.LastError)
	if flags&hasMeta != 0 {
		b = binary.AppendUvarint(b, uint64(len(it.Meta)))
		var keys []string // a mail's one key needs no sort
		if len(it.Meta) > 1 {
			keys = slices.Sorted(maps.Keys(it.Meta))
		}
		for k, v := range it.Meta {
			if keys == nil {
				str(0, k)
				str(0, v)
			}
		}
		for _, k := range keys {
			str(0, k)
			str(0, it.Meta[k])
		}
	}
	if flags&hasAttempts != 0 {
		b = binary.AppendVarint(b, int64(it.Attempts))
	}
	var base int64
	at := func(bit uint64, t time.Time) {
		if flags&bit != 0 {
			b = binary.AppendVarint(b, t.UnixNano()-base)
		}
	}
	at(hasCreated, it.Created)
	if flags&hasCreated != 0 {
		base = it.Created.UnixNano()
	}
	at(hasDue, it.Due)
	at(hasLastAttempt, it.LastAttempt)
	at(hasFinished, it.Finished)
	at(hasKeepUntil, it.KeepUntil)
	return b
}

// itemSize is the room of it's row (AppendItem), allocated at once: its
// strings, each after its length (3 bytes: up to 2 MB), up to 10 bytes a
// number (flags, the count of Meta, attempts, five times), 2 for the form
// and the state.
func itemSize(it Item) int {
	n := 2 + 8*binary.MaxVarintLen64
	for _, s := range []string{it.Key, it.To, it.State, it.Game, it.Kind, it.LastError} {
		n += 3 + len(s)
	}
	for k, v := range it.Meta {
		n += 6 + len(k) + len(v)
	}
	return n
}

// ErrItem: the bytes are not a whole row of AppendItem's.
var ErrItem = errors.New("rowform: not an item row")

// reader reads a row's fields in turn; the first fault sticks.
type reader struct {
	b   []byte
	err error
}

func (r *reader) fail() { r.err, r.b = cmp.Or(r.err, ErrItem), nil }

// next reads a varint of either sign with read.
func next[T uint64 | int64](r *reader, read func([]byte) (T, int)) T {
	v, n := read(r.b)
	if n <= 0 {
		r.fail()
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *reader) uint() uint64 { return next(r, binary.Uvarint) }

func (r *reader) int() int64 { return next(r, binary.Varint) }

func (r *reader) str() string {
	n := r.uint()
	if n > uint64(len(r.b)) {
		r.fail()
		return ""
	}
	s := string(r.b[:n])
	r.b = r.b[n:]
	return s
}

// ParseItem reads a row of AppendItem's (ItemForm first) as the item of
// id. Times read back in UTC, equal to the ones written.
func ParseItem(id uint64, v []byte) (Item, error) {
	it := Item{ID: id}
	if len(v) == 0 || v[0] != ItemForm {
		return it, ErrItem
	}
	r := &reader{b: v[1:]}
	flags := r.uint()
	it.Key, it.To = r.str(), r.str()
	switch {
	case flags&hasState != 0:
		it.State = r.str()
	case len(r.b) > 0 && int(r.b[0]) < len(states):
		it.State, r.b = states[r.b[0]], r.b[1:]
	default:
		r.fail()
	}
	opt := func(bit uint64) string {
		if flags&bit == 0 {
			return ""
		}
		return r.str()
	}
	it.Game, it.Kind, it.LastError = opt(hasGame), opt(hasKind), opt(hasLastError)
	if flags&hasMeta != 0 {
		n := r.uint()
		if n == 0 {
			r.fail() // AppendItem writes no empty Meta
		}
		it.Meta = make(map[string]string, min(n, 16))
		for ; n > 0 && r.err == nil; n-- {
			k := r.str()
			it.Meta[k] = r.str()
		}
	}
	if flags&hasAttempts != 0 {
		it.Attempts = int(r.int())
	}
	var base int64
	at := func(bit uint64) time.Time {
		if flags&bit == 0 {
			return time.Time{}
		}
		return time.Unix(0, base+r.int()).UTC()
	}
	if it.Created = at(hasCreated); flags&hasCreated != 0 {
		base = it.Created.UnixNano()
	}
	it.Due, it.LastAttempt = at(hasDue), at(hasLastAttempt)
	it.Finished, it.KeepUntil = at(hasFinished), at(hasKeepUntil)
	if r.err == nil && len(r.b) > 0 {
		r.fail()
	}
	return it, r.err
}
