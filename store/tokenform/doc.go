// Package tokenform holds the form of the store's token record: who a
// secret authenticates (Token: its kind, game, seat, address, creation)
// and its bytes, which are encoding/json's, written without reflection
// when no string needs escaping (Encode; issue 24: a round of 5,000 games
// makes 10,000 seat tokens).
//
// It owns that type and its encoding. It must not know a bucket, a key
// or bbolt, nor read or write the store: where a token is kept and which
// kinds are indexed are store/'s (store/doc.go "tokens", players.go).
package tokenform
