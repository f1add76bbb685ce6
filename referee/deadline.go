package referee

import (
	"github.com/pbem-referee/referee/referee/deadline"
	"github.com/pbem-referee/referee/referee/lifecycle"
)

// The deadline rules (a game's policy, when a decision is due, its
// reminders, how a vacation pushes it) are package referee/deadline's; the
// core keeps the clocks (package referee/settle). The names below keep the
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
var vacationPush = lifecycle.VacationPush

// parseHours is deadline.ParseHours (48h, 2d, 90m).
func parseHours(s string) (float64, error) { return deadline.ParseHours(s) }
