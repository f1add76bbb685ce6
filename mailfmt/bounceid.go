package mailfmt

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"time"
)

// BounceID is the id of a mail's bounce tag ("bounce.<id>", its VERP
// envelope sender) for a mail sent at a time: 10 hex digits of the unix
// second it was sent, so that the ids of a move land next to the previous
// ones in the store (issue 25; store/doc.go, "Key layout"), then 16 hex
// digits of an HMAC-SHA256 of its Message-ID under the sender's secret
// key, so that nobody who has not seen the mail can name it: a bounce or
// an auto-reply to a VERP id is believed for the address the mail was
// sent to (issue 11, item 6), with no other secret. The ids made before
// 2026-12-06 (16 hex digits: the start of the SHA-256 of the Message-ID,
// which anyone who guesses the Message-ID can compute) stay valid where
// they are kept: a bounce id is looked up whole.
func BounceID(key []byte, messageID string, sent time.Time) string {
	m := hmac.New(sha256.New, key)
	m.Write([]byte(messageID))
	return fmt.Sprintf("%010x", uint64(max(0, sent.Unix()))&(1<<40-1)) + hex.EncodeToString(m.Sum(nil)[:8])
}
