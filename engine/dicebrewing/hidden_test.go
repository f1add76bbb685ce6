package dicebrewing

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/pbem-referee/referee/engine"
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
		v := view(tb, seat)
		if v.Players[0].Tokens != nil || v.Players[0].TokenCount != 1 {
			t.Errorf("seat %d sees ann's tokens %+v (count %d)", seat, v.Players[0].Tokens, v.Players[0].TokenCount)
		}
		js, _ := json.Marshal(v)
		if strings.Contains(string(js), `"code":"TAKE","n":1`) {
			t.Errorf("seat %d's view shows the token", seat)
		}
	}
	if v := view(tb, 0); v.Me.Tokens == nil || v.Me.Tokens[0].Code != "TAKE" {
		t.Errorf("ann does not see her own token: %+v", v.Me.Tokens)
	}
	// The decision of a window says nothing about the tokens held.
	st := position(t, "SETUP ann bob first=1 variant=advanced", "ROUND 3", "HOLD ann tokens=TAKE ST=Y2", "HOLD bob ST=K3", "PHASE w0 ann")
	d := st.Pending()[0]
	if js, _ := json.Marshal(d); d.Kind != kindWindow || strings.Contains(string(js), "TAKE") {
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
	st := position(t, "SETUP ann bob first=1 hidden_action_tokens=true", "ROUND 3",
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
	st := position(t, "SETUP ann bob first=1", "HOLD ann tokens=PLUS,TAKE")
	v := st.View(1).(View)
	if len(v.Players[0].Tokens) != 2 {
		t.Errorf("bob sees %+v", v.Players[0].Tokens)
	}
}

// DB-6.3: the order of the deck is hidden from everybody; its size is
// public.
func TestDB6_3DeckOrderHidden(t *testing.T) {
	st := position(t, "SETUP ann bob first=1")
	for seat := -1; seat < 2; seat++ {
		js, _ := json.Marshal(st.View(seat))
		for _, c := range st.Deck {
			if strings.Contains(string(js), `"`+c+`"`) {
				t.Errorf("seat %d's view names deck card %s", seat, c)
			}
		}
		if v := st.View(seat).(View); v.DeckSize != len(st.Deck) {
			t.Errorf("deck size %d", v.DeckSize)
		}
	}
}

// DB-6.2: standing orders are private; every event has a visibility.
func TestDB6_2EventVisibility(t *testing.T) {
	st := position(t, "SETUP ann bob first=1")
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
