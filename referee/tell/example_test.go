package tell_test

import (
	"fmt"
	"time"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/enginetest"
	"github.com/pbem-referee/referee/referee/tell"
)

// Teller.Mails is the tell stage: one game after the apply stage in plain
// values in, the mails and the seats as told out, with no store and no
// clock. Here the first round of bids of a toy game: each player's
// bid is echoed to them, with the bids revealed and the next question.
func ExampleTeller_Mails() {
	eg := enginetest.Toy
	tb, _, _, err := engine.NewTable(eg, engine.Config{Seats: []string{"Ann", "Bob"}, Seed: "example"})
	if err != nil {
		fmt.Println(err)
		return
	}
	r, err := tell.NewRenderer()
	if err != nil {
		fmt.Println(err)
		return
	}
	seat := func(name, lang string) tell.Seat {
		return tell.Seat{Name: name, Address: name + "@example.test", Lang: lang, Secret: "secret" + name,
			State: tell.SeatPlaying, Notify: "every", Format: "text"}
	}
	g := &tell.Game{ID: "t1", Game: eg.Info().Name, Status: tell.StatusRunning, Seats: []tell.Seat{seat("Ann", "en"), seat("Bob", "fr")}}
	// The apply stage: both seats bid (a sealed, simultaneous decision,
	// revealed when the last bid is in); each gets its echo.
	changes := make([]tell.SeatChange, 2)
	var log []tell.Entry
	for _, d := range tb.Waiting() {
		cmd := tb.State.Legal(tb.Prompts[d.Seat].Decision)[0].Cmd
		rep, err := tb.Submit(d.Seat, engine.ParseScript(cmd), tb.Token())
		if err != nil {
			fmt.Println(err)
			return
		}
		reply := &tell.Reply{}
		for _, res := range rep.Results {
			reply.Lines = append(reply.Lines, tell.ReplyLine{Status: tell.LineStatus(res.Status), Text: res.Order.Text})
		}
		for i := range rep.Steps {
			log = append(log, tell.Entry{Seq: uint64(len(log) + 1), Kind: tell.EntryStep, Seat: rep.Steps[i].Seat,
				Vis: engine.Public, Step: &rep.Steps[i]})
		}
		changes[d.Seat] = tell.SeatChange{Reply: reply, Answering: fmt.Sprintf("<m%d@players.test>", d.Seat)}
	}
	t := &tell.Teller{Render: r, Domain: "example.test"}
	told, err := t.Mails(&tell.Input{Game: g, Table: tb, Engine: eg, Log: log, Changes: changes,
		Now: time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, m := range told.Mails {
		fmt.Printf("%s %s %s %s, answering %q\n  %s\n", m.MessageID, m.Kind, m.Lang, m.To, m.InReplyTo, m.Subject)
	}
	for _, s := range told.Seats {
		fmt.Printf("%s has seen entry %d, thread %s\n", s.Name, s.Seen, s.Thread)
	}
	fmt.Println("the game's record still says", g.Nonce, "mails; told:", told.Nonce)
	// Output:
	// <rf.t1.0.2.1@example.test> reply en Ann@example.test, answering "<m0@players.test>"
	//   [Bid & Roll (contract test game) t1] Your move
	// <rf.t1.1.2.2@example.test> reply fr Bob@example.test, answering "<m1@players.test>"
	//   [Bid & Roll (contract test game) t1] Reçu ; en attente d'Ann
	// Ann has seen entry 2, thread <rf.t1.0.2.1@example.test>
	// Bob has seen entry 2, thread <rf.t1.1.2.2@example.test>
	// the game's record still says 0 mails; told: 2
}
