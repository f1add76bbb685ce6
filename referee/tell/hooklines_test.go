package tell_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/pbem-referee/referee/engine"
	_ "github.com/pbem-referee/referee/engine/brewcrafters"
	_ "github.com/pbem-referee/referee/engine/dicebrewing"
	_ "github.com/pbem-referee/referee/engine/fromage"
	_ "github.com/pbem-referee/referee/engine/heavenale"
	"github.com/pbem-referee/referee/referee/tell"
)

// TestHooksOnlyWhatSpectatorsSee: a change's webhook lines hold every
// event a spectator may see (its public or redacted copy, one line each,
// in order) and none it may not, the announcements to every seat and what
// was said to all, never a private announcement or a private SAY. For
// every game's setup events, each also private (with and without a
// redacted copy), and notes of every kind.
func TestHooksOnlyWhatSpectatorsSee(t *testing.T) {
	r, err := tell.NewRenderer()
	if err != nil {
		t.Fatal(err)
	}
	notes := []tell.Note{
		{Name: "paused"},
		{Seats: []int{0}, Name: "paused"},
		{Name: "say", Data: map[string]any{"from": "Ann", "to": []string(nil), "text": "hello all", "all": true}},
		{Seats: []int{1}, Name: "say", Data: map[string]any{"from": "Ann", "to": []string{"Bob"}, "text": "psst"}},
		{Name: "resumed", Data: map[string]any{"shift": 1.5}},
	}
	seen := 0
	for _, eg := range engine.Games() {
		seats := []string{"Ann", "Bob", "Cid"}[:max(eg.Info().MinPlayers, 2)]
		_, setup, err := eg.NewState(engine.Config{Seats: seats, Seed: "hooks"})
		if err != nil {
			t.Fatalf("%s: %v", eg.Info().Name, err)
		}
		rd := tell.Reader{Game: eg.Info().Name, Lang: "en", Seat: -1, Seats: seats}
		for _, shape := range []string{"as is", "private", "private, redacted"} {
			var evs []engine.Event
			for _, ev := range setup {
				switch shape {
				case "private":
					ev.Vis, ev.Redacted = engine.Only(0), nil
				case "private, redacted":
					ev.Vis, ev.Redacted = engine.Only(0), ev.Params
				}
				evs = append(evs, ev)
			}
			steps := []engine.Step{{Token: 1, Events: evs[:len(evs)/2]}, {Token: 2, Events: evs[len(evs)/2:]}}
			hl, err := r.Hooks(rd, steps, notes)
			if err != nil {
				t.Fatalf("%s %s: %v", rd.Game, shape, err)
			}
			var want []engine.Event
			for _, ev := range evs {
				if e, ok := ev.For(-1); ok {
					want = append(want, e)
				}
			}
			seen += len(want)
			name := fmt.Sprintf("%s, events %s", rd.Game, shape)
			if len(hl.Events) != len(want) || len(hl.Moves) != len(want) {
				t.Errorf("%s: %d events, %d lines, want %d", name, len(hl.Events), len(hl.Moves), len(want))
			}
			for i := range min(len(want), len(hl.Events)) {
				if hl.Events[i].Type != want[i].Type || !hl.Events[i].Vis.Sees(-1) && hl.Events[i].Redacted != nil {
					t.Errorf("%s: event %d is %+v, want %+v", name, i, hl.Events[i], want[i])
				}
			}
			if !slices.Equal(hl.Org, []string{"The organiser paused the game: deadlines are stopped.", "The organiser resumed the game; deadlines moved by 1.5 h."}) {
				t.Errorf("%s: organiser lines %q", name, hl.Org)
			}
			if len(hl.Chat) != 1 || !slices.Contains(hl.Chat, "Ann says: hello all") {
				t.Errorf("%s: chat lines %q", name, hl.Chat)
			}
		}
	}
	if seen == 0 {
		t.Fatal("no game has a setup event a spectator sees: the test checks nothing")
	}
}
