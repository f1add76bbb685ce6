package query

import (
	"fmt"
	"strings"

	"github.com/pbem-referee/referee/referee/cmdtable"
	"github.com/pbem-referee/referee/referee/tell"
	"github.com/pbem-referee/referee/templates"
)

// Help is a seat's HELP [topic] for its reader rd (rd.Game: the game's
// scope, rd.Lang: the seat's language): the game's own help of the topic,
// its commands as the reader writes them (issue 12.7), then the referee's
// (HELP alone: with the list of the referee's seat commands, the table's
// rows); "info.no_help" when neither has one. The topic is read in the
// reader's language, else any of ours: AIUTO PIAZZA is HELP PLACE.
func Help(rn *tell.Renderer, rd tell.Reader, topic string) string {
	t := rn.T
	var parts []string
	name := "help"
	if topic != "" {
		for _, lg := range append([]string{rd.Lang}, templates.Languages...) {
			if kw := t.Alias(rd.Game, lg, topic); kw != topic {
				topic = kw
				break
			}
		}
		name = "help." + topic
	}
	if t.Has(rd.Game, rd.Lang, name) {
		c := rn.Ctx(rd, nil)
		if s, err := t.Render(rd.Game, rd.Lang, name, c); err == nil {
			parts = append(parts, templates.Fold(templates.Reflow(c.KwText(s), templates.Width)))
		}
	}
	if t.Has("referee", rd.Lang, name) {
		var data map[string]any
		if name == "help" {
			rows, err := cmdtable.HelpRows(rn, rd, cmdtable.Seat, "", nil)
			if err != nil {
				rows = []string{err.Error()}
			}
			data = map[string]any{"rows": rows}
		}
		if s, err := t.Render("referee", rd.Lang, name, rn.Ctx(rd, data)); err == nil {
			parts = append(parts, s)
		}
	}
	if len(parts) == 0 {
		s, err := t.Render("referee", rd.Lang, "info.no_help", rn.Ctx(rd, map[string]any{"topic": topic}))
		if err != nil {
			s = fmt.Sprintf("(%s: %v)", "info.no_help", err)
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, "\n\n")
}
