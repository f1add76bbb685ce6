package referee

import (
	"strings"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/referee/cmdtable"
	"github.com/pbem-referee/referee/referee/guard"
	"github.com/pbem-referee/referee/referee/reading"
	"github.com/pbem-referee/referee/store"
)

// The abuse guards' rules are package referee/guard's (the caps, stale
// resends, loops, clipping); here the core applies them to its records and
// requests, and answers what the guards let through. The limits keep their
// names in the core's API (Options.MaxOrders and the rest).
const (
	DefaultMaxOrders     = guard.DefaultMaxOrders
	DefaultMaxInfo       = guard.DefaultMaxInfo
	DefaultMaxReplyBytes = guard.DefaultMaxReplyBytes
	DefaultMaxEntrants   = guard.DefaultMaxEntrants
	MaxOrgLines          = guard.MaxOrgLines
	MaxSayRunes          = guard.MaxSayRunes
	MaxOptionBytes       = guard.MaxOptionBytes
	loopRepeats          = guard.LoopRepeats
)

type (
	// RecentInput is an applied input of a seat (guard.RecentInput).
	RecentInput = guard.RecentInput
	// BodyCount counts one body of a seat in a day (guard.BodyCount).
	BodyCount = guard.BodyCount
	capped    = guard.Capped
)

// capOrders applies the per-mail caps (guard.Caps) to a seat's or a
// player's orders; known tells a keyword of the referee or the game.
func (r *Referee) capOrders(orders []engine.Order, known func(kw string) bool) capped {
	return guard.Caps{MaxInfo: r.opt.MaxInfo, MaxOrders: r.opt.MaxOrders}.Apply(orders, known, func(kw string) bool { return infoCommands[kw] })
}

// knownWord reports whether an upper-case word is a command of the referee
// or of the game (in any language: cmdtable.KnownIn), so that a line
// starting with it looks like a command.
func (r *Referee) knownWord(game engine.Game, gameName, word string) bool {
	return cmdtable.KnownIn(r.render.T, game, gameName, word)
}

// HasCommand reports whether some line of a request's text looks like a
// command of the referee or of any game (a keyword, an alias, an option
// number): an out-of-office subject never hides such a mail (issue 11.5).
// It reads through the request's one reading, which Process then uses.
func (r *Referee) HasCommand(req *Request) bool {
	games := engine.Games()
	known := func(kw string) bool { return cmdtable.KnownInAny(r.render.T, games, kw) }
	// The reading room reads it (referee/reading), with every game's
	// vocabulary: an answer in any of the forms people write ("2.", "Hi!
	// PASS", "option 2", issue 20).
	return req.read().HasCommand(known, func() []reading.Vocab {
		vs := make([]reading.Vocab, len(games))
		for i, g := range games {
			vs[i] = r.vocab(g, g.Info().Name)
		}
		return vs
	})
}

// The guards' pure helpers, under the names the intake (request.go,
// outgoing.go) calls them by; the digest and the logged text of a mail are
// its reading's (reading.Mail.Digest, Logged: guard.Digest, ClipInput).
var (
	clipBody  = guard.ClipBody
	disguised = guard.Disguised
)

// listMail records a mail from a list or another robot without applying
// it; its From, when a registered player, is told why at most once a day
// (issue 23: tell, don't drop). The From is unverified, so a forger can
// cause one note a day to a player, never more, and never to a stranger.
func (r asides) listMail(a SetAside) (Outcome, error) {
	out := Outcome{Status: OutcomeIgnored, Seat: -1, Detail: "list mail: " + a.Detail}
	_, err := r.update(func(w *work) error {
		if _, seen, err := w.tx.Seen(a.Keys...); err != nil || seen {
			out.Status = OutcomeDuplicate
			return err
		}
		from := strings.ToLower(strings.TrimSpace(a.From))
		if p, err := loadPlayer(w.tx, from); err == nil && !p.Pending && r.listNotes.allow("list/"+p.Address, w.now) {
			out.Status = OutcomeRejected
			if err := w.playerMail(p, "list_mail", map[string]any{"header": a.Detail}, a.MessageID); err != nil {
				return err
			}
		}
		return w.tx.MarkInbound(store.InboundRecord{Keys: a.Keys, Received: w.now, Source: a.Source, From: from,
			Seat: -1, Outcome: string(out.Status), Detail: out.Detail})
	})
	return out, err
}

// maxEntrants is Options.MaxEntrants, DefaultMaxEntrants when unset.
func (r *Referee) maxEntrants() int {
	if r.opt.MaxEntrants <= 0 {
		return DefaultMaxEntrants
	}
	return r.opt.MaxEntrants
}
