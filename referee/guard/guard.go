package guard

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"time"
	"unicode"

	"github.com/pbem-referee/referee/engine"
)

// Limits that keep one mail from costing more than a mail's worth (issue
// 11, item 1), with their defaults (the core's Options.MaxOrders, MaxInfo,
// MaxReplyBytes).
const (
	DefaultMaxOrders     = 100
	DefaultMaxInfo       = 5
	DefaultMaxReplyBytes = 128 << 10
	// DefaultMaxEntrants caps a tournament's entrants (issue 23): the
	// 10,000 organisers enter (issue 24; START of 5,000 games and the
	// opening of their next round peak at ~116 and ~124 MB of heap:
	// BenchmarkTournamentStart/10000, BenchmarkTournamentRoundOpening).
	DefaultMaxEntrants = 10000
	// MaxOrgLines is how many command lines of one organiser mail are
	// read; the rest are listed as not read (issue 23: ENTER lines per
	// mail are bounded).
	MaxOrgLines = 500
	// MaxSayRunes is the longest SAY text relayed; MaxOptionBytes the
	// longest game or tournament option key or value (issue 23).
	MaxSayRunes    = 1000
	MaxOptionBytes = 200
	// MaxLoggedInput bounds the text of an input kept in the game's log.
	MaxLoggedInput = 8 << 10
	// MaxRecent is how many applied inputs per seat are remembered to
	// recognise a stale resend of one of them.
	MaxRecent = 8
	// LoopRepeats is the number of identical bodies from a seat in a day
	// after which the referee stops answering them (they are still read).
	LoopRepeats = 3
	// MaxBodies bounds the bodies counted per seat and day.
	MaxBodies = 16
)

// Caps are the per-mail caps: MaxInfo distinct informational commands,
// MaxOrders other orders.
type Caps struct {
	MaxInfo, MaxOrders int
}

// Capped is what Caps.Apply kept of a mail's orders and what it left out.
type Capped struct {
	Orders   []engine.Order
	Repeated int  // informational commands repeated in the mail (answered once)
	Dropped  int  // informational commands beyond the cap (not answered)
	TooMany  int  // the number of other orders when beyond the cap (none kept)
	Any      bool // some line of the mail looks like a command
	// MaxInfo and MaxOrder are the caps, for the note.
	MaxInfo, MaxOrder int
}

// Apply applies the caps to a mail's orders: an informational command
// (info) repeated in the same mail is answered once; beyond MaxInfo
// distinct ones the rest are not answered; beyond MaxOrders other orders,
// none of them is read (a partial turn would be worse than none). known
// tells a keyword of the referee or the game.
func (cp Caps) Apply(orders []engine.Order, known, info func(kw string) bool) Capped {
	c := Capped{MaxInfo: cp.MaxInfo, MaxOrder: cp.MaxOrders}
	seen := map[string]bool{}
	keep := make([]bool, len(orders)) // informational commands answered
	other := 0
	for i, o := range orders {
		kw := o.Keyword()
		// A keyword with a hidden character in it (mailfmt shows it as
		// U+FFFD) is a command someone tried to disguise: it is answered
		// with a refusal, never ignored as prose.
		if known(kw) || o.Number() > 0 || strings.ContainsRune(kw, '\uFFFD') || Shouted(o.Text) {
			c.Any = true
		}
		if !info(kw) {
			other++
			continue
		}
		key := strings.ToUpper(strings.Join(strings.Fields(o.Alts[0][0]), " "))
		switch {
		case seen[key]:
			c.Repeated++
		case len(seen) >= c.MaxInfo:
			c.Dropped++
		default:
			seen[key], keep[i] = true, true
		}
	}
	if other > c.MaxOrder {
		c.TooMany = other
	}
	for i, o := range orders {
		if keep[i] || (!info(o.Keyword()) && c.TooMany == 0) {
			c.Orders = append(c.Orders, o)
		}
	}
	return c
}

// Player is the cap of a player's mail at their own address: every line
// is a question, so at most MaxInfo orders that are not chat (chat tells
// by line number: a greeting, a sign-off, a signature's lines) are kept;
// beyond them the rest are not read, and only those that are not chat
// are counted (Dropped; issue 25: an Outlook signature is no question).
// None is refused as one of too many orders.
func (c Capped) Player(chat func(line int) bool) Capped {
	n := 0
	for i, o := range c.Orders {
		if n == c.MaxInfo {
			for _, o := range c.Orders[i:] {
				if !chat(o.Line) {
					c.Dropped++
				}
			}
			c.Orders = c.Orders[:i]
			break
		}
		if !chat(o.Line) {
			n++
		}
	}
	c.TooMany = 0
	return c
}

// Note returns the reader's notes about what the caps left out (none when
// nothing), worded by text (a template name and its data).
func (c Capped) Note(text func(name string, data map[string]any) string) []string {
	var out []string
	if c.Repeated > 0 {
		out = append(out, text("info.repeated", map[string]any{"n": c.Repeated}))
	}
	if c.Dropped > 0 {
		out = append(out, text("info.too_many_info", map[string]any{"n": c.Dropped, "max": c.MaxInfo}))
	}
	if c.TooMany > 0 {
		out = append(out, text("info.too_many_orders", map[string]any{"n": c.TooMany, "max": c.MaxOrder}))
	}
	return out
}

// Digest identifies a mail's command text for loop and resend detection:
// the same words in any case and spacing give the same digest.
func Digest(text string) string {
	norm := strings.Join(strings.Fields(strings.ToUpper(text)), " ")
	sum := sha256.Sum256([]byte(norm))
	return hex.EncodeToString(sum[:12])
}

// RecentInput is an input of a seat that changed the game, remembered to
// recognise a stale resend of it (issue 11, item 3).
type RecentInput struct {
	Token  int    `json:"token"`
	Digest string `json:"digest"`
}

// StaleResend reports whether a seat's mail answering an older state
// (token, not current) repeats the text of an input already applied from
// that state.
func StaleResend(recent []RecentInput, token int, digest string, current int) bool {
	if token < 0 || token == current {
		return false
	}
	for _, in := range recent {
		if in.Token == token && in.Digest == digest {
			return true
		}
	}
	return false
}

// Remember adds an applied input to a seat's recent ones, keeping the last
// MaxRecent.
func Remember(recent []RecentInput, token int, digest string) []RecentInput {
	recent = append(recent, RecentInput{Token: token, Digest: digest})
	if len(recent) > MaxRecent {
		recent = append([]RecentInput(nil), recent[len(recent)-MaxRecent:]...)
	}
	return recent
}

// BodyCount counts one body of a seat in the current day.
type BodyCount struct {
	Digest string `json:"digest"`
	Count  int    `json:"count"`
}

// CountBody counts one more identical body (with the state token it
// answers) from a seat, in the day that began at since, and returns the
// counts, the day's start and how many times this body came in it (an
// auto-responder answering the referee's answers; issue 11, item 4). The
// counts survive other mails in between; MaxBodies distinct bodies are
// tracked per day, a new day starts the counts again.
func CountBody(counts []BodyCount, since time.Time, digest string, now time.Time) ([]BodyCount, time.Time, int) {
	if now.Sub(since) >= 24*time.Hour {
		since, counts = now, nil
	}
	for i := range counts {
		if counts[i].Digest == digest {
			counts[i].Count++
			return counts, since, counts[i].Count
		}
	}
	counts = append(counts, BodyCount{Digest: digest, Count: 1})
	if len(counts) > MaxBodies {
		counts = append([]BodyCount(nil), counts[len(counts)-MaxBodies:]...)
	}
	return counts, since, 1
}

// ClipInput bounds the text of an input stored in the log
// (MaxLoggedInput, cut on a character boundary).
func ClipInput(text string) string {
	if len(text) <= MaxLoggedInput {
		return text
	}
	cut := MaxLoggedInput
	for cut > 0 && (text[cut]&0xC0) == 0x80 {
		cut--
	}
	return text[:cut] + "\n[...]"
}

// ClipBody cuts a mail body at a line boundary so that it stays within max
// bytes, leaving room for the note that says so.
func ClipBody(body string, max int, note string) string {
	if max <= 0 || len(body) <= max {
		return body
	}
	// The tail is "\n\n[...]\n" (8 bytes), the note and its "\n".
	room := max - len(note) - 9
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

// Disguised reports whether a line left out as prose starts with a word
// holding a hidden character (shown by mailfmt as U+FFFD): a disguised
// command gets an answer, never the silence prose gets.
func Disguised(lines []string) bool {
	for _, l := range lines {
		if f := strings.Fields(l); len(f) > 0 && strings.ContainsRune(f[0], '\uFFFD') {
			return true
		}
	}
	return false
}

// Shouted reports whether a line starts with a word in capitals ("CLAIMM
// 3"): a mistyped command, which is refused, not taken for prose.
func Shouted(line string) bool {
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

// Quote renders a remote server's text (a bounce's reason) for a reader
// as quoted lines: tabs become spaces, control and format characters
// (bidi overrides, zero-width joiners) are removed, blank lines dropped,
// each line clipped to QuoteWidth runes (the last one an ellipsis), at
// most QuoteLines lines.
func Quote(s string) []string {
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
		if r := []rune(line); len(r) > QuoteWidth {
			line = string(r[:QuoteWidth-1]) + "…"
		}
		out = append(out, line)
		if len(out) == QuoteLines {
			break
		}
	}
	return out
}

// A quoted remote text (Quote) is at most QuoteLines lines of QuoteWidth
// runes.
const (
	QuoteLines = 4
	QuoteWidth = 72
)
