package referee

import (
	"cmp"
	"encoding/hex"
	"fmt"
	"io"
	"strings"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/mailfmt"
	"github.com/pbem-referee/referee/referee/lifecycle"
	"github.com/pbem-referee/referee/store"
	"github.com/pbem-referee/referee/templates"
)

// NewGame is an organiser's request for a game.
type NewGame struct {
	// ID is the game id ([a-z][a-z0-9]{1,23}); "" picks one.
	ID      string
	Game    string
	Variant string
	Options map[string]string
	// Players is the number of seats (0: the number of invitees).
	Players int
	Invite  []Invitee
	// Open games take registered players who send JOIN <game>.
	Open bool
	// Policy is the deadline policy (nil: the referee's default).
	Policy *Policy
	// Ruleset overrides the game's data file.
	Ruleset []byte
	// Organiser is the organiser's address.
	Organiser string
	// Seed of the random source ("": a random 256-bit seed).
	Seed string
	// Ordered keeps the invitation order as the seat order.
	Ordered bool
}

// CreateGame creates a game and sends the invitations (one transaction).
func (r organisers) CreateGame(ng NewGame) (*Game, error) {
	var g *Game
	_, err := r.update(func(w *work) error {
		gw, err := w.createGame(ng)
		if err != nil {
			return err
		}
		g = gw.g
		return nil
	})
	return g, err
}

func (w *work) createGame(ng NewGame) (*gameWork, error) {
	eg, err := lookupGame(ng.Game)
	if err != nil {
		return nil, err
	}
	info := eg.Info()
	n := ng.Players
	if n == 0 {
		n = len(ng.Invite)
	}
	if n == 0 {
		n = info.MinPlayers
	}
	if len(ng.Invite) > n {
		return nil, errorf("%d invitees for %d seats", len(ng.Invite), n)
	}
	// Validate everything by setting up a throw-away game.
	dummy := make([]string, n)
	for i := range dummy {
		dummy[i] = fmt.Sprintf("p%d", i+1)
	}
	if _, _, err := eg.NewState(engine.Config{Variant: ng.Variant, Options: ng.Options, Seats: dummy, Seed: "check", Ruleset: ng.Ruleset}); err != nil {
		return nil, err
	}
	id := ng.ID
	if id == "" {
		id = lifecycle.NewID(w.tx.GameCount(), w.tx.HasGame)
	}
	if !lifecycle.ValidID(id) {
		return nil, errorf("game id %q: use a lower-case letter then letters or digits (2-24)", id)
	}
	if w.tx.HasGame(id) {
		return nil, errorf("game %s already exists", id)
	}
	seed := ng.Seed
	if seed == "" {
		var b [32]byte
		w.r.randMu.Lock()
		_, err := io.ReadFull(w.r.opt.Random, b[:])
		w.r.randMu.Unlock()
		if err != nil {
			return nil, err
		}
		seed = hex.EncodeToString(b[:])
	}
	pol := *w.r.opt.Policy
	if ng.Policy != nil {
		pol = *ng.Policy
	}
	g := &Game{ID: id, Game: info.Name, Variant: ng.Variant, Options: ng.Options, Status: StatusForming,
		Organiser: strings.ToLower(ng.Organiser), Seed: seed, Commitment: engine.Commitment(seed), Open: ng.Open, Ordered: ng.Ordered,
		Players: n, Policy: pol, Created: w.now}
	if ng.Ruleset != nil {
		g.RulesetSHA = engine.RulesetSHA(ng.Ruleset)
		if err := w.tx.PutRuleset(g.RulesetSHA, ng.Ruleset); err != nil {
			return nil, err
		}
	}
	gw, err := w.track(g)
	if err != nil {
		return nil, err
	}
	if _, err := gw.log(Entry{Kind: EntryCreate, Seat: -1, Vis: engine.Public, Params: map[string]any{
		"game": info.Name, "variant": ng.Variant, "options": ng.Options, "players": n, "open": ng.Open,
		"organiser": g.Organiser, "commitment": g.Commitment, "policy": pol.String(), "ruleset": g.RulesetSHA}}); err != nil {
		return nil, err
	}
	for _, inv := range ng.Invite {
		if err := gw.invite(inv); err != nil {
			return nil, err
		}
	}
	return gw, nil
}

// invite adds an invited seat and mails the invitation.
func (gw *gameWork) invite(inv Invitee) error {
	addr := strings.ToLower(strings.TrimSpace(inv.Address))
	if !strings.Contains(addr, "@") {
		return errorf("invitee %q has no valid address", inv.Address)
	}
	if gw.g.SeatOfAddress(addr) >= 0 {
		return errorf("%s is already in game %s", addr, gw.g.ID)
	}
	if len(gw.g.Seats) >= gw.g.Players {
		return errorf("game %s is full", gw.g.ID)
	}
	p, err := gw.w.ensurePlayer(addr, inv.Name, inv.Lang, inv.TZ)
	if err != nil {
		return err
	}
	secret, err := gw.w.newToken(store.Token{Kind: string(KindSeat), Game: gw.g.ID, Address: addr})
	if err != nil {
		return err
	}
	name := inv.Name
	if name == "" {
		name = p.Name
	}
	// The organiser's language for this game wins over the player's
	// usual one (issue 12.7).
	lang := p.Lang
	if templates.IsLanguage(inv.Lang) {
		lang = inv.Lang
	}
	gw.g.Seats = append(gw.g.Seats, Seat{Name: gw.g.UniqueName(name), Address: addr, Lang: lang, TZ: cmp.Or(inv.TZ, p.TZ),
		Secret: secret, State: SeatInvited, Notify: DefaultNotify, Format: "text"})
	seat := len(gw.g.Seats) - 1
	if _, err := gw.log(Entry{Kind: EntryInvite, Seat: seat, Vis: engine.Public, Params: map[string]any{"name": gw.g.Seats[seat].Name}}); err != nil {
		return err
	}
	gw.announce([]int{seat}, "invite", "organiser", gw.g.Organiser, "players", gw.g.Players, "player_token", p.Secret,
		"player_address", gw.w.r.plus("p."+p.Secret),
		"policy", gw.g.Policy.View(), "variant", gw.g.Variant)
	return nil
}

// join accepts a seat's invitation and starts the game when every seat is
// filled.
func (gw *gameWork) join(seat int) error {
	s := &gw.g.Seats[seat]
	if s.State != SeatInvited {
		gw.reply(seat).Info = append(gw.reply(seat).Info, gw.text(seat, "info.already_joined", nil))
		return nil
	}
	s.State = SeatJoined
	if _, err := gw.log(Entry{Kind: EntryJoin, Seat: seat, Vis: engine.Public, Params: map[string]any{"name": s.Name}}); err != nil {
		return err
	}
	var others []int
	for i := range gw.g.Seats {
		if i != seat {
			others = append(others, i)
		}
	}
	gw.announce(others, "joined", "seat", seat, "name", s.Name)
	if gw.g.Joined() < gw.g.Players {
		gw.reply(seat).Info = append(gw.reply(seat).Info, gw.text(seat, "info.joined", map[string]any{
			"joined": gw.g.Joined(), "players": gw.g.Players}))
	}
	return gw.maybeStart()
}

func (gw *gameWork) decline(seat int) error {
	s := gw.g.Seats[seat]
	if gw.g.Status != StatusForming {
		gw.reply(seat).Info = append(gw.reply(seat).Info, gw.text(seat, "info.too_late_to_decline", nil))
		return nil
	}
	if _, err := gw.log(Entry{Kind: EntryDecline, Seat: seat, Vis: engine.Public, Params: map[string]any{"name": s.Name}}); err != nil {
		return err
	}
	if err := gw.w.tx.DeleteToken(s.Secret); err != nil {
		return err
	}
	gw.g.Seats[seat].State = SeatDeclined
	gw.announce([]int{seat}, "declined")
	gw.toOrganiser("org_declined", "name", s.Name, "address", s.Address)
	// The seat is free again: drop it (after this mail went out).
	gw.dropSeat = append(gw.dropSeat, seat)
	return nil
}

// maybeStart starts the game once every seat has joined.
func (gw *gameWork) maybeStart() error {
	g := gw.g
	if g.Status != StatusForming || len(g.Seats) < g.Players {
		return nil
	}
	for _, s := range g.Seats {
		if s.State != SeatJoined {
			return nil
		}
	}
	// The seat order is drawn from the game's seed (and so can be checked
	// once the seed is revealed).
	gw.renumber(lifecycle.DrawSeatOrder(g))
	var rs []byte
	if g.RulesetSHA != "" {
		var err error
		if rs, err = gw.w.tx.Ruleset(g.RulesetSHA); err != nil {
			return err
		}
	}
	cfg := engine.Config{Variant: g.Variant, Options: g.Options, Seats: g.Names(), Seed: g.Seed, Ruleset: rs}
	tb, rep, setup, err := engine.NewTable(gw.eg, cfg)
	if err != nil {
		return err
	}
	tb.HashSteps = true
	gw.tb = tb
	for i := range g.Seats {
		g.Seats[i].State = SeatPlaying
	}
	g.Status, g.Started = StatusRunning, gw.w.now
	if _, err := gw.log(Entry{Kind: EntryStart, Seat: -1, Vis: engine.Public, Setup: setup,
		Params: map[string]any{"order": g.Names(), "commitment": g.Commitment, "variant": g.Variant, "options": g.Options}}); err != nil {
		return err
	}
	if err := gw.logReport(rep); err != nil {
		return err
	}
	gw.announce(nil, "start", "order", g.Names(), "commitment", g.Commitment, "policy", g.Policy.View())
	for i := range g.Seats {
		gw.seat(i).force = true
	}
	return nil
}

// renumber moves everything this transaction recorded per seat to the new
// seat numbers after the seat order was drawn (perm[new] = old).
func (gw *gameWork) renumber(perm []int) {
	to := make(map[int]int, len(perm)) // old -> new
	for n, o := range perm {
		to[o] = n
	}
	bySeat := make(map[int]*seatChange, len(gw.bySeat))
	for k, c := range gw.bySeat {
		bySeat[to[k]] = c
	}
	gw.bySeat = bySeat
	for i := range gw.notes {
		for k, s := range gw.notes[i].Seats {
			gw.notes[i].Seats[k] = to[s]
		}
		if s, ok := gw.notes[i].Data["seat"].(int); ok {
			gw.notes[i].Data["seat"] = to[s]
		}
	}
}

// ensurePlayer returns the registered player of an address, registering it.
func (w *work) ensurePlayer(addr, name, lang, tz string) (*Player, error) {
	p, err := loadPlayer(w.tx, addr)
	if err == nil {
		return p, nil
	}
	if name = mailfmt.CleanName(name); name == "" { // issue 23
		name, _, _ = strings.Cut(addr, "@")
		name = mailfmt.CleanName(name)
	}
	if !templates.IsLanguage(lang) {
		lang = "en"
	}
	secret, err := w.newToken(store.Token{Kind: string(KindPlayer), Address: addr})
	if err != nil {
		return nil, err
	}
	p = &Player{Address: addr, Name: name, Lang: lang, TZ: tz, Secret: secret, Created: w.now}
	return p, savePlayer(w.tx, p)
}

// newToken creates a secret for a token record.
func (w *work) newToken(t store.Token) (string, error) {
	t.Created = w.now
	for i := 0; i < 10; i++ {
		s, err := w.r.secret()
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
	rd := gw.reader(seat)
	s, err := gw.w.r.render.T.Render("referee", rd.Lang, name, gw.w.r.render.ctx(rd, data))
	if err != nil {
		return fmt.Sprintf("(%s: %v)", name, err)
	}
	return s
}
