package store

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"
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

// PutPlayer stores a player's record.
func (tx *Tx) PutPlayer(addr string, rec []byte) error {
	return tx.b(bPlayers).Put([]byte(lowerASCII(addr)), rec)
}

// Players calls fn for every player.
func (tx *Tx) Players(fn func(addr string, rec []byte) error) error {
	return tx.b(bPlayers).ForEach(func(k, v []byte) error { return fn(string(k), bytes.Clone(v)) })
}

// Token says whom a secret authenticates.
type Token struct {
	Kind    string    `json:"kind"`           // "seat", "player", "org"
	Game    string    `json:"game,omitempty"` // for seat tokens
	Seat    int       `json:"seat"`           // for seat tokens
	Address string    `json:"address"`        // the registered address
	Created time.Time `json:"created"`
}

// Token returns the token record of a secret.
func (tx *Tx) Token(secret string) (Token, error) {
	var t Token
	ok, err := decodeJSON(tx.get(bTokens, []byte(secret)), []byte(secret), &t)
	if err == nil && !ok {
		err = fmt.Errorf("%w: token", ErrNotFound)
	}
	return t, err
}

// PutToken stores a token; it fails with ErrDuplicate if the secret exists.
func (tx *Tx) PutToken(secret string, t Token) error {
	b := tx.b(bTokens)
	if b.Get([]byte(secret)) != nil {
		return ErrDuplicate
	}
	return putJSON(b, []byte(secret), t)
}

// Tokens calls fn for every token.
func (tx *Tx) Tokens(fn func(secret string, t Token) error) error {
	return tx.b(bTokens).ForEach(func(k, v []byte) error {
		var t Token
		if err := json.Unmarshal(v, &t); err != nil {
			return err
		}
		return fn(string(k), t)
	})
}

// DeleteToken removes a token (a replaced player's secret stops working).
func (tx *Tx) DeleteToken(secret string) error { return tx.b(bTokens).Delete([]byte(secret)) }

// ---- rulesets ----

// PutRuleset stores a ruleset data file under its SHA-256 (hex).
func (tx *Tx) PutRuleset(sha string, data []byte) error {
	return tx.b(bRulesets).Put([]byte(sha), data)
}

// Ruleset returns a stored ruleset data file.
func (tx *Tx) Ruleset(sha string) ([]byte, error) {
	// Rulesets are stored under their SHA-256 and never change: a
	// speculation need not record the read.
	v := tx.tx.Bucket(bRulesets).Get([]byte(sha))
	if v == nil {
		return nil, fmt.Errorf("%w: ruleset %s", ErrNotFound, sha)
	}
	return bytes.Clone(v), nil
}
