package referee

import (
	"github.com/pbem-referee/referee/referee/cmdtable"
	"github.com/pbem-referee/referee/templates"
)

// isKeyword reports whether an upper-cased word is a command keyword of the
// referee or of any game, or an alias of one in any language
// (cmdtable.IsKeyword, with the referee's templates).
func (r *Referee) isKeyword(w string) bool {
	var t *templates.Set
	if r.render != nil {
		t = r.render.T
	}
	return cmdtable.IsKeyword(t, w)
}

// The seat's keyword sets of the command table (package referee/cmdtable)
// the abuse guards ask about (abuse.go).
var refereeCommands, infoCommands = cmdtable.SeatKeywords, cmdtable.InfoKeywords

// ignoredInfo is the reply's list of ignored lines.
func (gw seatMail) ignoredInfo(seat int, ignored []string) {
	if len(ignored) == 0 {
		return
	}
	rep := gw.reply(seat)
	rep.Info = append(rep.Info, gw.text(seat, "info.ignored", map[string]any{"n": len(ignored), "lines": ignored}))
}
