package referee

import "github.com/pbem-referee/referee/mailfmt"

// seatTag and playerTag are the tags of a seat's and a player's mail.
func seatTag(game string, seat int, secret string) mailfmt.Tag {
	return mailfmt.Tag{Kind: mailfmt.TagSeat, Game: game, Seat: seat, Secret: secret, Token: mailfmt.NoToken}
}

func playerTag(secret string) mailfmt.Tag {
	return mailfmt.Tag{Kind: mailfmt.TagPlayer, Secret: secret, Seat: mailfmt.NoSeat, Token: mailfmt.NoToken}
}

// Composer returns the outbox composer: each Outgoing becomes the bytes of a
// real mail (mailfmt.Compose), with the tag in the Reply-To plus address
// (never in the subject), threading headers, Auto-Submitted and a JSON part (the view
// for FORMAT json players, or the complete log at the end).
func Composer(from mailfmt.Address) func(*Outgoing) ([]byte, error) {
	return func(m *Outgoing) ([]byte, error) {
		o := mailfmt.Out{
			From: from, To: mailfmt.Address{Name: m.ToName, Addr: m.To}, Subject: m.Subject,
			Reply: m.AutoSubmitted == "auto-replied", MessageID: m.MessageID, References: m.References,
			Date: m.Date, Language: m.Lang, Text: m.Body, JSON: m.JSON, AllowOOF: true,
		}
		if m.InReplyTo != "" {
			o.InReplyTo = []string{m.InReplyTo}
		}
		if m.Tag.Kind != mailfmt.TagNone {
			t := m.Tag
			t.Token = mailfmt.NoToken // a stable Reply-To keeps the thread together
			o.Tag = t
			// The secret is in the Reply-To plus address only: a subject is
			// seen in previews, forwards and screenshots (issue 11.7). The
			// referee's subjects carry the game themselves.
			o.HideSecret = true
		}
		for _, a := range m.Attachments {
			// The log at the end of a game replaces the view.
			o.JSON, o.JSONName = a.Data, a.Name
		}
		if m.JSON != nil && o.JSONName == "" {
			o.JSONName = "view.json"
		}
		return mailfmt.Compose(o)
	}
}
