package referee

import (
	"fmt"

	"github.com/pbem-referee/referee/mailfmt/mailmsg"
	"github.com/pbem-referee/referee/referee/tell"
	"github.com/pbem-referee/referee/store"
)

// Outgoing is one mail the referee sends, and Attachment a file sent
// along (package referee/tell owns them: the tell stage writes them; the
// core completes, composes and stores them here).
type (
	Outgoing   = tell.Outgoing
	Attachment = tell.Attachment
)

// messageID returns a new Message-ID for a game mail:
// <rf.<game>.<seat>.<token>.<nonce>@domain>, seat "x" for none.
func (w *work) messageID(g *Game, seat, token int) string {
	if g != nil {
		g.Nonce++
		return tell.MessageID(g.ID, seat, token, g.Nonce, w.r.opt.Domain)
	}
	w.nonce++
	return tell.MessageID("r"+fmt.Sprint(w.now.UnixNano()), seat, token, w.nonce, w.r.opt.Domain)
}

// plus returns the referee's address with a plus tag.
func (r *Referee) plus(tag string) string {
	return r.opt.Local + "+" + tag + "@" + r.opt.Domain
}

// enqueue completes a mail (sender, date, bounce address, the cap on its
// size), composes it and keeps it for the outbox: persist writes it, in
// the order queued, when the unit of work is flushed.
func (w *work) enqueue(m *Outgoing) error {
	if m.From == "" {
		m.From, m.FromName = w.r.Address(), w.r.opt.Name
	}
	if m.Date.IsZero() {
		m.Date = w.now
	}
	if m.AutoSubmitted == "" {
		m.AutoSubmitted = "auto-generated"
	}
	verp := ""
	if m.EnvelopeFrom == "" {
		verp = mailmsg.BounceID(w.r.verpKey, w.cluster, m.MessageID, w.now)
		m.EnvelopeFrom = w.r.plus("bounce." + verp)
	}
	// The JSON part counts towards the cap, as base64 (issue 23: a 1 MiB
	// mail gave 1.42 MB back); a view too large to leave room for the
	// text is left out (the text says what was cut).
	jsonCost := (len(m.JSON) + 2) / 3 * 4
	if jsonCost > w.r.opt.MaxReplyBytes/2 {
		m.JSON, jsonCost = nil, 0
	}
	if limit := w.r.opt.MaxReplyBytes - jsonCost; len(m.Body) > limit {
		// No mail grows past the cap, whatever was asked (issue 11,
		// item 1); the reader is told where and why it was cut.
		lang := m.Lang
		if lang == "" {
			lang = "en"
		}
		rd := Reader{Game: "referee", Lang: lang, Seat: -1}
		note, err := w.r.render.T.Render("referee", lang, "info.cut", w.r.render.ctx(rd, map[string]any{"kb": w.r.opt.MaxReplyBytes >> 10}))
		if err != nil {
			return err
		}
		m.Body = clipBody(m.Body, limit, note)
	}
	raw, err := w.r.opt.Compose(m)
	if err != nil {
		return fmt.Errorf("referee: compose %s: %w", m.MessageID, err)
	}
	w.outbox = append(w.outbox, composed{m: m, raw: raw, verp: verp})
	w.sent = append(w.sent, m.MessageID)
	return nil
}

// composed is a mail ready for the outbox: its bytes and, when the
// referee chose its bounce address, the VERP id to record.
type composed struct {
	m    *Outgoing
	raw  []byte
	verp string
}

// persistOutbox writes the mails queued by the unit of work to the outbox,
// with the VERP record of each: a bounce counts only when its VERP id
// names the mail and the address it was sent to (issue 11, item 6).
func (w *work) persistOutbox() error {
	bodies := store.PackBodies(len(w.outbox), func(i int) []byte { return w.outbox[i].raw }) // on every core
	for i, c := range w.outbox {
		m := c.m
		if c.verp != "" {
			if err := w.tx.PutVERP(c.verp, store.VERPRecord{To: m.To, Key: m.MessageID, Game: m.Game, Sent: w.now}); err != nil {
				return err
			}
		}
		_, err := w.tx.EnqueueBody(OutboxQueue, store.Item{
			Key: m.MessageID, Game: m.Game, Kind: m.Kind, To: m.To, Meta: map[string]string{MetaFrom: m.EnvelopeFrom}, Created: w.now,
		}, bodies[i])
		if err != nil {
			return err
		}
	}
	w.outbox = nil
	return nil
}
