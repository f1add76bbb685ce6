package store

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/pbem-referee/referee/store/codec"
	"github.com/pbem-referee/referee/store/rowform"
)

// The inputs' bookkeeping: which inputs were processed (de-duplication),
// where each mailbox's intake stands, the hand-overs begun, the webhook's
// one-time tokens, the VERP ids a bounce is checked against, and the
// inputs that can never be processed.

// ---- inbound de-duplication ----

// InboundRecord remembers one processed input.
type InboundRecord struct {
	Keys     []string  `json:"keys"`               // every de-duplication key of the input
	Received time.Time `json:"received"`           // when it was processed
	Source   string    `json:"source,omitempty"`   // "imap", "webhook:mailgun", ...
	From     string    `json:"from,omitempty"`     // sender address
	Game     string    `json:"game,omitempty"`     // the game it concerned
	Seat     int       `json:"seat"`               // the seat, -1 if none
	Outcome  string    `json:"outcome"`            // "applied", "rejected", "ignored:<why>"...
	Detail   string    `json:"detail,omitempty"`   // a short explanation for the operator
	LogSeq   uint64    `json:"log_seq,omitempty"`  // the log entry that recorded it
	Messages []string  `json:"messages,omitempty"` // Message-IDs of the replies queued
}

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
	// Under its first key's short key, with its keys (the key is not in
	// the key); under each other key's, that short key (inboundPointer).
	v, err := encodeInbound(rec, "")
	if err != nil {
		return err
	}
	for i, k := range rec.Keys {
		sk := shortInputKey(k)
		if i > 0 && k == rec.Keys[0] {
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

// inboundPointer reports whether v, a value under an input's short key, is
// the short key of the input's first key (doc.go, "Key layout": an input
// recorded once, 2026-12-07) rather than a record ('{' or inboundZ first).
func inboundPointer(v []byte) bool {
	return len(v) == shortInputLen && bytes.HasPrefix(v, shortPrefix)
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

// InputCluster is the cluster of an input's records in inbound (doc.go,
// "Key layout"): 16 hex digits of the SHA-256 of its key. The records of
// an input with that key and the VERP ids that start with its cluster
// (mailmsg.BounceID of the mails it queued) sort together: one leaf of
// inbound for a move, not one for its record and one for each mail's id.
func InputCluster(key string) string {
	sum := sha256.Sum256([]byte(key))
	return hex.EncodeToString(sum[:8])
}

// inputMark follows an input's cluster in the key of its record: not a
// character of a VERP id ([a-z0-9]).
const inputMark = '~'

// inputKey is where an input's record is kept from 2026-12-06: verpPrefix,
// its cluster, inputMark and its key. Before, it was kept under its key
// alone (Seen reads both; a key never starts with NUL).
func inputKey(key string) []byte {
	k := make([]byte, 0, len(verpPrefix)+16+1+len(key))
	k = append(append(k, verpPrefix...), InputCluster(key)...)
	return append(append(k, inputMark), key...)
}

// The short keys of inbound (2026-12-07, issue 25, no schema change;
// doc.go, "Key layout"): an input's record under shortPrefix + the first
// 8 bytes of the SHA-256 of its key + 0x00 + the next 8 (shortInputKey),
// its keys in the record; a VERP id under shortPrefix + its bytes
// (shortVERPKey). A record under a short key that does not hold the key
// looked up is a digest's collision, not the input (2^-128).
var shortPrefix = []byte{0, 'w'}

// shortInputLen is the length of an input's short key; a VERP id's is
// never of it.
const shortInputLen = 2 + 8 + 1 + 8

// hashedInputKey is the short key of an input's record by the digest of
// its key.
func hashedInputKey(key string) []byte {
	sum := sha256.Sum256([]byte(key))
	k := make([]byte, 0, shortInputLen)
	k = append(append(k, shortPrefix...), sum[:8]...)
	return append(append(k, 0), sum[8:16]...)
}

// inputNumbered follows the digest of a numbered key's stem in its short
// key (where hashedInputKey has 0x00).
const inputNumbered = 1

// shortInputKeys returns the short keys an input's key may be under, the
// one MarkInbound writes first. A key <stem>/<n> (rowform.Split: an IMAP
// message's, "imap:<account>/<mailbox>/<uidvalidity>/<uid>") is under
// shortPrefix + the first 8 bytes of the SHA-256 of its stem +
// inputNumbered + n (8 bytes big-endian) from 2026-12-07: a mailbox's
// inputs in UID order, one leaf for the inputs of a commit and the next;
// before, and any other key, under hashedInputKey (issue 24).
func shortInputKeys(key string) [][]byte {
	h := hashedInputKey(key)
	stem, n, ok := rowform.Split(key)
	if !ok {
		return [][]byte{h}
	}
	sum := sha256.Sum256([]byte(stem))
	k := make([]byte, 0, shortInputLen)
	k = append(append(append(k, shortPrefix...), sum[:8]...), inputNumbered)
	return [][]byte{binary.BigEndian.AppendUint64(k, n), h}
}

// shortInputKey is the short key MarkInbound writes an input's key under.
func shortInputKey(key string) []byte { return shortInputKeys(key)[0] }

// shortVERPKey is the short key of a VERP id: the id's bytes when it is
// lower-case hex of an even length (an id of mailmsg.BounceID: 32 digits,
// or 26 for a mail of no input), else nil (kept under verpKey).
func shortVERPKey(id string) []byte {
	if len(id)%2 != 0 || len(id) == 0 || 2+len(id)/2 == shortInputLen || strings.ToLower(id) != id {
		return nil
	}
	raw, err := hex.DecodeString(id)
	if err != nil {
		return nil
	}
	return append(bytes.Clone(shortPrefix), raw...)
}

// inputOf returns the input key a key of inbound holds a record of
// (either form), false for a VERP id.
func inputOf(k []byte) (string, bool) {
	if len(k) == 0 || k[0] != 0 {
		return string(k), len(k) > 0
	}
	if bytes.HasPrefix(k, shortPrefix) {
		// A short key: an input's when of its length (its record holds
		// its keys), else a VERP id's.
		return "", len(k) == shortInputLen
	}
	n := len(verpPrefix) + 16
	if len(k) > n && k[n] == inputMark && bytes.HasPrefix(k, verpPrefix) {
		return string(k[n+1:]), true
	}
	return "", false
}

// inboundZ starts an inbound record kept compressed (store/codec); a
// record kept whole is JSON and starts with '{'.
const inboundZ = 0x01

// encodeInbound is the stored form of an input's record under one of its
// keys (doc.go, "Key layout"): JSON without HTML escapes, without the keys
// when the record has that key alone, compressed when that is smaller. A
// record of an older store is JSON with every key, and reads as before.
func encodeInbound(rec InboundRecord, key string) ([]byte, error) {
	if len(rec.Keys) == 1 && rec.Keys[0] == key {
		rec.Keys = nil
	}
	raw, err := plainJSON(rec)
	if err != nil {
		return nil, err
	}
	if z := codec.Compress([]byte{inboundZ}, raw); z != nil {
		return z, nil
	}
	return raw, nil
}

// decodeInbound reads a record stored by encodeInbound or by an older
// store (JSON with its keys).
func decodeInbound(v []byte, key string) (InboundRecord, bool, error) {
	var r InboundRecord
	if v == nil {
		return r, false, nil
	}
	if v[0] == inboundZ {
		var err error
		if v, err = codec.Decompress(v[1:]); err != nil {
			return r, true, fmt.Errorf("store: decode %q: %w", key, err)
		}
	}
	if err := json.Unmarshal(v, &r); err != nil {
		return r, true, fmt.Errorf("store: decode %q: %w", key, err)
	}
	if len(r.Keys) == 0 {
		r.Keys = []string{key}
	}
	return r, true, nil
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

// plainJSON is v's JSON without HTML escapes (angle brackets of a
// Message-ID kept as they are, not six bytes each).
func plainJSON(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
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
