package bymail

import (
	"github.com/pbem-referee/referee/referee/tournament"
	"github.com/pbem-referee/referee/referee/tournament/bymail/tourrec"
	"github.com/pbem-referee/referee/templates"
)

// WakePrefix marks a tournament's entry in the store's wake index (game
// ids never hold a colon): the core hands such an entry to Tick.
const WakePrefix = tourWakePrefix

// GameEnded is the core's report of a game that ended with a result in
// this unit of work: the players' ratings move, and a tournament game's
// result is recorded (which may complete the round and open the next).
func GameEnded(h Host, end GameEnd) error { return newDesk(h).gameEnded(end) }

// Tick handles the clock of tournament id (its wake entry came due).
func Tick(h Host, id string) error { return newDesk(h).tourTick(id) }

// Record returns a tournament's whole record.
func Record(rec Records, id string) (*tournament.Tournament, error) { return tourrec.Load(rec, id) }

// OrgLang is the language a tournament's organiser chose (lang= at NEW
// TOURNAMENT), "" when none or no such tournament. It reads the
// record's head only (tournament.OrgLangOf): every game that ends asks.
func OrgLang(rec Records, id string) string {
	if raw, err := rec.Tournament(id); err == nil {
		if lang := tournament.OrgLangOf(raw); templates.IsLanguage(lang) {
			return lang
		}
	}
	return ""
}
