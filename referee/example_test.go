package referee_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/pbem-referee/referee/engine/enginetest"
	"github.com/pbem-referee/referee/mailfmt/mailmsg"
	"github.com/pbem-referee/referee/referee"
	"github.com/pbem-referee/referee/referee/rigs/testkit"
	"github.com/pbem-referee/referee/store"
)

// counter is a deterministic source of secrets and seeds.
type counter struct{ n byte }

func (c *counter) Read(p []byte) (int, error) {
	for i := range p {
		c.n++
		p[i] = c.n
	}
	return len(p), nil
}

// outbox prints and retires the mails the core queued (here composed as
// JSON, so that they read back as Outgoing; Composer makes real mail).
func outbox(db *store.DB, now time.Time) []referee.Outgoing {
	var ms []referee.Outgoing
	err := db.Update(func(tx *store.Tx) error {
		due, err := tx.Due(referee.OutboxQueue, now.Add(time.Hour), 0)
		if err != nil {
			return err
		}
		for _, it := range due {
			var m referee.Outgoing
			if err := json.Unmarshal(it.Payload, &m); err != nil {
				return err
			}
			fmt.Printf("  mail to %s: %s\n", m.To, m.Subject)
			ms = append(ms, m)
			if _, err := tx.Finish(referee.OutboxQueue, it.ID, store.Sent, now, now, ""); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		fmt.Println(err)
	}
	return ms
}

// Process is the core's one door: a Request in (an organiser's, a seat's
// or a player's mail, or a webhook call, already parsed and tagged by the
// edges), one store transaction, and an Outcome out; the mails it causes
// are in the outbox queue, written in that same transaction. Here an
// organiser opens a game of the toy game, and each player answers the
// invitation from its Reply-To tag (the seat's secret).
func ExampleReferee_Process() {
	enginetest.RegisterToy()
	dir, err := os.MkdirTemp("", "referee-example")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	db, err := store.Open(filepath.Join(dir, "r.db"), &store.Options{NoSync: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer db.Close()
	clock := &testkit.FakeClock{T: time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)}
	r, err := referee.New(referee.Options{DB: db, Clock: clock, Domain: "example.test", Random: &counter{},
		Organisers: map[string]string{"olga@example.test": "orgsecretorgsecret"},
		Compose:    func(m *referee.Outgoing) ([]byte, error) { return json.Marshal(m) }})
	if err != nil {
		fmt.Println(err)
		return
	}
	process := func(req referee.Request) {
		req.Keys, req.SenderVerified = []string{"msgid:" + req.MessageID}, true
		out, err := r.Process(context.Background(), req)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%s: %s (game %q, state token %d, started %v, %d mails)\n", req.From, out.Status, out.Game, out.StateToken, out.Started, len(out.Replies))
	}

	process(referee.Request{Kind: referee.KindOrg, From: "olga@example.test", Secret: "orgsecretorgsecret", MessageID: "<o1@example.test>",
		Text: "NEW toy id=g1\nPLAYER ann@example.test Ann\nPLAYER bob@example.test Bob"})
	invitations := outbox(db, clock.Now())
	for i, m := range invitations {
		if m.Tag.Kind != mailmsg.TagSeat {
			continue // the organiser's answer, tagged with the organiser's secret
		}
		process(referee.Request{Kind: referee.KindSeat, From: m.To, Game: m.Tag.Game, Seat: m.Tag.Seat, Secret: m.Tag.Secret,
			Token: -1, Text: "JOIN", MessageID: fmt.Sprintf("<j%d@example.test>", i)})
		outbox(db, clock.Now())
	}
	// Output:
	// olga@example.test: applied (game "", state token 0, started false, 3 mails)
	//   mail to olga@example.test: Referee
	//   mail to ann@example.test: [Bid & Roll (contract test game) g1] News: You are invited by olga@example…
	//   mail to bob@example.test: [Bid & Roll (contract test game) g1] News: You are invited by olga@example…
	// ann@example.test: answered (game "g1", state token 0, started false, 1 mails)
	//   mail to ann@example.test: [Bid & Roll (contract test game) g1] Received
	// bob@example.test: answered (game "g1", state token 0, started true, 2 mails)
	//   mail to ann@example.test: [Bid & Roll (contract test game) g1] Your move (due Wed 25 Nov 09:00)
	//   mail to bob@example.test: [Bid & Roll (contract test game) g1] Your move (due Wed 25 Nov 09:00)
}
