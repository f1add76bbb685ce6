package referee

import (
	"time"

	"github.com/pbem-referee/referee/referee/lifecycle"
	"github.com/pbem-referee/referee/referee/settle"
)

// The end of the apply stage (settling, package referee/settle): once the
// commands of a unit of work are applied, the bots play their seats until
// a human must act, the game ends when it is over, and each seat's clock
// starts, stays or stops; at a tick, what fell due. The room reads and
// changes the game through roomGame (lifecycle.go).

// settle lets bots play their seats until a human must act, ends the game
// when it is over, and restarts the clocks of the seats newly asked
// (settle.Settle).
func (gw settling) settle() error { return settle.Settle(roomGame(gw), gw.w.now) }

// tick handles what fell due in the game (settle.Tick).
func (gw settling) tick() error { return settle.Tick(roomGame(gw), gw.w.now) }

// wake returns when the game next needs attention (lifecycle.Wake).
func (gw settling) wake() time.Time { return lifecycle.Wake(gw.g) }
