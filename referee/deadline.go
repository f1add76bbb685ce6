package referee

import (
	"time"

	"github.com/pbem-referee/referee/referee/deadline"
)

// The deadline rules (a game's policy, when a decision is due, its
// reminders, how a vacation pushes it) are package referee/deadline's; the
// core keeps the clocks (settle.go, tick.go). The names below keep the
// core's API (Options.Policy, Game.Policy) as it was.
type (
	// Policy is a game's deadline policy (deadline.Policy).
	Policy = deadline.Policy
	// PolicyView is a policy as templates show it (deadline.PolicyView).
	PolicyView = deadline.PolicyView
)

// DefaultPolicy is deadline.DefaultPolicy.
func DefaultPolicy() Policy { return deadline.DefaultPolicy() }

// ParsePolicy is deadline.ParsePolicy.
func ParsePolicy(s string) (Policy, error) { return deadline.ParsePolicy(s) }

// vacationPush is deadline.VacationPush over a seat's vacations.
func vacationPush(vs []Vacation, start, due time.Time, budgetLeft float64) (time.Duration, float64) {
	spans := make([]deadline.Span, len(vs))
	for i, v := range vs {
		spans[i] = deadline.Span(v)
	}
	return deadline.VacationPush(spans, start, due, budgetLeft)
}

// parseHours is deadline.ParseHours (48h, 2d, 90m).
func parseHours(s string) (float64, error) { return deadline.ParseHours(s) }
