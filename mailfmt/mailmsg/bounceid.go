package mailmsg

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"time"
)

// BounceID is the id of a mail's bounce tag ("bounce.<id>", its VERP
// envelope sender): an ordered part, then 16 hex digits of an HMAC-SHA256
// of its Message-ID under the sender's secret key, so that nobody who has
// not seen the mail can name it: a bounce or an auto-reply to a VERP id is
// believed for the address the mail was sent to (issue 11, item 6), with
// no other secret. The ordered part places the id in the store next to
// what the same transaction writes (issue 25; store/doc.go, "Key
// layout"): cluster, the 16 hex digits of the input that queued the mail
// (store.InputCluster), or when there is none 10 hex digits of the unix
// second the mail was sent. The ids made before 2026-12-06 (16 hex digits:
// the start of the SHA-256 of the Message-ID, which anyone who guesses the
// Message-ID can compute) stay valid where they are kept: an id is looked
// up whole.
func BounceID(key []byte, cluster, messageID string, sent time.Time) string {
	if cluster == "" {
		cluster = fmt.Sprintf("%010x", uint64(max(0, sent.Unix()))&(1<<40-1))
	}
	m := hmac.New(sha256.New, key)
	m.Write([]byte(messageID))
	return cluster + hex.EncodeToString(m.Sum(nil)[:8])
}
