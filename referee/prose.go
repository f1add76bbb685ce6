package referee

import (
	"github.com/pbem-referee/referee/mailfmt"
	"github.com/pbem-referee/referee/referee/cmdtable"
	"github.com/pbem-referee/referee/templates"
)

// keywords are the command keywords of the referee and of every game, and
// their aliases in every language (cmdtable.KeywordSet: cmdtable.IsKeyword,
// with the referee's templates), as mailfmt's readers of prose hold them.
func (r *Referee) keywords() *mailfmt.Keywords {
	var t *templates.Set
	if r.render != nil {
		t = r.render.T
	}
	return cmdtable.KeywordSet(t)
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
