package records

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/pbem-referee/referee/mailfmt/mailmsg"
	"github.com/pbem-referee/referee/referee/guard"
	"github.com/pbem-referee/referee/referee/tell"
)

// Greeting is the name a mail to the seat's player uses.
func (s Seat) Greeting() string { return cmp.Or(s.Player, s.Name) }

// HandOver is who held seat s before, once s's player hands it on at
// move token (the game's move number; 0 before the start): s's player is
// kept with it when they played a move since the last hand-over, else
// (replaced before playing) not named (issue 24).
func HandOver(s Seat, token int) []tell.Holder {
	last := 0
	if n := len(s.Before); n > 0 {
		last = s.Before[n-1].Through
	}
	if token <= last {
		return s.Before
	}
	return append(slices.Clip(s.Before), tell.Holder{Name: s.Greeting(), Address: s.Address, Through: token})
}

// RolledBack is who held a seat before, once a ROLLBACK took the game
// back to move `to` (issue 24): the hand-overs stay (the player holding
// the seat now keeps it and replays the undone moves), and the moves are
// re-dated: an earlier holder played at most through move `to`, and one
// left with no move of their own (every move of theirs undone) is no
// longer named.
func RolledBack(before []tell.Holder, to int) []tell.Holder {
	var out []tell.Holder
	last := 0
	for _, h := range before {
		h.Through = min(h.Through, to)
		if h.Through > last {
			out = append(out, h)
			last = h.Through
		}
	}
	return out
}

// Active reports whether the seat takes part in play (not declined).
func (s Seat) Active() bool { return s.State == SeatPlaying }

// HeldDue is when the seat's held receipt must go out alone (zero: none).
func (s Seat) HeldDue() time.Time { return s.Held.AloneAt() }

// StaleResend reports whether a seat's mail answering an older state
// repeats the text of an input already applied from that state
// (guard.StaleResend).
func (s *Seat) StaleResend(token int, digest string, current int) bool {
	return guard.StaleResend(s.Recent, token, digest, current)
}

// Remember records an input of the seat that was applied (guard.Remember).
func (s *Seat) Remember(token int, digest string) { s.Recent = guard.Remember(s.Recent, token, digest) }

// RepeatedBody counts identical bodies from a seat within a day and
// returns how many times this one came (guard.CountBody).
func (s *Seat) RepeatedBody(digest string, now time.Time) (count int) {
	s.Bodies, s.BodySince, count = guard.CountBody(s.Bodies, s.BodySince, digest, now)
	return count
}

// SeatOfAddress returns the seat of an address in a game, or -1.
func (g *Game) SeatOfAddress(addr string) int {
	for i, s := range g.Seats {
		if strings.EqualFold(s.Address, addr) {
			return i
		}
	}
	return -1
}

// Names returns the seats' names in the game (the engine's: the first
// holder's; Holding names who holds each seat now).
func (g *Game) Names() []string {
	n := make([]string, len(g.Seats))
	for i, s := range g.Seats {
		n[i] = s.Name
	}
	return n
}

// Joined counts the seats that have joined.
func (g *Game) Joined() int {
	n := 0
	for _, s := range g.Seats {
		if s.State == SeatJoined || s.State == SeatPlaying {
			n++
		}
	}
	return n
}

// UniqueName makes a display name unique within the game.
func (g *Game) UniqueName(name string) string {
	name = mailmsg.CleanName(name) // issue 23: safe in any header, bounded
	if name == "" {
		name = "player"
	}
	taken := map[string]bool{}
	for _, s := range g.Seats {
		taken[strings.ToLower(s.Name)] = true
	}
	if !taken[strings.ToLower(name)] {
		return name
	}
	for k := 2; ; k++ {
		n := fmt.Sprintf("%s%d", name, k)
		if !taken[strings.ToLower(n)] {
			return n
		}
	}
}

// ShiftDeadlines moves every seat's running deadline and its reminders
// later by d (the game resumed after a pause of d); a seat with no
// deadline, or one not yet due (zero), keeps it so.
func (g *Game) ShiftDeadlines(d time.Duration) {
	for i := range g.Seats {
		if dl := g.Seats[i].Deadline; dl != nil {
			if !dl.Due.IsZero() {
				dl.Due = dl.Due.Add(d)
			}
			for k := range dl.Reminders {
				dl.Reminders[k] = dl.Reminders[k].Add(d)
			}
		}
	}
}
