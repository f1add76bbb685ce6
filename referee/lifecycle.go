package referee

// The core's side of a game's seating (package referee/seating): the
// seating creates games, invites, joins, declines and starts them through
// seatingHost (the unit of work) and roomGame (one game of it); the
// core keeps the API (organisers.CreateGame) and newGame; its rooms call
// the seating's Invite, Join, Decline and EnsurePlayer directly.

import (
	"time"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/referee/seating"
	"github.com/pbem-referee/referee/referee/settle"
	"github.com/pbem-referee/referee/store"
)

// NewGame is an organiser's request for a game (seating.NewGame; its
// Seated is the core's).
type NewGame = seating.NewGame

// Invitee is a player invited to a game.
type Invitee = seating.Invitee

// CreateGame creates a game and sends the invitations (one transaction).
func (r organisers) CreateGame(ng NewGame) (*Game, error) {
	var g *Game
	_, err := r.update(func(w *work) error {
		gw, err := w.newGame(ng, false)
		if err != nil {
			return err
		}
		g = gw.g
		return nil
	})
	return g, err
}

// newGame creates a game; seated: a tournament's, its seats joined and the
// game started at once, without the invitations' mail.
func (w *work) newGame(ng NewGame, seated bool) (*gameWork, error) {
	ng.Seated = seated
	gm, err := seating.Create(seatingHost{w}, ng)
	if err != nil {
		return nil, err
	}
	return gm.(roomGame).gameWork, nil
}

// seatingHost is the unit of work as the seating sees it.
type seatingHost struct{ w *work }

var _ seating.Host = seatingHost{}

func (h seatingHost) Now() time.Time                           { return h.w.now }
func (h seatingHost) HasGame(id string) bool                   { return h.w.tx.HasGame(id) }
func (h seatingHost) GameCount() int                           { return h.w.tx.GameCount() }
func (h seatingHost) RandomHex() (string, error)               { return h.w.randomHex() }
func (h seatingHost) PutRuleset(sha string, data []byte) error { return h.w.tx.PutRuleset(sha, data) }
func (h seatingHost) Ruleset(sha string) ([]byte, error)       { return h.w.tx.Ruleset(sha) }
func (h seatingHost) Player(addr string) (*Player, error)      { return h.w.players.Load(h.w.tx, addr) }
func (h seatingHost) SavePlayer(p *Player) error               { return savePlayer(h.w.tx, p) }
func (h seatingHost) DeleteToken(secret string) error          { return h.w.tx.DeleteToken(secret) }
func (h seatingHost) PlayerAddress(secret string) string       { return h.w.r.plus("p." + secret) }
func (h seatingHost) DefaultPolicy() Policy                    { return *h.w.r.opt.Policy }
func (h seatingHost) Checks() *seating.Checks                  { return &h.w.checks }

func (h seatingHost) Track(g *Game) (seating.Game, error) {
	gw, err := h.w.track(g)
	if err != nil {
		return nil, err
	}
	return roomGame{gw}, nil
}

func (h seatingHost) NewToken(kind, game, addr, prefix string) (string, error) {
	return h.w.newToken(store.Token{Kind: kind, Game: game, Address: addr}, prefix)
}

// roomGame is one game of the unit of work as the rooms see it
// (seating.Game, settle.Game).
type roomGame struct{ *gameWork }

var (
	_ seating.Game = roomGame{}
	_ settle.Game  = roomGame{}
)

func (s roomGame) Record() *Game                             { return s.g }
func (s roomGame) Engine() engine.Game                       { return s.eg }
func (s roomGame) LogReport(rep *engine.Report) error        { return s.logReport(rep) }
func (s roomGame) Announce(seats []int, n string, kv ...any) { s.announce(seats, n, kv...) }
func (s roomGame) ToOrganiser(name string, kv ...any)        { s.toOrganiser(name, kv...) }
func (s roomGame) DropSeat(seat int)                         { s.dropSeat = append(s.dropSeat, seat) }

func (s roomGame) Table() *engine.Table       { return s.tb }
func (s roomGame) Dropped(rep *engine.Report) { s.droppedQueued(rep, nil) }
func (s roomGame) Acted(seat int) bool        { return s.of(seat).acted }
func (s roomGame) Ended() bool                { return s.ended }
func (s roomGame) End()                       { s.ended = true }

func (s roomGame) Submit(seat int, orders []engine.Order, token int) (*engine.Report, error) {
	return s.submit(seat, orders, token)
}

// Mark marks a seat for the tell stage (settle.Mark).
func (s roomGame) Mark(seat int, m settle.Mark) {
	c := s.seat(seat)
	switch m {
	case settle.Asked:
		c.asked = true
	case settle.Reminder:
		c.reminder = true
	case settle.Digest:
		c.digest = true
	case settle.Force:
		c.force = true
	}
}

func (s roomGame) Log(e Entry) error {
	_, err := s.log(e)
	return err
}

func (s roomGame) Info(seat int, name string, data map[string]any) {
	s.reply(seat).Info = append(s.reply(seat).Info, s.text(seat, name, data))
}

func (s roomGame) Started(tb *engine.Table) {
	s.tb = tb
	for i := range s.g.Seats {
		s.seat(i).force = true
	}
}

// Renumber moves everything this transaction recorded per seat to the new
// seat numbers after the seat order was drawn (perm[new] = old).
func (s roomGame) Renumber(perm []int) {
	to := make(map[int]int, len(perm)) // old -> new
	for n, o := range perm {
		to[o] = n
	}
	bySeat := make(map[int]*seatChange, len(s.bySeat))
	for k, c := range s.bySeat {
		bySeat[to[k]] = c
	}
	s.bySeat = bySeat
	for i := range s.notes {
		s.notes[i].Renumber(to)
	}
}

// newToken creates a secret for a token record: prefix, then the random part.
func (w *work) newToken(t store.Token, prefix string) (string, error) {
	t.Created = w.now
	for i := 0; i < 10; i++ {
		s, err := w.r.secret(prefix)
		if err != nil {
			return "", err
		}
		if err := w.tx.PutToken(s, t); err == nil {
			return s, nil
		} else if err != store.ErrDuplicate {
			return "", err
		}
	}
	return "", errorf("could not draw a unique secret")
}

// text renders a referee template for a seat in its language.
func (gw *gameWork) text(seat int, name string, data map[string]any) string {
	return gw.w.r.render.text(gw.w.r.log, "referee", gw.reader(seat), name, data)
}
