package referee

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"sort"
	"strings"
	"time"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/store"
	"github.com/pbem-referee/referee/templates"
)

// work is the context of one transaction: the games it touched, the mails it
// queued. flush settles every touched game (bots, deadlines, the end), sends
// the mails each player should get, and saves everything.
type work struct {
	r     *Referee
	tx    *store.Tx
	now   time.Time
	games map[string]*gameWork
	order []string
	sent  []string
	nonce int
	// hooked counts the webhook calls queued.
	hooked int
	// saved are the games written, for the game cache once committed.
	saved []cachedGame
	// outbox holds the mails composed, written by persistOutbox.
	outbox []composed
	// undone are the operations this run leaves out (undo.go);
	// deskWrites counts the changes the desk made through deskHost.
	undone     map[string]string
	deskWrites int
}

func (r *Referee) newWork(tx *store.Tx, now time.Time) *work {
	return &work{r: r, tx: tx, now: now, games: map[string]*gameWork{}, undone: r.undone}
}

// gameWork is one game touched by a transaction: the apply stage changes
// the game and its table and records what changed (changes); the tell
// stage (mailView) turns that into mails; flush persists it all.
type gameWork struct {
	w  *work
	g  *Game
	eg engine.Game
	tb *engine.Table
	changes
	// extra: mails to addresses outside the seats (organiser, newcomers).
	extra []*Outgoing
	// adjudicated: the organiser had the bots finish the game.
	adjudicated bool
	// dropSeat: declined seats removed after their last mail.
	dropSeat []int
	// finalLog is the published log of a game that just ended.
	finalLog []byte
	// steps: the engine steps applied in this transaction (for hooks).
	steps []engine.Step
}

// changes is what the apply stage of a unit of work changed in one game,
// seat by seat, besides the game's record and log: what the tell stage
// needs to decide who gets a mail and what it says.
type changes struct {
	// acted: seats that applied a move (their deadline restarts).
	acted map[int]bool
	// replies: the answer to a seat's own message.
	replies map[int]*reply
	// notes: announcements, per seat (-1: everybody).
	notes []note
	// force: seats that get a mail even if nothing changed for them.
	force map[int]bool
	// answering: the Message-ID of the seat's message being answered.
	answering map[int]string
	// reminders: seats whose reminder is due.
	reminders map[int]bool
	digest    map[int]bool
	// ended: the game ended in this transaction.
	ended bool
	// asked: seats whose decision clock started in this transaction.
	asked map[int]bool
	// quiet: seats whose mail this transaction is not sent (their budget
	// is spent, or they keep sending the same mail).
	quiet map[int]bool
	// full: seats that asked STATUS FULL (their mail carries the whole
	// state; otherwise the summary is compact).
	full map[int]bool
	// status: seats that asked STATUS (their mail carries the state).
	status map[int]bool
}

func newChanges() changes {
	return changes{acted: map[int]bool{}, replies: map[int]*reply{}, force: map[int]bool{},
		answering: map[int]string{}, reminders: map[int]bool{}, digest: map[int]bool{}, asked: map[int]bool{},
		quiet: map[int]bool{}, full: map[int]bool{}, status: map[int]bool{}}
}

// reply is the answer to a seat's own message: the fate of each order, and
// the answers to informational commands.
type reply struct {
	Rejected bool
	Stale    bool
	Lines    []replyLine
	Info     []string
	// Read is the note on how the mail was read (quote, signature left
	// out), also in Info: it asks nothing, so a receipt with it may wait
	// (receipts.go).
	Read string
}

type replyLine struct {
	Status LineStatus
	Text   string
	Cmds   []string
	Errors []*engine.RuleError
}

// note is an announcement rendered from referee template "note.<Name>".
type note struct {
	Seats []int // nil: every seat
	Name  string
	Data  map[string]any
}

// moves counts the engine moves applied in this transaction.
func (w *work) moves() int {
	n := 0
	for _, gw := range w.games {
		n += len(gw.steps)
	}
	return n
}

func (w *work) game(id string) (*gameWork, error) {
	if gw := w.games[id]; gw != nil {
		return gw, nil
	}
	if g, tb, ok := w.r.games.take(id, w.tx.GameStamp(id)); ok {
		return w.trackDecoded(g, tb)
	}
	raw, err := w.tx.Game(id)
	if err != nil {
		return nil, err
	}
	g, err := decodeGame(id, raw)
	if err != nil {
		return nil, err
	}
	return w.track(g)
}

func (w *work) track(g *Game) (*gameWork, error) {
	return w.trackDecoded(g, nil)
}

// trackDecoded is track with the game's table already decoded (from the
// game cache), or nil to decode it from the record.
func (w *work) trackDecoded(g *Game, tb *engine.Table) (*gameWork, error) {
	eg, err := lookupGame(g.Game)
	if err != nil {
		return nil, err
	}
	gw := &gameWork{w: w, g: g, eg: eg, tb: tb, changes: newChanges()}
	if tb == nil && len(g.Table) > 0 {
		rs, err := w.ruleset(g.RulesetSHA)
		if err != nil {
			return nil, err
		}
		if gw.tb, err = engine.LoadTable(g.Table, rs); err != nil {
			return nil, fmt.Errorf("game %s: %w", g.ID, err)
		}
		gw.tb.HashSteps = true
	}
	w.games[g.ID] = gw
	w.order = append(w.order, g.ID)
	return gw, nil
}

func (w *work) ruleset(sha string) ([]byte, error) {
	if sha == "" {
		return nil, nil
	}
	return w.tx.Ruleset(sha)
}

func (gw *gameWork) reply(seat int) *reply {
	r := gw.replies[seat]
	if r == nil {
		r = &reply{}
		gw.replies[seat] = r
	}
	return r
}

func (gw *gameWork) announce(seats []int, name string, kv ...any) {
	n := note{Seats: seats, Name: name, Data: map[string]any{}}
	for i := 0; i+1 < len(kv); i += 2 {
		n.Data[kv[i].(string)] = kv[i+1]
	}
	gw.notes = append(gw.notes, n)
}

func (gw *gameWork) log(e Entry) (uint64, error) {
	if e.At.IsZero() {
		e.At = gw.w.now
	}
	return appendEntry(gw.w.tx, gw.g, e)
}

// stepPublic reports whether every event of a step is seen whole by every
// reader: its command then tells nothing hidden.
func stepPublic(st engine.Step) bool {
	for _, e := range st.Events {
		if !e.Vis.Public || e.Redacted != nil {
			return false
		}
	}
	return true
}

// logReport appends the steps of an engine report to the log.
func (gw *gameWork) logReport(rep *engine.Report) error {
	for i := range rep.Steps {
		s := rep.Steps[i]
		if _, err := gw.log(Entry{Kind: EntryStep, Seat: s.Seat, Step: &s}); err != nil {
			return err
		}
		gw.steps = append(gw.steps, s)
		gw.g.Steps++
		gw.acted[s.Seat] = s.How != "auto" && s.How != "default" || gw.acted[s.Seat]
	}
	return nil
}

// submit hands a seat's orders to the table and logs what happened.
func (gw *gameWork) submit(seat int, orders []engine.Order, token int) (*engine.Report, error) {
	// The lines queued by earlier messages, to tell a seat whose queued
	// "... ELSE PASS" became a pass when its turn came (issue 12.6): it is
	// never silent.
	earlier := map[int]string{}
	for _, q := range gw.tb.Queues {
		for _, o := range q {
			earlier[o.Tag] = o.Text
		}
	}
	rep, err := gw.tb.Submit(seat, orders, token)
	if err != nil {
		return nil, err
	}
	for _, st := range rep.Steps {
		if text, ok := earlier[st.Tag]; ok && st.Tag > 0 && st.How == "else_pass" {
			gw.elsePassed(st, text)
		}
	}
	gw.droppedQueued(rep, earlier)
	if err := gw.logReport(rep); err != nil {
		return nil, err
	}
	return rep, nil
}

// flush settles every touched game and sends the mails.
func (w *work) flush() ([]string, error) {
	// By index: a game's end may open a tournament's next round, whose
	// games join the order.
	for i := 0; i < len(w.order); i++ {
		gw := w.games[w.order[i]]
		if err := gw.settle(); err != nil {
			return nil, err
		}
		if gw.ended {
			if err := w.gameEnded(gw); err != nil {
				return nil, err
			}
		}
		if err := gw.mail(); err != nil {
			return nil, err
		}
		if err := gw.queueHooks(gw.steps); err != nil {
			return nil, err
		}
		sort.Sort(sort.Reverse(sort.IntSlice(gw.dropSeat)))
		for _, i := range gw.dropSeat {
			gw.g.Seats = append(gw.g.Seats[:i:i], gw.g.Seats[i+1:]...)
		}
		for _, m := range gw.extra {
			if err := w.enqueue(m); err != nil {
				return nil, err
			}
		}
		if gw.tb != nil {
			raw, err := json.Marshal(gw.tb)
			if err != nil {
				return nil, err
			}
			gw.g.Table = raw
		}
		if err := saveGame(w.tx, gw.g); err != nil {
			return nil, err
		}
		w.saved = append(w.saved, cachedGame{stamp: w.tx.GameStamp(gw.g.ID), g: gw.g, tb: gw.tb})
		if err := w.tx.SetWake(gw.g.ID, gw.wake()); err != nil {
			return nil, err
		}
	}
	if err := w.persistOutbox(); err != nil {
		return nil, err
	}
	return w.sent, nil
}

// settle lets bots play their seats until a human must act, ends the game
// when it is over, and restarts the clocks of the seats newly asked.
func (gw *gameWork) settle() error {
	if gw.tb == nil || gw.g.Status != StatusRunning {
		return nil
	}
	for i := 0; i < 100000; i++ {
		if gw.tb.State.Result() != nil {
			return gw.end()
		}
		moved := false
		for _, d := range gw.tb.Waiting() {
			if gw.g.Seats[d.Seat].Bot == "" {
				continue
			}
			if err := gw.botMove(d.Seat); err != nil {
				return err
			}
			moved = true
			break
		}
		if !moved {
			break
		}
	}
	if gw.tb.State.Result() != nil {
		return gw.end()
	}
	gw.clocks()
	return nil
}

// botMove lets the engine's bot answer a seat's waiting decision: one move
// for a sequential decision, the seat's whole sealed answer for a
// simultaneous one.
func (gw *gameWork) botMove(seat int) error {
	name := gw.g.Seats[seat].Bot
	maker, ok := gw.eg.(engine.BotMaker)
	if !ok {
		return gw.expire(seat, false)
	}
	bot, err := maker.NewBot(name)
	if err != nil {
		if bot, err = maker.NewBot("random"); err != nil {
			return gw.expire(seat, false)
		}
	}
	h := fnv.New64a()
	fmt.Fprintf(h, "%s/%d/%d", gw.g.Seed, seat, gw.tb.Token())
	rng := rand.New(rand.NewPCG(h.Sum64(), 0x5eed))
	p := gw.tb.Prompts[seat]
	if p == nil {
		return nil
	}
	lines, err := engine.BotAnswer(gw.tb.State, seat, p.Decision.Group, bot, rng)
	if err != nil {
		return err
	}
	if len(lines) == 0 {
		return gw.expire(seat, false)
	}
	rep, err := gw.submit(seat, engine.ParseScript(strings.Join(lines, "\n")), gw.tb.Token())
	if err != nil {
		return err
	}
	if rep.Rejected {
		// The bot's plan did not fit (a blinded draw differed): fall back
		// to the default move so the game never stalls.
		return gw.expire(seat, false)
	}
	return nil
}

// expire applies the default move of a seat; missed counts it as a missed
// move (a deadline passed) rather than a bot fallback.
func (gw *gameWork) expire(seat int, missed bool) error {
	rep, err := gw.tb.Expire(seat)
	if err != nil {
		return err
	}
	gw.droppedQueued(rep, nil)
	if err := gw.logReport(rep); err != nil {
		return err
	}
	if !missed || len(rep.Defaults) == 0 && len(rep.Revealed) == 0 {
		return nil
	}
	s := &gw.g.Seats[seat]
	s.Missed++
	s.MissedTotal++
	// The public log names only the defaults whose effects are public: a
	// default that chose something hidden (a face-down token, DB-6.6) is
	// told to its seat alone (the announcement below), never in the log
	// others read (issue 21).
	var cmds, public []string
	for _, d := range rep.Defaults {
		if d.Seat == seat {
			cmds = append(cmds, d.Cmd)
			if stepPublic(d) {
				public = append(public, d.Cmd)
			}
		}
	}
	entry := Entry{Kind: EntryMissed, Seat: seat, Vis: engine.Public, Params: map[string]any{"cmds": public, "missed": s.Missed}}
	if len(public) == 0 && len(cmds) > 0 {
		entry.Vis, entry.Params["cmds"] = engine.Only(seat), cmds
	}
	if _, err := gw.log(entry); err != nil {
		return err
	}
	gw.announce([]int{seat}, "missed", "cmds", cmds, "missed", s.Missed, "limit", gw.g.Policy.MissLimit)
	if lim := gw.g.Policy.MissLimit; lim > 0 && s.Missed >= lim && s.Bot == "" {
		s.Bot = gw.botName()
		if _, err := gw.log(Entry{Kind: EntryBot, Seat: seat, Vis: engine.Public, Params: map[string]any{"bot": s.Bot, "missed": s.Missed}}); err != nil {
			return err
		}
		gw.announce(nil, "bot", "seat", seat, "name", s.Name, "missed", s.Missed)
		gw.toOrganiser("org_bot", "seat", seat, "name", s.Name, "address", s.Address, "missed", s.Missed)
	}
	return nil
}

// botName is the bot that takes over seats: the game's second bot (the
// sensible one), else "random".
func (gw *gameWork) botName() string {
	bots := gw.eg.Info().Bots
	if len(bots) > 1 {
		return bots[1]
	}
	return "random"
}

// clocks starts, keeps or stops each seat's deadline.
func (gw *gameWork) clocks() {
	waiting := map[int]engine.Decision{}
	for _, d := range gw.tb.Waiting() {
		waiting[d.Seat] = d
	}
	for i := range gw.g.Seats {
		s := &gw.g.Seats[i]
		d, ok := waiting[i]
		if !ok || s.Bot != "" || !s.Active() {
			s.Deadline = nil
			continue
		}
		if dl := s.Deadline; dl != nil {
			// A simultaneous turn has one clock for all its steps (a game
			// may resolve a turn step by step, as Fromage does); a
			// sequential decision restarts it when the seat moved or was
			// asked something else.
			if d.Mode == engine.Simultaneous && dl.Slot == d.Slot {
				continue
			}
			if !gw.acted[i] && dl.Kind == d.Kind && dl.Slot == d.Slot && dl.Group == d.Group {
				continue
			}
		}
		start := gw.w.now
		due := gw.g.Policy.due(d.Kind, start, templates.Zone(s.TZ))
		gw.asked[i] = true
		if due.IsZero() {
			s.Deadline = &Deadline{Kind: d.Kind, Slot: d.Slot, Group: d.Group, Start: start}
			continue
		}
		push, days := vacationPush(s.Vacation, start, due, gw.g.Policy.VacationDays-s.VacationUsed)
		if push > 0 {
			due = due.Add(push)
			s.VacationUsed += days
		}
		s.Deadline = &Deadline{Kind: d.Kind, Slot: d.Slot, Group: d.Group, Start: start, Due: due,
			Reminders: gw.g.Policy.reminders(start, due)}
		gw.asked[i] = true
	}
}

// wake returns when the game next needs attention: a deadline, a reminder
// or a digest.
func (gw *gameWork) wake() time.Time {
	if gw.g.Status != StatusRunning {
		return time.Time{}
	}
	var at time.Time
	min := func(t time.Time) {
		if !t.IsZero() && (at.IsZero() || t.Before(at)) {
			at = t
		}
	}
	for _, s := range gw.g.Seats {
		if dl := s.Deadline; dl != nil {
			min(dl.Due)
			if dl.Sent < len(dl.Reminders) {
				min(dl.Reminders[dl.Sent])
			}
		}
		if s.Notify == "digest" {
			min(s.DigestDue)
		}
		min(s.heldDue()) // a held receipt goes out alone (receipts.go)
	}
	return at
}

// end closes a finished game: the result, the seed and the full log are
// published to every player.
func (gw *gameWork) end() error {
	if gw.ended || gw.g.Status == StatusOver {
		return nil
	}
	gw.ended = true
	gw.g.Status = StatusOver
	gw.g.Ended = gw.w.now
	res := gw.tb.State.Result()
	for i := range gw.g.Seats {
		gw.g.Seats[i].Deadline = nil
		gw.force[i] = true
	}
	if _, err := gw.log(Entry{Kind: EntryEnd, Seat: -1, Vis: engine.Public,
		Params: map[string]any{"rank": res.Rank, "seed": gw.g.Seed}}); err != nil {
		return err
	}
	gw.toOrganiser("org_end")
	return nil
}

// toOrganiser queues a short mail to the game's organiser.
func (gw *gameWork) toOrganiser(name string, kv ...any) {
	if gw.g.Organiser == "" {
		return
	}
	data := map[string]any{"game": gw.g.ID, "title": gw.eg.Info().Title}
	for i := 0; i+1 < len(kv); i += 2 {
		data[kv[i].(string)] = kv[i+1]
	}
	body, err := gw.w.r.render.T.Render("referee", "en", "org."+name, gw.w.r.render.ctx(Reader{Game: "referee", Lang: "en", Seat: -1, Seats: gw.g.names()}, data))
	if err != nil {
		body = fmt.Sprintf("%s %v (template error: %v)", name, data, err)
	}
	subj, _ := gw.w.r.render.T.Render("referee", "en", "subject.org", gw.w.r.render.ctx(Reader{Game: "referee", Lang: "en", Seat: -1}, data))
	gw.extra = append(gw.extra, &Outgoing{Game: gw.g.ID, Seat: -1, Kind: "org", To: gw.g.Organiser, Tag: gw.w.orgTag(gw.g.Organiser),
		Subject: subj, MessageID: gw.w.messageID(gw.g, -1, gw.token()), Body: templates.Fold(body), Lang: "en"})
}

func (gw *gameWork) token() int { return tableToken(gw.tb) }

// waitingNames lists the names of the seats the game waits for.
func (gw *gameWork) waitingNames() []string { return waitingNames(gw.g, gw.tb) }
