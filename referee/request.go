package referee

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/referee/cmdtable"
	"github.com/pbem-referee/referee/referee/commands"
	"github.com/pbem-referee/referee/referee/reading"
	"github.com/pbem-referee/referee/referee/records"
	"github.com/pbem-referee/referee/referee/seating"
	"github.com/pbem-referee/referee/referee/tell"
	"github.com/pbem-referee/referee/store"
	"github.com/pbem-referee/referee/templates"
)

// request dispatches a request by its tag.
func (w *work) request(req *Request, out *Outcome) error {
	switch req.Kind {
	case KindSeat:
		return w.seatRequest(req, out)
	case KindPlayer:
		return playerWork{w}.playerRequest(req, out)
	case KindOrg:
		return orgWork{w}.orgRequest(req, out)
	}
	return playerWork{w}.untagged(req, out)
}

// seatRequest handles a message carrying a seat's tag. Only a mail with the
// seat's secret, from the seat's address (and authenticated when the policy
// says so) counts against the seat's budget; anything else counts against
// its sender's own (issue 11, item 2).
func (w *work) seatRequest(req *Request, out *Outcome) error {
	var gw *gameWork
	_, seat, err := authSeat(w.tx, req.Game, req.Secret, func(id string) (*Game, error) {
		var err error
		if gw, err = w.game(id); err != nil {
			return nil, err
		}
		return gw.g, nil
	})
	switch {
	case errors.Is(err, ErrNotSeatToken):
		out.Status, out.Detail, out.Reason = OutcomeIgnored, "unknown seat token", ReasonUnknownSeat
		if !w.allowAnon(req) {
			out.Detail += "; rate limit for " + req.From
			out.Reason = ReasonRateLimited
			return nil
		}
		return playerWork{w}.unknownToken(req)
	case errors.Is(err, ErrTokenRevoked):
		out.Game, out.Seat = gw.g.ID, seat
		out.Status, out.Detail, out.Reason = OutcomeIgnored, "token no longer valid", ReasonRevoked
		return nil
	case err != nil:
		return err
	}
	out.Game, out.Seat = gw.g.ID, seat
	s := &gw.g.Seats[seat]
	addr := s.Address // the seat may move (a start draws the order)
	if !strings.EqualFold(req.From, s.Address) || !req.SenderVerified {
		// Never act on it; tell only the registered address, at most once
		// a window, and keep the forger's text only while within their
		// own budget.
		out.Status, out.Detail, out.Reason = OutcomeRejected, "sender is not the seat's registered address or failed authentication", ReasonSender
		if !w.allowAnon(req) {
			out.Status, out.Detail, out.Reason = OutcomeIgnored, out.Detail+"; rate limit for "+req.From, ReasonRateLimited
			return nil
		}
		if _, err := gw.log(Entry{Kind: EntryInput, Seat: seat, Vis: engine.Only(seat), Text: req.read().Logged(),
			Params: map[string]any{"refused": "sender", "from": req.From}}); err != nil {
			return err
		}
		if w.r.notice.allow("spoof/"+gw.g.ID+"/"+s.Address, w.now) {
			gw.announce([]int{seat}, "spoof", "from", req.From, "verified", req.SenderVerified)
		}
		return nil
	}
	digest := req.read().Digest()
	if s.StaleResend(req.Token, digest, gw.token()) {
		// The same text from the same seat answering the same old state as
		// a mail already applied: a resend, not a new move.
		out.Status, out.Detail = OutcomeDuplicate, "resend of a mail already applied"
		// Never silent (issue 20): told, at most once a window.
		if quiet, _ := w.allowAuth(req, "seat/"+gw.g.ID+"/"+s.Address); !quiet && w.r.notice.allow("resend/"+gw.g.ID+"/"+s.Address, w.now) {
			gw.seat(seat).answering = req.MessageID
			gw.reply(seat).Info = append(gw.reply(seat).Info, gw.text(seat, "info.resend", map[string]any{"token": req.Token}))
			out.Detail += "; told"
		}
		return nil
	}
	quiet, notice := w.allowAuth(req, "seat/"+gw.g.ID+"/"+s.Address)
	if _, err := gw.log(Entry{Kind: EntryInput, Seat: seat, Vis: engine.Only(seat), Text: req.read().Logged(),
		Params: map[string]any{"token": req.Token, "message_id": req.MessageID}}); err != nil {
		return err
	}
	gw.seat(seat).answering = req.MessageID
	out.Status = OutcomeApplied
	// The same body answering the same state: numbered answers to
	// successive prompts ("1", "1", ...) are not repeats.
	if n := s.RepeatedBody(fmt.Sprintf("%d/%s", req.Token, digest), w.now); n >= loopRepeats {
		// An auto-responder answering the referee's answers: the third
		// identical mail in a day is answered with a note, the later ones
		// are read but not answered.
		if n > loopRepeats {
			quiet = true
		} else {
			gw.reply(seat).Info = append(gw.reply(seat).Info, gw.text(seat, "info.loop", map[string]any{"n": n}))
		}
	}
	if notice {
		gw.reply(seat).Info = append(gw.reply(seat).Info, gw.text(seat, "info.slow_down",
			map[string]any{"max": w.r.opt.RateLimit, "minutes": int(w.r.opt.RateWindow.Minutes())}))
	}
	before := gw.token()
	if err := (seatMail{gw}).seatCommands(seat, req, out); err != nil {
		return err
	}
	if quiet {
		gw.seat(seat).quiet = true
		out.Detail = strings.TrimPrefix(out.Detail+"; not answered (rate limit or repeated mail)", "; ")
	}
	// Remember what was accepted (applied, or queued and sealed for a
	// later decision): a stale resend of it must never be re-validated
	// against a newer decision.
	if seat = gw.g.SeatOfAddress(addr); seat >= 0 && (gw.token() != before || out.Status == OutcomeApplied || out.Status == OutcomeQueued) {
		gw.g.Seats[seat].Remember(req.Token, digest)
	}
	return nil
}

// seatCommands runs the commands of a seat's message: the referee's own
// first-come, the game's orders together through the table (atomically).
// The per-mail caps apply first; a mail in which no line looks like a
// command (an auto-responder's text) gets no error reply, only a note at
// most once a day.
func (gw seatMail) seatCommands(seat int, req *Request, out *Outcome) error {
	ans := gw.readAnswers(seat, req)
	orders, ignored := ans.Orders, ans.Ignored
	rep := gw.reply(seat)
	gameCmds := map[string]bool{}
	for _, c := range gw.eg.Info().Commands {
		gameCmds[strings.ToUpper(c)] = true
	}
	c := gw.w.r.capOrders(orders, func(kw string) bool { return refereeCommands[kw] || gameCmds[kw] })
	if (len(orders) > 0 && !c.Any || len(orders) == 0 && len(ignored) > 0) && !disguised(ignored) {
		gw.proseOnly(seat, req, out, ans)
		return nil
	}
	rep.Info = append(rep.Info, c.Note(func(name string, data map[string]any) string { return gw.text(seat, name, data) })...)
	if c.TooMany > 0 {
		out.Status, out.Detail = OutcomeRejected, "too many orders in one mail"
		rep.Rejected = true
		gw.seat(seat).force = true
	}
	seat, game, err := gw.refereeFirst(seat, c.Orders, gameCmds, rep)
	if err != nil || seat < 0 {
		return err
	}
	if len(c.Orders) == 0 {
		gw.seat(seat).force = true
		rep.Info = append(rep.Info, gw.text(seat, "info.no_commands", nil))
	}
	if rd := req.Read; rd != nil && (rd.Markers || rd.Unclosed || rd.Quote || rd.Signature || rd.Forwarded) {
		rep.Read = gw.text(seat, "info.read", map[string]any{"read": rd})
		rep.Info = append(rep.Info, rep.Read)
	}
	gw.answerNotes(seat, ans.Notes)
	gw.ignoredInfo(seat, ignored)
	if len(game) == 0 {
		if out.Status == OutcomeApplied {
			out.Status = OutcomeAnswered
		}
		return nil
	}
	if code := gw.refusal(seat); code != "" {
		return gw.refuseAll(seat, game, code, out)
	}
	return gw.playOrders(seat, game, req, rep, out)
}

// proseOnly answers a mail in which no line reads as a command (a
// player's try that was not understood, a stray reply, a vacation notice
// without automation headers): never an error reply, but a note naming
// every line and what it may have meant (issue 20). A seat's first
// proseAnswers such mails a day are always answered, later ones when a
// line holds what may be an answer (a hint or a question); the rest, in
// a day, are auto-responders' and go unanswered (issue 11, item 4).
func (gw seatMail) proseOnly(seat int, req *Request, out *Outcome, ans *reading.Answers) {
	s := &gw.g.Seats[seat]
	gw.seat(seat).reply, gw.seat(seat).answering = nil, ""
	out.Status, out.Detail = OutcomeIgnored, "no line looks like a command"
	if gw.w.now.Sub(s.NoCommandNote) >= 24*time.Hour {
		s.NoCommandNote, s.NoCommandCount = gw.w.now, 0
	}
	s.NoCommandCount++
	if s.NoCommandCount > proseAnswers && len(ans.Notes) == 0 {
		out.Detail += fmt.Sprintf("; not answered (more than %d today)", proseAnswers)
		return
	}
	gw.seat(seat).answering = req.MessageID
	rep := gw.reply(seat)
	rep.Info = append(rep.Info, gw.text(seat, "info.nothing_read", map[string]any{"max": proseAnswers}))
	gw.answerNotes(seat, ans.Notes)
	gw.ignoredInfo(seat, ans.Ignored)
	out.Detail += "; told what was read"
}

// proseAnswers is how many mails a day without a command a seat always
// gets an answer to.
const proseAnswers = 3

// refereeFirst runs the referee's commands of a mail, first-come, and
// returns the game's orders, in order, with the seat's number after them
// (-1 when a DECLINE gave the seat up).
func (gw seatMail) refereeFirst(seat int, orders []engine.Order, gameCmds map[string]bool, rep *reply) (int, []engine.Order, error) {
	var game []engine.Order
	addr := gw.g.Seats[seat].Address
	for _, o := range orders {
		kw := o.Keyword()
		if !refereeCommands[kw] || cmdtable.OverridableKeywords[kw] && gameCmds[kw] {
			game = append(game, o)
			continue
		}
		line, err := gw.command(seat, kw, o)
		if err != nil {
			return seat, nil, err
		}
		rep.Lines = append(rep.Lines, line)
		// A JOIN that fills the table draws the seat order: the commands
		// after it use the seat's new number.
		if seat = gw.g.SeatOfAddress(addr); seat < 0 {
			return -1, nil, nil // declined: the seat is gone
		}
	}
	return seat, game, nil
}

// refusal is the error template that refuses every game order of a seat
// ("" when the seat may play).
func (gw seatMail) refusal(seat int) string {
	switch {
	case gw.g.Status == StatusForming:
		return "error.not_started"
	case gw.g.Status == StatusPaused:
		return "error.paused"
	case gw.g.Status != StatusRunning:
		return "error.over"
	case gw.g.Seats[seat].State != SeatPlaying:
		return "error.not_playing"
	}
	return ""
}

// playOrders submits a seat's game orders to the table, all or none, and
// says what became of them.
func (gw seatMail) playOrders(seat int, game []engine.Order, req *Request, rep *reply, out *Outcome) error {
	s := &gw.g.Seats[seat]
	if s.Bot != "" {
		// The player is back: the bot hands the seat over.
		s.Bot, s.Missed = "", 0
		if _, err := gw.log(Entry{Kind: EntryBot, Seat: seat, Vis: engine.Public, Params: map[string]any{"back": true}}); err != nil {
			return err
		}
		gw.announce(nil, "back", "seat", seat, "name", s.Greeting())
	}
	res, err := gw.submit(seat, game, req.Token)
	if err != nil {
		return err
	}
	rep.Rejected, rep.Stale = res.Rejected, res.Stale
	for _, r := range res.Results {
		rep.Lines = append(rep.Lines, replyLine{Status: tell.LineStatus(r.Status), Text: r.Order.Text, Cmds: gw.written(r.Cmds), Errors: r.Errors})
	}
	if res.Rejected {
		out.Status, out.Detail = OutcomeRejected, "an order was refused; nothing applied"
		gw.seat(seat).force = true
		return nil
	}
	s.Missed = 0
	gw.seat(seat).acted = true
	// Orders kept for later (queued, or a sealed answer waiting for the
	// others) are "queued", never "applied" (issue 11, item 3).
	applied, queued := false, false
	for _, r := range res.Results {
		switch tell.LineStatus(r.Status) {
		case tell.LineApplied, tell.LineAgreed, tell.LinePartial, tell.LineElsePass:
			applied = true
		case tell.LineQueued, tell.LineSealed:
			queued = true
		}
	}
	if queued && !applied && out.Status == OutcomeApplied {
		out.Status, out.Detail = OutcomeQueued, "orders queued for later decisions"
	}
	return nil
}

func (gw seatMail) refuseAll(seat int, orders []engine.Order, code string, out *Outcome) error {
	rep := gw.reply(seat)
	rep.Rejected = true
	why := gw.text(seat, code, nil)
	for _, o := range orders {
		rep.Lines = append(rep.Lines, replyLine{Status: tell.LineRejected, Text: o.Text})
	}
	rep.Info = append(rep.Info, why)
	out.Status, out.Detail = OutcomeRejected, code
	return nil
}

// logText renders the last n log lines a seat may see.
func (gw seatMail) logText(seat, n int) (string, error) {
	all, err := entries(gw.w.tx, gw.g.ID, 1)
	if err != nil {
		return "", err
	}
	lines, err := tell.DatedLines(gw.w.r.render.Renderer, gw.reader(seat), records.TellEntries(all),
		templates.Zone(gw.g.Seats[seat].TZ), nil)
	if err != nil {
		return "", err
	}
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return gw.text(seat, "info.log", map[string]any{"lines": lines, "n": n}), nil
}

// unknownToken answers a registered player whose tag is unknown (a typo or a
// finished game), and nobody else.
func (w playerWork) unknownToken(req *Request) error {
	p, err := loadPlayer(w.tx, req.From)
	if err != nil || !req.SenderVerified || p.Pending {
		return nil
	}
	if !w.r.notice.allow("unknown/"+p.Address, w.now) {
		return nil // the From is unchecked: at most one such answer an hour
	}
	return w.playerMail(p, "unknown_token", nil, req.MessageID)
}

// playerRequest handles a message with a player's own tag (LIST, JOIN
// <game>, OBSERVE <game>, LANG, HELP).
func (w playerWork) playerRequest(req *Request, out *Outcome) error {
	tok, err := w.tx.Token(req.Secret)
	if err != nil || RequestKind(tok.Kind) != KindPlayer {
		out.Status, out.Detail = OutcomeIgnored, "unknown player token"
		return nil
	}
	p, err := loadPlayer(w.tx, tok.Address)
	if err != nil {
		return err
	}
	if !strings.EqualFold(req.From, p.Address) || !req.SenderVerified {
		out.Status, out.Detail = OutcomeRejected, "sender is not the player's address"
		if !w.allowAnon(req) || !w.r.notice.allow("spoof/player/"+p.Address, w.now) {
			out.Status, out.Detail = OutcomeIgnored, out.Detail+"; not told again this hour"
			return nil
		}
		return w.playerMail(p, "spoof", map[string]any{"from": req.From}, "")
	}
	out.Status = OutcomeAnswered
	if p.Pending {
		// The address answered the mail with its token: confirmed.
		p.Pending, p.Helped = false, time.Time{}
		if err := savePlayer(w.tx, p); err != nil {
			return err
		}
	}
	quiet, notice := w.allowAuth(req, "player/"+p.Address)
	var lines []string
	acted := false
	orders := req.read().Script()
	c := w.r.capOrders(orders, func(kw string) bool {
		kw = strings.ToUpper(kw)
		return cmdtable.PlayerKeywords[w.r.render.T.Alias("referee", p.Lang, kw)] || w.r.knownWord(nil, "referee", kw)
	})
	if cmds, prose := req.read().Prose(w.r.keywords()); len(orders) > 0 && !c.Any ||
		strings.TrimSpace(cmds) == "" && len(prose) > 0 && !disguised(prose) {
		// Prose only, as from an auto-responder: never answered.
		out.Status, out.Detail = OutcomeIgnored, "no line looks like a command"
		return nil
	}
	// A player's mail: the referee's words alone.
	v := w.r.vocab(nil, "referee")
	said, unread := req.read().Said(v), req.read().Comments(v)               // issue 25: quoted, never chat; a whole comment too
	c = c.Player(func(line int) bool { _, chat := said(line); return chat }) // issue 25: chat is no question
	lines = append(lines, c.Note(func(name string, data map[string]any) string { return w.playerText(p, name, data) })...)
	if notice {
		lines = append(lines, w.playerText(p, "info.slow_down", map[string]any{"max": w.r.opt.RateLimit,
			"minutes": int(w.r.opt.RateWindow.Minutes())}))
	}
	for _, o := range c.Orders {
		f := strings.Fields(o.Alts[0][0])
		call := &playerCall{w: w, p: p, kw: w.r.render.T.Alias("referee", p.Lang, f[0]), f: f, lines: lines}
		if err := call.run(); err != nil {
			return err
		}
		lines, acted = call.lines, acted || call.acted
		if raw, chat := said(o.Line); call.unread && !chat {
			unread[o.Line] = raw
		}
	}
	if len(unread) > 0 || len(lines) == 0 && !acted {
		lines = commands.Unread(func(name string, data map[string]any) string { return w.playerText(p, name, data) }, lines, unread)
	} else if len(lines) == 0 {
		return nil
	}
	if quiet {
		// Processed, not answered: the player's budget is spent.
		out.Detail = "not answered (rate limit)"
		return nil
	}
	return w.playerMail(p, "player", map[string]any{"lines": lines}, req.MessageID)
}

// untagged handles a message without any tag: REGISTER creates a player
// (the token goes back to the sender's address, so spoofing gains nothing);
// anything else gets the help text, at most once a day per address.
func (w playerWork) untagged(req *Request, out *Outcome) error {
	if isOrg, err := (orgWork(w)).orgHello(req, out); isOrg || err != nil {
		return err
	}
	if !w.allowAnon(req) {
		out.Status, out.Detail, out.Reason = OutcomeIgnored, "rate limit for "+req.From, ReasonRateLimited
		return nil
	}
	if orders := req.read().Script(); len(orders) > 0 {
		if rows := cmdtable.Lookup(cmdtable.Anyone, w.r.render.T.Alias("referee", "en", orders[0].Keyword())); len(rows) > 0 {
			return untagged[rows[0].Keyword](w.work, req, out, strings.Fields(orders[0].Alts[0][0]))
		}
	}
	p, err := loadPlayer(w.tx, req.From)
	if err != nil || p.Pending {
		out.Status, out.Detail = OutcomeIgnored, "untagged mail from an unknown sender"
		return nil
	}
	if w.now.Sub(p.Helped) < 24*time.Hour {
		out.Status, out.Detail = OutcomeIgnored, "untagged; helped recently"
		return nil
	}
	p.Helped = w.now
	if err := savePlayer(w.tx, p); err != nil {
		return err
	}
	out.Status, out.Detail = OutcomeAnswered, "untagged; sent help"
	return w.playerMail(p, "untagged", nil, req.MessageID)
}

// playerMail sends a player a mail outside any game's thread.
func (w *work) playerMail(p *Player, kind string, data map[string]any, inReplyTo string) error {
	if data == nil {
		data = map[string]any{}
	}
	data["kind"] = kind
	data["name"] = p.Name
	data["player_address"] = w.r.plus("p." + p.Secret)
	name := "mail.player"
	if w.r.render.T.Has("referee", p.Lang, "mail.player."+kind) {
		name = "mail.player." + kind
	}
	body := w.playerText(p, name, data)
	subject := w.playerText(p, "subject.player", data)
	m := &Outgoing{Seat: -1, Kind: kind, To: p.Address, ToName: p.Name, Tag: playerTag(p.Secret),
		Subject: subject, MessageID: w.messageID(nil, -1, 0), Body: templates.Fold(body), Lang: p.Lang, InReplyTo: inReplyTo}
	if inReplyTo != "" {
		m.AutoSubmitted = "auto-replied"
		m.References = []string{inReplyTo}
	}
	return w.enqueue(m)
}

func (w *work) playerText(p *Player, name string, data map[string]any) string {
	return w.r.render.text(w.r.log, "referee", Reader{Game: "referee", Lang: p.Lang, Seat: -1}, name, data)
}

// listOpen lists the open games that still have seats (records.OpenGames:
// only those are read). A long answer is paged (issue 25): the first
// listOpenPage games, and how many more there are.
func (w playerWork) listOpen(lang string) (string, error) {
	open, more, err := records.OpenGames(w.tx, listOpenPage)
	if err != nil {
		return "", err
	}
	var games []map[string]any
	for _, g := range open {
		title := g.Game
		if eg, err := lookupGame(g.Game); err == nil {
			title = eg.Info().Title
		}
		games = append(games, map[string]any{"id": g.ID, "title": title, "variant": g.Variant,
			"seats": len(g.Seats), "players": g.Players, "policy": g.Policy.View()})
	}
	rd := Reader{Game: "referee", Lang: lang, Seat: -1}
	return w.r.render.T.Render("referee", lang, "info.open_games", w.r.render.ctx(rd, map[string]any{"games": games, "more": more}))
}

// listOpenPage is the most open games one LIST answer shows.
const listOpenPage = 20

// joinOpen seats a registered player in an open game.
func (w playerWork) joinOpen(p *Player, id string) (string, error) {
	if !w.tx.HasGame(id) {
		return w.playerText(p, "error.no_game", map[string]any{"game": id}), nil
	}
	gw, err := w.game(id)
	if err != nil {
		return "", err
	}
	switch {
	case !gw.g.Open:
		return w.playerText(p, "error.not_open", map[string]any{"game": id}), nil
	case gw.g.Status != StatusForming || len(gw.g.Seats) >= gw.g.Players:
		return w.playerText(p, "error.full", map[string]any{"game": id}), nil
	case gw.g.SeatOfAddress(p.Address) >= 0:
		return w.playerText(p, "error.already_in", map[string]any{"game": id}), nil
	}
	if err := seating.Invite(seatingHost{gw.w}, roomGame{gw}, Invitee{Address: p.Address, Name: p.Name, Lang: p.Lang, TZ: p.TZ}); err != nil {
		return "", err
	}
	// Joining an open game is the acceptance: no separate JOIN needed.
	gw.notes = gw.notes[:len(gw.notes)-1]
	return "", seating.Join(seatingHost{gw.w}, roomGame{gw}, len(gw.g.Seats)-1)
}

// observe sends a public view of a game to an address.
func (w *work) observe(id, addr, lang string, from *gameWork, seat int) error {
	if !w.tx.HasGame(id) {
		if from != nil {
			from.reply(seat).Info = append(from.reply(seat).Info, from.text(seat, "error.no_game", map[string]any{"game": id}))
		}
		return nil
	}
	gw, err := w.game(id)
	if err != nil {
		return err
	}
	rd := gw.g.ReaderIn(-1, lang)
	data := map[string]any{"game": gw.g.ID, "title": gw.eg.Info().Title, "status": gw.g.Status, "players": rd.Seats,
		"waiting": []string(nil), "summary": ""}
	if gw.tb != nil {
		sum, err := w.r.render.Summary(rd, gw.tb.State.View(-1))
		if err != nil {
			return err
		}
		data["summary"] = sum
		data["waiting"] = gw.waitingNames()
	}
	body, err := w.r.render.T.Render("referee", lang, "mail.observe", w.r.render.ctx(rd, data))
	if err != nil {
		return err
	}
	subject, err := w.r.render.T.Render("referee", lang, "subject.observe", w.r.render.ctx(rd, data))
	if err != nil {
		return err
	}
	gw.extra = append(gw.extra, &Outgoing{Game: gw.g.ID, Seat: -1, Kind: "observe", To: addr, Subject: subject,
		MessageID: w.messageID(gw.g, -1, gw.token()), Body: body, Lang: lang})
	return nil
}

var _ = store.Token{}

// implier is the optional interface of a game's state whose engine adds
// commands of its own to a player's line (Heaven & Ale's implied DONE,
// §10.1, issue 14.2).
type implier interface{ Implied(cmd string) bool }

// written returns the commands of a reply line that the player wrote or
// chose, leaving out those the engine added (the echo would show
// "BUY HO2 S1 => BUY HO2 S1; DONE AUTO"); the step log keeps them all, so
// that replays stay exact.
func (gw seatMail) written(cmds []string) []string {
	im, ok := gw.tb.State.(implier)
	if !ok {
		return cmds
	}
	var out []string
	for _, c := range cmds {
		if !im.Implied(c) {
			out = append(out, c)
		}
	}
	return out
}
