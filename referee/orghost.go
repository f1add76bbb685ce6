package referee

// The core's side of the organiser's door (package referee/organise): the
// door reads an organiser's commands and answers them in the organiser's
// words; it reads and changes games only through orgHost (one unit of
// work) and orgGame (one game of it), and the core does the change.

import (
	"errors"
	"maps"
	"math"
	"slices"
	"time"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/referee/organise"
	"github.com/pbem-referee/referee/referee/reading"
	"github.com/pbem-referee/referee/referee/records"
	"github.com/pbem-referee/referee/referee/seating"
	"github.com/pbem-referee/referee/referee/tournament/bymail"
	"github.com/pbem-referee/referee/templates"
)

// orgHost is the core as the organiser's door sees it: one unit of work.
// Its words are the door's own over the core's renderer
// (organise.Templates); the rest is the unit of work.
type orgHost struct {
	organise.Templates
	w *work
}

var _ organise.Host = orgHost{}

// orgHostOf is the organiser's door's host of a unit of work; its reply reader has the organiser's words.
func orgHostOf(w *work) orgHost {
	return orgHost{organise.Templates{R: w.r.render.Renderer, Read: reading.Vocab{T: w.r.render.T,
		Name: organise.Scope, Referee: organise.TableWords()}.Line}, w}
}

// AnswerIn: the desk words its failures in the answer's language
// (deskHost.AnswerLang).
func (h orgHost) AnswerIn(lang string) { h.w.answerLang = lang }

func (h orgHost) Desk() bymail.Host { return h.w.desk() }
func (h orgHost) CheckPolicy(text string) error {
	_, err := ParsePolicy(text)
	return organise.Refusal(err)
}
func (h orgHost) ParseHours(s string) (float64, error) { return parseHours(s) }
func (h orgHost) MaxLines() int                        { return MaxOrgLines }
func (h orgHost) Writes() int                          { return h.w.deskWrites }

func (h orgHost) Undone(key string) (string, bool) { msg, ok := h.w.undone[key]; return msg, ok }

func (h orgHost) Undo(failed map[string]string, err error) error {
	var re *redoError
	if errors.As(err, &re) {
		maps.Copy(re.undo, failed)
		return err
	}
	return &redoError{undo: failed}
}

func (h orgHost) IsUndo(err error) bool { var re *redoError; return errors.As(err, &re) }

func (h orgHost) Help(lang, org string) (string, error) { return h.w.orgHelp(lang, org, "org.help") }

func (h orgHost) Kind(name string) (organise.Kind, bool) {
	eg, err := lookupGame(name)
	if err != nil {
		return organise.Kind{}, false
	}
	return organise.Kind{Name: eg.Info().Name, MinPlayers: eg.Info().MinPlayers}, true
}

func (h orgHost) Game(id string) (organise.Game, bool, error) {
	if h.w.games[id] == nil && !h.w.tx.HasGame(id) { // a game NEW created earlier in this mail counts
		return nil, false, nil
	}
	gw, err := h.w.game(id)
	if err != nil {
		return nil, false, err
	}
	return orgGame{gw}, true, nil
}

func (h orgHost) CreateGame(ng organise.NewGame) (organise.Created, error) {
	g := NewGame{ID: ng.ID, Game: ng.Game, Variant: ng.Variant, Options: ng.Options, Players: ng.Players, Invite: ng.Invite,
		Open: ng.Open, Ruleset: ng.Ruleset, Organiser: ng.Organiser, Seed: ng.Seed}
	if ng.Policy != "" {
		p, err := ParsePolicy(ng.Policy)
		if err != nil {
			return organise.Created{}, err
		}
		g.Policy = &p
	}
	gw, err := h.w.newGame(g, false)
	if err != nil {
		return organise.Created{}, err
	}
	return organise.Created{ID: gw.g.ID, Game: gw.g.Game, Players: gw.g.Players, Commitment: gw.g.Commitment}, nil
}

// List is the organiser's games from the store's index, paged
// (records.OrganiserGames), and the games this unit of work changed or
// created as it left them.
func (h orgHost) List(org, from string, page int) ([]organise.Listed, string, int, error) {
	var fresh []*Game // games a NEW of this same mail created: not stored yet
	for _, id := range slices.Sorted(maps.Keys(h.w.games)) {
		if !h.w.tx.HasGame(id) {
			fresh = append(fresh, h.w.games[id].g)
		}
	}
	changed := func(id string) *Game {
		if gw := h.w.games[id]; gw != nil {
			return gw.g
		}
		return nil
	}
	games, next, more, err := records.OrganiserGames(h.w.tx, org, from, page, changed, fresh)
	out := make([]organise.Listed, len(games))
	for i, g := range games {
		out[i] = organise.Listed{ID: g.ID, Game: g.Game, Status: g.Status, Seats: len(g.Seats), Players: g.Players}
	}
	return out, next, more, err
}

// orgGame is one game as an organiser's command acts on it.
type orgGame struct{ gw *gameWork }

func (o orgGame) Info() organise.GameInfo {
	gw, g := o.gw, o.gw.g
	gi := organise.GameInfo{ID: g.ID, Variant: g.Variant, Organiser: g.Organiser, Status: g.Status,
		Started: gw.tb != nil, Move: gw.token(), Players: g.Players, Seats: make([]organise.SeatInfo, 0, len(g.Seats))}
	for _, s := range g.Seats {
		si := organise.SeatInfo{Name: s.Greeting(), Address: s.Address, State: s.State, Bot: s.Bot != "", Missed: s.MissedTotal}
		if s.Deadline != nil {
			si.Due = s.Deadline.Due
		}
		gi.Seats = append(gi.Seats, si)
	}
	return gi
}

func (o orgGame) Title() string  { return o.gw.eg.Info().Title }
func (o orgGame) Policy() string { return o.gw.g.Policy.String() }

func (o orgGame) Waiting() []int {
	gw := o.gw
	if gw.tb == nil || gw.g.Status != StatusRunning {
		return nil
	}
	var seats []int
	for _, d := range gw.tb.Waiting() {
		seats = append(seats, d.Seat)
	}
	return seats
}

func (o orgGame) Pause() {
	g := o.gw.g
	g.Status, g.PausedAt = StatusPaused, o.gw.w.now
	o.gw.announce(nil, "paused")
}

func (o orgGame) Resume() time.Duration {
	gw, g := o.gw, o.gw.g
	shift := gw.w.now.Sub(g.PausedAt)
	g.ShiftDeadlines(shift)
	g.Status, g.PausedAt = StatusRunning, time.Time{}
	gw.announce(nil, "resumed", "shift", math.Round(shift.Hours()*10)/10)
	return shift
}

func (o orgGame) Extend(seat int, by time.Duration) time.Time {
	gw, g := o.gw, o.gw.g
	dl := g.Seats[seat].Deadline
	dl.Due = dl.Due.Add(by)
	dl.Reminders, dl.Sent = g.Policy.Remind(gw.w.now, dl.Due), 0
	gw.announce(nil, "extended", "seat", seat, "name", g.Seats[seat].Greeting(), "hours", by.Hours(),
		"due", dl.Due.Format(time.RFC3339))
	return dl.Due
}

func (o orgGame) Replace(seat int, inv organise.Invitee) (string, error) {
	return o.gw.replace(seat, inv)
}

func (o orgGame) Kick(seat int) error {
	gw, g := o.gw, o.gw.g
	s := &g.Seats[seat]
	if g.Status == StatusForming {
		gw.dropSeat = append(gw.dropSeat, seat)
	}
	s.State, s.Bot, s.Deadline = SeatKicked, gw.botName(), nil
	if err := gw.w.tx.DeleteToken(s.Secret); err != nil {
		return err
	}
	gw.announce(nil, "kicked", "seat", seat, "name", s.Greeting())
	return nil
}

func (o orgGame) Rollback(to int) error { return o.gw.rollback(to) }

func (o orgGame) Abort() {
	gw, g := o.gw, o.gw.g
	g.Status, g.Ended = StatusAborted, gw.w.now
	for i := range g.Seats {
		g.Seats[i].Deadline = nil
	}
	gw.announce(nil, "aborted", "seed", g.Seed)
}

func (o orgGame) SetPolicy(text string) (string, error) {
	p, err := ParsePolicy(text)
	if err != nil {
		return "", organise.Refusal(err)
	}
	o.gw.g.Policy = p
	o.gw.announce(nil, "policy", "policy", p.View())
	return p.String(), nil
}

func (o orgGame) Erratum(data []byte) (string, string, error) { return o.gw.erratum(data) }
func (o orgGame) Invite(inv organise.Invitee) error {
	return seating.Invite(seatingHost{o.gw.w}, roomGame{o.gw}, inv)
}
func (o orgGame) Hook(kw string, args []string) (string, error) {
	return o.gw.hookCommand(kw, args)
}
func (o orgGame) Publish(args []string) (string, error) { return o.gw.publish(args) }

func (o orgGame) Log(kw string, args []string) error {
	_, err := o.gw.log(Entry{Kind: EntryOrg, Seat: -1, Vis: engine.Public, Params: map[string]any{"command": kw, "args": args}})
	return err
}

// orgText renders an answer of the core to an organiser's command in the
// language of the organiser's mail (organise.MailLang, set by AnswerIn).
func (w *work) orgText(name string, kv ...any) string {
	data := engine.Params(kv...)
	lang := w.answerLang
	if !templates.IsLanguage(lang) {
		lang = "en"
	}
	return w.r.render.text(w.r.log, "referee", Reader{Game: "referee", Lang: lang, Seat: -1}, name, data)
}
