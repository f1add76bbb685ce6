package demo

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/pbem-referee/referee/engine"
	_ "github.com/pbem-referee/referee/engine/dicebrewing"
	_ "github.com/pbem-referee/referee/engine/fromage"
)

// TestDemoEndToEnd runs the demo's bot games on the embedded stack: every
// registered game must finish, every player must get the final mail with
// the result and the log, the transcripts and logs must be written, and
// each exported log must replay.
func TestDemoEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end demo")
	}
	dir := t.TempDir()
	var out bytes.Buffer
	opt := Options{Dir: dir, Out: &out, Interval: -1, Timeout: 3 * time.Minute, NoSync: true,
		// Shorter games where the engine offers it.
		GameOptions: map[string]map[string]string{"dicebrewing": {"round_limit": "4"}}}
	start := time.Now()
	res, err := Run(context.Background(), opt)
	t.Logf("demo took %v:\n%s", time.Since(start), out.String())
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Games) != len(engine.Games()) {
		t.Fatalf("%d games played, %d registered", len(res.Games), len(engine.Games()))
	}
	for _, g := range res.Games {
		if g.Status != "over" || !g.Replayed {
			t.Errorf("%s: status %s, replayed %v", g.ID, g.Status, g.Replayed)
		}
		raw, err := os.ReadFile(g.LogPath)
		if err != nil {
			t.Fatal(err)
		}
		var lg engine.Log
		if err := json.Unmarshal(raw, &lg); err != nil {
			t.Fatal(err)
		}
		eg, err := engine.Lookup(lg.Game)
		if err != nil {
			t.Fatal(err)
		}
		st, err := engine.Replay(eg, lg)
		if err != nil {
			t.Errorf("%s: replay: %v", g.ID, err)
			continue
		}
		if st.Result() == nil || st.Head().Moves != g.Moves {
			t.Errorf("%s: the replay ends at move %d (result %v), the game at %d", g.ID, st.Head().Moves, st.Result(), g.Moves)
		}
		if g.Mails < 2*g.Moves/len(g.Players) {
			t.Errorf("%s: only %d mails for %d moves", g.ID, g.Mails, g.Moves)
		}
		ranks := 0
		for _, p := range g.Players {
			if !p.FinalMail {
				t.Errorf("%s: %s got no final mail", g.ID, p.Name)
			}
			if p.Rank < 1 || p.Rank > len(g.Players) {
				t.Errorf("%s: %s has rank %d", g.ID, p.Name, p.Rank)
			}
			ranks += p.Rank
			tx, err := os.ReadFile(p.Transcript)
			if err != nil {
				t.Fatal(err)
			}
			// The transcript holds the invitation, the player's replies
			// and the final mail with the log attached.
			for _, want := range []string{"JOIN", "FORMAT json", "-log.json", "In-Reply-To:", "\n> "} {
				if !bytes.Contains(tx, []byte(want)) {
					t.Errorf("%s: transcript of %s lacks %q", g.ID, p.Name, want)
				}
			}
		}
		if ranks == 0 {
			t.Errorf("%s: no ranks", g.ID)
		}
	}
	if !strings.Contains(out.String(), "All games finished") || !strings.Contains(out.String(), "transcripts") {
		t.Errorf("summary missing:\n%s", out.String())
	}
}
