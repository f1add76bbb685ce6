package store

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/pbem-referee/referee/store/inboundform"
	"github.com/pbem-referee/referee/store/rowform"
)

// The inputs' bookkeeping: which inputs were processed (de-duplication),
// where each mailbox's intake stands, the hand-overs begun, the webhook's
// one-time tokens, the VERP ids a bounce is checked against, and the
// inputs that can never be processed.

// ---- inbound de-duplication ----

// The forms of inbound's keys and records are store/inboundform's.
type InboundRecord = inboundform.Record

var (
	inboundPointer = inboundform.Pointer
	inputKey       = inboundform.InputKey
	shortPrefix    = inboundform.ShortPrefix
	hashedInputKey = inboundform.HashedKey
	shortInputKeys = inboundform.ShortKeys
	shortInputKey  = inboundform.ShortKey
	shortVERPKey   = inboundform.ShortVERPKey
	inputOf        = inboundform.InputOf
	encodeInbound  = inboundform.Encode
	decodeInbound  = inboundform.Decode
	plainJSON      = inboundform.PlainJSON
)

const (
	shortInputLen = inboundform.ShortLen
	inboundZ      = inboundform.Z
)

// InputCluster is the cluster of an input's records in inbound
// (inboundform.Cluster).
func InputCluster(key string) string { return inboundform.Cluster(key) }

// Seen returns the record of an input already processed under any of keys.
func (tx *Tx) Seen(keys ...string) (InboundRecord, bool, error) {
	for _, k := range keys {
		for _, sk := range shortInputKeys(k) {
			if r, ok, err := decodeInbound(tx.followInbound(tx.get(bInbound, sk)), k); err != nil || (ok && slices.Contains(r.Keys, k)) {
				return r, ok, err
			}
		}
		for _, sk := range [][]byte{inputKey(k), []byte(k)} {
			r, ok, err := decodeInbound(tx.get(bInbound, sk), k)
			if err != nil || ok {
				return r, ok, err
			}
		}
	}
	return InboundRecord{}, false, nil
}

// MarkInbound records a processed input under all of rec.Keys. It fails with
// ErrDuplicate if any key is already recorded (and then writes nothing).
func (tx *Tx) MarkInbound(rec InboundRecord) error {
	if len(rec.Keys) == 0 {
		return errors.New("store: inbound record without keys")
	}
	for _, k := range rec.Keys {
		if k == "" || k[0] == 0 {
			return fmt.Errorf("store: inbound key %q: empty or NUL first (the VERP ids' prefix)", k)
		}
	}
	if tx.spec != nil {
		return tx.specOp(func(tx *Tx) error { return tx.MarkInbound(rec) })
	}
	if _, ok, err := tx.Seen(rec.Keys...); err != nil {
		return err
	} else if ok {
		return ErrDuplicate
	}
	b := tx.b(bInbound)
	b.FillPercent = inboundFill
	// Under its first key's short key, with its keys; under each other
	// key's, that short key (inboundPointer) unless inboundform.Unindexed.
	v, err := encodeInbound(rec, "")
	if err != nil {
		return err
	}
	for i, k := range rec.Keys {
		sk := shortInputKey(k)
		if i > 0 && (k == rec.Keys[0] || inboundform.Unindexed(k, rec.Keys)) {
			continue // a pointer to itself would replace the record
		}
		if err := b.Put(sk, v); err != nil {
			return err
		}
		if i == 0 {
			v = sk
		}
	}
	return tx.ride(rec.Keys)
}

// followInbound returns the record a value under an input's short key
// stands for: the value, or the one its pointer names (nil when that is
// gone).
func (tx *Tx) followInbound(v []byte) []byte {
	if inboundPointer(v) {
		return tx.get(bInbound, v)
	}
	return v
}

// PruneInbound deletes records received before t (keep them for as long as
// a duplicate may still arrive; weeks, not minutes). It returns the count.
func (tx *Tx) PruneInbound(before time.Time) (int, error) {
	b := tx.b(bInbound)
	var del [][]byte
	err := b.ForEach(func(k, v []byte) error {
		key, ok := inputOf(k)
		if !ok {
			return nil // a VERP id (verpKey)
		}
		if inboundPointer(v) { // goes with its record, or alone without it
			if v = b.Get(v); v == nil {
				del = append(del, bytes.Clone(k))
				return nil
			}
		}
		if r, _, err := decodeInbound(v, key); err == nil && r.Received.Before(before) {
			del = append(del, bytes.Clone(k))
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	for _, k := range del {
		if err := b.Delete(k); err != nil {
			return 0, err
		}
	}
	return len(del), nil
}

// ---- IMAP cursors ----

// Cursor is the intake position in one mailbox.
type Cursor struct {
	UIDValidity uint32 `json:"uidvalidity"`
	LastUID     uint32 `json:"last_uid"`
	// Armed is the hand-overs of the first message after LastUID presumed
	// begun: the IMAP watcher writes 1 with the cursor it moves in the
	// commit of a message, so that the next hand-over needs no commit of
	// its own (an intake attempt on record, see BeginAttemptFrom).
	Armed int `json:"armed,omitempty"`
}

// Cursor returns the position in a mailbox (zero if none yet).
func (tx *Tx) Cursor(mailbox string) (Cursor, error) {
	var c Cursor
	_, err := getJSON(tx.b(bCursors), []byte(mailbox), &c)
	return c, err
}

// PutCursor stores the position in a mailbox.
func (tx *Tx) PutCursor(mailbox string, c Cursor) error {
	return putJSON(tx.b(bCursors), []byte(mailbox), c)
}

// ---- intake attempts ----

// The attempts of one mailbox in one row (2026-12-07, issue 24, no schema
// change; doc.go, "A mail's rows"): a key <stem>/<n> is kept in its
// stem's row, attemptGroup + the stem -> rowform.Attempts; any other key
// whole (key -> 8-byte big-endian count), as every key of an older store.
const attemptGroup = 0

// setAttempts writes key's count (0: forgets it) in its stem's row, or
// whole.
func (tx *Tx) setAttempts(key string, count int) error {
	b := tx.b(bAttempts)
	stem, n, ok := rowform.Split(key)
	if !ok {
		if count == 0 {
			return b.Delete([]byte(key))
		}
		return b.Put([]byte(key), u64(uint64(count)))
	}
	if err := b.Delete([]byte(key)); err != nil { // an older store's
		return err
	}
	rk := append([]byte{attemptGroup}, stem...)
	a := rowform.ParseAttempts(b.Get(rk))
	switch {
	case !a.Set(n, count):
		return nil
	case len(a.Nums) == 0:
		return b.Delete(rk)
	}
	return b.Put(rk, rowform.AppendAttempts(nil, a))
}

// BeginAttempt records that a transport is about to hand over the input
// with this key (for example an IMAP message) and returns how many times it
// has done so without EndAttempt: an input that kills the process is seen
// again after the restart with a higher count, so that the transport can
// quarantine it instead of dying on it forever. A key must not start with
// NUL.
func (tx *Tx) BeginAttempt(key string) (int, error) { return tx.BeginAttemptFrom(key, 0) }

// BeginAttemptFrom is BeginAttempt for an input already presumed begun
// floor times (Cursor.Armed): the count becomes max(recorded, floor) + 1.
func (tx *Tx) BeginAttemptFrom(key string, floor int) (int, error) {
	if key == "" || key[0] == attemptGroup {
		return 0, fmt.Errorf("store: attempt key %q: empty or NUL first", key)
	}
	n := max(tx.AttemptCount(key), floor) + 1
	return n, tx.setAttempts(key, n)
}

// EndAttempt forgets the attempts of an input that was handled (or
// quarantined).
func (tx *Tx) EndAttempt(key string) error {
	if key == "" || key[0] == attemptGroup {
		return nil
	}
	return tx.setAttempts(key, 0)
}

// AttemptCount returns the attempts recorded for an input.
func (tx *Tx) AttemptCount(key string) int {
	b := tx.b(bAttempts)
	if key == "" || key[0] == attemptGroup {
		return 0
	}
	if stem, n, ok := rowform.Split(key); ok {
		if c := rowform.ParseAttempts(b.Get(append([]byte{attemptGroup}, stem...))).Count(n); c > 0 {
			return c
		}
	}
	if v := b.Get([]byte(key)); len(v) == 8 {
		return int(binary.BigEndian.Uint64(v))
	}
	return 0
}

// AttemptKeys returns the keys of the inputs with attempts recorded whose
// key begins with prefix, in order (a transport's own, after a restart:
// imapin takes back the presumptions of a dead process for inputs that
// never come).
func (tx *Tx) AttemptKeys(prefix string) []string {
	var keys []string
	c := tx.b(bAttempts).Cursor()
	for k, v := c.Seek([]byte{attemptGroup}); len(k) > 0 && k[0] == attemptGroup; k, v = c.Next() {
		stem := string(k[1:])
		if !strings.HasPrefix(stem, prefix) && !strings.HasPrefix(prefix, stem) {
			continue
		}
		for _, n := range rowform.ParseAttempts(v).Nums {
			if key := rowform.Join(stem, n); strings.HasPrefix(key, prefix) {
				keys = append(keys, key)
			}
		}
	}
	for k, _ := c.Seek([]byte(prefix)); k != nil && bytes.HasPrefix(k, []byte(prefix)); k, _ = c.Next() {
		if k[0] != attemptGroup {
			keys = append(keys, string(k))
		}
	}
	slices.Sort(keys)
	return slices.Compact(keys)
}

// ---- webhook replay tokens ----

// UseReplayToken records a one-time token (a webhook signature's nonce)
// with a value (the Message-ID it came with) until expires. fresh reports
// whether it was new; otherwise prev is the value it was first recorded
// with. Expired tokens are pruned by PruneReplay.
func (tx *Tx) UseReplayToken(token, value string, expires time.Time) (prev string, fresh bool, err error) {
	b := tx.b(bReplay)
	if v := b.Get([]byte(token)); len(v) >= 8 {
		return string(v[8:]), false, nil
	}
	rec := append(u64(uint64(expires.UnixNano())), value...)
	return "", true, b.Put([]byte(token), rec)
}

// PruneReplay deletes the replay tokens expired at now and returns how many.
func (tx *Tx) PruneReplay(now time.Time) (int, error) {
	b := tx.b(bReplay)
	var dead [][]byte
	err := b.ForEach(func(k, v []byte) error {
		if len(v) >= 8 && int64(binary.BigEndian.Uint64(v[:8])) <= now.UnixNano() {
			dead = append(dead, append([]byte(nil), k...))
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	for _, k := range dead {
		if err := b.Delete(k); err != nil {
			return 0, err
		}
	}
	return len(dead), nil
}

// ---- VERP bounce ids ----

// VERPRecord is the outbox mail a VERP bounce id names.
type VERPRecord struct {
	To   string    `json:"to"`
	Key  string    `json:"key"`
	Sent time.Time `json:"sent"`
	// Game is the game the mail is about, kept as the writer knew it so
	// that an answer through the id reads it without parsing Key back
	// (issue 25). Optional: "" for a mail of no game, and in a record
	// written before the field (there the game is the one Key, a
	// referee's Message-ID, names).
	Game string `json:"game,omitempty"`
}

// PutVERP records the bounce id of an outgoing mail (the id in its
// envelope sender), so that a bounce can be checked against the mail it
// claims to return.
func (tx *Tx) PutVERP(id string, rec VERPRecord) error {
	if tx.spec != nil {
		return tx.specOp(func(tx *Tx) error { return tx.PutVERP(id, rec) })
	}
	rec.To = lowerASCII(rec.To)
	raw, err := plainJSON(rec)
	if err != nil {
		return err
	}
	b := tx.b(bInbound)
	b.FillPercent = inboundFill
	if k := shortVERPKey(id); k != nil {
		return b.Put(k, raw)
	}
	return b.Put(verpKey(id), raw)
}

// inboundFill is inbound's fill of a leaf that splits: bbolt's default,
// halves (2026-12-07, issue 25). Its keys are digests: records arrive at
// random places, and nodes split full were split again by the next record
// in their range, leaving branches of 8 children where a page holds 29.
const inboundFill = 0.5

// SecretKey returns the store's secret key of a name (meta "secret:" +
// name), n bytes read from random and kept on its first use (the store
// reads no randomness of its own: the caller brings it). The referee's
// VERP ids end with a MAC under such a key (doc.go, "Key layout").
func (db *DB) SecretKey(name string, n int, random io.Reader) ([]byte, error) {
	k := []byte("secret:" + name)
	var key []byte
	if err := db.View(func(tx *Tx) error { key = bytes.Clone(tx.b(bMeta).Get(k)); return nil }); err != nil || key != nil {
		return key, err
	}
	err := db.Update(func(tx *Tx) error {
		m := tx.b(bMeta)
		if key = bytes.Clone(m.Get(k)); key != nil {
			return nil // made meanwhile
		}
		key = make([]byte, max(n, 16))
		if _, err := io.ReadFull(random, key); err != nil {
			return err
		}
		return m.Put(k, key)
	})
	return key, err
}

// VERP returns the outgoing mail of a bounce id.
func (tx *Tx) VERP(id string) (VERPRecord, bool, error) {
	var rec VERPRecord
	b := tx.b(bInbound)
	if k := shortVERPKey(id); k != nil {
		if ok, err := getJSON(b, k, &rec); ok || err != nil {
			return rec, ok, err
		}
	}
	ok, err := getJSON(b, verpKey(id), &rec)
	return rec, ok, err
}

// PruneVERP deletes the bounce ids of mails sent before a time.
func (tx *Tx) PruneVERP(before time.Time) (int, error) {
	b := tx.b(bInbound)
	var dead [][]byte
	c := b.Cursor()
	for _, prefix := range [][]byte{verpPrefix, shortPrefix} {
		for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
			if _, input := inputOf(k); input {
				continue // an input's record, next to its mails' ids
			}
			var rec VERPRecord
			if json.Unmarshal(v, &rec) != nil || rec.Sent.Before(before) {
				dead = append(dead, bytes.Clone(k))
			}
		}
	}
	for _, k := range dead {
		if err := b.Delete(k); err != nil {
			return 0, err
		}
	}
	return len(dead), nil
}

// ---- quarantine ----

// Quarantined is an input that can never be processed (unparseable mail
// from a webhook, which has no quarantine folder of its own), kept for the
// operator with the reason.
type Quarantined struct {
	ID     uint64    `json:"id"`
	At     time.Time `json:"at"`
	Source string    `json:"source"`
	Reason string    `json:"reason"`
	// Raw is the input, cut at MaxQuarantined bytes.
	Raw       []byte `json:"raw"`
	Truncated bool   `json:"truncated,omitempty"`
}

// MaxQuarantined is the most bytes of an input kept in quarantine.
const MaxQuarantined = 1 << 20

// Quarantine keeps an input that can never be processed.
func (tx *Tx) Quarantine(q Quarantined) (uint64, error) {
	b := tx.b(bQuar)
	id, err := b.NextSequence()
	if err != nil {
		return 0, err
	}
	q.ID = id
	if len(q.Raw) > MaxQuarantined {
		q.Raw, q.Truncated = q.Raw[:MaxQuarantined], true
	}
	return id, putJSON(b, u64(id), q)
}

// Quarantined calls fn for every quarantined input, oldest first.
func (tx *Tx) Quarantined(fn func(Quarantined) error) error {
	return tx.b(bQuar).ForEach(func(_, v []byte) error {
		var q Quarantined
		if err := json.Unmarshal(v, &q); err != nil {
			return err
		}
		return fn(q)
	})
}
