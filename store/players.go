package store

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/pbem-referee/referee/store/recform"
)

// The players' records, the secrets that authenticate them, and the
// ruleset data files.

// ---- players and tokens ----

// Player returns a player's record by address (case-insensitive).
func (tx *Tx) Player(addr string) ([]byte, error) {
	v := tx.get(bPlayers, []byte(lowerASCII(addr)))
	if v == nil {
		return nil, fmt.Errorf("%w: player %q", ErrNotFound, addr)
	}
	return bytes.Clone(v), nil
}

// PlayerIs reports whether a player's record (by address,
// case-insensitive) is rec, byte for byte, without a copy of it: a cache
// of decoded records checks itself (issue 24: a tournament's entrant is
// read for the seat, then for the round mail's reply address).
func (tx *Tx) PlayerIs(addr string, rec []byte) bool {
	v := tx.get(bPlayers, []byte(lowerASCII(addr)))
	return v != nil && bytes.Equal(v, rec)
}

// PutPlayer stores a player's record.
func (tx *Tx) PutPlayer(addr string, rec []byte) error {
	return tx.b(bPlayers).Put([]byte(lowerASCII(addr)), rec)
}

// Players calls fn for every player.
func (tx *Tx) Players(fn func(addr string, rec []byte) error) error {
	return tx.b(bPlayers).ForEach(func(k, v []byte) error { return fn(string(k), bytes.Clone(v)) })
}

// Token says whom a secret authenticates (its form: store/recform).
type Token = recform.Token

// Token returns the token record of a secret.
func (tx *Tx) Token(secret string) (Token, error) {
	var t Token
	if secret == "" || secret[0] == 0 {
		return t, fmt.Errorf("%w: token", ErrNotFound) // not a secret: the index's prefix
	}
	ok, err := decodeJSON(tx.get(bTokens, []byte(secret)), []byte(secret), &t)
	if err == nil && !ok {
		err = fmt.Errorf("%w: token", ErrNotFound)
	}
	return t, err
}

// PutToken stores a token; it fails with ErrDuplicate if the secret exists.
func (tx *Tx) PutToken(secret string, t Token) error {
	if secret == "" || secret[0] == 0 || strings.IndexByte(t.Kind, 0) >= 0 {
		return fmt.Errorf("store: token secret %q of kind %q: empty, or NUL where the index has it", secret, t.Kind)
	}
	b := tx.b(bTokens)
	key := []byte(secret)
	if tx.get1(b, key) != nil {
		return ErrDuplicate
	}
	if t.Kind != unindexedKind {
		if err := b.Put(tokenKindKey(t.Kind, secret), nil); err != nil {
			return err
		}
	}
	raw, err := t.Encode()
	if err != nil {
		return err
	}
	return b.Put(key, raw)
}

// Tokens calls fn for every token.
func (tx *Tx) Tokens(fn func(secret string, t Token) error) error {
	return tx.b(bTokens).ForEach(func(k, v []byte) error {
		if k[0] == 0 {
			return nil // the index by kind
		}
		var t Token
		if err := json.Unmarshal(v, &t); err != nil {
			return err
		}
		return fn(string(k), t)
	})
}

// unindexedKind is the kind of token not in the index by kind: the seats'
// (two a two-player game; issue 24: their index keys were 10,000 of a
// round of 5,000 games' puts, each a leaf of its own), which nobody asks
// for by kind. TokensOf reads every token for it (an older store's index
// keys of seats stay, unread; DeleteToken deletes them).
const unindexedKind = "seat"

// TokensOf calls fn for every token of a kind, reading those only (the
// index by kind, schema 9): the few organisers' tokens are found without
// reading every seat's.
func (tx *Tx) TokensOf(kind string, fn func(secret string, t Token) error) error {
	if kind == unindexedKind {
		return tx.Tokens(func(secret string, t Token) error {
			if t.Kind != kind {
				return nil
			}
			return fn(secret, t)
		})
	}
	b := tx.b(bTokens)
	prefix := tokenKindKey(kind, "")
	c := b.Cursor()
	for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
		secret := k[len(prefix):]
		var t Token
		ok, err := getJSON(b, secret, &t)
		if err != nil {
			return err
		}
		if !ok {
			return fmt.Errorf("store: token index names a secret that is not there (kind %q)", kind)
		}
		if err := fn(string(secret), t); err != nil {
			return err
		}
	}
	return nil
}

// DeleteToken removes a token (a replaced player's secret stops working).
func (tx *Tx) DeleteToken(secret string) error {
	if secret == "" || secret[0] == 0 {
		return nil
	}
	b := tx.b(bTokens)
	var t Token
	if ok, err := getJSON(b, []byte(secret), &t); err != nil || !ok {
		return err
	}
	if err := b.Delete(tokenKindKey(t.Kind, secret)); err != nil {
		return err
	}
	return b.Delete([]byte(secret))
}

// ---- rulesets ----

// PutRuleset stores a ruleset data file under its SHA-256 (hex).
func (tx *Tx) PutRuleset(sha string, data []byte) error {
	return tx.b(bRulesets).Put([]byte(sha), data)
}

// Ruleset returns a stored ruleset data file.
func (tx *Tx) Ruleset(sha string) ([]byte, error) {
	// Rulesets are stored under their SHA-256 and never change: a
	// speculation need not record the read.
	v := tx.bucket(bRulesets).Get([]byte(sha))
	if v == nil {
		return nil, fmt.Errorf("%w: ruleset %s", ErrNotFound, sha)
	}
	return bytes.Clone(v), nil
}
