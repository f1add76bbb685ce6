package seating

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pbem-referee/referee/engine"
	_ "github.com/pbem-referee/referee/engine/brewcrafters"
	_ "github.com/pbem-referee/referee/engine/dicebrewing"
	_ "github.com/pbem-referee/referee/engine/fromage"
	_ "github.com/pbem-referee/referee/engine/heavenale"
	"github.com/pbem-referee/referee/referee/deadline"
	"github.com/pbem-referee/referee/referee/lifecycle"
	"github.com/pbem-referee/referee/referee/records"
)

// fakeHost is a unit of work in memory: what the seating asked of it.
type fakeHost struct {
	now      time.Time
	games    map[string]*fakeGame
	players  map[string]*records.Player
	tokens   map[string][3]string
	deleted  []string
	rulesets map[string][]byte
	randoms  int
	n        int
	checks   *Checks // nil: each game checks its own
}

func newHost() *fakeHost {
	return &fakeHost{now: time.Date(2026, 12, 6, 10, 0, 0, 0, time.UTC), games: map[string]*fakeGame{},
		players: map[string]*records.Player{}, tokens: map[string][3]string{}, rulesets: map[string][]byte{}}
}

func (h *fakeHost) Now() time.Time                { return h.now }
func (h *fakeHost) HasGame(id string) bool        { return h.games[id] != nil }
func (h *fakeHost) GameCount() int                { return len(h.games) }
func (h *fakeHost) PlayerAddress(s string) string { return "referee+p." + s + "@example.org" }
func (h *fakeHost) DefaultPolicy() deadline.Policy {
	return deadline.Policy{MissLimit: 7, VacationDays: 9}
}
func (h *fakeHost) Checks() *Checks { return h.checks }
func (h *fakeHost) RandomHex() (string, error) {
	h.randoms++
	return fmt.Sprintf("%064x", h.randoms), nil
}
func (h *fakeHost) PutRuleset(sha string, b []byte) error { h.rulesets[sha] = b; return nil }
func (h *fakeHost) Ruleset(sha string) ([]byte, error)    { return h.rulesets[sha], nil }
func (h *fakeHost) Track(g *records.Game) (Game, error) {
	eg, err := engine.Lookup(g.Game)
	if err != nil {
		return nil, err
	}
	fg := &fakeGame{g: g, eg: eg}
	h.games[g.ID] = fg
	return fg, nil
}
func (h *fakeHost) Player(addr string) (*records.Player, error) {
	if p := h.players[addr]; p != nil {
		return p, nil
	}
	return nil, errors.New("not found")
}
func (h *fakeHost) SavePlayer(p *records.Player) error { h.players[p.Address] = p; return nil }
func (h *fakeHost) NewToken(kind, game, addr, prefix string) (string, error) {
	h.n++
	s := fmt.Sprintf("%ssecret%d", prefix, h.n)
	h.tokens[s] = [3]string{kind, game, addr}
	return s, nil
}
func (h *fakeHost) DeleteToken(s string) error {
	h.deleted = append(h.deleted, s)
	delete(h.tokens, s)
	return nil
}

type fakeNote struct {
	seats []int
	name  string
	data  []any
}

type fakeGame struct {
	g        *records.Game
	eg       engine.Game
	entries  []records.Entry
	notes    []fakeNote
	org      []string
	info     map[int][]string
	dropped  []int
	perms    [][]int
	tb       *engine.Table
	reported int
}

func (f *fakeGame) Record() *records.Game { return f.g }
func (f *fakeGame) Engine() engine.Game   { return f.eg }
func (f *fakeGame) Log(e records.Entry) error {
	f.entries = append(f.entries, e)
	return nil
}
func (f *fakeGame) LogReport(rep *engine.Report) error { f.reported++; return nil }
func (f *fakeGame) Announce(seats []int, name string, kv ...any) {
	f.notes = append(f.notes, fakeNote{seats, name, kv})
}
func (f *fakeGame) ToOrganiser(name string, kv ...any) { f.org = append(f.org, name) }
func (f *fakeGame) Info(seat int, name string, data map[string]any) {
	if f.info == nil {
		f.info = map[int][]string{}
	}
	f.info[seat] = append(f.info[seat], name)
}
func (f *fakeGame) DropSeat(seat int)        { f.dropped = append(f.dropped, seat) }
func (f *fakeGame) Renumber(perm []int)      { f.perms = append(f.perms, perm) }
func (f *fakeGame) Started(tb *engine.Table) { f.tb = tb }

func (f *fakeGame) kinds() []string {
	var out []string
	for _, e := range f.entries {
		out = append(out, string(e.Kind))
	}
	return out
}

func (f *fakeGame) noteNames() []string {
	var out []string
	for _, n := range f.notes {
		out = append(out, n.name)
	}
	return out
}

// layouts: every game the referee runs, at each of its seat counts.
func layouts(t *testing.T) (out []struct {
	game string
	n    int
}) {
	t.Helper()
	for _, eg := range engine.Games() {
		info := eg.Info()
		for n := info.MinPlayers; n <= info.MaxPlayers; n++ {
			out = append(out, struct {
				game string
				n    int
			}{info.Name, n})
		}
	}
	if len(out) < 4 {
		t.Fatalf("%d layouts: the check reads nothing", len(out))
	}
	return out
}

var langs = []string{"", "en", "it", "fr", "nl", "xx"}

func invitees(n int, lang string) []Invitee {
	var out []Invitee
	for i := range n {
		// Every other invitee has the same name: the seats' names differ.
		out = append(out, Invitee{Address: fmt.Sprintf(" Player%d@Example.ORG ", i), Name: []string{"Ann", ""}[i%2], Lang: lang})
	}
	return out
}

func newGame(game string, n int, lang string) NewGame {
	return NewGame{Game: game, Players: n, Invite: invitees(n, lang), Organiser: "Org@Example.org", Policy: &deadline.Policy{MissLimit: 3}}
}

// TestCreateInvitesEverySeat: a new game is logged (create, then an
// invite a seat), its invitees are registered players with seats in the
// organiser's language when it is one (issue 12.7), else their own, each
// under a name no other seat has; each gets its invitation.
func TestCreateInvitesEverySeat(t *testing.T) {
	for _, l := range layouts(t) {
		for _, lang := range langs {
			h := newHost()
			h.players["player1@example.org"] = &records.Player{Address: "player1@example.org", Name: "Bea", Lang: "fr", Secret: "old"}
			gm, err := Create(h, newGame(l.game, l.n, lang))
			if err != nil {
				t.Fatalf("%s/%d/%q: %v", l.game, l.n, lang, err)
			}
			fg := gm.(*fakeGame)
			g := fg.g
			if g.ID != "g1" || g.Status != records.StatusForming || g.Organiser != "org@example.org" || g.Seed != fmt.Sprintf("%064x", 1) || g.Commitment != engine.Commitment(g.Seed) {
				t.Fatalf("%s/%d: game %+v", l.game, l.n, g)
			}
			want := []string{string(records.EntryCreate)}
			for range l.n {
				want = append(want, string(records.EntryInvite))
			}
			if !slices.Equal(fg.kinds(), want) || len(g.Seats) != l.n {
				t.Fatalf("%s/%d: log %v, %d seats", l.game, l.n, fg.kinds(), len(g.Seats))
			}
			names := map[string]bool{}
			for i, s := range g.Seats {
				if s.State != records.SeatInvited || s.Address != fmt.Sprintf("player%d@example.org", i) || names[s.Name] || h.tokens[s.Secret] != [3]string{TokenSeat, g.ID, s.Address} {
					t.Fatalf("%s/%d: seat %d %+v", l.game, l.n, i, s)
				}
				names[s.Name] = true
				wantLang := "en"
				if i == 1 {
					wantLang = "fr"
				}
				if lang != "" && lang != "xx" {
					wantLang = lang
				}
				if s.Lang != wantLang {
					t.Fatalf("%s/%d/%q: seat %d in %q, want %q", l.game, l.n, lang, i, s.Lang, wantLang)
				}
				if n := fg.notes[i]; n.name != "invite" || !slices.Equal(n.seats, []int{i}) || !slices.Contains(n.data, any(h.PlayerAddress(h.players[s.Address].Secret))) {
					t.Fatalf("%s/%d: invitation %d %+v", l.game, l.n, i, n)
				}
			}
			if p := h.players["player1@example.org"]; p.Secret != "old" || p.Name != "Bea" {
				t.Fatalf("a registered player was registered again: %+v", p)
			}
			if p := h.players["player0@example.org"]; p == nil || p.Name != "Ann" || h.tokens[p.Secret][0] != TokenPlayer {
				t.Fatalf("the new invitee is no player: %+v", p)
			}
		}
	}
}

// TestCreatePolicyGivenElseDefault: a new game keeps the deadline policy
// it was created with, and one created without a policy gets the host's
// default, for every game and seat count.
func TestCreatePolicyGivenElseDefault(t *testing.T) {
	for _, l := range layouts(t) {
		for _, given := range []*deadline.Policy{nil, {MissLimit: 3}, {MissLimit: 1, VacationDays: 2}} {
			h := newHost()
			ng := newGame(l.game, l.n, "en")
			ng.Policy = given
			gm, err := Create(h, ng)
			if err != nil {
				t.Fatalf("%s/%d: %v", l.game, l.n, err)
			}
			want := h.DefaultPolicy()
			if given != nil {
				want = *given
			}
			if got := gm.(*fakeGame).g.Policy; got.MissLimit != want.MissLimit || got.VacationDays != want.VacationDays {
				t.Errorf("%s/%d, policy %+v: the game has %+v, want %+v", l.game, l.n, given, got, want)
			}
		}
	}
}

// TestCreateChecksEverythingFirst: a game that cannot be created draws
// no random byte and records nothing.
func TestCreateChecksEverythingFirst(t *testing.T) {
	for _, l := range layouts(t) {
		bad := map[string]func(ng *NewGame){
			"invitees":  func(ng *NewGame) { ng.Invite = append(ng.Invite, Invitee{Address: "x@y.z"}) },
			"id":        func(ng *NewGame) { ng.ID = "G-1" },
			"taken":     func(ng *NewGame) { ng.ID = "taken" },
			"option":    func(ng *NewGame) { ng.Options = map[string]string{"no-such-option": "1"} },
			"players":   func(ng *NewGame) { ng.Players, ng.Invite = 99, nil },
			"game":      func(ng *NewGame) { ng.Game = "no-such-game" },
			"variant":   func(ng *NewGame) { ng.Variant = "no-such-variant" },
			"address":   func(ng *NewGame) { ng.Invite[0].Address = "nobody" },
			"duplicate": func(ng *NewGame) { ng.Invite[1].Address = ng.Invite[0].Address },
		}
		for why, change := range bad {
			if why == "duplicate" && l.n < 2 {
				continue
			}
			h := newHost()
			h.games["taken"] = &fakeGame{}
			ng := newGame(l.game, l.n, "en")
			change(&ng)
			_, err := Create(h, ng)
			if err == nil {
				t.Fatalf("%s/%d: %s: created", l.game, l.n, why)
			}
			if why == "address" || why == "duplicate" {
				continue // found while inviting: the unit of work is rolled back
			}
			if h.randoms != 0 || len(h.games) != 1 || len(h.tokens) != 0 || len(h.players) != 0 {
				t.Fatalf("%s/%d: %s: %d random draws, %d games, %d tokens before the error %v", l.game, l.n, why, h.randoms, len(h.games), len(h.tokens), err)
			}
		}
	}
}

// TestJoinStartsWhenEverySeatJoined: each join is logged and announced to
// the others; the game starts at the last one and not before, in the seat
// order drawn from its seed (lifecycle.DrawSeatOrder), every seat
// playing; a second JOIN is only answered.
func TestJoinStartsWhenEverySeatJoined(t *testing.T) {
	for _, l := range layouts(t) {
		for _, lang := range langs {
			h := newHost()
			gm, err := Create(h, newGame(l.game, l.n, lang))
			if err != nil {
				t.Fatal(err)
			}
			fg := gm.(*fakeGame)
			g := fg.g
			order := append([]records.Seat(nil), g.Seats...)
			want := lifecycle.DrawSeatOrder(&records.Game{Seed: g.Seed, Seats: slices.Clone(order)})
			// Join from the last seat to the first.
			for k := l.n - 1; k >= 0; k-- {
				if err := Join(h, gm, k); err != nil {
					t.Fatal(err)
				}
				if k > 0 && (g.Status != records.StatusForming || fg.tb != nil || len(fg.perms) != 0 || fg.info[k][0] != "info.joined") {
					t.Fatalf("%s/%d: started after %d joins", l.game, l.n, l.n-k)
				}
			}
			if g.Status != records.StatusRunning || fg.tb == nil || !g.Started.Equal(h.now) || len(fg.perms) != 1 || !slices.Equal(fg.perms[0], want) {
				t.Fatalf("%s/%d: not started in the drawn order: %s %v, want %v", l.game, l.n, g.Status, fg.perms, want)
			}
			for n, o := range want {
				if g.Seats[n].Address != order[o].Address || g.Seats[n].State != records.SeatPlaying {
					t.Fatalf("%s/%d: seat %d is %+v, want %s playing", l.game, l.n, n, g.Seats[n], order[o].Address)
				}
			}
			kinds := fg.kinds()
			if i := slices.Index(kinds, string(records.EntryStart)); i != 1+2*l.n || fg.reported != 1 || fg.noteNames()[len(fg.notes)-1] != "start" {
				t.Fatalf("%s/%d: log %v, notes %v", l.game, l.n, kinds, fg.noteNames())
			}
			joined := 0
			for _, n := range fg.notes {
				if n.name == "joined" {
					joined++
					if len(n.seats) != l.n-1 {
						t.Fatalf("%s/%d: a join told to %v", l.game, l.n, n.seats)
					}
				}
			}
			if joined != l.n {
				t.Fatalf("%s/%d: %d joins announced", l.game, l.n, joined)
			}
			logged := len(fg.entries)
			if err := Join(h, gm, 0); err != nil || len(fg.entries) != logged || !slices.Contains(fg.info[0], "info.already_joined") {
				t.Fatalf("%s/%d: a second JOIN changed the game (%v)", l.game, l.n, err)
			}
		}
	}
}

// TestDeclineOnlyWhileForming: a DECLINE while the game forms revokes the
// seat's secret, tells the organiser and frees the seat; once the game
// runs it is only answered.
func TestDeclineOnlyWhileForming(t *testing.T) {
	for _, l := range layouts(t) {
		for seat := range l.n {
			h := newHost()
			gm, err := Create(h, newGame(l.game, l.n, "it"))
			if err != nil {
				t.Fatal(err)
			}
			fg := gm.(*fakeGame)
			secret := fg.g.Seats[seat].Secret
			if err := Decline(h, gm, seat); err != nil {
				t.Fatal(err)
			}
			if fg.g.Seats[seat].State != records.SeatDeclined || !slices.Equal(h.deleted, []string{secret}) || !slices.Equal(fg.dropped, []int{seat}) ||
				!slices.Equal(fg.org, []string{"org_declined"}) || fg.kinds()[len(fg.entries)-1] != string(records.EntryDecline) {
				t.Fatalf("%s/%d: seat %d declined: %+v, deleted %v, dropped %v", l.game, l.n, seat, fg.g.Seats[seat], h.deleted, fg.dropped)
			}
			fg.g.Status = records.StatusRunning
			logged := len(fg.entries)
			if err := Decline(h, gm, seat); err != nil || len(fg.entries) != logged || len(h.deleted) != 1 || !slices.Contains(fg.info[seat], "info.too_late_to_decline") {
				t.Fatalf("%s/%d: declined a running game (%v)", l.game, l.n, err)
			}
		}
	}
}

// TestSeatedGameStartsAtOnce: a tournament's game sends no invitation,
// keeps its seat order (Ordered) and runs once created.
func TestSeatedGameStartsAtOnce(t *testing.T) {
	for _, l := range layouts(t) {
		h := newHost()
		ng := newGame(l.game, l.n, "nl")
		ng.Seated, ng.Ordered, ng.Seed = true, true, "tournament-seed"
		gm, err := Create(h, ng)
		if err != nil {
			t.Fatal(err)
		}
		fg := gm.(*fakeGame)
		if fg.g.Status != records.StatusRunning || fg.tb == nil || slices.Contains(fg.noteNames(), "invite") || h.randoms != 0 {
			t.Fatalf("%s/%d: %s, notes %v", l.game, l.n, fg.g.Status, fg.noteNames())
		}
		for i, s := range fg.g.Seats {
			if s.Address != fmt.Sprintf("player%d@example.org", i) || s.State != records.SeatPlaying {
				t.Fatalf("%s/%d: seat %d %+v", l.game, l.n, i, s)
			}
		}
	}
}

// TestEnsurePlayerNames: a new player's name is the cleaned name given,
// else the cleaned local part of the address (issue 23); an unknown
// language is English; a registered player is returned as is.
func TestEnsurePlayerNames(t *testing.T) {
	for _, c := range []struct{ addr, name, lang, wantName, wantLang string }{
		{"ann@x.org", "Ann Smith", "it", "Ann Smith", "it"},
		{"bob.jones@x.org", "", "xx", "bob.jones", "en"},
		{"cy@x.org", "  ", "", "cy", "en"},
		{"dee@x.org", "Dee\r\nBcc: evil@x.org", "nl", "", "nl"},
	} {
		h := newHost()
		p, err := EnsurePlayer(h, c.addr, c.name, c.lang, "Europe/Rome")
		if err != nil {
			t.Fatal(err)
		}
		if (c.wantName != "" && p.Name != c.wantName) || strings.ContainsAny(p.Name, "\r\n") || p.Name == "" || p.Lang != c.wantLang || h.players[c.addr] != p || h.tokens[p.Secret] != [3]string{TokenPlayer, "", c.addr} || !p.Created.Equal(h.now) {
			t.Fatalf("%+v: %+v", c, p)
		}
		again, err := EnsurePlayer(h, c.addr, "Other", "fr", "")
		if err != nil || again != p || len(h.tokens) != 1 {
			t.Fatalf("%s registered twice", c.addr)
		}
	}
}

// TestSeats: a new game's seats are the players asked, else one per
// invitee, else the game's fewest; every combination of the three.
func TestSeats(t *testing.T) {
	for players := range 5 {
		for invitees := range 5 {
			for fewest := 1; fewest < 4; fewest++ {
				want := fewest
				if invitees > 0 {
					want = invitees
				}
				if players > 0 {
					want = players
				}
				if got := Seats(players, invitees, fewest); got != want {
					t.Errorf("Seats(%d, %d, %d) = %d, want %d", players, invitees, fewest, got, want)
				}
			}
		}
	}
}
