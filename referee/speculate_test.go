package referee

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/pbem-referee/referee/store"
)

// says returns the SAY texts in a game's log.
func (h *harness) says(game string) []string {
	h.t.Helper()
	var out []string
	err := h.db.View(func(tx *store.Tx) error {
		log, err := entries(tx, game, 1)
		for _, e := range log {
			if e.Kind == EntrySay {
				out = append(out, e.Text)
			}
		}
		return err
	})
	if err != nil {
		h.t.Fatal(err)
	}
	return out
}

// Issue 13.3: a seat's mail processed on a snapshot while another mail of
// the same game commits is done again in the write transaction: both are
// applied, once each, and each answered once.
func TestSpeculationConflictAppliesOnce(t *testing.T) {
	h := newHarness(t)
	h.newToyGame("g1", ann, bob)
	h.mails()
	hooked := 0
	h.r.specHook = func() {
		if hooked++; hooked == 1 {
			if out := h.send("g1", bob, "SAY all: from bob", -1); out.Status != "answered" && out.Status != "applied" {
				t.Errorf("bob: %+v", out)
			}
		}
	}
	out := h.send("g1", ann, "SAY all: from ann", -1)
	if hooked < 2 {
		t.Fatalf("the hook ran %d times", hooked)
	}
	says := h.says("g1")
	if len(says) != 2 || !strings.Contains(strings.Join(says, "|"), "from ann") || !strings.Contains(strings.Join(says, "|"), "from bob") {
		t.Fatalf("says %q (ann: %+v)", says, out)
	}
	ms := h.mails()
	// Each message answered once: two mails answer a message of ours.
	answered := map[string]int{}
	for _, m := range ms {
		if m.AutoSubmitted == "auto-replied" {
			answered[m.InReplyTo]++
		}
	}
	if len(answered) != 2 {
		t.Fatalf("answers %v", answered)
	}
	for id, n := range answered {
		if n != 1 {
			t.Errorf("%s answered %d times", id, n)
		}
	}
	// The organiser's NEW, two JOINs and the two SAYs are recorded.
	if n := h.inboundCount(); n != 5 {
		t.Errorf("%d inbound records", n)
	}
}

// inboundCount counts the de-duplication records.
func (h *harness) inboundCount() int {
	h.t.Helper()
	n := 0
	err := h.db.View(func(tx *store.Tx) error {
		for i := 1; i <= h.n; i++ {
			if _, seen, err := tx.Seen(fmt.Sprintf("msgid:<m%d@players.test>", i)); err != nil {
				return err
			} else if seen {
				n++
			}
		}
		return nil
	})
	if err != nil {
		h.t.Fatal(err)
	}
	return n
}

// Concurrent mails of several games: every one applied once, whatever
// the speculations ran into.
func TestSpeculationConcurrentGames(t *testing.T) {
	h := newHarness(t)
	games := []string{"g1", "g2", "g3"}
	for _, g := range games {
		h.newToyGame(g, ann, bob)
	}
	h.mails()
	h.r.opt.Kick = func() {} // the harness counts kicks without a lock
	var wg sync.WaitGroup
	var mu sync.Mutex
	for _, g := range games {
		for k := 0; k < 4; k++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				mu.Lock()
				gm := h.game(g)
				seat := gm.SeatOfAddress(ann)
				h.n++
				req := Request{From: ann, Kind: "seat", Game: g, Seat: seat, Secret: gm.Seats[seat].Secret, Token: -1,
					Text: "SAY all: " + g + " " + string(rune('a'+k)), MessageID: "<c" + g + string(rune('a'+k)) + "@players.test>",
					Source: "test", SenderVerified: true}
				req.Keys = []string{"msgid:" + req.MessageID}
				mu.Unlock()
				if _, err := h.r.Process(t.Context(), req); err != nil {
					t.Error(err)
				}
			}()
		}
	}
	wg.Wait()
	for _, g := range games {
		if says := h.says(g); len(says) != 4 {
			t.Errorf("%s: says %q", g, says)
		}
	}
}
