package referee

import (
	"testing"

	"github.com/pbem-referee/referee/referee/settle"
	"github.com/pbem-referee/referee/referee/tournament/bymail"
)

// TestDeskCloseWordsAreSettles: the tournament desk closes a game with
// its own words (bymail.CloseAdjudicated, ...), which CloseGame hands to
// settle.Close as they are; a game's page finds an adjudicated game's
// result by settle's word (settle.Result, ClosedAs). A desk word that
// changes alone would leave such a game's page without its result.
func TestDeskCloseWordsAreSettles(t *testing.T) {
	for desk, want := range map[string]string{bymail.CloseAdjudicated: settle.CloseAdjudicated,
		bymail.CloseForfeit: settle.CloseForfeit, bymail.CloseRepaired: settle.CloseRepaired} {
		if desk != want {
			t.Errorf("the desk closes with %q, settle's word is %q", desk, want)
		}
	}
}
