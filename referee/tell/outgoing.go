package tell

import (
	"time"

	"github.com/pbem-referee/referee/mailfmt/mailmsg"
	"github.com/pbem-referee/referee/templates"
)

// Outgoing is one mail the referee sends: everything a composer needs to
// produce the message bytes. It is built inside the transaction that caused
// it, composed once, and stored in the outbox.
type Outgoing struct {
	Game string `json:"game,omitempty"`
	Seat int    `json:"seat"`
	// Kind is what the mail is: "update", "reply", "reminder", "invite",
	// "start", "end", "rejection", "org", "help", "observe", "absence".
	Kind     string `json:"kind"`
	From     string `json:"from"`
	FromName string `json:"from_name"`
	To       string `json:"to"`
	ToName   string `json:"to_name,omitempty"`
	// Tag is the recipient's tag (a seat's, a player's, an organiser's,
	// or none), built as a value and never as text to be parsed back: the
	// composer puts it in the Reply-To plus address, so that a reply
	// authenticates its sender. It never goes in the subject (subjects of
	// mails written before still authenticate: mailmsg.ParseSubjectTag
	// reads them).
	Tag mailmsg.Tag `json:"tag"`
	// Subject is the whole subject.
	Subject string `json:"subject"`
	// MessageID, InReplyTo and References thread the mail (one thread per
	// game and player).
	MessageID  string    `json:"message_id"`
	InReplyTo  string    `json:"in_reply_to,omitempty"`
	References []string  `json:"references,omitempty"`
	Date       time.Time `json:"date"`
	// Body is the plain-text body (UTF-8, laid out for 80 columns).
	Body string `json:"body"`
	// JSON is the same information as JSON, for players who asked for it
	// (encoding/json's output: the composer has it not checked again).
	JSON []byte `json:"json,omitempty"`
	// Attachments are files sent along (the complete log at the end).
	Attachments []Attachment `json:"attachments,omitempty"`
	// Lang is the body's language.
	Lang string `json:"lang"`
	// AutoSubmitted is "auto-replied" for answers to a player's message and
	// "auto-generated" otherwise (RFC 3834).
	AutoSubmitted string `json:"auto_submitted"`
	// EnvelopeFrom is the bounce address (VERP).
	EnvelopeFrom string `json:"envelope_from"`
}

// Attachment is a file attached to a mail.
type Attachment struct {
	Name        string `json:"name"`
	ContentType string `json:"content_type"`
	Data        []byte `json:"data"`
}

// SeatTag and PlayerTag are the tags of a seat's and a player's mail,
// built as values: nothing on the way out writes a tag as text to parse
// it back (the composer hands the value to mailmsg.Compose).
func SeatTag(game string, seat int, secret string) mailmsg.Tag {
	return mailmsg.Tag{Kind: mailmsg.TagSeat, Game: game, Seat: seat, Secret: secret, Token: mailmsg.NoToken}
}

// PlayerTag is the tag of a player's mail (SeatTag).
func PlayerTag(secret string) mailmsg.Tag {
	return mailmsg.Tag{Kind: mailmsg.TagPlayer, Secret: secret, Seat: mailmsg.NoSeat, Token: mailmsg.NoToken}
}

// Composer returns the outbox composer: each Outgoing becomes the bytes of a
// real mail (mailmsg.Compose), with the tag in the Reply-To plus address
// (never in the subject), threading headers, Auto-Submitted and a JSON part (the view
// for FORMAT json players, or the complete log at the end). The mail starts
// with the reply line of the reader's language (templates.ReplyLine: the
// words are the template's, the "##- ... -##" frame the reply reader's).
func Composer(from mailmsg.Address) func(*Outgoing) ([]byte, error) {
	return func(m *Outgoing) ([]byte, error) {
		o := mailmsg.Out{
			From: from, To: mailmsg.Address{Name: m.ToName, Addr: m.To}, Subject: m.Subject,
			Reply: m.AutoSubmitted == "auto-replied", MessageID: m.MessageID, References: m.References,
			Date: m.Date, Language: m.Lang, Text: m.Body, JSON: m.JSON, JSONValid: true, AllowOOF: true,
			ReplyLine: templates.ReplyLine(m.Lang),
		}
		if m.InReplyTo != "" {
			o.InReplyTo = []string{m.InReplyTo}
		}
		if m.Tag.Kind != mailmsg.TagNone {
			t := m.Tag
			t.Token = mailmsg.NoToken // a stable Reply-To keeps the thread together
			o.Tag = t
			// The secret is in the Reply-To plus address only: a subject is
			// seen in previews, forwards and screenshots (issue 11.7). The
			// referee's subjects carry the game themselves.
			o.HideSecret = true
		}
		for _, a := range m.Attachments {
			// The log at the end of a game replaces the view.
			o.JSON, o.JSONName, o.JSONValid = a.Data, a.Name, false
		}
		if m.JSON != nil && o.JSONName == "" {
			o.JSONName = "view.json"
		}
		return mailmsg.Compose(o)
	}
}
