package lifecycle

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/referee/deadline"
	"github.com/pbem-referee/referee/referee/records"
	"github.com/pbem-referee/referee/templates"
)

var gameIDRe = regexp.MustCompile(`^[a-z][a-z0-9]{1,23}$`)

// ValidID reports whether id is a game id: a lower-case letter, then
// letters or digits, 2 to 24 in all.
func ValidID(id string) bool { return gameIDRe.MatchString(id) }

// NewID picks the id of a new game: g<n> for the first n from count+1
// that no game has.
func NewID(count int, taken func(id string) bool) string {
	for k := count + 1; ; k++ {
		if id := fmt.Sprintf("g%d", k); !taken(id) {
			return id
		}
	}
}

// DrawSeatOrder puts the seats of a game that starts in the order drawn
// from its seed (so that it can be checked once the seed is revealed),
// unless the game keeps its order (Game.Ordered), and returns the
// permutation: perm[new] = old.
func DrawSeatOrder(g *records.Game) (perm []int) {
	rnd := engine.NewRand(g.Seed + "/seat-order")
	perm = make([]int, len(g.Seats))
	for i := range perm {
		perm[i] = i
	}
	if !g.Ordered {
		rnd.Shuffle(len(g.Seats), func(i, j int) {
			g.Seats[i], g.Seats[j] = g.Seats[j], g.Seats[i]
			perm[i], perm[j] = perm[j], perm[i]
		})
	}
	return perm
}

// Clocks starts, keeps or stops each seat's deadline at now, from the
// decisions the table waits for; acted tells whether a seat moved in this
// unit of work. A seat not waited for, a bot's and an inactive seat have
// no clock; a simultaneous turn keeps one clock for all its steps (a game
// may resolve a turn step by step, as Fromage does); a sequential decision restarts it when the seat moved or was asked
// something else; a new clock is pushed by the seat's vacations within
// the policy's budget. It returns the seats whose clock (re)started: they
// are asked.
func Clocks(g *records.Game, waiting []engine.Decision, acted func(seat int) bool, now time.Time) (asked []int) {
	bySeat := map[int]engine.Decision{}
	for _, d := range waiting {
		bySeat[d.Seat] = d
	}
	for i := range g.Seats {
		s := &g.Seats[i]
		d, ok := bySeat[i]
		if !ok || s.Bot != "" || !s.Active() {
			s.Deadline = nil
			continue
		}
		if dl := s.Deadline; dl != nil {
			if d.Mode == engine.Simultaneous && dl.Slot == d.Slot {
				continue
			}
			if !acted(i) && dl.Kind == d.Kind && dl.Slot == d.Slot && dl.Group == d.Group {
				continue
			}
		}
		asked = append(asked, i)
		due := g.Policy.Due(d.Kind, now, templates.Zone(s.TZ))
		if due.IsZero() {
			s.Deadline = &records.Deadline{Kind: d.Kind, Slot: d.Slot, Group: d.Group, Start: now}
			continue
		}
		push, days := VacationPush(s.Vacation, now, due, g.Policy.VacationDays-s.VacationUsed)
		if push > 0 {
			due = due.Add(push)
			s.VacationUsed += days
		}
		s.Deadline = &records.Deadline{Kind: d.Kind, Slot: d.Slot, Group: d.Group, Start: now, Due: due,
			Reminders: g.Policy.Remind(now, due)}
	}
	return asked
}

// VacationPush is deadline.VacationPush over a seat's vacations.
func VacationPush(vs []records.Vacation, start, due time.Time, budgetLeft float64) (time.Duration, float64) {
	spans := make([]deadline.Span, len(vs))
	for i, v := range vs {
		spans[i] = deadline.Span(v)
	}
	return deadline.VacationPush(spans, start, due, budgetLeft)
}

// Wake is when a game next needs attention: a deadline, a reminder, a
// digest or a held receipt that goes out alone (zero: never; a game that
// is not running sleeps).
func Wake(g *records.Game) time.Time {
	if g.Status != records.StatusRunning {
		return time.Time{}
	}
	var at time.Time
	earliest := func(t time.Time) {
		if !t.IsZero() && (at.IsZero() || t.Before(at)) {
			at = t
		}
	}
	for _, s := range g.Seats {
		if dl := s.Deadline; dl != nil {
			earliest(dl.Due)
			if dl.Sent < len(dl.Reminders) {
				earliest(dl.Reminders[dl.Sent])
			}
		}
		if s.Notify == "digest" {
			earliest(s.DigestDue)
		}
		earliest(s.HeldDue())
	}
	return at
}

// Due is what a tick finds for one seat.
type Due struct {
	// Expired: the deadline passed (it is cleared; the default move is
	// the core's to apply, counted as missed).
	Expired bool
	// Reminder: a reminder fell due (counted as sent).
	Reminder bool
	// Digest: the seat's daily digest fell due.
	Digest bool
}

// Tick fires a seat's clock at now: an expired deadline is cleared and
// nothing else is due; otherwise the reminders due are counted as sent,
// and a digest is due if the seat asked for digests.
func Tick(s *records.Seat, now time.Time) Due {
	var due Due
	if dl := s.Deadline; dl != nil {
		if !dl.Due.IsZero() && !now.Before(dl.Due) {
			s.Deadline = nil
			return Due{Expired: true}
		}
		for dl.Sent < len(dl.Reminders) && !now.Before(dl.Reminders[dl.Sent]) {
			dl.Sent++
			due.Reminder = true
		}
	}
	if s.Notify == "digest" && !s.DigestDue.IsZero() && !now.Before(s.DigestDue) {
		due.Digest = true
	}
	return due
}

// Missed counts a missed move of a seat; it reports whether the seat now
// goes to a bot (the policy's MissLimit reached by a human seat), and
// then names the bot: the game's second bot (the sensible one), else
// "random".
func Missed(s *records.Seat, pol deadline.Policy, bots []string) (toBot bool) {
	s.Missed++
	s.MissedTotal++
	if lim := pol.MissLimit; lim <= 0 || s.Missed < lim || s.Bot != "" {
		return false
	}
	s.Bot = BotName(bots)
	return true
}

// BotName is the bot that takes over seats: the game's second bot (the
// sensible one), else "random".
func BotName(bots []string) string {
	if len(bots) > 1 {
		return bots[1]
	}
	return "random"
}

// End closes a finished game's record at now: over, every clock stopped.
// It reports false when the game was over already.
func End(g *records.Game, now time.Time) bool {
	if g.Status == records.StatusOver {
		return false
	}
	g.Status, g.Ended = records.StatusOver, now
	for i := range g.Seats {
		g.Seats[i].Deadline = nil
	}
	return true
}

// ResultLine writes a game's result by place: "1. Ann 23 / 2. Bob 18".
func ResultLine(g *records.Game, res *engine.Result) string {
	type row struct {
		rank, score int
		name        string
	}
	var rows []row
	for _, sc := range res.Scores {
		if sc.Seat >= 0 && sc.Seat < len(g.Seats) && sc.Seat < len(res.Rank) {
			rows = append(rows, row{res.Rank[sc.Seat], sc.Total, g.Seats[sc.Seat].Name})
		}
	}
	sort.SliceStable(rows, func(i, j int) bool { return rows[i].rank < rows[j].rank })
	var parts []string
	for _, r := range rows {
		parts = append(parts, fmt.Sprintf("%d. %s %d", r.rank, r.name, r.score))
	}
	return strings.Join(parts, " / ")
}

// Scores is each of n seats' total in a result (0 for a seat it does not
// score).
func Scores(res *engine.Result, n int) []int {
	out := make([]int, n)
	for _, s := range res.Scores {
		if s.Seat >= 0 && s.Seat < n {
			out[s.Seat] = s.Total
		}
	}
	return out
}
