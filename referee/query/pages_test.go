package query

import (
	"errors"
	"testing"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/referee/tournament/bymail"
)

// fakeCore is a core of games outside tournaments, by id.
type fakeCore struct {
	games  map[string]GameHead
	listed []string
	views  int
}

func (c *fakeCore) Version() uint64 { return 7 }
func (c *fakeCore) View(fn func(Snapshot) error) error {
	c.views++
	return fn(fakeSnap{c})
}

type fakeSnap struct{ c *fakeCore }

func (fakeSnap) Desk() bymail.Host        { return nil }
func (fakeSnap) Records() bymail.Records  { return nil }
func (fakeSnap) Tournament(string) string { return "" }
func (s fakeSnap) Game(id string) (GameHead, bool, error) {
	if id == "broken" {
		return GameHead{}, false, errors.New("store error")
	}
	g, ok := s.c.games[id]
	return g, ok, nil
}
func (s fakeSnap) PublicPage(id, lang string) (*GamePage, error) {
	return &GamePage{ID: id, Title: s.c.games[id].Title + " " + lang}, nil
}
func (s fakeSnap) ListedGames(fn func(id string) error) error {
	for _, id := range s.c.listed {
		if err := fn(id); err != nil {
			return err
		}
	}
	return nil
}

// A game's page answers only at its address with its key, one read
// transaction an answer; any other address is ErrNoPage (never which
// part was wrong); a store error is the store's.
func TestGamePageAddresses(t *testing.T) {
	c := &fakeCore{games: map[string]GameHead{
		"g1":     {Title: "Dice", Status: "running", PageKey: "k1"},
		"g-2":    {Title: "Cheese", Status: "over", PageKey: "k2"},
		"hidden": {Title: "Hidden", Status: "running"},
	}}
	p := Pages{Core: c}
	for slug, want := range map[string]string{"g1-k1": "Dice it", "g-2-k2": "Cheese it"} {
		pg, err := p.GamePage(slug, "it")
		if err != nil || pg.Title != want {
			t.Errorf("%s: %+v, %v", slug, pg, err)
		}
	}
	for _, slug := range []string{"g1", "g1-", "-k1", "g1-k2", "g1-K1", "g-2-k1", "hidden-", "hidden-x", "nope-k1", ""} {
		if pg, err := p.GamePage(slug, "en"); !errors.Is(err, ErrNoPage) {
			t.Errorf("%q: %+v, %v, want ErrNoPage", slug, pg, err)
		}
	}
	if _, err := p.GamePage("broken-k", "en"); err == nil || errors.Is(err, ErrNoPage) {
		t.Errorf("a store error reads as %v", err)
	}
	if p.PagesVersion() != 7 {
		t.Error("the pages' version is not the core's")
	}
}

// The index of listed games shows the published ones only, in the order
// the store lists them, each with its page's address.
func TestListedGames(t *testing.T) {
	c := &fakeCore{games: map[string]GameHead{
		"g1": {Title: "Dice", Status: "running", PageKey: "k1", Players: []string{"Ann", "Bob"}},
		"g2": {Title: "Off", Status: "running"},
		"g3": {Title: "Cheese", Status: "over", PageKey: "k3"},
	}, listed: []string{"g1", "g2", "gone", "broken", "g3"}}
	got, err := Pages{Core: c}.ListedGames()
	if err != nil || len(got) != 2 || got[0].URL != "/g/g1-k1" || got[1].URL != "/g/g3-k3" ||
		got[0].Players[1] != "Bob" || got[1].Status != "over" || c.views != 1 {
		t.Errorf("%+v, %v (%d views)", got, err, c.views)
	}
}

// A finished game's places, best first, ties by seat, each with its
// seat's name and who held it; seats the result does not rank are left
// out.
func TestPlaces(t *testing.T) {
	res := &engine.Result{Rank: []int{2, 1, 2}, Scores: []engine.Score{{Seat: 0, Total: 30}, {Seat: 1, Total: 45}, {Seat: 2, Total: 30}, {Seat: 5, Total: 1}}}
	got := Places(res, []string{"Ann", "Bob", "Cat"}, []string{"", "", "Cat (moves 1–4), then Dan (substitute, from move 5)"})
	want := []PageResult{{1, 1, "Bob", 45, ""}, {2, 0, "Ann", 30, ""}, {2, 2, "Cat", 30, "Cat (moves 1–4), then Dan (substitute, from move 5)"}}
	if len(got) != len(want) {
		t.Fatalf("%+v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("place %d: %+v, want %+v", i, got[i], want[i])
		}
	}
}
