package query

import (
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
		topic = helpTopic(t, rd, topic)
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
				rows = []string{t.Internal(rd.Lang)} // never Go's text to a reader
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
			s = t.Internal(rd.Lang) // never Go's text to a reader
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, "\n\n")
}

// helpTopic is the help topic a HELP word names: the keyword it is an
// alias of (in the reader's language, else any of ours), else the word;
// a code with a number that has no help of its own names its family's
// (issue 22: HELP W1 is the token windows', HELP R12 the track's resource
// spaces', HELP MH1+ the building's).
func helpTopic(t *templates.Set, rd tell.Reader, topic string) string {
	for _, lg := range append([]string{rd.Lang}, templates.Languages...) {
		if kw := t.Alias(rd.Game, lg, topic); kw != topic {
			return kw
		}
	}
	if base := strings.TrimRight(topic, "0123456789+"); base != topic && base != "" && !hasTopic(t, rd, topic) && hasTopic(t, rd, base) {
		return base
	}
	return topic
}

// hasTopic reports whether the game's or the referee's help has topic tp
// in the reader's language.
func hasTopic(t *templates.Set, rd tell.Reader, tp string) bool {
	return t.Has(rd.Game, rd.Lang, "help."+tp) || t.Has("referee", rd.Lang, "help."+tp)
}
