package dicebrewing

import (
	"testing"

	"github.com/pbem-referee/referee/engine/dicebrewing/position"

	"github.com/pbem-referee/referee/engine/enginetest"
)

// TestSelfPlayOneMailTurns: random bots send every turn as one mail of one
// command per line, forced choices written out; no line may be refused,
// dropped or set aside (issue 21, HA §10.1). Random players need the
// round limit to end. -selfplay=N sets the games per
// player count and variant.
func TestSelfPlayOneMailTurns(t *testing.T) {
	enginetest.SelfPlayTest(t, Game, 20, map[string]string{position.OptLimit: "10"})
}
