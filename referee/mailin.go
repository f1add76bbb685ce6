package referee

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"
	"unicode"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/mailfmt"
	"github.com/pbem-referee/referee/store"
)

// AuthPolicy is how the referee checks that a mail really comes from its
// From address, on top of the seat's secret token (always required).
type AuthPolicy struct {
	// RequireDKIM requires an aligned DKIM signature (the signing domain
	// matches the From domain, relaxed alignment).
	RequireDKIM bool
	// AuthservID, if set, trusts the Authentication-Results field of the
	// receiving server with this authserv-id instead of verifying DKIM
	// here (a DKIM pass aligned with From, or a DMARC pass).
	AuthservID string
	// LookupTXT resolves DKIM keys when verifying here (net.LookupTXT in
	// production, a fake in tests).
	LookupTXT func(domain string) ([]string, error)
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
		if m.Tag != "" {
			t, err := mailfmt.ParseTag(m.Tag)
			if err != nil {
				return nil, err
			}
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

// HandleMail implements MailHandler: it parses a raw mail, ignores what
// must never be answered (auto-replies go to the absence logic, bounces
// mark the address as failing), identifies the game and seat from the tag,
// checks the sender, extracts the player's own commands and processes them
// in one transaction.
func (r *Referee) HandleMail(ctx context.Context, in Inbound) (Outcome, error) {
	max := r.opt.MaxMessageBytes
	m, err := mailfmt.Parse(in.Raw, mailfmt.Options{MaxBytes: max})
	if err != nil {
		if errors.Is(err, mailfmt.ErrTooLarge) && m != nil {
			return r.tooLarge(ctx, in, m)
		}
		perr := Permanent("unparseable message: %v", err)
		// Keep it for the operator: a webhook has no quarantine folder.
		if qerr := r.db.Update(func(tx *store.Tx) error {
			_, err := tx.Quarantine(store.Quarantined{At: r.clock.Now(), Source: in.Source, Reason: perr.Error(), Raw: in.Raw})
			return err
		}); qerr != nil {
			return Outcome{}, qerr
		}
		r.log.Warn("quarantined", slog.String("source", in.Source), slog.String("reason", perr.Error()))
		return Outcome{}, perr
	}
	keys := append([]string{"msgid:" + m.MessageID}, in.Keys...)
	cls := mailfmt.Classify(m, []string{r.Address()})
	text, info := mailfmt.CommandsFor(m, memoKeyword(r.isKeyword))
	switch cls.Class {
	case mailfmt.Self, mailfmt.List:
		return r.record(in, keys, m.From.Addr, "ignored", cls.Class.String()+": "+cls.Reason)
	case mailfmt.Bounce:
		return r.bounced(in, keys, cls.Bounce)
	case mailfmt.AutoReply:
		// The Subject alone decides only when the body holds no command:
		// "On vacation next week" over a VACATION line is a player's mail
		// (issue 11, item 5).
		if cls.Reason != subjectOnlyOOF || !r.HasCommand(text) {
			return r.autoReply(in, keys, m, cls)
		}
	}
	tr := mailfmt.FindTag(m, mailfmt.Address{Addr: r.Address()})
	req := Request{
		From: m.From.Addr, FromName: m.From.Name, Token: -1, Text: text, MessageID: m.MessageID,
		Keys: keys, Source: in.Source, Received: in.Received, Seat: -1,
	}
	t := tr.Tag
	switch t.Kind {
	case mailfmt.TagSeat:
		req.Kind, req.Game, req.Seat, req.Secret = "seat", t.Game, t.Seat, t.Secret
	case mailfmt.TagPlayer:
		req.Kind, req.Secret = "player", t.Secret
	case mailfmt.TagOrg:
		req.Kind, req.Secret = "org", t.Secret
	}
	if t.Token >= 0 {
		req.Token = int(t.Token)
	}
	if tr.Conflict {
		// Harmless when older mails in References carry a seat number from
		// before the seat order was drawn; the secret decides.
		r.log.Debug("tag sources disagree", slog.String("msgid", m.MessageID), slog.String("kind", t.Kind.String()))
	}
	req.SenderVerified = r.senderVerified(m, in.Raw)
	req.Read = &ReadInfo{Lines: info.Lines, Markers: info.Markers, Unclosed: info.Unclosed, Outside: info.Outside,
		Quote: info.Quote, QuoteHeader: info.QuoteHeader, Signature: info.Signature, SignatureLine: info.SignatureLine,
		Forwarded: info.Forwarded, Greeting: info.Greeting, SignOff: info.SignOff}
	return r.Process(ctx, req)
}

// senderVerified applies the AuthPolicy.
func (r *Referee) senderVerified(m *mailfmt.Message, raw []byte) bool {
	p := r.opt.Auth
	if !p.RequireDKIM {
		return true
	}
	dom := m.From.Domain()
	if p.AuthservID != "" {
		ar, err := mailfmt.AuthResults(m, p.AuthservID)
		if err != nil || !ar.Found {
			return false
		}
		return ar.DKIMAligned(dom, false) || (strings.EqualFold(ar.DMARC, "pass") && strings.EqualFold(ar.DMARCFrom, dom))
	}
	if p.LookupTXT == nil {
		return false
	}
	res, err := mailfmt.VerifyDKIM(raw, p.LookupTXT)
	if err != nil {
		return false
	}
	return mailfmt.DKIMAligned(res, dom, false)
}

// record stores the de-duplication record of a mail the referee does not
// answer.
func (r *Referee) record(in Inbound, keys []string, from, status, detail string) (Outcome, error) {
	out := Outcome{Status: status, Seat: -1, Detail: detail}
	err := r.db.Update(func(tx *store.Tx) error {
		if rec, seen, err := tx.Seen(keys...); err != nil {
			return err
		} else if seen {
			out = Outcome{Status: "duplicate", Game: rec.Game, Seat: rec.Seat, Detail: "already processed"}
			return nil
		}
		return tx.MarkInbound(store.InboundRecord{Keys: keys, Received: r.clock.Now(), Source: in.Source, From: strings.ToLower(from),
			Seat: -1, Outcome: status, Detail: detail})
	})
	return out, err
}

// tooLarge answers a registered sender that the mail was too large.
func (r *Referee) tooLarge(ctx context.Context, in Inbound, m *mailfmt.Message) (Outcome, error) {
	keys := append([]string{"msgid:" + m.MessageID}, in.Keys...)
	out := Outcome{Status: "ignored", Seat: -1, Detail: "message too large"}
	_, err := r.update(func(w *work) error {
		if _, seen, err := w.tx.Seen(keys...); err != nil || seen {
			out.Status = "duplicate"
			return err
		}
		if p, err := loadPlayer(w.tx, m.From.Addr); err == nil {
			out.Status = "rejected"
			if err := w.playerMail(p, "too_large", map[string]any{"max": r.opt.MaxMessageBytes}, m.MessageID); err != nil {
				return err
			}
		}
		return w.tx.MarkInbound(store.InboundRecord{Keys: keys, Received: w.now, Source: in.Source, From: m.From.Addr,
			Seat: -1, Outcome: out.Status, Detail: out.Detail})
	})
	return out, err
}

// NotifyQuarantined implements QuarantineNotifier: the message is recorded
// for operators and its sender, when registered, is told at most once an
// hour (the From is unverified: a forger can only cause that one mail, to
// the registered address).
func (r *Referee) NotifyQuarantined(ctx context.Context, n QuarantineNotice) (Outcome, error) {
	keys := append([]string(nil), n.Keys...)
	if n.MessageID != "" {
		keys = append(keys, "msgid:"+n.MessageID)
	}
	if len(keys) == 0 {
		return Outcome{}, errors.New("referee: quarantine notice without keys")
	}
	from := strings.ToLower(strings.TrimSpace(n.From))
	out := Outcome{Status: "ignored", Seat: -1, Detail: "quarantined: " + n.Reason}
	_, err := r.update(func(w *work) error {
		if _, seen, err := w.tx.Seen(keys...); err != nil || seen {
			out.Status = "duplicate"
			return err
		}
		if _, err := w.tx.Quarantine(store.Quarantined{At: w.now, Source: n.Source, Reason: n.Reason + ": " + n.Detail,
			Raw: []byte("From: " + from + "\r\nMessage-ID: " + n.MessageID + "\r\n")}); err != nil {
			return err
		}
		if p, err := loadPlayer(w.tx, from); err == nil && r.notice.allow("quarantine/"+p.Address, w.now) {
			out.Status = "rejected"
			kind, data := "quarantined", map[string]any{}
			if n.Reason == "too_large" {
				kind, data = "too_large", map[string]any{"max": n.Max}
			}
			if err := w.playerMail(p, kind, data, n.MessageID); err != nil {
				return err
			}
		}
		return w.tx.MarkInbound(store.InboundRecord{Keys: keys, Received: w.now, Source: n.Source, From: from,
			Seat: -1, Outcome: out.Status, Detail: out.Detail})
	})
	return out, err
}

// bounced marks failing addresses and tells the organisers of their games.
// Only a bounce addressed to a VERP id of a mail the referee sent counts,
// and only for the address that mail went to: anybody can write a delivery
// report, nobody else knows the id. The organiser alerts are throttled and
// quote the remote server's words as untrusted text (issue 11, item 6).
func (r *Referee) bounced(in Inbound, keys []string, b *mailfmt.BounceInfo) (Outcome, error) {
	out := Outcome{Status: "ignored", Seat: -1, Detail: "bounce"}
	_, err := r.update(func(w *work) error {
		if _, seen, err := w.tx.Seen(keys...); err != nil || seen {
			out.Status = "duplicate"
			return err
		}
		sentTo := ""
		if b != nil && b.VERP.Kind == mailfmt.TagBounce {
			rec, ok, err := w.tx.VERP(b.VERP.ID)
			if err != nil {
				return err
			}
			if ok {
				sentTo = rec.To
			}
		}
		var failed []string
		if b != nil && sentTo != "" {
			for _, fr := range b.Recipients {
				a := strings.ToLower(fr.Addr)
				if (fr.Action == "" || fr.Action == "failed") && a == sentTo && !containsStr(failed, a) {
					failed = append(failed, a)
				}
			}
			if len(b.Recipients) == 0 && b.Permanent {
				failed = append(failed, sentTo)
			}
		}
		for _, addr := range failed {
			p, err := loadPlayer(w.tx, addr)
			if err != nil {
				continue
			}
			p.Failing = b.Permanent || p.Failing
			p.Bounces++
			if err := savePlayer(w.tx, p); err != nil {
				return err
			}
			reason := ""
			for _, fr := range b.Recipients {
				if strings.EqualFold(fr.Addr, addr) {
					reason = strings.TrimSpace(fr.Status + " " + fr.Diagnostic)
				}
			}
			if !r.bounceAlerts.allow(addr, w.now) {
				continue // the organiser already knows
			}
			if err := w.alertBounce(addr, reason); err != nil {
				return err
			}
		}
		switch {
		case sentTo == "":
			out.Detail = "bounce without a VERP id of a mail we sent: not acted on"
		default:
			out.Detail = fmt.Sprintf("bounce for %v", failed)
		}
		return w.tx.MarkInbound(store.InboundRecord{Keys: keys, Received: w.now, Source: in.Source, Seat: -1, Outcome: "bounce", Detail: out.Detail})
	})
	return out, err
}

// quoteUntrusted renders a remote server's text as quoted lines: control
// and format characters removed, each line clipped, at most a few lines.
func quoteUntrusted(s string) []string {
	var out []string
	for _, line := range strings.Split(s, "\n") {
		line = strings.Map(func(c rune) rune {
			if c == '\t' {
				return ' '
			}
			if unicode.IsControl(c) || unicode.Is(unicode.Cf, c) {
				return -1
			}
			return c
		}, line)
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		if r := []rune(line); len(r) > 72 {
			line = string(r[:71]) + "…"
		}
		out = append(out, line)
		if len(out) == 4 {
			break
		}
	}
	return out
}

// alertBounce tells the organiser of every running game of an address.
func (w *work) alertBounce(addr, reason string) error {
	return w.tx.Games(func(id string, _ []byte) error {
		g, err := loadGame(w.tx, id)
		if err != nil {
			return err
		}
		seat := g.seatOfAddress(addr)
		if seat < 0 || (g.Status != StatusRunning && g.Status != StatusForming) {
			return nil
		}
		gw, err := w.game(id)
		if err != nil {
			return err
		}
		gw.toOrganiser("org_bounce", "address", addr, "name", g.Seats[seat].Name, "quoted", quoteUntrusted(reason))
		return nil
	})
}

// autoReply turns a player's out-of-office reply into a question: "reply
// YES to register an absence until <date>". It asks at most once a week per
// seat, so two auto-responders can never loop.
func (r *Referee) autoReply(in Inbound, keys []string, m *mailfmt.Message, cls mailfmt.Classification) (Outcome, error) {
	out := Outcome{Status: "ignored", Seat: -1, Detail: "auto-reply"}
	_, err := r.update(func(w *work) error {
		if _, seen, err := w.tx.Seen(keys...); err != nil || seen {
			out.Status = "duplicate"
			return err
		}
		if cls.OutOfOffice {
			// Only an auto-reply that shows it answers a mail of ours
			// to that seat stores an offer (issue 11, item 9): the seat's
			// secret in the address it was sent to, or the VERP id of a
			// mail sent to that address.
			game, secret := r.autoReplyGame(w, m)
			if game != "" && w.tx.HasGame(game) {
				gw, err := w.game(game)
				if err != nil {
					return err
				}
				seat := gw.g.seatOfAddress(m.From.Addr)
				if seat >= 0 && secret != "" && subtle.ConstantTimeCompare([]byte(gw.g.Seats[seat].Secret), []byte(secret)) != 1 {
					seat = -1
				}
				if seat >= 0 && gw.g.Status == StatusRunning {
					if err := gw.offerAbsence(seat, cls); err != nil {
						return err
					}
					out.Game, out.Seat, out.Detail = gw.g.ID, seat, "out of office: absence offered"
				}
			}
		}
		return w.tx.MarkInbound(store.InboundRecord{Keys: keys, Received: w.now, Source: in.Source, From: m.From.Addr,
			Game: out.Game, Seat: out.Seat, Outcome: "ignored", Detail: out.Detail})
	})
	return out, err
}

// subjectOnlyOOF is mailfmt.Classify's reason for an auto-reply recognised
// by its Subject alone.
const subjectOnlyOOF = "out-of-office subject"

// autoReplyGame finds the game an auto-reply answers, and the seat secret
// it carries ("" when it came through a VERP id, which is proof enough).
func (r *Referee) autoReplyGame(w *work, m *mailfmt.Message) (game, secret string) {
	tr := mailfmt.FindTag(m, mailfmt.Address{Addr: r.Address()})
	switch tr.Tag.Kind {
	case mailfmt.TagSeat:
		if tr.Tag.Secret == "" {
			return "", ""
		}
		return tr.Tag.Game, tr.Tag.Secret
	case mailfmt.TagBounce:
		rec, ok, err := w.tx.VERP(tr.Tag.ID)
		if err != nil || !ok || !strings.EqualFold(rec.To, m.From.Addr) {
			return "", ""
		}
		ref, err := mailfmt.ParseMessageID(rec.Key)
		if err != nil {
			return "", ""
		}
		return ref.Tag().Game, ""
	}
	return "", ""
}

func (gw *gameWork) offerAbsence(seat int, cls mailfmt.Classification) error {
	s := &gw.g.Seats[seat]
	if off := s.AbsenceOffer; off != nil && gw.w.now.Sub(off.From) < 7*24*time.Hour {
		return nil
	}
	loc := location(s.TZ)
	until := gw.w.now.Add(7 * 24 * time.Hour)
	if !cls.Return.IsZero() {
		until = time.Date(cls.Return.Year, time.Month(cls.Return.Month), cls.Return.Day, 0, 0, 0, 0, loc)
	}
	if !until.After(gw.w.now) {
		return nil
	}
	s.AbsenceOffer = &Vacation{From: gw.w.now, To: until.UTC()}
	gw.announce([]int{seat}, "absence", "until", until.In(loc).Format("2006-01-02"), "known", !cls.Return.IsZero())
	_, err := gw.log(Entry{Kind: EntryVacation, Seat: seat, Vis: engine.Only(seat), Params: map[string]any{"offer": until.Format("2006-01-02")}})
	return err
}
