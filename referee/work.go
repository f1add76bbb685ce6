package referee

import (
	"fmt"
	"sort"
	"time"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/referee/lifecycle"
	"github.com/pbem-referee/referee/referee/records"
	"github.com/pbem-referee/referee/referee/seating"
	"github.com/pbem-referee/referee/referee/tell"
	"github.com/pbem-referee/referee/referee/tournament/bymail"
	"github.com/pbem-referee/referee/referee/tournament/bymail/tourrec"
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
	// cluster is the input's cluster in the store (store.InputCluster of
	// its first key; "": none), where its mails' VERP ids go.
	cluster string
	// hooked counts the webhook calls queued.
	hooked int
	// outbox holds the mails composed, written by persistOutbox.
	outbox []composed
	// undone are the operations this run leaves out (undo.go);
	// deskWrites counts the changes the desk made through deskHost.
	undone     map[string]string
	deskWrites int
	// kept are the tournaments the desk changed, written at the end
	// (tourrec.Kept).
	kept tourrec.Kept
	// answerLang is the language of the organiser's answer (organise.MailLang),
	// set by organise.Script (orgHost.AnswerIn): the desk words its failures in it.
	answerLang string
	// draws are the tournaments whose next round opens after this unit
	// of work commits (bymail's OpenLater; desk.go, openDue).
	draws bymail.Due
	// predrawn are the rounds drawn outside the write lock for it
	// (desk.go: predrawOrg, openDue).
	predrawn map[string]*bymail.Drawn
	checks   seating.Checks // the set-ups checked (seating.Host.Checks)
	// players are the player records it decoded (records.Players: a
	// tournament's entrant is read for the seat, then for the reply
	// address and the round mail's tag, bymail.Reply, decoded once).
	players records.Players
}

// The rooms of a unit of work besides the games it touches: what the
// organiser's mail does (organiser.go, orglang.go, commands_org_*.go)
// and what a player's mail without a seat does (request.go,
// commands_player.go).
type (
	orgWork    struct{ *work }
	playerWork struct{ *work }
)

func (r *Referee) newWork(tx *store.Tx, now time.Time) *work {
	return &work{r: r, tx: tx, now: now, games: map[string]*gameWork{}, undone: r.undone, predrawn: r.predrawn}
}

// gameWork is one game touched by a transaction: the apply stage changes
// the game and its table and records what changed (changes); the tell
// stage (package referee/tell) turns that into mails; flush persists it all.
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
	// logged: the log entries this transaction wrote, as written (the
	// tell stage reads them here, not back from the store).
	logged []Entry
}

// The stages of one game in a unit of work, each a type with the methods
// of its job (issue 25, the rooms). Each holds the game touched and reads
// and writes it; the split is by job, so that a reader knows which file
// holds a method from what it does:
//
//   - gameWork (work.go, lifecycle.go, organiser.go, desk.go, ...): apply.
//     The game's changes as the commands make them: submit orders to the
//     table, log, announce, join, start, replace, roll back.
//   - seatMail (request.go, readnotes.go, commands_seat.go, prose.go):
//     apply, for one seat's own
//     mail: take its lines as the reading room read them (referee/reading),
//     run its commands, answer each line.
//   - settling (settle.go, tick.go; package referee/settle): the end of apply: bots play, clocks
//     start, the game ends, deadlines and reminders fall due.
//   - teller (mail.go, hooks.go, gamepages.go): tell. What each seat, the
//     webhooks and the public page are told; the mails are written by
//     package referee/tell (tell.Teller.Mails, pure), mail.go its door.
//   - persist is the unit of work's (work.flush, outgoing.go, records.go):
//     the records, the log and the outbox written in one transaction.
type (
	seatMail struct{ *gameWork }
	settling struct{ *gameWork }
	teller   struct{ *gameWork }
)

// changes is what the apply stage of a unit of work changed in one game,
// besides the game's record and log: what the tell stage needs to decide
// who gets a mail and what it says. What changed for a seat is one record
// (seatChange); the game's own changes are the notes and its end.
type changes struct {
	// bySeat: what changed for each seat, by seat number (seat writes it,
	// of reads it).
	bySeat map[int]*seatChange
	// notes: announcements, per seat (-1: everybody).
	notes []note
	// ended: the game ended in this transaction.
	ended bool
}

// seatChange is what the apply stage changed for one seat.
type seatChange struct {
	// acted: the seat applied a move (its deadline restarts).
	acted bool
	// reply: the answer to the seat's own message.
	reply *reply
	// answering: the Message-ID of the seat's message being answered.
	answering string
	// force: the seat gets a mail even if nothing changed for it.
	force bool
	// reminder, digest: the seat's reminder or digest is due.
	reminder, digest bool
	// asked: the seat's decision clock started in this transaction.
	asked bool
	// quiet: the seat's mail is not sent this transaction (its budget is
	// spent, or it keeps sending the same mail).
	quiet bool
	// status, full: the seat asked STATUS (its mail carries the state) or
	// STATUS FULL (the whole state; otherwise the summary is compact).
	status, full bool
}

func newChanges() changes { return changes{bySeat: map[int]*seatChange{}} }

// seat is the change record of a seat, created on first write.
func (c *changes) seat(i int) *seatChange {
	sc := c.bySeat[i]
	if sc == nil {
		sc = &seatChange{}
		c.bySeat[i] = sc
	}
	return sc
}

// of reads the change record of a seat (the zero record if nothing
// changed for it).
func (c *changes) of(i int) seatChange {
	if sc := c.bySeat[i]; sc != nil {
		return *sc
	}
	return seatChange{}
}

// reply, replyLine and note are the apply stage's words for the tell
// stage's (package referee/tell): the answer to a seat's own message, one
// line of it, an announcement.
type (
	reply     = tell.Reply
	replyLine = tell.ReplyLine
	note      = tell.Note
)

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
	if v, ok := w.tx.TakeDecoded(id); ok {
		if d, ok := v.(decodedGame); ok {
			return w.trackDecoded(d.g, d.tb)
		}
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
// store's decoded records), or nil to decode it from the record.
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
	c := gw.seat(seat)
	if c.reply == nil {
		c.reply = &reply{}
	}
	return c.reply
}

func (gw *gameWork) announce(seats []int, name string, kv ...any) {
	gw.notes = append(gw.notes, note{Seats: seats, Name: name, Data: engine.Params(kv...)})
}

func (gw *gameWork) log(e Entry) (uint64, error) {
	if e.At.IsZero() {
		e.At = gw.w.now
	}
	seq, err := appendEntry(gw.w.tx, gw.g, e)
	if err == nil {
		e.Seq = seq
		gw.logged = append(gw.logged, e)
	}
	return seq, err
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
		if s.How != "auto" && s.How != "default" {
			gw.seat(s.Seat).acted = true
		}
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
		if err := (settling{gw}).settle(); err != nil {
			return nil, err
		}
		if gw.ended {
			if err := w.gameEnded(gw); err != nil {
				return nil, err
			}
		}
		if err := (teller{gw}).mail(); err != nil {
			return nil, err
		}
		if err := (teller{gw}).queueHooks(gw.steps); err != nil {
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
			// The table's own encoder: json.Marshal's bytes (engine
			// TestTableJSONIsSpliced) without its compacting pass (issue 24).
			raw, err := gw.tb.MarshalJSON()
			if err != nil {
				return nil, err
			}
			gw.g.Table = raw
		}
		if err := saveGame(w.tx, gw.g); err != nil {
			return nil, err
		}
		if err := w.tx.KeepDecoded(gw.g.ID, decodedGame{g: gw.g, tb: gw.tb}); err != nil {
			return nil, err
		}
		if err := w.tx.SetWake(gw.g.ID, (settling{gw}).wake()); err != nil {
			return nil, err
		}
	}
	if err := w.kept.Flush(w.desk().Records(), w.now); err != nil {
		return nil, err
	}
	if err := w.persistOutbox(); err != nil {
		return nil, err
	}
	return w.sent, nil
}

// botName is the bot that takes over seats (lifecycle.BotName).
func (gw *gameWork) botName() string { return lifecycle.BotName(gw.eg.Info().Bots) }

// toOrganiser queues a short mail to the game's organiser.
func (gw *gameWork) toOrganiser(name string, kv ...any) {
	if gw.g.Organiser == "" {
		return
	}
	data := engine.Params(append([]any{"game", gw.g.ID, "title", gw.eg.Info().Title}, kv...)...)
	lang := gw.orgLang()
	body := gw.w.r.render.text(gw.w.r.log, "referee", Reader{Game: "referee", Lang: lang, Seat: -1, Seats: gw.g.HoldingNames()}, "org."+name, data)
	subj := gw.w.r.render.text(gw.w.r.log, "referee", Reader{Game: "referee", Lang: lang, Seat: -1}, "subject.org", data)
	gw.extra = append(gw.extra, &Outgoing{Game: gw.g.ID, Seat: -1, Kind: "org", To: gw.g.Organiser, Tag: gw.w.orgTag(gw.g.Organiser),
		Subject: subj, MessageID: gw.w.messageID(gw.g, -1, gw.token()), Body: templates.Fold(body), Lang: lang})
}

func (gw *gameWork) token() int { return tableToken(gw.tb) }

// waitingNames lists the names of the seats the game waits for.
func (gw *gameWork) waitingNames() []string { return waitingNames(gw.g, gw.tb) }
