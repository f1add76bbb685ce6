package outcome

import (
	"github.com/pbem-referee/referee/mailfmt"
	"github.com/pbem-referee/referee/mailfmt/mailmsg"
)

// What the mail-in edge (referee/edge/mailin) hands the core for a mail
// that is no request: a bounce, an auto-reply, or a mail set aside (the
// referee's own, a list's, too large, unparseable). The core answers each
// with an Outcome (referee.Referee.Bounced, AutoReplied, SetAside).

// Bounce is a delivery status report that came back.
type Bounce struct {
	// Keys are the de-duplication keys (with "msgid:<Message-ID>"), Source
	// the transport.
	Keys   []string
	Source string
	// Info is what the report says (nil when unreadable).
	Info *mailfmt.BounceInfo
}

// AutoReply is an automatic answer (out of office, a responder).
type AutoReply struct {
	Keys   []string
	Source string
	// From is the sender; Tag the referee tag the answer carries (in the
	// address it was sent to, or its references), if any.
	From string
	Tag  mailmsg.Tag
	// Class is mailfmt.Classify's verdict (OutOfOffice, the return date).
	Class mailfmt.Classification
}

// Why a mail is set aside (SetAside.Reason).
const (
	// AsideIgnored: never answered (the referee's own mail looping back, a
	// mailing list's); only the de-duplication record is kept.
	AsideIgnored = "ignored"
	// AsideTooLarge: a registered sender is told the mail was too large.
	AsideTooLarge = "too_large"
	// AsideUnparseable: kept in the store's quarantine (a webhook has no
	// quarantine folder) and answered with a *PermanentError.
	AsideUnparseable = "unparseable"
	// AsideList: mail from a list or another robot (List-Id, Precedence
	// bulk, list or junk, another's X-Loop): never applied, and a
	// registered player is told why at most once a day (issue 23).
	AsideList = "list"
)

// SetAside is a mail that is no request.
type SetAside struct {
	Reason string // AsideIgnored, AsideTooLarge or AsideUnparseable
	// Detail explains it (for operators, never secrets).
	Detail string
	Keys   []string
	Source string
	// From and MessageID are the mail's (unverified).
	From      string
	MessageID string
	// Max is the size limit (AsideTooLarge); Raw the mail (AsideUnparseable).
	Max int
	Raw []byte
}
