package referee

import (
	"time"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/referee/cmdtable"
	"github.com/pbem-referee/referee/referee/commands"
	"github.com/pbem-referee/referee/referee/query"
	"github.com/pbem-referee/referee/referee/seating"
	"github.com/pbem-referee/referee/referee/tell"
	"github.com/pbem-referee/referee/templates"
)

// The seat's commands are the seat's door's, package referee/commands (the
// info and seat families: one handler a keyword, the reading of their
// arguments); the core is their host, seatHost: one seat of one game in
// one unit of work, which changes the seat, logs and announces.

// command runs one referee command of a seat through the table.
func (gw seatMail) command(seat int, kw string, o engine.Order) (replyLine, error) {
	line := replyLine{Status: tell.LineDone, Text: o.Text}
	rows := cmdtable.Lookup(cmdtable.Seat, kw)
	if len(rows) == 0 {
		return line, nil
	}
	c := commands.NewSeatCall(seatHost{gw, seat}, rows[0].Door, o.Alts[0][0])
	err := c.Run()
	if c.Text != "" {
		line.Text = c.Text
	}
	if len(c.Errors) > 0 {
		line.Status, line.Errors = tell.LineRejected, c.Errors
	}
	return line, err
}

// seatHost is the core as a seat's command sees it (commands.Seat).
type seatHost struct {
	gw   seatMail
	seat int
}

func (h seatHost) s() *Seat { return &h.gw.g.Seats[h.seat] }

func (h seatHost) GameID() string { return h.gw.g.ID }
func (h seatHost) Index() int     { return h.seat }

func (h seatHost) Seats() []commands.SeatName {
	out := make([]commands.SeatName, len(h.gw.g.Seats))
	for i, s := range h.gw.g.Seats {
		out[i] = commands.SeatName{Name: s.Name, Player: s.Player, Declined: s.State == SeatDeclined}
	}
	return out
}

func (h seatHost) Playing() bool {
	return h.s().State == SeatPlaying && h.gw.g.Status == StatusRunning
}

func (h seatHost) Zone() *time.Location { return templates.Zone(h.s().TZ) }
func (h seatHost) Now() time.Time       { return h.gw.w.now }

func (h seatHost) Info(name string, data map[string]any) {
	h.Say(h.gw.text(h.seat, name, data))
}

func (h seatHost) Say(text string) {
	rep := h.gw.reply(h.seat)
	rep.Info = append(rep.Info, text)
}

func (h seatHost) Set(set commands.Setting, v string) {
	s := h.s()
	switch set {
	case commands.SetNotify:
		s.Notify = v
	case commands.SetReceipts:
		s.Receipts = map[string]string{"receipts": ReceiptsEach, "none": ReceiptsNone, "fold": ReceiptsFold}[v]
	case commands.SetLang:
		s.Lang = v
	case commands.SetFormat:
		s.Format = v
	}
}

func (h seatHost) Clear() (int, bool) {
	if h.gw.tb == nil {
		return 0, false
	}
	return len(h.gw.tb.Clear(h.seat)), true
}

func (h seatHost) Undo() (string, bool) {
	if h.gw.tb == nil {
		return "", false
	}
	o, ok := h.gw.tb.Undo(h.seat)
	return o.Text, ok
}

func (h seatHost) Resign() error {
	gw, s := h.gw, h.s()
	s.State, s.Bot, s.Deadline = SeatResigned, gw.botName(), nil
	if _, err := gw.log(Entry{Kind: EntryResign, Seat: h.seat, Vis: engine.Public, Params: map[string]any{"name": s.Greeting(), "bot": s.Bot}}); err != nil {
		return err
	}
	gw.announce(nil, "resigned", "seat", h.seat, "name", s.Greeting())
	gw.toOrganiser("org_resigned", "name", s.Greeting())
	return nil
}

func (h seatHost) Relay(seats []int, all bool, text string) error {
	gw := h.gw
	vis := engine.Only(append([]int{h.seat}, seats...)...)
	if _, err := gw.log(Entry{Kind: EntrySay, Seat: h.seat, Vis: vis, Text: text, Params: map[string]any{"to": seats}}); err != nil {
		return err
	}
	names := make([]string, len(seats))
	for i, k := range seats {
		names[i] = gw.g.Seats[k].Greeting()
	}
	gw.announce(seats, "say", "from", gw.g.Seats[h.seat].Greeting(), "text", text, "to", names, "all", all)
	return nil
}

func (h seatHost) ConfirmAbsence() (bool, *engine.RuleError, error) {
	s := h.s()
	if s.AbsenceOffer == nil {
		return false, nil, nil
	}
	v := *s.AbsenceOffer
	s.AbsenceOffer = nil
	rerr, err := h.AddVacation(v.From, v.To)
	return true, rerr, err
}

// AddVacation registers an absence, pushing the running deadline within
// the policy's budget of days.
func (h seatHost) AddVacation(from, to time.Time) (*engine.RuleError, error) {
	gw, s := h.gw, h.s()
	v := Vacation{From: from, To: to}
	left := gw.g.Policy.VacationDays - s.VacationUsed
	days := v.To.Sub(v.From).Hours() / 24
	if left <= 0 {
		return &engine.RuleError{Code: "vacation_budget", Params: map[string]any{"budget": gw.g.Policy.VacationDays, "used": s.VacationUsed}}, nil
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
	if _, err := gw.log(Entry{Kind: EntryVacation, Seat: h.seat, Vis: engine.Public, Params: map[string]any{
		"from": v.From.In(loc).Format("2006-01-02"), "to": v.To.Add(-time.Second).In(loc).Format("2006-01-02")}}); err != nil {
		return nil, err
	}
	h.Info("info.vacation", map[string]any{
		"from": v.From.In(loc).Format("2006-01-02"), "to": v.To.Add(-time.Second).In(loc).Format("2006-01-02"),
		"days": days, "left": gw.g.Policy.VacationDays - s.VacationUsed})
	return nil, nil
}

func (h seatHost) Join() error {
	return seating.Join(seatingHost{h.gw.w}, roomGame{h.gw.gameWork}, h.seat)
}
func (h seatHost) Decline() error {
	return seating.Decline(seatingHost{h.gw.w}, roomGame{h.gw.gameWork}, h.seat)
}

func (h seatHost) Status(full bool) {
	sc := h.gw.seat(h.seat)
	sc.force, sc.status = true, true
	if full {
		sc.full = true
	}
}

func (h seatHost) Arg(word string) string {
	return h.gw.w.r.render.T.Arg("referee", h.gw.reader(h.seat).Lang, word)
}

func (h seatHost) Help(topic string) string {
	return query.Help(h.gw.w.r.render.Renderer, h.gw.reader(h.seat), topic)
}

// HELP of a command, a word or a card: the read-only answers of package
// referee/query, for this seat's reader.
func (h seatHost) HasHelp(topic string) bool {
	return query.HasHelp(h.gw.w.r.render.T, h.gw.reader(h.seat), topic)
}

func (h seatHost) HelpWord(topic string) string {
	return query.HelpWord(h.gw.w.r.render.T, h.gw.reader(h.seat), topic)
}

func (h seatHost) CardHelp(topic string) (string, bool) {
	if h.gw.tb == nil {
		return "", false
	}
	return query.CardHelp(h.gw.w.r.render.Renderer, h.gw.reader(h.seat), h.gw.tb.State, topic)
}

func (h seatHost) Rule(id string) (string, bool, error) {
	gw := h.gw
	rd := gw.reader(h.seat)
	if !gw.w.r.render.T.Has(gw.g.Game, rd.Lang, "rule."+id) {
		return "", false, nil
	}
	t, err := gw.w.r.render.T.Render(gw.g.Game, rd.Lang, "rule."+id, gw.w.r.render.ctx(rd, nil))
	return t, err == nil, err
}

func (h seatHost) LogText(n int) (string, error) { return h.gw.logText(h.seat, n) }

func (h seatHost) Observe(game string) error {
	s := h.s()
	return h.gw.w.observe(game, s.Address, s.Lang, h.gw.gameWork, h.seat)
}

func (h seatHost) ListOpen() (string, error) { return playerWork{h.gw.w}.listOpen(h.s().Lang) }
