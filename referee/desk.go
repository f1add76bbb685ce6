package referee

// The core's side of tournaments by mail (package
// referee/tournament/bymail, "the desk"): the desk opens, closes and
// reads games, registers players and queues mail through deskHost, the
// core's API for it; the core hands the desk its commands (the table's
// tournament rows), the clock of a tournament's wake entry and every game
// that ends with a result (gameEnded).

import (
	"encoding/hex"
	"errors"
	"io"
	"slices"
	"time"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/mailfmt/mailmsg"
	"github.com/pbem-referee/referee/referee/lifecycle"
	"github.com/pbem-referee/referee/referee/organise"
	"github.com/pbem-referee/referee/referee/seating"
	"github.com/pbem-referee/referee/referee/settle"
	"github.com/pbem-referee/referee/referee/tournament/bymail"
	"github.com/pbem-referee/referee/referee/tournament/bymail/tourrec"
	"github.com/pbem-referee/referee/store"
)

// deskHost is the core as the desk sees it: one unit of work.
type deskHost struct{ w *work }

// deskRounds is deskHost with the opening of tournament rounds: drawn
// outside the write lock, opened in batches after the unit of work.
type deskRounds struct{ deskHost }

var _ bymail.Host = deskRounds{}

func (w *work) desk() deskRounds { return deskRounds{deskHost{w}} }

func (h deskHost) Now() time.Time                       { return h.w.now }
func (h deskHost) Records() bymail.Records              { return deskRecords{h.w.tx, h.w} }
func (h deskHost) IsNotFound(err error) bool            { return errors.Is(err, store.ErrNotFound) }
func (h deskHost) PageBase() string                     { return h.w.r.PageBase() }
func (h deskHost) Secret() (string, error)              { return h.w.r.secret("") }
func (h deskHost) MaxEntrants() int                     { return h.w.r.maxEntrants() }
func (h deskHost) MaxOptionBytes() int                  { return MaxOptionBytes }
func (h deskHost) RandomHex() (string, error)           { return h.w.randomHex() }
func (h deskHost) Warn(msg string, kv ...any)           { h.w.r.log.Warn(msg, kv...) }
func (h deskHost) ParseHours(s string) (float64, error) { return parseHours(s) }
func (h deskHost) AnswerLang() string                   { return h.w.answerLang }

func (h deskHost) GameExists(id string) bool { return h.w.tx.HasGame(id) || h.w.games[id] != nil }

func (h deskHost) Game(id string) (bymail.GameInfo, error) {
	gw, err := h.w.game(id)
	if err != nil {
		return bymail.GameInfo{}, err
	}
	gi := bymail.GameInfo{Status: gw.g.Status, Started: gw.tb != nil, Seats: gw.g.HoldingNames(), Moves: gw.g.Steps}
	if gw.tb != nil {
		gi.Waiting = gw.waitingNames()
		for _, d := range gw.tb.Waiting() {
			if !slices.Contains(gi.WaitingSeats, d.Seat) {
				gi.WaitingSeats = append(gi.WaitingSeats, d.Seat)
			}
		}
		slices.Sort(gi.WaitingSeats)
	}
	return gi, nil
}

// OpenGame creates a tournament game: the entrants signed up for the whole
// tournament, so there is no invitation to accept and the game starts at
// once, its seats in the drawn order.
func (h deskHost) OpenGame(ng bymail.NewGame) error {
	h.w.deskWrites++
	if hook := h.w.r.openGameHook; hook != nil {
		if err := hook(ng.ID); err != nil {
			return err
		}
	}
	g := NewGame{ID: ng.ID, Game: ng.Game, Variant: ng.Variant, Options: ng.Options, Players: len(ng.Seats),
		Organiser: ng.Organiser, Seed: ng.Seed, Ordered: true}
	for _, s := range ng.Seats {
		g.Invite = append(g.Invite, Invitee(s))
	}
	if _, err := h.w.newGame(g, true); err != nil {
		return err
	}
	return h.w.tx.SetGameTournament(ng.ID, ng.Tournament)
}

// CloseGame stops a tournament game the organiser decided (why: the
// desk's word, settle's, e.g. CloseAdjudicated with a result); the
// players are told the result and the seed. A game stopped by REPAIR
// (CloseRepaired) is logged but not announced: the round mail drawn again
// tells its players, one mail each (issue 24).
func (h deskHost) CloseGame(id, why string, kv ...any) error {
	h.w.deskWrites++
	gw, err := h.w.game(id)
	if err != nil {
		return err
	}
	return settle.Close(roomGame{gw}, h.w.now, why, kv...)
}

// Adjudicate ends a late tournament game (settle.Adjudicate): closed
// with the result its position scores, or finished by the bots and
// reported as adjudicated at its end (nil is returned).
func (h deskHost) Adjudicate(id string) (*bymail.Result, error) {
	h.w.deskWrites++
	gw, err := h.w.game(id)
	if err != nil {
		return nil, err
	}
	res, line, err := settle.Adjudicate(roomGame{gw}, h.w.now)
	if err != nil {
		return nil, err
	}
	if res == nil {
		gw.adjudicated = true
		return nil, nil
	}
	return &bymail.Result{Rank: res.Rank, Scores: lifecycle.Scores(res, len(gw.g.Seats)), Line: line}, nil
}

func (h deskHost) ReplaceSeat(id, oldAddress string, inv bymail.Invitee) error {
	h.w.deskWrites++
	gw, err := h.w.game(id)
	if err != nil {
		return err
	}
	if seat := gw.g.SeatOfAddress(oldAddress); seat >= 0 {
		if _, err := gw.replace(seat, Invitee(inv)); err != nil {
			return err
		}
	}
	return nil
}

func (h deskHost) EnsurePlayer(address, name, lang, tz string) (bymail.Player, error) {
	h.w.deskWrites++
	p, err := seating.EnsurePlayer(seatingHost(h), address, name, lang, tz)
	if err != nil {
		return bymail.Player{}, err
	}
	return deskPlayer(p), nil
}

func deskPlayer(p *Player) bymail.Player {
	return bymail.Player{Address: p.Address, Name: p.Name, Lang: p.Lang, TZ: p.TZ}
}

func (h deskHost) ReplyTo(address string) bymail.Reply {
	if p, err := h.w.players.Load(h.w.tx, address); err == nil {
		return bymail.Reply{To: address, Address: h.w.r.plus("p." + p.Secret), TZ: p.TZ, Tag: playerTag(p.Secret)}
	}
	return bymail.Reply{To: address, Address: h.w.r.Address()}
}

func (h deskHost) MailEntrant(m bymail.Mail) error {
	h.w.deskWrites++
	var tag mailmsg.Tag // the entrant's own, built by ReplyTo of To
	if m.Reply.To == m.To {
		tag = m.Reply.Tag
	}
	return h.w.enqueue(&Outgoing{Seat: -1, Kind: "tournament", To: m.To, ToName: m.ToName, Tag: tag, Lang: m.Lang,
		Subject: m.Subject, Body: m.Body, MessageID: h.w.messageID(nil, -1, 0)})
}

func (h deskHost) MailOrganiser(org, lang, text string) error {
	h.w.deskWrites++
	return orgWork{h.w}.orgMailIn(org, lang, []string{organise.Local(orgHostOf(h.w), lang, text)}, "")
}

func (h deskHost) Render(lang, name string, data any) string {
	return h.w.r.render.text(h.w.r.log, "tournament", Reader{Game: "tournament", Lang: lang, Seat: -1}, name, data)
}

// RuleText words a game's refusal (an engine.RuleError) in the game's
// scope and a language; a failure to word it is logged, and the reader
// reads the fixed words (Renderer.failed), never the error's text.
func (h deskHost) RuleText(lang, game string, err error) string {
	var re *engine.RuleError
	if errors.As(err, &re) {
		if s, rerr := h.w.r.render.Error(Reader{Game: game, Lang: lang, Seat: -1}, re); rerr == nil {
			return s
		}
	}
	return h.w.r.render.failed(h.w.r.log, lang, "RuleText "+game, err)
}

func (h deskHost) Word(lang, keyword string) string {
	return h.w.r.render.T.Word("referee", lang, keyword)
}

func (h deskHost) ParseInvitee(f []string) (bymail.Invitee, error) {
	inv, err := parseInvitee(f)
	return bymail.Invitee(inv), err
}

// deskRecords are the store's records the desk reads and writes; its
// writes are counted (work.deskWrites: an organiser's command that fails
// after one is undone, undo.go).
type deskRecords struct {
	*store.Tx
	w *work
}

func (r deskRecords) PutTournament(id string, rec []byte) error {
	r.w.deskWrites++
	return r.Tx.PutTournament(id, rec)
}

func (r deskRecords) PutTournamentMatch(id string, round, match int, rec []byte) error {
	r.w.deskWrites++
	return r.Tx.PutTournamentMatch(id, round, match, rec)
}

func (r deskRecords) SetWake(key string, at time.Time) error {
	r.w.deskWrites++
	return r.Tx.SetWake(key, at)
}

func (r deskRecords) PutRating(game, addr string, rec []byte) error {
	r.w.deskWrites++
	return r.Tx.PutRating(game, addr, rec)
}

// Kept is the unit of work's tournaments (tourrec.Kept, written by
// work.flush): one found there counts as a change of the desk, so an
// organiser's line that fails after it is undone (undo.go).
func (h deskHost) Kept() *tourrec.Kept {
	if h.w.kept.Hit == nil {
		w := h.w
		w.kept.Hit = func() { w.deskWrites++ }
	}
	return &h.w.kept
}

// Predrawn is the round of tournament id drawn outside the write lock
// for this unit of work (predrawOrg, openDue), or nil.
func (h deskRounds) Predrawn(id string) *bymail.Drawn { return h.w.predrawn[id] }

// OpenLater opens tournament id's next round, or the next batch of its
// round opening (!draw), once this unit of work commits (openDue).
func (h deskRounds) OpenLater(id string, draw bool) { h.w.draws.Add(id, draw) }

// OpenBatch is how many games of a tournament round one unit of work
// opens (0: the desk's default; tests set openBatch).
func (h deskRounds) OpenBatch() int { return h.w.r.openBatch }

// openDue opens the tournament rounds a unit of work left due
// (bymail.OpenLater), each drawn first on a snapshot of the store, outside
// the write lock (bymail.Predraw), then opened in a unit of work of its
// own, which draws again only if the record changed in between (issue
// 24: the draw of a large Swiss round held the write lock for seconds).
// Each later batch of a round comes back here, without a draw. A failure
// is logged: the tournament's wake entry, due now while the round is due
// or opening (Tournament.Opening), has Tick open it.
func (r *Referee) openDue(due bymail.Due) {
	for _, d := range due {
		id := d.ID
		var pre *bymail.Drawn
		if d.Draw { // the next batch of a round drawn needs no draw
			if err := r.db.View(func(tx *store.Tx) error { pre = bymail.Predraw(tx, id); return nil }); err != nil {
				r.log.Warn("tournament draw", "tournament", id, "err", err)
			}
		}
		if _, err := r.updateAs("tournament", func(w *work) error {
			w.predrawn = map[string]*bymail.Drawn{id: pre}
			return bymail.OpenDue(w.desk(), id)
		}); err != nil {
			r.log.Warn("tournament round opening", "tournament", id, "err", err)
		}
	}
}

// predrawOrg draws, on a snapshot outside the write lock, round 1 of each
// tournament an organiser's START names (in any language); the unit of
// work uses a draw whose record it still has.
func (r *Referee) predrawOrg(req Request) map[string]*bymail.Drawn {
	if req.Kind != "org" {
		return nil
	}
	ids := organise.StartsNamed(orgHostOf(&work{r: r}), req.Text)
	if len(ids) == 0 {
		return nil
	}
	pre := map[string]*bymail.Drawn{}
	_ = r.db.View(func(tx *store.Tx) error {
		for _, id := range ids {
			if d := bymail.Predraw(tx, id); d != nil {
				pre[id] = d
			}
		}
		return nil
	})
	return pre
}

// Undone and Undo: see undo.go.
func (h deskHost) Undone(key string) (string, bool) {
	msg, ok := h.w.undone[key]
	return msg, ok
}

func (h deskHost) Undo(key string, err error) error { return h.w.undo(key, err) }

// gameEnded reports a game that ended in this unit of work to the desk.
func (w *work) gameEnded(gw *gameWork) error {
	res := gw.tb.State.Result()
	if res == nil {
		return nil
	}
	end := bymail.GameEnd{ID: gw.g.ID, Game: gw.g.Game, Rank: res.Rank, Scores: lifecycle.Scores(res, len(gw.g.Seats)),
		Adjudicated: gw.adjudicated}
	for _, s := range gw.g.Seats {
		end.Addresses = append(end.Addresses, s.Address)
		end.Names = append(end.Names, s.Greeting())
	}
	return bymail.GameEnded(w.desk(), end)
}

func (w *work) randomHex() (string, error) {
	var b [32]byte
	w.r.randMu.Lock()
	_, err := io.ReadFull(w.r.opt.Random, b[:])
	w.r.randMu.Unlock()
	return hex.EncodeToString(b[:]), err
}
