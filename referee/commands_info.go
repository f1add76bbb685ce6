package referee

import (
	"strconv"
	"strings"

	"github.com/pbem-referee/referee/engine"
)

// infoFamily are what a seat asks to be told: they change nothing in the
// game (the table's "info" family, see commands.go).
var infoFamily = []command{
	{Keyword: "HELP", Who: bySeat, Once: true, Usage: "HELP [command]", Help: "help.HELP", Row: 1, seat: seatHelp},
	{Keyword: "STATUS", Who: bySeat, Once: true, Usage: "STATUS [FULL]", Help: "help.STATUS", Row: 2, seat: seatStatus},
	{Keyword: "RULE", Who: bySeat, Once: true, Usage: "RULE <id>", Help: "help.RULE", Row: 3, seat: seatRule,
		Errors: []string{"usage", "no_rule"}},
	{Keyword: "LOG", Who: bySeat, Once: true, Usage: "LOG [n]", Help: "help.LOG", Row: 4, seat: seatLog},
	{Keyword: "OBSERVE", Who: bySeat, Once: true, Usage: "OBSERVE <game>", Help: "help.OBSERVE", Row: 12, seat: seatObserve,
		Errors: []string{"usage", "no_game"}},
	{Keyword: "LIST", Who: bySeat, Once: true, Usage: "LIST", Help: "help.LIST", seat: seatList},
}

// seatCall is one referee command of a seat's mail, as its handler sees
// it: the line answered is done unless the handler fails it.
type seatCall struct {
	gw   seatMail
	seat int
	kw   string
	cmd  *command
	o    engine.Order
	args []string // the words after the keyword
	line replyLine
}

// s is the seat.
func (c *seatCall) s() *Seat { return &c.gw.g.Seats[c.seat] }

// done answers the line as done.
func (c *seatCall) done() (replyLine, error) { return c.line, nil }

// fail answers the line as rejected, with an error template
// ("error.<code>") and its parameters.
func (c *seatCall) fail(code string, data map[string]any) (replyLine, error) {
	c.line.Status = LineRejected
	c.line.Errors = append(c.line.Errors, &engine.RuleError{Code: code, Params: data})
	return c.line, nil
}

// usage fails the line with the command's syntax.
func (c *seatCall) usage() (replyLine, error) {
	return c.fail("usage", map[string]any{"usage": c.cmd.Usage})
}

// info adds a note (a template of the referee's) to the seat's reply.
func (c *seatCall) info(name string, data map[string]any) {
	rep := c.gw.reply(c.seat)
	rep.Info = append(rep.Info, c.gw.text(c.seat, name, data))
}

// say adds text already rendered to the seat's reply.
func (c *seatCall) say(text string) {
	rep := c.gw.reply(c.seat)
	rep.Info = append(rep.Info, text)
}

// command runs one referee command of a seat through the table.
func (gw seatMail) command(seat int, kw string, o engine.Order) (replyLine, error) {
	c := &seatCall{gw: gw, seat: seat, kw: kw, o: o, args: strings.Fields(o.Alts[0][0])[1:],
		line: replyLine{Status: LineDone, Text: o.Text}}
	rows := lookupCommands(bySeat, kw)
	if len(rows) == 0 {
		return c.done()
	}
	c.cmd = rows[0]
	return c.cmd.seat(c)
}

func seatHelp(c *seatCall) (replyLine, error) {
	topic := ""
	if len(c.args) > 0 {
		topic = strings.ToUpper(c.args[0])
		// HELP <card code or name> (issue 22): HELP HEADBREWER, HELP Head
		// Brewer, AIUTO Mastro birraio.
		// A code that is also a command (REROLL, the Dice Brewing command
		// and action token) gets both.
		text, ok := c.gw.cardHelp(c.seat, strings.Join(c.args, " "))
		if len(c.args) == 1 {
			// A word of a menu line in the reader's language: AIUTO
			// LAVORA is HELP PROCESS, AIDE SAUTER is HELP SKIP.
			if w := c.gw.helpWord(c.seat, topic); w != topic {
				topic = w
				if !ok {
					text, ok = c.gw.cardHelp(c.seat, w)
				}
			}
		}
		if base := strings.TrimRight(topic, "0123456789+"); !ok && len(c.args) == 1 && base != topic && base != "" && !c.gw.hasHelp(c.seat, topic) {
			// A code with a slot number or a die value (Dice Brewing's
			// MH1+, Y6) names its building or die.
			text, ok = c.gw.cardHelp(c.seat, base)
		}
		if ok {
			if c.gw.hasHelp(c.seat, topic) {
				text = c.gw.help(c.seat, topic) + "\n\n" + text
			}
			c.say(text)
			return c.done()
		}
	}
	c.say(c.gw.help(c.seat, topic))
	return c.done()
}

func seatStatus(c *seatCall) (replyLine, error) {
	gw := c.gw
	gw.seat(c.seat).force, gw.seat(c.seat).status = true, true
	// STATUS FULL in any language: the words of templates/referee/*/args.txt.
	if len(c.args) > 0 && gw.w.r.render.T.Arg("referee", gw.reader(c.seat).Lang, c.args[0]) == "FULL" {
		gw.seat(c.seat).full = true
	}
	return c.done()
}

func seatRule(c *seatCall) (replyLine, error) {
	if len(c.args) == 0 {
		return c.usage()
	}
	gw := c.gw
	id := strings.ToUpper(c.args[0])
	rd := gw.reader(c.seat)
	if !gw.w.r.render.T.Has(gw.g.Game, rd.Lang, "rule."+id) {
		return c.fail("no_rule", map[string]any{"rule": id})
	}
	t, err := gw.w.r.render.T.Render(gw.g.Game, rd.Lang, "rule."+id, gw.w.r.render.ctx(rd, nil))
	if err != nil {
		return c.line, err
	}
	if !strings.HasPrefix(t, id+" ") && !strings.HasPrefix(t, id+":") {
		t = id + ": " + t // the game's text does not name its rule: say which
	}
	c.say(t)
	return c.done()
}

func seatLog(c *seatCall) (replyLine, error) {
	n := 20
	if len(c.args) > 0 {
		if v, err := strconv.Atoi(c.args[0]); err == nil && v > 0 && v <= 500 {
			n = v
		}
	}
	text, err := c.gw.logText(c.seat, n)
	if err != nil {
		return c.line, err
	}
	c.say(text)
	return c.done()
}

func seatObserve(c *seatCall) (replyLine, error) {
	if len(c.args) != 1 {
		return c.usage()
	}
	s := c.s()
	return c.line, c.gw.w.observe(strings.ToLower(c.args[0]), s.Address, s.Lang, c.gw.gameWork, c.seat)
}

func seatList(c *seatCall) (replyLine, error) {
	text, err := playerWork{c.gw.w}.listOpen(c.s().Lang)
	if err != nil {
		return c.line, err
	}
	c.say(text)
	return c.done()
}
