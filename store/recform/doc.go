// Package recform holds the forms of the few records the store itself
// defines (the others are its callers' bytes): who a secret
// authenticates (Token) and its bytes, which are encoding/json's written
// without reflection when no string needs escaping (Encode; issue 24: a
// round of 5,000 games makes 10,000 seat tokens), and what the game
// indexes know of a game (GameIndex, games.head's JSON).
//
// It owns those types and their encoding. It must not know a bucket, a
// key or bbolt, nor read or write the store: where a record is kept,
// which tokens are indexed by kind and which index keys a game has are
// store/'s (store/doc.go, players.go, gameindex.go).
package recform
