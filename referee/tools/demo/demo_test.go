package demo

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/pbem-referee/referee/engine"
	_ "github.com/pbem-referee/referee/engine/brewcrafters"
	_ "github.com/pbem-referee/referee/engine/dicebrewing"
	_ "github.com/pbem-referee/referee/engine/fromage"
	_ "github.com/pbem-referee/referee/engine/heavenale"
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
		GameOptions: map[string]map[string]string{"dicebrewing": {"round_limit": "3"}}}
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
			// Issue 22: receipts that ask nothing ride in the next mail;
			// no line over 80 columns, no internal code in any mail.
			t.Logf("%s: %s: %d mails, %d receipts (%.0f%%), %d lines over 80 columns, %d internal codes",
				g.ID, p.Name, p.Mails, p.Receipts, p.ReceiptShare(), len(p.Wide), len(p.Codes))
			if p.Mails == 0 || p.ReceiptShare() > 15 {
				t.Errorf("%s: %s got %d mails, %d of them receipts (at most 15%%)", g.ID, p.Name, p.Mails, p.Receipts)
			}
			for _, w := range p.Wide {
				t.Errorf("%s: %s: %s", g.ID, p.Name, w)
			}
			for _, c := range p.Codes {
				t.Errorf("%s: %s: internal code %s", g.ID, p.Name, c)
			}
			if !p.FinalMail {
				t.Errorf("%s: %s got no final mail", g.ID, p.Name)
			}
			// The final mail states everybody's result.
			for _, q := range g.Players {
				if !strings.Contains(p.FinalText, q.Name) || !strings.Contains(p.FinalText, fmt.Sprint(q.Score)) {
					t.Errorf("%s: the final mail to %s lacks %s's score %d:\n%s", g.ID, p.Name, q.Name, q.Score, p.FinalText)
				}
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
	// Issue 12.11: the demo ends with one real "your move" mail.
	if !strings.Contains(res.Sample, "] Your move") || !strings.Contains(res.Sample, "WHAT YOU NEED TO DO NOW") ||
		!strings.Contains(out.String(), "One of the mails a player got during the game:\n\n  | From: ") {
		t.Errorf("no sample mail at the end:\n%s", out.String())
	}
}

// TestHumanSeat leaves a seat of Dice Brewing for a person, and plays it
// from the outside with nothing but the printed settings and mail: a mail
// client (Player) reading the IMAP account and choosing among the legal
// answers of each mail. The demo waits for that player until the game
// ends.
func TestHumanSeat(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end demo")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	var out bytes.Buffer
	humanErr := make(chan error, 1)
	var human *GameBrain
	opt := Options{Dir: t.TempDir(), Games: []string{"dicebrewing"}, Human: "you@player.test", Out: &out, Interval: -1, NoSync: true,
		GameOptions: map[string]map[string]string{"dicebrewing": {"round_limit": "3"}},
		OnHuman: func(acc Account) {
			human = &GameBrain{Decider: &MailDecider{Rand: rand.New(rand.NewPCG(1, 2))}}
			// A person reads before answering: the demo looks for a
			// waiting seat once a second, and a seat answered at once
			// (the whole game takes under a second) is never seen waiting.
			p := &Player{Account: acc, Brain: slowBrain{human, 1500 * time.Millisecond}}
			go func() { humanErr <- p.Run(ctx) }()
		}}
	res, err := Run(ctx, opt)
	if err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	if err := <-humanErr; err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"One seat of dicebrewing is yours, you@player.test", "IMAP  host 127.0.0.1", "SMTP  host 127.0.0.1",
		"password", "All games finished", "(you)",
		// Issue 22: the settings again when the seat waits, and the text
		// of the first mails that ask (the invitation, the first move).
		">> Your seat in dicebrewing is waiting for you", "Its text", "| Reply to this mail"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	if n := strings.Count(out.String(), "IMAP  host 127.0.0.1"); n < 3 {
		t.Errorf("the settings are printed %d times; want at the start and at each wait:\n%s", n, out.String())
	}
	if res.Human == nil || res.Human.Addr != "you@player.test" || len(res.Games) != 1 || !res.Games[0].Replayed {
		t.Fatalf("result %+v", res)
	}
	if lg, text := human.Final(); lg == nil || !strings.Contains(text, "you") {
		t.Errorf("the person got no final mail with the result: %q", text)
	}
	if human.Orders() == 0 {
		t.Error("the person made no move")
	}
}

// Issue 22: a person plays Dice Brewing unless they choose.
func TestHumanGameDefault(t *testing.T) {
	all := engine.Games()
	if got := humanGame(all, ""); got != DefaultHumanGame {
		t.Errorf("default among every game: %q, want %q", got, DefaultHumanGame)
	}
	if got := humanGame(all, "fromage"); got != "fromage" {
		t.Errorf("chosen fromage: %q", got)
	}
	var others []engine.Game
	for _, g := range all {
		if g.Info().Name != DefaultHumanGame {
			others = append(others, g)
		}
	}
	if len(others) > 0 {
		if got := humanGame(others, ""); got != others[0].Info().Name {
			t.Errorf("without Dice Brewing: %q, want the first game %q", got, others[0].Info().Name)
		}
	}
}

// slowBrain answers each mail as its Brain does, after a pause.
type slowBrain struct {
	Brain
	pause time.Duration
}

func (b slowBrain) Answer(ctx context.Context, in *Incoming) (string, bool, error) {
	select {
	case <-time.After(b.pause):
	case <-ctx.Done():
	}
	return b.Brain.Answer(ctx, in)
}
