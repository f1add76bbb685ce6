package dicebrewing

import (
	"encoding/json"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/dicebrewing/position"
	"github.com/pbem-referee/referee/engine/dicebrewing/view"
)

// DB-6.6: with hidden_action_tokens on, a bought token is known to its
// owner only; the opponents see that a token was bought and how many each
// player holds. Playing the token reveals it (DB-5.8.3).
func TestDB6_6HiddenTokensInEventsAndViews(t *testing.T) {
	tb := tableAt(t, "SETUP ann bob first=1 variant=advanced", "ROUND 3",
		"HOLD ann coins=9 AR=Y2 tokens=", "HOLD bob coins=0", "PHASE buy ann")
	rep := submit(t, tb, 0, "BUY TAKE")
	var buy *engine.Event
	for _, s := range rep.Steps {
		for i, e := range s.Events {
			if e.Type == "db.buy" {
				buy = &s.Events[i]
			}
		}
	}
	if buy == nil {
		t.Fatal("no db.buy event")
	}
	if e, ok := buy.For(0); !ok || e.Params["code"] != "TAKE" {
		t.Errorf("the buyer sees %+v", e)
	}
	for _, seat := range []int{1, -1} {
		e, ok := buy.For(seat)
		if !ok || e.Params["code"] != nil || e.Params["hidden"] != true {
			t.Errorf("seat %d sees %+v", seat, e)
		}
		if js, _ := json.Marshal(e); strings.Contains(string(js), "TAKE") {
			t.Errorf("seat %d's event mentions TAKE: %s", seat, js)
		}
	}
	for _, seat := range []int{1, -1} {
		v := viewOf(tb, seat)
		if v.Players[0].Tokens != nil || v.Players[0].TokenCount != 1 {
			t.Errorf("seat %d sees ann's tokens %+v (count %d)", seat, v.Players[0].Tokens, v.Players[0].TokenCount)
		}
		js, _ := json.Marshal(v)
		if strings.Contains(string(js), `"code":"TAKE","n":1`) {
			t.Errorf("seat %d's view shows the token", seat)
		}
	}
	if v := viewOf(tb, 0); v.Me.Tokens == nil || v.Me.Tokens[0].Code != "TAKE" {
		t.Errorf("ann does not see her own token: %+v", v.Me.Tokens)
	}
	// The decision of a window says nothing about the tokens held.
	st := vectorState(t, "SETUP ann bob first=1 variant=advanced", "ROUND 3", "HOLD ann tokens=TAKE ST=Y2", "HOLD bob ST=K3", "PHASE w0 ann")
	d := st.Pending()[0]
	if js, _ := json.Marshal(d); d.Kind != position.KindWindow || strings.Contains(string(js), "TAKE") {
		t.Errorf("window decision %s", js)
	}
	// Playing reveals the type to everybody.
	m, _ := st.Parse(0, "PLAY TAKE bob:K3@S")
	evs, err := st.Apply(0, m)
	if err != nil {
		t.Fatal(err)
	}
	if e, ok := evs[0].For(1); !ok || e.Type != "db.play" || e.Params["token"] != "TAKE" {
		t.Errorf("bob sees %+v", e)
	}
}

// DB-6.6: a token gained as a reward is hidden too.
func TestDB6_6HiddenRewardToken(t *testing.T) {
	st := vectorState(t, "SETUP ann bob first=1 hidden_action_tokens=true", "ROUND 3",
		"DISPLAY R11 R01 R02", "HOLD ann ST=Y4,K2,G4", "PHASE brew ann")
	m, _ := st.Parse(0, "BREW R11 GET SHIELD")
	evs, err := st.Apply(0, m)
	if err != nil {
		t.Fatal(err)
	}
	seen := false
	for _, e := range evs {
		if e.Type != "db.gain" || e.Params["what"] != "token" {
			continue
		}
		seen = true
		if o, ok := e.For(1); !ok || o.Params["token"] != nil {
			t.Errorf("bob sees %+v", o)
		}
		if o, _ := e.For(0); o.Params["token"] != "SHIELD" {
			t.Errorf("ann sees %+v", o)
		}
	}
	if !seen {
		t.Fatal("no token gain event")
	}
}

// DB-6.2 / DB-5.8.1: without the option, tokens are public.
func TestDB5_8_1TokensPublicByDefault(t *testing.T) {
	st := vectorState(t, "SETUP ann bob first=1", "HOLD ann tokens=PLUS,TAKE")
	v := st.View(1).(view.View)
	if len(v.Players[0].Tokens) != 2 {
		t.Errorf("bob sees %+v", v.Players[0].Tokens)
	}
}

// DB-6.3: the order of the deck is hidden from everybody; its size is
// public.
func TestDB6_3DeckOrderHidden(t *testing.T) {
	st := vectorState(t, "SETUP ann bob first=1")
	for seat := -1; seat < 2; seat++ {
		js, _ := json.Marshal(st.View(seat))
		for _, c := range st.Deck {
			if strings.Contains(string(js), `"`+c+`"`) {
				t.Errorf("seat %d's view names deck card %s", seat, c)
			}
		}
		if v := st.View(seat).(view.View); v.DeckSize != len(st.Deck) {
			t.Errorf("deck size %d", v.DeckSize)
		}
	}
}

// DB-6.2: standing orders are private; every event has a visibility.
func TestDB6_2EventVisibility(t *testing.T) {
	st := vectorState(t, "SETUP ann bob first=1")
	for _, cmd := range []string{"AUTOSTORE 4", "TOKENS NONE GAME"} {
		m, err := st.Parse(0, cmd)
		if err != nil {
			t.Fatal(err)
		}
		evs, err := st.Apply(0, m)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range evs {
			if e.Type == "db.autostore" || e.Type == "db.tokens" {
				if e.Vis.Public || !e.Vis.Sees(0) || e.Vis.Sees(1) {
					t.Errorf("%s visibility %+v", e.Type, e.Vis)
				}
			} else if !e.Vis.Public && len(e.Vis.Seats) == 0 {
				t.Errorf("%s has no visibility", e.Type)
			}
		}
	}
}

// tokenTwins pairs the options of a decision that differ only in which
// action token they take face down, among types a public observer cannot
// tell apart by the rules' own public facts (DB-6.2): the same windows
// (whether a window is asked shows what fits it, see doc.go) and, for a
// purchase, the same price (coins are public, DB-6.4).
func (s *state) tokenTwins(opts []engine.Option) [][2]string {
	key := func(word string, buy bool) (string, bool) {
		for t, at := range s.Rules.Tokens {
			if at.Code == word {
				k := strings.Join(s.TokenWindows(t), ",")
				if buy {
					k += "$" + strconv.Itoa(at.Price)
				}
				return k, true
			}
		}
		return "", false
	}
	var out [][2]string
	for i, a := range opts {
		fa := strings.Fields(a.Cmd)
		if len(fa) == 0 || fa[0] != "BUY" && fa[0] != "GET" && fa[0] != "BREW" {
			continue // PLAY reveals the token by the rules (DB-5.8.3)
		}
		for _, b := range opts[i+1:] {
			fb := strings.Fields(b.Cmd)
			if len(fa) != len(fb) {
				continue
			}
			diff := -1
			for k := range fa {
				if fa[k] != fb[k] {
					if diff >= 0 {
						diff = -2
						break
					}
					diff = k
				}
			}
			if diff < 0 {
				continue
			}
			ka, oka := key(fa[diff], fa[0] == "BUY")
			kb, okb := key(fb[diff], fa[0] == "BUY")
			if oka && okb && ka == kb {
				out = append(out, [2]string{a.Cmd, b.Cmd})
			}
		}
	}
	return out
}

// publicTrace is everything a reader other than the holder learns from a
// move: the events as that reader gets them, and the reader's view (less
// the example command of the reader's own decision, which lists the
// reader's legal options, see doc.go).
func publicTrace(t *testing.T, s *state, evs []engine.Event, reader int) string {
	t.Helper()
	var b strings.Builder
	for _, e := range evs {
		if x, ok := e.For(reader); ok {
			b.Write(mustMarshal(t, x))
			b.WriteByte('\n')
		}
	}
	v := s.View(reader).(view.View)
	v.Example = ""
	for i := range v.BlackMarket {
		v.BlackMarket[i].Gone = false // the reader's own options, see doc.go
	}
	b.Write(mustMarshal(t, v))
	return b.String()
}

// DB-6.6 against DB-6.2, over whole bot games with face-down tokens: at
// every decision where a player may take a token face down (a purchase, a
// reward of a brew, a reward choice), the two games that differ only in
// which of two indistinguishable types was taken look the same to every
// other seat and to an observer: the same events, the same views (the
// Black Market stocks included), so the pages, the boards and the mails
// drawn from them too. Without hiding the stock (stockFor), a purchase
// shows in the stack it came from.
func TestDB6_6FaceDownTakesLeaveNoPublicTrace(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 6))
	compared, diverged := 0, 0
	for g := 0; g < 6; g++ {
		seats := []string{"ann", "bob", "cat", "dan"}[:2+g%3]
		cfg := engine.Config{Seats: seats, Seed: "facedown-" + strconv.Itoa(g), Variant: "advanced", Options: map[string]string{}}
		st0, _, err := Game.NewState(cfg)
		if err != nil {
			t.Fatal(err)
		}
		s := st0.(*state)
		bot := explorer{Eps: 0.2}
		for moves := 0; s.Result() == nil; moves++ {
			if moves > 5000 {
				t.Fatalf("%s: no end", cfg.Seed)
			}
			d := s.Pending()[0]
			opts := s.Legal(d)
			for k, tw := range s.tokenTwins(opts) {
				if k >= 3 {
					break
				}
				var traces [2][]string
				var next [2]engine.Decision
				for j, cmd := range tw {
					c := s.Clone().(*state)
					m, err := c.Parse(d.Seat, cmd)
					if err != nil {
						t.Fatal(err)
					}
					evs, err := c.Apply(d.Seat, m)
					if err != nil {
						t.Fatalf("%s: legal %q refused: %v", cfg.Seed, cmd, err)
					}
					if p := c.Pending(); len(p) > 0 {
						next[j] = p[0]
					}
					for r := -1; r < len(seats); r++ {
						if r != d.Seat {
							traces[j] = append(traces[j], publicTrace(t, c, evs, r))
						}
					}
				}
				if next[0].Seat != next[1].Seat || next[0].Kind != next[1].Kind {
					diverged++ // a window asked or skipped (doc.go)
					continue
				}
				compared++
				for r := range traces[0] {
					if a, b := traces[0][r], traces[1][r]; a != b {
						k := 0
						for k < len(a) && k < len(b) && a[k] == b[k] {
							k++
						}
						t.Fatalf("%s: %q and %q look different to reader #%d, at:\n%s\n---\n%s", cfg.Seed, tw[0], tw[1], r,
							a[max(0, k-200):min(len(a), k+80)], b[max(0, k-200):min(len(b), k+80)])
					}
				}
			}
			i := 0
			if len(opts) > 1 {
				i = bot.Choose(s, d, opts, rng)
			}
			m, err := s.Parse(d.Seat, opts[i].Cmd)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := s.Apply(d.Seat, m); err != nil {
				t.Fatalf("%s: %q: %v", cfg.Seed, opts[i].Cmd, err)
			}
		}
	}
	t.Logf("%d face-down twins compared, %d diverged by a window", compared, diverged)
	if compared < 20 {
		t.Fatalf("only %d twins compared: the test proves little", compared)
	}
}

// DB-6.6: a reader who owes a purchase learns, as the options of the
// purchase say, which stacks are in fact empty (Gone); nobody else does.
func TestDB6_6GoneOnlyForTheBuyer(t *testing.T) {
	st := vectorState(t, "SETUP ann bob first=1 variant=advanced", "ROUND 3",
		"HOLD ann tokens=TAKE,TAKE,TAKE coins=0", "HOLD bob coins=9 AR=Y2", "PHASE buy bob")
	gone := func(seat int) (int, bool) {
		for _, it := range st.View(seat).(view.View).BlackMarket {
			if it.Code == "TAKE" {
				return it.Stock, it.Gone
			}
		}
		return -1, false
	}
	if n, g := gone(1); n != 3 || !g {
		t.Errorf("the buyer: TAKE stock %d gone %v", n, g)
	}
	for _, seat := range []int{0, -1} {
		if _, g := gone(seat); g {
			t.Errorf("seat %d is told TAKE is gone", seat)
		}
	}
	for _, o := range st.Legal(st.Pending()[0]) {
		if o.Cmd == "BUY TAKE" {
			t.Error("BUY TAKE offered")
		}
	}
}

// DB-6.2 with DB-6.6: each reader sees the Black Market stocks less the
// tokens played and less their own face-down tokens; the others' face-down
// tokens stay counted in, and BMFaceDown says how many there are. Playing
// a token reveals it, and it comes off every reader's stock (DB-5.8.3).
func TestDB6_6BlackMarketStockPerReader(t *testing.T) {
	stock := func(v view.View, code string) int {
		for _, it := range v.BlackMarket {
			if it.Code == code {
				return it.Stock
			}
		}
		return -1
	}
	tb := tableAt(t, "SETUP ann bob first=1 variant=advanced", "ROUND 3",
		"HOLD ann coins=9 AR=Y2 tokens=", "HOLD bob coins=0", "PHASE buy ann")
	submit(t, tb, 0, "BUY TAKE")
	for _, c := range []struct {
		seat, take, down int
	}{{0, 2, 0}, {1, 3, 1}, {-1, 3, 1}} {
		v := viewOf(tb, c.seat)
		if stock(v, "TAKE") != c.take || v.BMFaceDown != c.down || stock(v, "PLUS") != 3 {
			t.Errorf("seat %d: TAKE stock %d, face down %d; want %d, %d", c.seat, stock(v, "TAKE"), v.BMFaceDown, c.take, c.down)
		}
	}
	// Without the option the stock is the stock, for everybody.
	tb = tableAt(t, "SETUP ann bob first=1", "ROUND 3",
		"HOLD ann coins=9 AR=Y2 tokens=", "HOLD bob coins=0", "PHASE buy ann")
	submit(t, tb, 0, "BUY TAKE")
	for _, seat := range []int{0, 1, -1} {
		if v := viewOf(tb, seat); stock(v, "TAKE") != 2 || v.BMFaceDown != 0 {
			t.Errorf("public tokens, seat %d: TAKE stock %d, face down %d", seat, stock(v, "TAKE"), v.BMFaceDown)
		}
	}
	// Played, the token is public and off every stock.
	st := vectorState(t, "SETUP ann bob first=1 variant=advanced", "ROUND 3", "HOLD ann tokens=TAKE ST=Y2", "HOLD bob ST=K3", "PHASE w0 ann")
	m, _ := st.Parse(0, "PLAY TAKE bob:K3@S")
	if _, err := st.Apply(0, m); err != nil {
		t.Fatal(err)
	}
	for _, seat := range []int{0, 1, -1} {
		if v := st.View(seat).(view.View); stock(v, "TAKE") != 2 || v.BMFaceDown != 0 {
			t.Errorf("after the play, seat %d: TAKE stock %d, face down %d", seat, stock(v, "TAKE"), v.BMFaceDown)
		}
	}
}
