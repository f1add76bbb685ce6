package seating

import (
	"cmp"
	"encoding/base32"
	"strings"
	"time"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/mailfmt/mailmsg"
	"github.com/pbem-referee/referee/referee/deadline"
	"github.com/pbem-referee/referee/referee/lifecycle"
	"github.com/pbem-referee/referee/referee/records"
	"github.com/pbem-referee/referee/templates"
)

// Host is the core as the seating sees it: one unit of work.
type Host interface {
	Now() time.Time
	// HasGame reports whether a game of that id exists (in the store or
	// created earlier in this unit of work); GameCount is how many exist.
	HasGame(id string) bool
	GameCount() int
	// RandomHex is 32 random bytes in hex (a game's seed).
	RandomHex() (string, error)
	// PutRuleset stores a ruleset by its hash; Ruleset reads it back.
	PutRuleset(sha string, data []byte) error
	Ruleset(sha string) ([]byte, error)
	// Track makes a new game part of the unit of work.
	Track(g *records.Game) (Game, error)
	// Player is the registered player of an address (an error when there
	// is none); SavePlayer writes one.
	Player(addr string) (*records.Player, error)
	SavePlayer(p *records.Player) error
	// NewToken draws a secret for a token of kind (TokenSeat: with its
	// game, TokenPlayer) for an address, prefix (public, "" for none;
	// SeatPrefix) followed by the random part; DeleteToken revokes one.
	NewToken(kind, game, addr, prefix string) (string, error)
	DeleteToken(secret string) error
	// PlayerAddress is the referee's address a player's mail goes to, tagged
	// with the player's secret.
	PlayerAddress(secret string) string
	// DefaultPolicy is the deadline policy of a game created without one.
	DefaultPolicy() deadline.Policy
	// Checks are the set-ups checked in this unit of work (nil: none
	// kept, each game checks its own).
	Checks() *Checks
}

// The kinds of token NewToken draws.
const (
	TokenSeat   = "seat"
	TokenPlayer = "player"
)

// Game is one game of the unit of work, as the seating changes it.
type Game interface {
	// Record is the game's record, changed in place.
	Record() *records.Game
	// Engine is the game's engine.
	Engine() engine.Game
	// Log appends an entry to the game's log (its time is the unit of
	// work's); LogReport the steps of an engine report.
	Log(e records.Entry) error
	LogReport(rep *engine.Report) error
	// Announce queues an announcement to seats (nil: every seat), by the
	// name of its template; ToOrganiser a note to the game's organiser.
	Announce(seats []int, name string, kv ...any)
	ToOrganiser(name string, kv ...any)
	// Info adds a line, the template name, to the answer to a seat.
	Info(seat int, name string, data map[string]any)
	// DropSeat frees a declined seat once its last mail went out.
	DropSeat(seat int)
	// Renumber moves what the unit of work recorded per seat to the seats'
	// new numbers (perm[new] = old).
	Renumber(perm []int)
	// Started hands the game its table: every seat gets a mail.
	Started(tb *engine.Table)
}

// Invitee is a seat to fill: an address, and optionally a name, a
// language and a time zone.
type Invitee struct {
	Address string
	Name    string
	Lang    string
	TZ      string
}

// NewGame is an organiser's request for a game (the core's
// referee.NewGame).
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
	// Policy is the deadline policy (nil: Host.DefaultPolicy).
	Policy *deadline.Policy
	// Ruleset overrides the game's data file.
	Ruleset []byte
	// Organiser is the organiser's address.
	Organiser string
	// Seed of the random source ("": drawn by Host.RandomHex).
	Seed string
	// Ordered keeps the invitation order as the seat order.
	Ordered bool
	// Seated: a tournament's game, its seats joined without an
	// invitation's mail, started at once (the core sets it; an
	// organiser's CreateGame never does).
	Seated bool
}

// Error is a new game or an invitation refused: a code and its
// parameters, no prose (issue 24: its English text reached organisers'
// answers). The organiser's door words it as its own refusal of the same
// code (organise.Refusal: the template org.error.<Code>); Error() is the
// code and parameters, for logs.
type Error struct {
	Code   string
	Params map[string]any
}

func (e *Error) Error() string { return engine.CodeText("seating: ", e.Code, e.Params) }

// Codes are the codes of the seating's refusals: each is worded by the
// organiser's door in every language (organise's
// TestEveryRefusalInWords_Issue24 walks them).
var Codes = []string{"no_kind", "invitees", "game_id", "exists", "bad_address", "in_game", "full"}

// refuse is the refusal of code with its parameters (key, value, ...).
func refuse(code string, kv ...any) error {
	return &Error{Code: code, Params: engine.Params(kv...)}
}

// Seats is how many seats a new game has: the players asked, else one
// per invitee, else the game's fewest (more invitees than seats is the
// caller's refusal, in its own words).
func Seats(players, invitees, fewest int) int {
	switch {
	case players > 0:
		return players
	case invitees > 0:
		return invitees
	}
	return fewest
}

// Create checks a new game, records it, logs its creation and invites its
// invitees (a seated game starts at once).
func Create(h Host, ng NewGame) (Game, error) {
	eg, err := engine.Lookup(ng.Game)
	if err != nil {
		return nil, refuse("no_kind", "game", ng.Game)
	}
	info := eg.Info()
	n := Seats(ng.Players, len(ng.Invite), info.MinPlayers)
	if len(ng.Invite) > n {
		return nil, refuse("invitees", "invitees", len(ng.Invite), "seats", n)
	}
	// Validate everything by setting up a throw-away game, once per kind
	// in the unit of work (Checks).
	if err := h.Checks().check(eg, info.Name, ng, n); err != nil {
		return nil, err
	}
	id := ng.ID
	if id == "" {
		id = lifecycle.NewID(h.GameCount(), h.HasGame)
	}
	if !lifecycle.ValidID(id) {
		return nil, refuse("game_id", "id", id)
	}
	if h.HasGame(id) {
		return nil, refuse("exists", "game", id)
	}
	seed := ng.Seed
	if seed == "" {
		if seed, err = h.RandomHex(); err != nil {
			return nil, err
		}
	}
	pol := h.DefaultPolicy()
	if ng.Policy != nil {
		pol = *ng.Policy
	}
	g := &records.Game{ID: id, Game: info.Name, Variant: ng.Variant, Options: ng.Options, Status: records.StatusForming,
		Organiser: strings.ToLower(ng.Organiser), Seed: seed, Commitment: engine.Commitment(seed), Open: ng.Open, Ordered: ng.Ordered,
		Players: n, Policy: pol, Created: h.Now()}
	if ng.Ruleset != nil {
		g.RulesetSHA = engine.RulesetSHA(ng.Ruleset)
		if err := h.PutRuleset(g.RulesetSHA, ng.Ruleset); err != nil {
			return nil, err
		}
	}
	gm, err := h.Track(g)
	if err != nil {
		return nil, err
	}
	if err := gm.Log(records.Entry{Kind: records.EntryCreate, Seat: -1, Vis: engine.Public, Params: map[string]any{
		"game": info.Name, "variant": ng.Variant, "options": ng.Options, "players": n, "open": ng.Open,
		"organiser": g.Organiser, "commitment": g.Commitment, "policy": pol.String(), "ruleset": g.RulesetSHA}}); err != nil {
		return nil, err
	}
	prefix := ""
	if ng.Seated {
		prefix = SeatPrefix(h.GameCount())
	}
	if len(ng.Invite) > 0 {
		// Room for every seat at once (issue 24: a START's 10,000 seats
		// grew each game's list twice).
		g.Seats = make([]records.Seat, 0, n)
	}
	for _, inv := range ng.Invite {
		if err := invite(h, gm, inv, !ng.Seated, prefix); err != nil {
			return nil, err
		}
	}
	if ng.Seated {
		for i := range g.Seats {
			g.Seats[i].State = records.SeatJoined
		}
		if err := MaybeStart(h, gm); err != nil {
			return nil, err
		}
	}
	return gm, nil
}

// Invite adds an invited seat and mails the invitation.
func Invite(h Host, gm Game, inv Invitee) error { return invite(h, gm, inv, true, "") }

// SeatPrefix is the public part of a tournament game's seat secrets
// (issue 24): the number of games there were (n, modulo 2^20) in four
// base32 letters whose alphabetical order is their order, so that the
// secrets of a round's batch sort together and after the batch before.
// The store's tokens are keyed by secret: random keys made each batch of
// a 5,000-game START rewrite pages all over the tokens' tree; these
// append. The secret's strength is its random part (Host.NewToken: 80
// bits, as every secret's), which follows: the prefix tells only how many
// games the referee had, nothing of the random part.
func SeatPrefix(n int) string {
	const digits = "234567abcdefghijklmnopqrstuvwxyz" // [a-z2-7] in byte order
	var b [4]byte
	for i := len(b) - 1; i >= 0; i-- {
		b[i] = digits[n&31]
		n >>= 5
	}
	return string(b[:])
}

// SecretText is a secret as text: prefix (public, "" for none; SeatPrefix)
// then the 80 random bits in lower-case base32, unpadded (16 letters), in
// one string (issue 24: a START of 5,000 games drew 10,000 seat secrets,
// each through a new encoder, an upper-case copy and a concatenation).
func SecretText(prefix string, random [10]byte) string {
	var buf [32]byte
	return string(secretLetters.AppendEncode(append(buf[:0], prefix...), random[:]))
}

var secretLetters = base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding)

func invite(h Host, gm Game, inv Invitee, mail bool, prefix string) error {
	g := gm.Record()
	addr := strings.ToLower(strings.TrimSpace(inv.Address))
	if !strings.Contains(addr, "@") {
		return refuse("bad_address", "address", inv.Address)
	}
	if g.SeatOfAddress(addr) >= 0 {
		return refuse("in_game", "address", addr, "game", g.ID)
	}
	if len(g.Seats) >= g.Players {
		return refuse("full", "game", g.ID)
	}
	p, err := EnsurePlayer(h, addr, inv.Name, inv.Lang, inv.TZ)
	if err != nil {
		return err
	}
	secret, err := h.NewToken(TokenSeat, g.ID, addr, prefix)
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
	g.Seats = append(g.Seats, records.Seat{Name: g.UniqueName(name), Address: addr, Lang: lang, TZ: cmp.Or(inv.TZ, p.TZ),
		Secret: secret, State: records.SeatInvited, Notify: records.DefaultNotify, Format: "text"})
	seat := len(g.Seats) - 1
	if err := gm.Log(records.Entry{Kind: records.EntryInvite, Seat: seat, Vis: engine.Public, Params: map[string]any{"name": g.Seats[seat].Name}}); err != nil {
		return err
	}
	if mail {
		gm.Announce([]int{seat}, "invite", "organiser", g.Organiser, "players", g.Players, "player_token", p.Secret,
			"player_address", h.PlayerAddress(p.Secret),
			"policy", g.Policy.View(), "variant", g.Variant)
	}
	return nil
}

// Join accepts a seat's invitation and starts the game when every seat is
// filled.
func Join(h Host, gm Game, seat int) error {
	g := gm.Record()
	s := &g.Seats[seat]
	if s.State != records.SeatInvited {
		gm.Info(seat, "info.already_joined", nil)
		return nil
	}
	s.State = records.SeatJoined
	if err := gm.Log(records.Entry{Kind: records.EntryJoin, Seat: seat, Vis: engine.Public, Params: map[string]any{"name": s.Greeting()}}); err != nil {
		return err
	}
	var others []int
	for i := range g.Seats {
		if i != seat {
			others = append(others, i)
		}
	}
	gm.Announce(others, "joined", "seat", seat, "name", s.Greeting())
	if g.Joined() < g.Players {
		gm.Info(seat, "info.joined", map[string]any{"joined": g.Joined(), "players": g.Players})
	}
	return MaybeStart(h, gm)
}

// Decline refuses a seat's invitation while the game forms.
func Decline(h Host, gm Game, seat int) error {
	g := gm.Record()
	s := g.Seats[seat]
	if g.Status != records.StatusForming {
		gm.Info(seat, "info.too_late_to_decline", nil)
		return nil
	}
	if err := gm.Log(records.Entry{Kind: records.EntryDecline, Seat: seat, Vis: engine.Public, Params: map[string]any{"name": s.Greeting()}}); err != nil {
		return err
	}
	if err := h.DeleteToken(s.Secret); err != nil {
		return err
	}
	g.Seats[seat].State = records.SeatDeclined
	gm.Announce([]int{seat}, "declined")
	gm.ToOrganiser("org_declined", "name", s.Greeting(), "address", s.Address)
	// The seat is free again: drop it (after this mail went out).
	gm.DropSeat(seat)
	return nil
}

// MaybeStart starts the game once every seat has joined.
func MaybeStart(h Host, gm Game) error {
	g := gm.Record()
	if g.Status != records.StatusForming || len(g.Seats) < g.Players {
		return nil
	}
	for _, s := range g.Seats {
		if s.State != records.SeatJoined {
			return nil
		}
	}
	// The seat order is drawn from the game's seed (and so can be checked
	// once the seed is revealed).
	gm.Renumber(lifecycle.DrawSeatOrder(g))
	var rs []byte
	if g.RulesetSHA != "" {
		var err error
		if rs, err = h.Ruleset(g.RulesetSHA); err != nil {
			return err
		}
	}
	cfg := engine.Config{Variant: g.Variant, Options: g.Options, Seats: g.Names(), Seed: g.Seed, Ruleset: rs}
	tb, rep, setup, err := engine.NewTable(gm.Engine(), cfg)
	if err != nil {
		return err
	}
	tb.HashSteps = true
	gm.Started(tb)
	for i := range g.Seats {
		g.Seats[i].State = records.SeatPlaying
	}
	g.Status, g.Started = records.StatusRunning, h.Now()
	if err := gm.Log(records.Entry{Kind: records.EntryStart, Seat: -1, Vis: engine.Public, Setup: setup,
		Params: map[string]any{"order": g.Names(), "commitment": g.Commitment, "variant": g.Variant, "options": g.Options}}); err != nil {
		return err
	}
	if err := gm.LogReport(rep); err != nil {
		return err
	}
	gm.Announce(nil, "start", "order", g.HoldingNames(), "commitment", g.Commitment, "policy", g.Policy.View())
	return nil
}

// EnsurePlayer returns the registered player of an address, registering it.
func EnsurePlayer(h Host, addr, name, lang, tz string) (*records.Player, error) {
	p, err := h.Player(addr)
	if err == nil {
		return p, nil
	}
	if name = mailmsg.CleanName(name); name == "" { // issue 23
		name, _, _ = strings.Cut(addr, "@")
		name = mailmsg.CleanName(name)
	}
	if !templates.IsLanguage(lang) {
		lang = "en"
	}
	secret, err := h.NewToken(TokenPlayer, "", addr, "")
	if err != nil {
		return nil, err
	}
	p = &records.Player{Address: addr, Name: name, Lang: lang, TZ: tz, Secret: secret, Created: h.Now()}
	return p, h.SavePlayer(p)
}
