package referee

import (
	"strings"
	"time"
	"unicode"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/referee/reading"
	"github.com/pbem-referee/referee/store"
	"github.com/pbem-referee/referee/templates"
)

// Limits that keep one mail from costing more than a mail's worth (issue
// 11, item 1), with their defaults (Options.MaxOrders, MaxInfo,
// MaxReplyBytes).
const (
	DefaultMaxOrders     = 100
	DefaultMaxInfo       = 5
	DefaultMaxReplyBytes = 128 << 10
	// DefaultMaxEntrants caps a tournament's entrants (issue 23).
	DefaultMaxEntrants = 2048
	// MaxOrgLines is how many command lines of one organiser mail are
	// read; the rest are listed as not read (issue 23: ENTER lines per
	// mail are bounded).
	MaxOrgLines = 500
	// MaxSayRunes is the longest SAY text relayed; MaxOptionBytes the
	// longest game or tournament option key or value (issue 23).
	MaxSayRunes    = 1000
	MaxOptionBytes = 200
	// maxRecent is how many applied inputs per seat are remembered to
	// recognise a stale resend of one of them.
	maxRecent = 8
	// loopRepeats is the number of identical bodies from a seat in a day
	// after which the referee stops answering them (they are still read).
	loopRepeats = 3
)

// capped is what capOrders kept of a mail's orders and what it left out.
type capped struct {
	orders   []engine.Order
	repeated int  // informational commands repeated in the mail (answered once)
	dropped  int  // informational commands beyond the cap (not answered)
	tooMany  int  // the number of other orders when beyond the cap (none kept)
	any      bool // some line of the mail looks like a command
	// maxInfo and maxOrder are the caps, for the note.
	maxInfo, maxOrder int
}

// capOrders applies the per-mail caps: an informational command repeated in
// the same mail is answered once; beyond MaxInfo distinct ones the rest are
// not answered; beyond MaxOrders other orders, none of them is read (a
// partial turn would be worse than none). known tells a keyword of the
// referee or the game.
func (r *Referee) capOrders(orders []engine.Order, known func(kw string) bool) capped {
	c := capped{maxInfo: r.opt.MaxInfo, maxOrder: r.opt.MaxOrders}
	seen := map[string]bool{}
	keep := make([]bool, len(orders)) // informational commands answered
	other := 0
	for i, o := range orders {
		kw := o.Keyword()
		// A keyword with a hidden character in it (mailfmt shows it as
		// U+FFFD) is a command someone tried to disguise: it is answered
		// with a refusal, never ignored as prose.
		if known(kw) || o.Number() > 0 || strings.ContainsRune(kw, '\uFFFD') || shouted(o.Text) {
			c.any = true
		}
		if !infoCommands[kw] {
			other++
			continue
		}
		key := strings.ToUpper(strings.Join(strings.Fields(o.Alts[0][0]), " "))
		switch {
		case seen[key]:
			c.repeated++
		case len(seen) >= c.maxInfo:
			c.dropped++
		default:
			seen[key], keep[i] = true, true
		}
	}
	if other > c.maxOrder {
		c.tooMany = other
	}
	for i, o := range orders {
		if keep[i] || (!infoCommands[o.Keyword()] && c.tooMany == 0) {
			c.orders = append(c.orders, o)
		}
	}
	return c
}

// note returns the reader's note about what the caps left out ("" when
// nothing).
func (c capped) note(text func(name string, data map[string]any) string) []string {
	var out []string
	if c.repeated > 0 {
		out = append(out, text("info.repeated", map[string]any{"n": c.repeated}))
	}
	if c.dropped > 0 {
		out = append(out, text("info.too_many_info", map[string]any{"n": c.dropped, "max": c.maxInfo}))
	}
	if c.tooMany > 0 {
		out = append(out, text("info.too_many_orders", map[string]any{"n": c.tooMany, "max": c.maxOrder}))
	}
	return out
}

// knownWord reports whether an upper-case word is a command of the referee
// or of the game (in any language), so that a line starting with it looks
// like a command.
func (r *Referee) knownWord(game engine.Game, gameName, word string) bool {
	if word == "" {
		return false
	}
	if refereeCommands[word] {
		return true
	}
	if game != nil {
		for _, c := range game.Info().Commands {
			if strings.EqualFold(c, word) {
				return true
			}
		}
	}
	for _, lg := range templates.Languages {
		if r.render.T.Alias(gameName, lg, word) != word || r.render.T.Alias("referee", lg, word) != word {
			return true
		}
	}
	return false
}

// HasCommand reports whether some line of a mail's command text looks like a
// command of the referee or of any game (the first word is a keyword or an
// alias, or the line is an option number). An out-of-office subject never
// hides such a mail (issue 11, item 5).
func (r *Referee) HasCommand(text string) bool {
	games := engine.Games()
	known := func(kw string) bool {
		if r.knownWord(nil, "referee", kw) {
			return true
		}
		for _, g := range games {
			if r.knownWord(g, g.Info().Name, kw) {
				return true
			}
		}
		return false
	}
	return reading.New(text, nil, nil).HasCommand(known, func() []reading.Vocab {
		vs := make([]reading.Vocab, len(games))
		for i, g := range games {
			vs[i] = r.vocab(g, g.Info().Name)
		}
		return vs
	})
}

// RecentInput is an input of a seat that changed the game, remembered to
// recognise a stale resend of it (issue 11, item 3).
type RecentInput struct {
	Token  int    `json:"token"`
	Digest string `json:"digest"`
}

// staleResend reports whether a seat's mail answering an older state
// repeats the text of an input already applied from that state.
func (s *Seat) staleResend(token int, digest string, current int) bool {
	if token < 0 || token == current {
		return false
	}
	for _, in := range s.Recent {
		if in.Token == token && in.Digest == digest {
			return true
		}
	}
	return false
}

func (s *Seat) remember(token int, digest string) {
	s.Recent = append(s.Recent, RecentInput{Token: token, Digest: digest})
	if len(s.Recent) > maxRecent {
		s.Recent = append([]RecentInput(nil), s.Recent[len(s.Recent)-maxRecent:]...)
	}
}

// repeatedBody counts identical bodies (with the state token they answer)
// from a seat within a day and returns how many times this one came (an auto-responder answering the
// referee's answers; issue 11, item 4). The counts survive other mails in
// between; a few distinct bodies are tracked per day.
func (s *Seat) repeatedBody(digest string, now time.Time) (count int) {
	if now.Sub(s.BodySince) >= 24*time.Hour {
		s.BodySince, s.Bodies = now, nil
	}
	for i := range s.Bodies {
		if s.Bodies[i].Digest == digest {
			s.Bodies[i].Count++
			return s.Bodies[i].Count
		}
	}
	s.Bodies = append(s.Bodies, BodyCount{Digest: digest, Count: 1})
	if len(s.Bodies) > maxBodies {
		s.Bodies = append([]BodyCount(nil), s.Bodies[len(s.Bodies)-maxBodies:]...)
	}
	return 1
}

// BodyCount counts one body of a seat in the current day.
type BodyCount struct {
	Digest string `json:"digest"`
	Count  int    `json:"count"`
}

// maxBodies bounds the bodies counted per seat and day.
const maxBodies = 16

// clipBody cuts a mail body at a line boundary so that it stays within max
// bytes, leaving room for the note that says so.
func clipBody(body string, max int, note string) string {
	if max <= 0 || len(body) <= max {
		return body
	}
	room := max - len(note) - 8
	if room < 0 {
		room = 0
	}
	cut := strings.LastIndexByte(body[:room], '\n')
	if cut < 0 {
		cut = room
		for cut > 0 && (body[cut]&0xC0) == 0x80 {
			cut--
		}
	}
	return body[:cut] + "\n\n[...]\n" + note + "\n"
}

// disguised reports whether a line left out as prose starts with a word
// holding a hidden character (shown by mailfmt as U+FFFD): a disguised
// command gets an answer, never the silence prose gets.
func disguised(lines []string) bool {
	for _, l := range lines {
		if f := strings.Fields(l); len(f) > 0 && strings.ContainsRune(f[0], '\uFFFD') {
			return true
		}
	}
	return false
}

// shouted reports whether a line starts with a word in capitals ("CLAIMM
// 3"): a mistyped command, which is refused, not taken for prose.
func shouted(line string) bool {
	f := strings.Fields(line)
	if len(f) == 0 {
		return false
	}
	letters := 0
	for _, r := range f[0] {
		if unicode.IsLower(r) {
			return false
		}
		if unicode.IsLetter(r) {
			letters++
		}
	}
	return letters >= 2
}

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
