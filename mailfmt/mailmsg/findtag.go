package mailmsg

// TagSource names where FindTag found a tag, in decreasing order of trust.
type TagSource string

// The sources FindTag reads, most trusted first.
const (
	SourceNone        TagSource = ""
	SourceDeliveredTo TagSource = "delivered-to"
	SourceXOriginalTo TagSource = "x-original-to"
	SourceEnvelopeTo  TagSource = "envelope-to"
	SourceTo          TagSource = "to"
	SourceCc          TagSource = "cc"
	SourceSubject     TagSource = "subject"
	SourceInReplyTo   TagSource = "in-reply-to"
	SourceReferences  TagSource = "references"
)

// Candidate is one tag found in one place.
type Candidate struct {
	Source TagSource
	Tag    Tag
}

// TagResult is what FindTag found.
type TagResult struct {
	// Tag merges the candidates: the kind, game, seat and secret of the most
	// trusted candidate that carries a secret (else of the most trusted
	// one), completed with the seat and token of the most trusted agreeing
	// candidates that have them. Kind is TagNone when nothing was found.
	Tag Tag
	// KindFrom, SecretFrom, SeatFrom and TokenFrom say which source gave
	// each part (SourceNone when absent).
	KindFrom   TagSource
	SecretFrom TagSource
	SeatFrom   TagSource
	TokenFrom  TagSource
	// Candidates lists every tag found, most trusted first (for References,
	// the newest id first).
	Candidates []Candidate
	// Conflict is true when candidates disagree on the game, the seat or the
	// secret (the referee should then refuse, or at least not trust the
	// less trusted sources).
	Conflict bool
}

// FindTag identifies the tag of a message addressed to the referee whose
// base address is referee (e.g. "referee@example.test"): from the plus part
// of the recipient fields (Delivered-To, X-Original-To, Envelope-To, To,
// Cc), then the subject tag, then the referee Message-IDs in In-Reply-To and
// References (these give the game, seat and token, never a secret). Plus
// addresses count only when their base local part and domain are the
// referee's, case-insensitively.
func FindTag(m *Message, referee Address) TagResult {
	var r TagResult
	add := func(src TagSource, t Tag) {
		for _, c := range r.Candidates {
			if c.Source == src && c.Tag == t {
				return
			}
		}
		if len(r.Candidates) < 64 {
			r.Candidates = append(r.Candidates, Candidate{Source: src, Tag: t})
		}
	}
	base := referee.Addr
	addrs := func(src TagSource, list []string) {
		for _, a := range list {
			if t, ok := TagFromAddress(a, base); ok {
				add(src, t)
			}
		}
	}
	addrs(SourceDeliveredTo, m.DeliveredTo)
	addrs(SourceXOriginalTo, m.XOriginalTo)
	addrs(SourceEnvelopeTo, m.EnvelopeTo)
	addrs(SourceTo, addrList(m.To))
	addrs(SourceCc, addrList(m.Cc))
	if t, ok := ParseSubjectTag(m.Subject); ok {
		add(SourceSubject, t)
	}
	for _, id := range m.InReplyTo {
		if ref, err := ParseMessageID(id); err == nil {
			add(SourceInReplyTo, ref.Tag())
		}
	}
	for i := len(m.References) - 1; i >= 0; i-- {
		if ref, err := ParseMessageID(m.References[i]); err == nil {
			add(SourceReferences, ref.Tag())
		}
	}
	r.merge()
	return r
}

func addrList(l []Address) []string {
	out := make([]string, len(l))
	for i, a := range l {
		out[i] = a.Addr
	}
	return out
}

func (r *TagResult) merge() {
	if len(r.Candidates) == 0 {
		return
	}
	primary := -1
	for i, c := range r.Candidates {
		if c.Tag.Authenticates() || c.Tag.Kind == TagBounce {
			primary = i
			break
		}
	}
	if primary < 0 {
		primary = 0
	}
	p := r.Candidates[primary]
	r.Tag = p.Tag
	r.KindFrom = p.Source
	if p.Tag.Secret != "" {
		r.SecretFrom = p.Source
	}
	if p.Tag.Seat != NoSeat {
		r.SeatFrom = p.Source
	}
	if p.Tag.Token != NoToken {
		r.TokenFrom = p.Source
	}
	switch r.Tag.Kind {
	case TagPlayer, TagOrg:
		// Other candidates only matter when they carry another secret.
		for _, c := range r.Candidates {
			if c.Tag.Authenticates() && (c.Tag.Kind != r.Tag.Kind || c.Tag.Secret != r.Tag.Secret) {
				r.Conflict = true
			}
		}
		return
	case TagBounce:
		// A delivery report quotes the original subject and threading, so
		// only another bounce id is a contradiction.
		for _, c := range r.Candidates {
			if c.Tag.Kind == TagBounce && c.Tag.ID != r.Tag.ID {
				r.Conflict = true
			}
		}
		return
	}
	for i, c := range r.Candidates {
		if i == primary {
			continue
		}
		t := c.Tag
		if t.Kind != TagSeat && t.Kind != TagGame {
			if t.Secret != "" {
				r.Conflict = true
			}
			continue
		}
		if t.Game != r.Tag.Game || (t.Secret != "" && r.Tag.Secret != "" && t.Secret != r.Tag.Secret) {
			r.Conflict = true
			continue
		}
		if t.Seat != NoSeat && r.Tag.Seat != NoSeat && t.Seat != r.Tag.Seat {
			r.Conflict = true
			continue
		}
		if r.Tag.Seat == NoSeat && t.Seat != NoSeat {
			r.Tag.Seat, r.SeatFrom = t.Seat, c.Source
		}
		if r.Tag.Token == NoToken && t.Token != NoToken {
			r.Tag.Token, r.TokenFrom = t.Token, c.Source
		}
	}
}
