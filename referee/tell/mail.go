package tell

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/mailfmt/mailmsg"
	"github.com/pbem-referee/referee/templates"
)

// MailData is what the referee templates ("mail.game", "subject.game")
// receive: the parts of a player's mail, the game parts already rendered in
// the reader's language by the game's own templates.
type MailData struct {
	Game  string // game id
	Title string // the game's title
	// Tag is the reader's seat tag (<game>.<seat>.<secret>): it goes in
	// the Reply-To plus address only, never in the subject (issue 11.7).
	Tag    mailmsg.Tag
	Name   string // the reader's name
	Seat   int
	Token  int
	Status string // the game's status
	// Kind: "update", "reply", "reminder", "digest" or "end".
	Kind string
	// Reply echoes the reader's own message (nil if the mail answers none).
	Reply *ReplyView
	// Info holds answers to informational commands (HELP, RULE, LOG, ...).
	Info []string
	// Prompt is what the reader must do now (with numbered options), or "".
	Prompt string
	// Numbered: the prompt lists numbered options (a reply of just a
	// number works); never promised otherwise.
	Numbered bool
	// OptionNames are the words of each numbered option as its menu line
	// shows them, without the number (the JSON part's option_names).
	OptionNames []string
	Halt        *HaltView
	// Sealed is the reader's sealed answer so far in a simultaneous
	// decision, and Complete whether it finishes the reader's part.
	Sealed   []string
	Complete bool
	// GoesOn: the sealed answer settles this step of a turn that is ended
	// by DONE, and does not end with DONE: the turn goes on after the
	// reveal (Fromage).
	GoesOn bool
	// DoneOnly: every line of the complete sealed answer is DONE; the
	// reader's moves of the turn are played and only the end of the turn
	// waits for the others (Fromage, after a reveal). Not an answer "so far".
	DoneOnly bool
	// Waiting are the players the game waits for (when Prompt is "").
	Waiting []string
	// Deadline is the reader's deadline in the reader's time zone, "" if none.
	Deadline string
	Notes    []string
	Log      []string
	Summary  string
	Result   *ResultView
	// Seed is revealed at the end; Commitment is announced at the start.
	Seed       string
	Commitment string
	// Bot: the reader's seat is played by the engine's bot after missed
	// moves (any command takes it back). Resigned and kicked seats are not.
	Bot bool
	// Queued are the reader's orders still queued for later turns.
	Queued []string
	// Where is the game's short line for the decision asked ("round 4,
	// placement"), Due the deadline in short ("Tue 24 Nov 20:00"),
	// Winners the names ranked first at the end and Headline the first
	// news line: the parts of the subject.
	Where    string
	Due      string
	Winners  []string
	Headline string
	// Holders name, for each seat that changed hands (REPLACE), who held
	// it and for which moves, substitutes marked (issue 24).
	Holders []string
	// SameState: the state is left out, as the reader's own moves are all
	// that changed since their last mail with it.
	SameState bool
}

// ReplyView is the echo of a player's message.
type ReplyView struct {
	Rejected bool
	Stale    bool
	// Done: some referee commands of the message were applied (LANG,
	// VACATION, ...) even though its game orders were refused, so
	// "nothing was applied" would be false.
	Done  bool
	Lines []ReplyLineView
}

// ReplyLineView is one order of the echo.
type ReplyLineView struct {
	Status string   // applied, queued, sealed, halted, else_pass, rejected, failed, dropped, done
	Text   string   // as written
	Cmds   []string // the normalised commands applied
	Errors []string // rendered reasons
}

// HaltView explains a halted queue.
type HaltView struct {
	Line     string
	Errors   []string
	SetAside []string
	// Unforeseen: the line was not refused by a rule; the game asks the
	// player something else now (every error is wrong_decision), typically
	// a question raised by a reveal that the plan could not foresee. The
	// player did nothing wrong, and the mail must not say so.
	Unforeseen bool
}

// ResultView is the final ranking.
type ResultView struct {
	Lines []ResultLine
}

// ResultLine is one seat's final result.
type ResultLine struct {
	Rank  int
	Name  string
	Total int
	Parts string
	Me    bool
	// Holders names who held the seat when it changed hands ("": never).
	Holders string
}

// mailSeat writes seat i's mail, if the seat gets one, and updates the
// seat as told (v.seats[i]).
func (v *mailView) mailSeat(i int) error {
	s := &v.seats[i]
	rd := v.reader(i)
	var notes []string
	minor := true // only notes that need no mail of their own
	for _, n := range v.Notes {
		if n.Seats != nil && !slices.Contains(n.Seats, i) {
			continue
		}
		minor = minor && minorNotes[n.Name]
		text, err := v.Render.T.Render("referee", rd.Lang, "note."+n.Name, v.Render.Ctx(rd, n.Data))
		if err != nil {
			return err
		}
		notes = append(notes, text)
	}
	// What the seat has not seen of the log is rendered when the choice
	// of a mail needs it, or the mail is sent (unseen): a seat that gets
	// no mail never reads the older entries.
	var lines []string
	last, rendered := s.Seen, false
	unseen := func() (err error) {
		if !rendered {
			rendered = true
			lines, last, err = v.unseen(i, rd)
		}
		return err
	}
	rep := v.of(i).Reply
	asked := v.of(i).Asked && s.Bot == ""
	important := rep != nil || v.of(i).Force || len(notes) > 0 || v.of(i).Reminder || v.of(i).Digest || v.Ended
	send := false
	switch {
	case s.State == SeatDeclined || s.State == SeatKicked:
		send = rep != nil || len(notes) > 0
	case s.Bot != "" && !v.Ended:
		send = rep != nil || v.of(i).Force || len(notes) > 0
	case s.Notify == "turn":
		// Another player joining needs no mail of its own (issue 12.3:
		// news mails only for what matters; the start names everybody).
		notable := len(notes) > 0 && !minor
		send = rep != nil || v.of(i).Force || notable || v.of(i).Reminder || v.of(i).Digest || v.Ended || asked
	case s.Notify == "digest":
		send = important
		if !send && s.DigestDue.IsZero() {
			if !asked {
				if err := unseen(); err != nil {
					return err
				}
			}
			if asked || len(lines) > 0 {
				s.DigestDue = v.Now.Add(24 * time.Hour)
			}
		}
	default:
		send = important || asked
		if !send {
			if err := unseen(); err != nil {
				return err
			}
			send = len(lines) > 0
		}
	}
	// A held receipt (receipts.go) goes out alone when its window ended,
	// and rides in any mail sent before; its window runs again while the
	// others play on and nothing is asked of the seat.
	if !send {
		v.keepHolding(i)
	}
	alone := !send && v.receiptDue(i)
	send = send || alone
	if !send || (v.of(i).Quiet && !v.Ended) {
		return nil
	}
	if err := unseen(); err != nil {
		return err
	}
	// A refused or stale message gets its own echo ("nothing of this
	// message was applied"): the held receipt waits on.
	fold := s.Held != nil && (rep == nil || !(rep.Rejected || rep.Stale))
	answering := v.of(i).Answering
	if fold && answering == "" {
		answering = s.Held.Answering
	}
	orig := rep
	if fold {
		rep = v.withHeld(i, rep)
	}
	data, view, err := v.mailData(i, rep, notes, lines)
	if err != nil {
		return err
	}
	if orig == nil && !alone && data.Kind == "reply" {
		// The held echo rides along; the mail is what it would be without it.
		data.Kind = "update"
		if v.of(i).Reminder {
			data.Kind = "reminder"
		} else if v.of(i).Digest {
			data.Kind = "digest"
		}
	}
	if !alone && v.holdable(i, orig, notes, data) {
		v.hold(i, rep, answering)
		return nil
	}
	// The state is rendered only for a mail that shows it (issue 13.5:
	// the summary was a fifth of a move's CPU, half of it thrown away).
	withState := v.Table != nil
	if withState && data.Prompt != "" && rep != nil && !v.of(i).Status {
		// The reader's own moves are all that changed since the state in
		// their last mail: the echo and the log above say it all.
		own, err := v.onlyOwnMoves(i)
		if err != nil {
			return err
		}
		if own {
			withState, data.SameState = false, true
		}
	}
	if v.short(i, data) {
		// A short news mail (issue 12.3): what happened to the reader's
		// message or what matters to them, without the state; the moves
		// since their last mail wait for the next mail that asks them.
		withState, data.Log, last = false, nil, s.Seen
	}
	if withState {
		rd := v.reader(i)
		rd.Compact = !v.of(i).Full && !v.Ended // STATUS FULL and the end show everything
		if view == nil {
			view = v.view(i)
		}
		if data.Summary, err = v.Render.Summary(rd, view); err != nil {
			return err
		}
	}
	body, err := v.Render.T.Render("referee", rd.Lang, "mail.game", v.Render.Ctx(rd, data))
	if err != nil {
		return err
	}
	subject, err := v.Render.T.Render("referee", rd.Lang, "subject.game", v.Render.Ctx(rd, data))
	if err != nil {
		return err
	}
	subject = cutSubject(subject)
	m := &Outgoing{Game: v.Game.ID, Seat: i, Kind: data.Kind, To: s.Address, ToName: s.greeting(),
		Tag: data.Tag, Subject: subject, MessageID: v.messageID(i), Body: body, Lang: rd.Lang}
	// One shallow thread per game and player: every mail answers the
	// game's first mail to the player (or the player's own message, which
	// answers one of ours), so clients show a flat list under one root.
	if answering != "" {
		m.InReplyTo, m.AutoSubmitted = answering, "auto-replied"
	} else if s.Thread != "" {
		m.InReplyTo = s.Thread
	}
	m.References = threadRefs(s.Thread, answering)
	if s.Format == "json" {
		if m.JSON, err = v.jsonView(i, data, view); err != nil {
			return err
		}
	}
	if v.Ended {
		m.Attachments = append(m.Attachments, Attachment{Name: v.Game.ID + "-log.json", ContentType: "application/json", Data: v.FinalLog})
	}
	v.out = append(v.out, m)
	if p := v.prompt(i); p != nil && p.Halt != nil && data.Halt != nil {
		s.HaltShown = haltKey(p)
	}
	if s.Thread == "" {
		s.Thread = m.MessageID
	}
	s.LastMail = m.MessageID
	if fold {
		s.Held = nil // its echo is in this mail
	}
	s.Seen = last
	if data.Summary != "" {
		s.StateSeq = last
	}
	if s.Notify == "digest" {
		s.DigestDue = time.Time{}
	}
	return nil
}

// onlyOwnMoves reports whether everything logged since the state seat i
// last saw in full is the seat's own input and moves (the log starts at
// the oldest entry any seat has not seen).
func (v *mailView) onlyOwnMoves(i int) (bool, error) {
	s := v.seats[i]
	if s.StateSeq == 0 {
		return false, nil
	}
	log, err := v.logFrom(s.StateSeq + 1)
	if err != nil || len(log) == 0 || log[0].Seq > s.StateSeq+1 {
		return false, err
	}
	for _, e := range log {
		if e.Seq <= s.StateSeq {
			continue
		}
		switch {
		case e.Kind == EntryInput && e.Seat == i:
		case e.Kind == EntryStep && e.Step != nil && e.Step.Seat == i && (e.Step.How == "move" || e.Step.How == "queued"):
		default:
			return false, nil
		}
	}
	return true, nil
}

// unseen renders for seat i what it has not seen of the log (the events
// of the steps; referee facts reach players as notes), and the last
// entry's sequence number (the seat's Seen once told).
func (v *mailView) unseen(i int, rd Reader) (lines []string, last uint64, err error) {
	last = v.seats[i].Seen
	log, err := v.logFrom(last + 1)
	if err != nil {
		return nil, 0, err
	}
	seen := last
	for _, e := range log {
		if e.Seq <= seen {
			continue
		}
		last = e.Seq
		if e.Kind != EntryStep {
			// Referee facts reach players as announcements (notes) when
			// they happen; LOG shows them all.
			continue
		}
		ls, err := EntryLines(v.Render, rd, e)
		if err != nil {
			return nil, 0, err
		}
		lines = append(lines, ls...)
	}
	return lines, last, nil
}

// logFrom is the log holding every entry from seq on: Input.Log when it
// starts there or before, else with the older entries in front
// (Input.Older, read once).
func (v *mailView) logFrom(seq uint64) ([]Entry, error) {
	if v.olderRead {
		return v.log, nil
	}
	if v.Older == nil || (len(v.Log) > 0 && v.Log[0].Seq <= seq) {
		return v.Log, nil
	}
	older, err := v.Older()
	if err != nil {
		return nil, err
	}
	v.log, v.olderRead = append(older[:len(older):len(older)], v.Log...), true
	return v.log, nil
}

// short reports whether seat i's mail is a short news mail: under the
// default NOTIFY a mail that asks nothing of the reader and that they did
// not ask the state for (STATUS, a refused or empty message, the start,
// the end, a digest or a reminder all carry the whole state).
func (v *mailView) short(i int, d *MailData) bool {
	s := v.seats[i]
	return s.Notify != "every" && s.Notify != "digest" && d.Prompt == "" && d.Kind != "end" && d.Kind != "digest" &&
		d.Kind != "reminder" && !v.of(i).Force && v.Game.Status == StatusRunning
}

// haltKey names a halted queue: the prompt's token and the halted line.
func haltKey(p *engine.Prompt) string {
	return fmt.Sprintf("%d %s", p.Token, p.Halt.Order.Text)
}

// prompt is seat i's open prompt in a running game, or nil.
func (v *mailView) prompt(i int) *engine.Prompt {
	if v.Table == nil || v.Game.Status != StatusRunning {
		return nil
	}
	return v.Table.Prompts[i]
}

// minorNotes are announcements that cause no mail of their own under the
// default NOTIFY (they are in a mail sent anyway, and in the LOG).
var minorNotes = map[string]bool{"joined": true}

// SubjectWidth is the longest subject the referee writes (in runes): it
// fits an 80-column index with a "Re: " in front.
const SubjectWidth = 76

// cutSubject folds a subject onto one line and cuts it to SubjectWidth.
func cutSubject(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	r := []rune(s)
	if len(r) <= SubjectWidth {
		return s
	}
	return strings.TrimRight(string(r[:SubjectWidth-1]), " ,;:.") + "…"
}

// firstLine is the first non-empty line of s, without the leading bullet
// or indentation.
func firstLine(s string) string {
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(l), "*-")); l != "" {
			return l
		}
	}
	return ""
}

func threadRefs(ids ...string) []string {
	var out []string
	for _, id := range ids {
		if id != "" && !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	return out
}

// mailData assembles the parts of a seat's mail but the summary of the
// state; view is the seat's view of the state when the mail has a prompt
// (nil otherwise).
func (v *mailView) mailData(i int, rep *Reply, notes, lines []string) (d *MailData, view any, err error) {
	s := v.seats[i]
	rd := v.reader(i)
	rd.Compact = !v.of(i).Full && !v.Ended // STATUS FULL and the end show everything
	r := v.Render
	d = &MailData{Game: v.Game.ID, Title: v.Engine.Info().Title, Tag: SeatTag(v.Game.ID, i, s.Secret), Name: s.greeting(), Seat: i, Token: v.token(),
		Status: v.Game.Status, Kind: "update", Notes: notes, Log: lines, Commitment: v.Game.Commitment,
		Bot: s.Bot != "" && s.State == SeatPlaying}
	switch {
	case v.Ended:
		d.Kind = "end"
	case rep != nil:
		d.Kind = "reply"
	case v.of(i).Reminder:
		d.Kind = "reminder"
	case v.of(i).Digest:
		d.Kind = "digest"
	}
	if rep != nil {
		v := &ReplyView{Rejected: rep.Rejected, Stale: rep.Stale}
		for _, l := range rep.Lines {
			lv := ReplyLineView{Status: string(l.Status), Text: l.Text, Cmds: l.Cmds}
			for k, c := range l.Cmds {
				// The command read, as the reader copies it (issue 24).
				if said := rd.Command(c); said != c {
					if &lv.Cmds[0] == &l.Cmds[0] {
						lv.Cmds = slices.Clone(l.Cmds)
					}
					lv.Cmds[k] = said
				}
			}
			for _, e := range l.Errors {
				t, err := r.Error(rd, e)
				if err != nil {
					return nil, nil, err
				}
				lv.Errors = append(lv.Errors, t)
			}
			v.Lines = append(v.Lines, lv)
			v.Done = v.Done || l.Status == "done"
		}
		if len(v.Lines) > 0 {
			d.Reply = v
		}
		d.Info = rep.Info
	}
	// Who held each seat that changed hands (issue 24): named in every
	// mail of the game from the change on, and in its result.
	held, err := r.SeatsHeld(rd, v.Game.Seats)
	if err != nil {
		return nil, nil, err
	}
	for _, h := range held {
		if h != "" {
			d.Holders = append(d.Holders, h)
		}
	}
	if v.Table != nil {
		// The summary is rendered by mailSeat, only when the mail shows it;
		// the view is computed here only for a prompt.
		if v.Game.Status == StatusRunning {
			if p := v.Table.Prompts[i]; p != nil && !p.Complete {
				view = v.view(i)
				if p.Halt != nil && s.HaltShown == haltKey(p) {
					// The halt was explained in an earlier mail: say it
					// once, not in every mail until the player moves.
					cp := *p
					cp.Halt = nil
					p = &cp
				}
				text, names, err := r.PromptMenu(rd, p, view)
				if err != nil {
					return nil, nil, err
				}
				d.Prompt, d.Numbered, d.OptionNames = text, p.Numbered, names
				if w, ok, err := r.Lookup(rd, "where", templates.PromptData{Prompt: *p, View: view}); ok {
					if err != nil {
						return nil, nil, err
					}
					d.Where = strings.TrimSpace(w)
				}
				if p.Halt != nil {
					hv := &HaltView{Line: p.Halt.Order.Text, Unforeseen: len(p.Halt.Errors) > 0}
					for _, e := range p.Halt.Errors {
						if e == nil || e.Code != engine.CodeWrongDecision {
							hv.Unforeseen = false
						}
						t, err := r.Error(rd, e)
						if err != nil {
							return nil, nil, err
						}
						hv.Errors = append(hv.Errors, t)
					}
					for _, o := range p.Halt.SetAside {
						hv.SetAside = append(hv.SetAside, o.Text)
					}
					d.Halt = hv
				}
			}
			if p := v.Table.Prompts[i]; p != nil && p.Decision.Mode == engine.Simultaneous {
				for _, o := range p.Sealed {
					d.Sealed = append(d.Sealed, o.Text)
				}
				d.Complete = p.Complete
				if n := len(p.Sealed); n > 0 && p.Decision.Pass == "DONE" {
					last := strings.Fields(strings.ToUpper(p.Sealed[n-1].Text))
					d.GoesOn = len(last) == 0 || v.Render.T.Alias(v.Game.Game, rd.Lang, last[len(last)-1]) != "DONE"
					d.DoneOnly = d.Complete
					for _, o := range p.Sealed {
						f := strings.Fields(strings.ToUpper(o.Text))
						if len(f) != 1 || v.Render.T.Alias(v.Game.Game, rd.Lang, f[0]) != "DONE" {
							d.DoneOnly = false
						}
					}
				}
			}
			if d.Prompt == "" {
				d.Waiting = WaitingNames(v.names, v.Table)
			}
			for _, o := range v.Table.Queued(i) {
				if p := v.Table.Prompts[i]; p != nil && p.Decision.Mode == engine.Simultaneous && o.Slot == p.Decision.Slot {
					continue
				}
				d.Queued = append(d.Queued, o.Text)
			}
		}
		if res := v.Table.State.Result(); res != nil {
			d.Result = resultView(res, v.Game, i, held)
			d.Seed = v.Game.Seed
			for _, l := range d.Result.Lines {
				if l.Rank == 1 {
					d.Winners = append(d.Winners, l.Name)
				}
			}
		}
	}
	if !s.Due.IsZero() {
		d.Deadline = templates.FormatTime(rd.Lang, s.Due.In(templates.Zone(s.TZ)))
		d.Due = templates.FormatShort(rd.Lang, s.Due.In(templates.Zone(s.TZ)))
	}
	for _, n := range notes {
		if d.Headline = firstLine(n); d.Headline != "" {
			break
		}
	}
	if d.Headline == "" && len(lines) > 0 {
		d.Headline = firstLine(lines[len(lines)-1])
	}
	return d, view, nil
}

// resultView is the final ranking as seat me reads it; held names who
// held each seat ("" for a seat that never changed hands).
func resultView(res *engine.Result, g *Game, me int, held []string) *ResultView {
	v := &ResultView{}
	order := make([]int, len(res.Scores))
	for i := range order {
		order[i] = i
	}
	for a := 0; a < len(order); a++ {
		for b := a + 1; b < len(order); b++ {
			if res.Rank[res.Scores[order[b]].Seat] < res.Rank[res.Scores[order[a]].Seat] {
				order[a], order[b] = order[b], order[a]
			}
		}
	}
	for _, k := range order {
		sc := res.Scores[k]
		var parts []string
		for _, p := range sc.Parts {
			parts = append(parts, fmt.Sprintf("%s %d", p.Name, p.Points))
		}
		v.Lines = append(v.Lines, ResultLine{Rank: res.Rank[sc.Seat], Name: g.Seats[sc.Seat].Name, Total: sc.Total,
			Parts: strings.Join(parts, ", "), Me: sc.Seat == me, Holders: held[sc.Seat]})
	}
	return v
}

// EntryLines renders one log entry for a reader: the events of a step, or
// the referee's own line (template "log.<kind>") for other kinds, skipping
// what the reader may not see and the reader's own inputs, which the reply
// echoes.
func EntryLines(r *Renderer, rd Reader, e Entry) ([]string, error) {
	switch e.Kind {
	case EntryStep:
		var out []string
		rd := rd.at(e.Step.Token)
		for _, ev := range e.Step.Events {
			line, ok, err := r.Event(rd, ev)
			if err != nil {
				return nil, err
			}
			if ok {
				out = append(out, line)
			}
		}
		return out, nil
	case EntryInput:
		return nil, nil
	}
	if !e.Vis.Sees(rd.Seat) {
		return nil, nil
	}
	name := "log." + e.Kind
	if !r.T.Has("referee", rd.Lang, name) {
		return nil, nil
	}
	data := map[string]any{"seat": e.Seat, "text": e.Text, "params": e.Params, "at": e.At}
	line, err := r.T.Render("referee", rd.Lang, name, r.Ctx(rd, data))
	if err != nil {
		return nil, err
	}
	return []string{line}, nil
}

// jsonView is the JSON companion of a mail (FORMAT json); view is the
// seat's view when the mail's prompt or summary computed it already (nil:
// computed here).
func (v *mailView) jsonView(i int, d *MailData, view any) ([]byte, error) {
	j := jsonMail{Game: v.Game.ID, Title: d.Title, Seat: i, Token: d.Token, Status: v.Game.Status,
		Kind: d.Kind, Deadline: d.Deadline, Waiting: d.Waiting, Reply: d.Reply, Notes: d.Notes}
	if v.Table != nil {
		if view == nil {
			view = v.view(i)
		}
		j.View = orNull(view)
		if p := v.Table.Prompts[i]; p != nil && !p.Complete && v.Game.Status == StatusRunning {
			j.Prompt = p
			// Each numbered option in the reader's words, as its menu
			// line shows them: the options' fields are the engine's codes
			// (issue 25). The body has the whole prompt; one short string
			// an option keeps the part's 7bit lines, which break only
			// between tokens, within the limit.
			if len(d.OptionNames) > 0 {
				j.OptionNames = d.OptionNames
			}
			// Every legal answer, numbered or not, for players' own tools.
			j.Legal = v.Table.Legal(i)
		}
		if res := v.Table.State.Result(); res != nil {
			j.Result = res
			j.Seed = v.Game.Seed
		}
	}
	return marshalPart(&j)
}

// jsonMail is the JSON part's object: its keys in the order encoding/json
// writes a map's (sorted), each value as the map held it, so that the part
// is the bytes it was as a map, without the map made and its keys sorted
// at every mail (issue 25, handler CPU). A key with omitempty is one the
// part has only in some mails: it is there when set, even to null
// (orNull); the others are in every part.
type jsonMail struct {
	Deadline    any `json:"deadline"`
	Game        any `json:"game"`
	Kind        any `json:"kind"`
	Legal       any `json:"legal,omitempty"`
	Notes       any `json:"notes"`
	OptionNames any `json:"option_names,omitempty"`
	Prompt      any `json:"prompt,omitempty"`
	Reply       any `json:"reply"`
	Result      any `json:"result,omitempty"`
	Seat        any `json:"seat"`
	Seed        any `json:"seed,omitempty"`
	Status      any `json:"status"`
	Title       any `json:"title"`
	Token       any `json:"token"`
	View        any `json:"view,omitempty"`
	Waiting     any `json:"waiting"`
}

// orNull is v, or JSON's null when v is nil: a key set to nothing is
// still written, as a map's was.
func orNull(v any) any {
	if v == nil {
		return json.RawMessage("null")
	}
	return v
}
