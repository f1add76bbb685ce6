package referee

import (
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/templates"
)

// seatFamily are what a seat changes about itself in a game: its
// queue, its messages, its absences, its settings, its seat (the table's
// "seat" family, see commands.go).
var seatFamily = []command{
	{Keyword: "CLEAR", Who: bySeat, Usage: "CLEAR", Help: "help.CLEAR", Row: 5, Overridable: true, seat: seatClear},
	{Keyword: "UNDO", Who: bySeat, Usage: "UNDO", Help: "help.UNDO", Row: 6, Overridable: true, seat: seatUndo,
		Errors: []string{"nothing_to_undo"}},
	{Keyword: "SAY", Who: bySeat, Once: true, Usage: "SAY <player|all>: text", Help: "help.SAY", Row: 7, seat: seatSay,
		Errors: []string{"usage", "no_player"}},
	{Keyword: "VACATION", Who: bySeat, Usage: "VACATION <YYYY-MM-DD> <YYYY-MM-DD>", Help: "help.VACATION", Row: 8,
		seat: seatVacation, Errors: []string{"usage", "vacation_past", "vacation_budget"}},
	{Keyword: "NOTIFY", Who: bySeat, Usage: "NOTIFY every|turn|digest|receipts|fold|none", Help: "help.NOTIFY", Row: 9, seat: seatNotify,
		Errors: []string{"usage"}},
	{Keyword: "LANG", Who: bySeat, Usage: "LANG en|it|fr|nl", Help: "help.LANG", Row: 10, seat: seatLang,
		Errors: []string{"usage"}},
	{Keyword: "FORMAT", Who: bySeat, Usage: "FORMAT text|json", Help: "help.FORMAT", Row: 11, seat: seatFormat,
		Errors: []string{"usage"}},
	{Keyword: "RESIGN", Who: bySeat, Usage: "RESIGN", Help: "help.RESIGN", Row: 13, seat: seatResign,
		Errors: []string{"not_playing"}},
	{Keyword: "YES", Who: bySeat, Usage: "YES", Help: "help.YES", seat: seatYes,
		Errors: []string{"nothing_to_confirm", "vacation_budget"}},
	{Keyword: "JOIN", Who: bySeat, Usage: "JOIN", Help: "help.JOIN", seat: seatJoin, Errors: []string{"usage"}},
	{Keyword: "DECLINE", Who: bySeat, Usage: "DECLINE", Help: "help.DECLINE", seat: seatDecline},
	{Keyword: "REGISTER", Who: bySeat, Usage: "REGISTER [name] [en|it|fr|nl]", Help: "help.REGISTER", seat: seatRegister},
}

func seatClear(c *seatCall) (replyLine, error) {
	if c.gw.tb == nil {
		return c.done()
	}
	n := len(c.gw.tb.Clear(c.seat))
	c.info("info.cleared", map[string]any{"n": n})
	return c.done()
}

func seatUndo(c *seatCall) (replyLine, error) {
	if c.gw.tb == nil {
		return c.fail("nothing_to_undo", nil)
	}
	o, ok := c.gw.tb.Undo(c.seat)
	if !ok {
		return c.fail("nothing_to_undo", nil)
	}
	c.info("info.undone", map[string]any{"line": o.Text})
	return c.done()
}

func seatResign(c *seatCall) (replyLine, error) {
	gw, s := c.gw, c.s()
	if s.State != SeatPlaying || gw.g.Status != StatusRunning {
		return c.fail("not_playing", nil)
	}
	s.State, s.Bot, s.Deadline = SeatResigned, gw.botName(), nil
	if _, err := gw.log(Entry{Kind: EntryResign, Seat: c.seat, Vis: engine.Public, Params: map[string]any{"name": s.Name, "bot": s.Bot}}); err != nil {
		return c.line, err
	}
	gw.announce(nil, "resigned", "seat", c.seat, "name", s.Name)
	gw.toOrganiser("org_resigned", "name", s.Name)
	return c.done()
}

func seatSay(c *seatCall) (replyLine, error) { return c.gw.say(c.seat, c.o.Alts[0][0]) }

func seatVacation(c *seatCall) (replyLine, error) { return c.gw.vacation(c.seat, c.args) }

func seatYes(c *seatCall) (replyLine, error) {
	s := c.s()
	if s.AbsenceOffer == nil {
		return c.fail("nothing_to_confirm", nil)
	}
	v := *s.AbsenceOffer
	s.AbsenceOffer = nil
	return c.gw.addVacation(c.seat, v, c.line)
}

func seatNotify(c *seatCall) (replyLine, error) {
	if len(c.args) != 1 {
		return c.usage()
	}
	s, mode := c.s(), strings.ToLower(c.args[0])
	switch mode {
	case "every", "turn", "digest":
		s.Notify = mode
	case "receipts", "none", "fold":
		// How receipts reach the seat (receipts.go, issue 22); a receipt
		// held so far rides in the next mail, or goes at its time.
		s.Receipts = map[string]string{"receipts": ReceiptsEach, "none": ReceiptsNone, "fold": ReceiptsFold}[mode]
	default:
		return c.usage()
	}
	c.info("info.notify", map[string]any{"mode": mode})
	return c.done()
}

func seatLang(c *seatCall) (replyLine, error) {
	if len(c.args) != 1 || !templates.IsLanguage(strings.ToLower(c.args[0])) {
		return c.usage()
	}
	c.s().Lang = strings.ToLower(c.args[0])
	c.info("info.lang", nil)
	return c.done()
}

func seatFormat(c *seatCall) (replyLine, error) {
	if len(c.args) != 1 || !containsStr([]string{"text", "json"}, strings.ToLower(c.args[0])) {
		return c.usage()
	}
	s := c.s()
	s.Format = strings.ToLower(c.args[0])
	c.info("info.format", map[string]any{"format": s.Format})
	return c.done()
}

func seatJoin(c *seatCall) (replyLine, error) {
	if len(c.args) > 0 && !strings.EqualFold(c.args[0], c.gw.g.ID) {
		return c.usage()
	}
	return c.line, c.gw.join(c.seat)
}

func seatDecline(c *seatCall) (replyLine, error) { return c.line, c.gw.decline(c.seat) }

func seatRegister(c *seatCall) (replyLine, error) {
	c.info("info.registered_already", nil)
	return c.done()
}

// say relays a message to other players without revealing addresses:
// "SAY all: text" or "SAY ann, bob: text" (names or seat numbers).
func (gw seatMail) say(seat int, line string) (replyLine, error) {
	rest := strings.TrimSpace(line[len(strings.Fields(line)[0]):])
	to, text, ok := strings.Cut(rest, ":")
	text = strings.TrimSpace(text)
	out := replyLine{Status: LineDone, Text: line}
	if !ok || text == "" {
		out.Status = LineRejected
		out.Errors = []*engine.RuleError{{Code: "usage", Params: map[string]any{"usage": usageOf(bySeat, "SAY")}}}
		return out, nil
	}
	if utf8.RuneCountInString(text) > MaxSayRunes { // issue 23: bounded
		out.Status = LineRejected
		out.Errors = []*engine.RuleError{{Code: "say_too_long", Params: map[string]any{"max": MaxSayRunes}}}
		return out, nil
	}
	var seats []int
	all := false
	for _, t := range strings.Split(to, ",") {
		t = strings.TrimSpace(t)
		if strings.EqualFold(t, "all") || strings.EqualFold(t, "tutti") || strings.EqualFold(t, "tous") || strings.EqualFold(t, "iedereen") {
			seats, all = nil, true
			for i := range gw.g.Seats {
				if i != seat && gw.g.Seats[i].State != SeatDeclined {
					seats = append(seats, i)
				}
			}
			break
		}
		k := -1
		for i, s := range gw.g.Seats {
			if strings.EqualFold(s.Name, t) || fmt.Sprint(i+1) == t {
				k = i
			}
		}
		if k < 0 || k == seat {
			out.Status = LineRejected
			out.Errors = []*engine.RuleError{{Code: "no_player", Params: map[string]any{"name": t}}}
			return out, nil
		}
		if !containsInt(seats, k) {
			seats = append(seats, k)
		}
	}
	vis := engine.Only(append([]int{seat}, seats...)...)
	if _, err := gw.log(Entry{Kind: EntrySay, Seat: seat, Vis: vis, Text: text, Params: map[string]any{"to": seats}}); err != nil {
		return out, err
	}
	names := make([]string, len(seats))
	for i, k := range seats {
		names[i] = gw.g.Seats[k].Name
	}
	gw.announce(seats, "say", "from", gw.g.Seats[seat].Name, "text", text, "to", names, "all", all)
	return out, nil
}

// vacation registers "VACATION <from> <to>" (dates YYYY-MM-DD in the
// player's time zone, inclusive).
func (gw seatMail) vacation(seat int, args []string) (replyLine, error) {
	s := &gw.g.Seats[seat]
	line := replyLine{Status: LineDone, Text: "VACATION " + strings.Join(args, " ")}
	bad := func() (replyLine, error) {
		line.Status = LineRejected
		line.Errors = []*engine.RuleError{{Code: "usage", Params: map[string]any{"usage": usageOf(bySeat, "VACATION")}}}
		return line, nil
	}
	if len(args) != 2 {
		return bad()
	}
	loc := templates.Zone(s.TZ)
	from, err1 := time.ParseInLocation("2006-01-02", args[0], loc)
	to, err2 := time.ParseInLocation("2006-01-02", args[1], loc)
	if err1 != nil || err2 != nil || to.Before(from) {
		return bad()
	}
	v := Vacation{From: from.UTC(), To: to.AddDate(0, 0, 1).UTC()}
	if !v.To.After(gw.w.now) {
		line.Status = LineRejected
		line.Errors = []*engine.RuleError{{Code: "vacation_past"}}
		return line, nil
	}
	return gw.addVacation(seat, v, line)
}

func (gw seatMail) addVacation(seat int, v Vacation, line replyLine) (replyLine, error) {
	s := &gw.g.Seats[seat]
	left := gw.g.Policy.VacationDays - s.VacationUsed
	days := v.To.Sub(v.From).Hours() / 24
	if left <= 0 {
		line.Status = LineRejected
		line.Errors = []*engine.RuleError{{Code: "vacation_budget", Params: map[string]any{"budget": gw.g.Policy.VacationDays, "used": s.VacationUsed}}}
		return line, nil
	}
	s.Vacation = append(s.Vacation, v)
	if dl := s.Deadline; dl != nil && !dl.Due.IsZero() {
		push, spent := vacationPush([]Vacation{v}, dl.Start, dl.Due, left)
		if push > 0 {
			dl.Due = dl.Due.Add(push)
			s.VacationUsed += spent
			dl.Reminders = gw.g.Policy.Remind(gw.w.now, dl.Due)
			dl.Sent = 0
		}
	}
	loc := templates.Zone(s.TZ)
	if _, err := gw.log(Entry{Kind: EntryVacation, Seat: seat, Vis: engine.Public, Params: map[string]any{
		"from": v.From.In(loc).Format("2006-01-02"), "to": v.To.Add(-time.Second).In(loc).Format("2006-01-02")}}); err != nil {
		return line, err
	}
	gw.reply(seat).Info = append(gw.reply(seat).Info, gw.text(seat, "info.vacation", map[string]any{
		"from": v.From.In(loc).Format("2006-01-02"), "to": v.To.Add(-time.Second).In(loc).Format("2006-01-02"),
		"days": days, "left": gw.g.Policy.VacationDays - s.VacationUsed}))
	return line, nil
}
