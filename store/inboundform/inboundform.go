// Package inboundform holds the forms of the keys and records of the
// store's inbound bucket (store/doc.go, "Key layout"): an input's record
// and its encoding (Record, Encode, Decode), the short keys it is kept
// under (ShortKeys, HashedKey, Pointer), the older keys still read
// (InputKey, InputOf), which keys get no pointer (Unindexed) and a VERP
// id's short key (ShortVERPKey). It owns
// those byte layouts, pure functions over bytes. It must not know bbolt
// nor read or write the store: which key is written when, and what an
// older store holds, are store/'s (intake.go). Moved out of store/intake.go, unchanged, to keep
// the store package under 5,000 lines (issue 25).
package inboundform

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/pbem-referee/referee/store/codec"
	"github.com/pbem-referee/referee/store/rowform"
)

// VERPPrefix starts the key of a VERP id kept whole and of an input's
// record of 2026-12-06 (store/flatlog.go): inbound's de-duplication keys
// never start with NUL.
var VERPPrefix = []byte{0, 'v', ':'}

// Record remembers one processed input.
type Record struct {
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

// Pointer reports whether v, a value under an input's short key, is
// the short key of the input's first key (store/doc.go, "Key layout": an input
// recorded once, 2026-12-07) rather than a record ('{' or Z first).
func Pointer(v []byte) bool {
	return len(v) == ShortLen && bytes.HasPrefix(v, ShortPrefix)
}

// Cluster is the cluster of an input's records in inbound (store/doc.go,
// "Key layout"): 16 hex digits of the SHA-256 of its key. The records of
// an input with that key and the VERP ids that start with its cluster
// (mailmsg.BounceID of the mails it queued) sort together: one leaf of
// inbound for a move, not one for its record and one for each mail's id.
func Cluster(key string) string {
	sum := sha256.Sum256([]byte(key))
	return hex.EncodeToString(sum[:8])
}

// Mark follows an input's cluster in the key of its record: not a
// character of a VERP id ([a-z0-9]).
const Mark = '~'

// InputKey is where an input's record is kept from 2026-12-06: VERPPrefix,
// its cluster, Mark and its key. Before, it was kept under its key
// alone (Seen reads both; a key never starts with NUL).
func InputKey(key string) []byte {
	k := make([]byte, 0, len(VERPPrefix)+16+1+len(key))
	k = append(append(k, VERPPrefix...), Cluster(key)...)
	return append(append(k, Mark), key...)
}

// The short keys of inbound (2026-12-07, issue 25, no schema change;
// doc.go, "Key layout"): an input's record under ShortPrefix + the first
// 8 bytes of the SHA-256 of its key + 0x00 + the next 8 (ShortKey),
// its keys in the record; a VERP id under ShortPrefix + its bytes
// (ShortVERPKey). A record under a short key that does not hold the key
// looked up is a digest's collision, not the input (2^-128).
var ShortPrefix = []byte{0, 'w'}

// ShortLen is the length of an input's short key; a VERP id's is
// never of it.
const ShortLen = 2 + 8 + 1 + 8

// HashedKey is the short key of an input's record by the digest of
// its key.
func HashedKey(key string) []byte {
	sum := sha256.Sum256([]byte(key))
	k := make([]byte, 0, ShortLen)
	k = append(append(k, ShortPrefix...), sum[:8]...)
	return append(append(k, 0), sum[8:16]...)
}

// Numbered follows the digest of a numbered key's stem in its short
// key (where HashedKey has 0x00).
const Numbered = 1

// ShortKeys returns the short keys an input's key may be under, the
// one MarkInbound writes first. A key <stem>/<n> (rowform.Split: an IMAP
// message's, "imap:<account>/<mailbox>/<uidvalidity>/<uid>") is under
// ShortPrefix + the first 8 bytes of the SHA-256 of its stem +
// Numbered + n (8 bytes big-endian) from 2026-12-07: a mailbox's
// inputs in UID order, one leaf for the inputs of a commit and the next;
// before, and any other key, under HashedKey (issue 24).
func ShortKeys(key string) [][]byte {
	h := HashedKey(key)
	stem, n, ok := rowform.Split(key)
	if !ok {
		return [][]byte{h}
	}
	sum := sha256.Sum256([]byte(stem))
	k := make([]byte, 0, ShortLen)
	k = append(append(append(k, ShortPrefix...), sum[:8]...), Numbered)
	return [][]byte{binary.BigEndian.AppendUint64(k, n), h}
}

// ShortKey is the short key MarkInbound writes an input's key under.
func ShortKey(key string) []byte { return ShortKeys(key)[0] }

// Unindexed reports whether an input of these keys is recorded under key
// neither whole nor by a pointer (store/doc.go, "Key layout"; issue 24,
// 2026-12-07): key is numbered (rowform.Split: a mailbox's message,
// "imap:<account>/<mailbox>/<uidvalidity>/<uid>") and the input has a
// key that is not (its Message-ID). Then a player's mail writes one
// place of inbound, its record (and the VERP ids of its replies, in its
// cluster), where the pointer under its UID wrote a second leaf and the
// branches above it, in another part of the tree.
//
// Nothing is lost or applied twice: a UID names one message, whose
// bytes never change, and its Message-ID key (the header's, or a digest
// of its header and bytes, mailmsg.Parse) names it at any UID, after a
// UIDVALIDITY change, in any mailbox and through a webhook; every
// caller of Seen passes all the keys of an input, so a copy is found by
// its Message-ID. Seen of such a UID alone finds nothing. An input with
// numbered keys only (an IMAP message set aside by its UID) keeps a
// pointer under each, as before. A referee built before reads this
// form: it looks an input up by all its keys too.
func Unindexed(key string, keys []string) bool {
	if _, _, ok := rowform.Split(key); !ok {
		return false
	}
	for _, k := range keys {
		if _, _, ok := rowform.Split(k); !ok {
			return true
		}
	}
	return false
}

// ShortVERPKey is the short key of a VERP id: the id's bytes when it is
// lower-case hex of an even length (an id of mailmsg.BounceID: 32 digits,
// or 26 for a mail of no input), else nil (kept under verpKey).
func ShortVERPKey(id string) []byte {
	if len(id)%2 != 0 || len(id) == 0 || 2+len(id)/2 == ShortLen || strings.ToLower(id) != id {
		return nil
	}
	raw, err := hex.DecodeString(id)
	if err != nil {
		return nil
	}
	return append(bytes.Clone(ShortPrefix), raw...)
}

// InputOf returns the input key a key of inbound holds a record of
// (either form), false for a VERP id.
func InputOf(k []byte) (string, bool) {
	if len(k) == 0 || k[0] != 0 {
		return string(k), len(k) > 0
	}
	if bytes.HasPrefix(k, ShortPrefix) {
		// A short key: an input's when of its length (its record holds
		// its keys), else a VERP id's.
		return "", len(k) == ShortLen
	}
	n := len(VERPPrefix) + 16
	if len(k) > n && k[n] == Mark && bytes.HasPrefix(k, VERPPrefix) {
		return string(k[n+1:]), true
	}
	return "", false
}

// Z starts an inbound record kept compressed (store/codec); a
// record kept whole is JSON and starts with '{'.
const Z = 0x01

// Encode is the stored form of an input's record under one of its
// keys (store/doc.go, "Key layout"): JSON without HTML escapes, without the keys
// when the record has that key alone, compressed when that is smaller. A
// record of an older store is JSON with every key, and reads as before.
func Encode(rec Record, key string) ([]byte, error) {
	if len(rec.Keys) == 1 && rec.Keys[0] == key {
		rec.Keys = nil
	}
	raw, err := PlainJSON(rec)
	if err != nil {
		return nil, err
	}
	if z := codec.Compress([]byte{Z}, raw); z != nil {
		return z, nil
	}
	return raw, nil
}

// Decode reads a record stored by Encode or by an older
// store (JSON with its keys).
func Decode(v []byte, key string) (Record, bool, error) {
	var r Record
	if v == nil {
		return r, false, nil
	}
	if v[0] == Z {
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

// PlainJSON is v's JSON without HTML escapes (angle brackets of a
// Message-ID kept as they are, not six bytes each).
func PlainJSON(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}
