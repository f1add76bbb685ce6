package referee

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/mailfmt"
	"github.com/pbem-referee/referee/mailfmt/mailmsg"
	"github.com/pbem-referee/referee/referee/guard"
	"github.com/pbem-referee/referee/store"
	"github.com/pbem-referee/referee/templates"
)

// The core's entry points besides Process, for what the mail-in edge
// (referee/edge/mailin) reads in a mail that is not a request: a bounce,
// an auto-reply (absences), or a mail set aside (the referee's own, a
// list's, too large, unparseable). The transports' quarantine notices come
// in through NotifyQuarantined. Each is one store transaction with its
// de-duplication record, like Process. What the edge hands in (Bounce,
// AutoReply, SetAside and its reasons) is package referee/outcome's,
// re-exported in vocab.go.

// Bounced marks failing addresses and tells the organisers of their games.
// Only a bounce addressed to a VERP id of a mail the referee sent counts,
// and only for the address that mail went to: anybody can write a delivery
// report, nobody else knows the id. The organiser alerts are throttled and
// quote the remote server's words as untrusted text (issue 11, item 6).
func (r asides) Bounced(ctx context.Context, b Bounce) (Outcome, error) {
	if err := ctx.Err(); err != nil {
		return Outcome{}, err
	}
	return r.bounced(b.Source, b.Keys, b.Info)
}

// AutoReplied is never answered: an out-of-office reply of a seat's player
// to a mail of the referee becomes a question, "reply YES to register an
// absence until <date>", asked at most once a week per seat, so two
// auto-responders can never loop.
func (r asides) AutoReplied(ctx context.Context, a AutoReply) (Outcome, error) {
	if err := ctx.Err(); err != nil {
		return Outcome{}, err
	}
	return r.autoReply(a)
}

// SetAside records a mail that is no request; see the reasons.
func (r asides) SetAside(ctx context.Context, a SetAside) (Outcome, error) {
	if err := ctx.Err(); err != nil {
		return Outcome{}, err
	}
	switch a.Reason {
	case AsideIgnored:
		return r.record(a.Source, a.Keys, a.From, OutcomeIgnored, a.Detail)
	case AsideTooLarge:
		return r.tooLarge(a)
	case AsideList:
		return r.listMail(a)
	case AsideUnparseable:
		perr := Permanent("%s", a.Detail)
		if qerr := r.db.Update(func(tx *store.Tx) error {
			_, err := tx.Quarantine(store.Quarantined{At: r.clock.Now(), Source: a.Source, Reason: perr.Error(), Raw: a.Raw})
			return err
		}); qerr != nil {
			return Outcome{}, qerr
		}
		r.log.Warn("quarantined", slog.String("source", a.Source), slog.String("reason", perr.Error()))
		return Outcome{}, perr
	}
	return Outcome{}, fmt.Errorf("referee: unknown reason %q to set a mail aside", a.Reason)
}

// Keywords returns the referee's keyword set: what mailfmt needs to tell
// a command line from a quote header, a signature or prose before the
// game of the mail is known (Keywords.MailCommands, with its typo guard).
func (r *Referee) Keywords() *mailfmt.Keywords { return r.keywords() }

// record stores the de-duplication record of a mail the referee does not
// answer.
func (r asides) record(source string, keys []string, from string, status OutcomeStatus, detail string) (Outcome, error) {
	out := Outcome{Status: status, Seat: -1, Detail: detail}
	err := r.db.Update(func(tx *store.Tx) error {
		if rec, seen, err := tx.Seen(keys...); err != nil {
			return err
		} else if seen {
			out = Outcome{Status: OutcomeDuplicate, Game: rec.Game, Seat: rec.Seat, Detail: "already processed"}
			return nil
		}
		return tx.MarkInbound(store.InboundRecord{Keys: keys, Received: r.clock.Now(), Source: source, From: strings.ToLower(from),
			Seat: -1, Outcome: string(status), Detail: detail})
	})
	return out, err
}

// tooLarge answers a registered sender that the mail was too large.
func (r asides) tooLarge(a SetAside) (Outcome, error) {
	out := Outcome{Status: OutcomeIgnored, Seat: -1, Detail: "message too large"}
	_, err := r.update(func(w *work) error {
		if _, seen, err := w.tx.Seen(a.Keys...); err != nil || seen {
			out.Status = OutcomeDuplicate
			return err
		}
		if p, err := loadPlayer(w.tx, a.From); err == nil {
			out.Status = OutcomeRejected
			if err := w.playerMail(p, "too_large", map[string]any{"max": a.Max}, a.MessageID); err != nil {
				return err
			}
		}
		return w.tx.MarkInbound(store.InboundRecord{Keys: a.Keys, Received: w.now, Source: a.Source, From: a.From,
			Seat: -1, Outcome: string(out.Status), Detail: out.Detail})
	})
	return out, err
}

// NotifyQuarantined implements QuarantineNotifier: the message is recorded
// for operators and its sender, when registered, is told at most once an
// hour (the From is unverified: a forger can only cause that one mail, to
// the registered address).
func (r asides) NotifyQuarantined(ctx context.Context, n QuarantineNotice) (Outcome, error) {
	keys := append([]string(nil), n.Keys...)
	if n.MessageID != "" {
		keys = append(keys, "msgid:"+n.MessageID)
	}
	if len(keys) == 0 {
		return Outcome{}, errors.New("referee: quarantine notice without keys")
	}
	from := strings.ToLower(strings.TrimSpace(n.From))
	out := Outcome{Status: OutcomeIgnored, Seat: -1, Detail: "quarantined: " + n.Reason}
	_, err := r.update(func(w *work) error {
		if _, seen, err := w.tx.Seen(keys...); err != nil || seen {
			out.Status = OutcomeDuplicate
			return err
		}
		raw := n.Raw
		if raw == nil {
			raw = []byte("From: " + from + "\r\nMessage-ID: " + n.MessageID + "\r\n")
		}
		if _, err := w.tx.Quarantine(store.Quarantined{At: w.now, Source: n.Source, Reason: n.Reason + ": " + n.Detail,
			Raw: raw}); err != nil {
			return err
		}
		if p, err := loadPlayer(w.tx, from); err == nil && r.notice.allow("quarantine/"+n.Reason+"/"+p.Address, w.now) {
			out.Status = OutcomeRejected
			kind, data := "quarantined", map[string]any{}
			switch n.Reason {
			case "too_large":
				kind, data = "too_large", map[string]any{"max": n.Max}
			case "failed", "replayed": // issue 23: set aside for the operator
				kind = "set_aside"
			}
			if err := w.playerMail(p, kind, data, n.MessageID); err != nil {
				return err
			}
		}
		return w.tx.MarkInbound(store.InboundRecord{Keys: keys, Received: w.now, Source: n.Source, From: from,
			Seat: -1, Outcome: string(out.Status), Detail: out.Detail})
	})
	return out, err
}

// bounced is Bounced.
func (r asides) bounced(source string, keys []string, b *mailfmt.BounceInfo) (Outcome, error) {
	out := Outcome{Status: OutcomeIgnored, Seat: -1, Detail: "bounce"}
	_, err := r.update(func(w *work) error {
		if _, seen, err := w.tx.Seen(keys...); err != nil || seen {
			out.Status = OutcomeDuplicate
			return err
		}
		sentTo := ""
		if b != nil && b.VERP.Kind == mailmsg.TagBounce {
			rec, ok, err := w.tx.VERP(b.VERP.ID)
			if err != nil {
				return err
			}
			if ok {
				sentTo = rec.To
			}
		}
		failed := guard.BounceFailed(b, sentTo)
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
			if !r.bounceAlerts.allow(addr, w.now) {
				continue // the organiser already knows
			}
			if err := w.alertBounce(addr, guard.BounceReason(b, addr)); err != nil {
				return err
			}
		}
		switch {
		case sentTo == "":
			out.Detail = "bounce without a VERP id of a mail we sent: not acted on"
		default:
			out.Detail = fmt.Sprintf("bounce for %v", failed)
		}
		return w.tx.MarkInbound(store.InboundRecord{Keys: keys, Received: w.now, Source: source, Seat: -1, Outcome: "bounce", Detail: out.Detail})
	})
	return out, err
}

// alertBounce tells the organiser of every running or forming game of an
// address, found in the store's indexes: only those games are decoded,
// once (TestBounceAlertDecodesOnlyGamesAlerted_Issue25).
func (w *work) alertBounce(addr, reason string) error {
	alerted := func(status string) bool { return status == StatusRunning || status == StatusForming }
	return w.tx.GamesOfAddress(addr, func(id string) error {
		if ix, ok, err := w.tx.GameIndexOf(id); w.games[id] == nil && (err != nil || !ok || !alerted(ix.Status)) {
			return err
		}
		gw, err := w.game(id)
		if err != nil {
			return err
		}
		if seat := gw.g.SeatOfAddress(addr); seat >= 0 && alerted(gw.g.Status) {
			gw.toOrganiser("org_bounce", "address", addr, "name", gw.g.Seats[seat].Greeting(), "quoted", guard.Quote(reason))
		}
		return nil
	})
}

// autoReply is AutoReplied.
func (r asides) autoReply(a AutoReply) (Outcome, error) {
	cls := a.Class
	out := Outcome{Status: OutcomeIgnored, Seat: -1, Detail: "auto-reply"}
	_, err := r.update(func(w *work) error {
		if _, seen, err := w.tx.Seen(a.Keys...); err != nil || seen {
			out.Status = OutcomeDuplicate
			return err
		}
		if cls.OutOfOffice {
			// Only an auto-reply that shows it answers a mail of ours
			// to that seat stores an offer (issue 11, item 9): the seat's
			// secret in the address it was sent to, or the VERP id of a
			// mail sent to that address.
			game, secret := autoReplyGame(w, a.Tag, a.From)
			if game != "" && w.tx.HasGame(game) {
				gw, err := w.game(game)
				if err != nil {
					return err
				}
				seat := gw.g.SeatOfAddress(a.From)
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
		return w.tx.MarkInbound(store.InboundRecord{Keys: a.Keys, Received: w.now, Source: a.Source, From: a.From,
			Game: out.Game, Seat: out.Seat, Outcome: string(OutcomeIgnored), Detail: out.Detail})
	})
	return out, err
}

// autoReplyGame finds the game an auto-reply from an address answers, from
// the tag it carries, and the seat secret of the tag ("" when it came
// through a VERP id, which is proof enough: its record names the game,
// or its Message-ID does in a record written before, issue 25).
func autoReplyGame(w *work, tag mailmsg.Tag, from string) (game, secret string) {
	switch tag.Kind {
	case mailmsg.TagSeat:
		if tag.Secret == "" {
			return "", ""
		}
		return tag.Game, tag.Secret
	case mailmsg.TagBounce:
		rec, ok, err := w.tx.VERP(tag.ID)
		if err != nil || !ok || !strings.EqualFold(rec.To, from) {
			return "", ""
		}
		if rec.Game != "" {
			return rec.Game, ""
		}
		ref, err := mailmsg.ParseMessageID(rec.Key)
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
	loc := templates.Zone(s.TZ)
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
