package demo

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/mailfmt/mailmsg"
	"github.com/pbem-referee/referee/referee/lifecycle"
	"github.com/pbem-referee/referee/referee/records"
)

// planOf plans game g with n players and seed, bots named by the game's
// best bot and keyed as the bench keys them.
func planOf(t *testing.T, g engine.Game, n int, seed string, opts map[string]string) *Plan {
	t.Helper()
	var ds []*PeekDecider
	var names []string
	for k := 0; k < n; k++ {
		d, err := NewBotDecider(g.(engine.BotMaker), g.Info().BestBot(), fmt.Sprintf("%s/%d", seed, k), nil)
		if err != nil {
			t.Fatal(err)
		}
		ds, names = append(ds, d), append(names, fmt.Sprintf("P%d", k+1))
	}
	p, err := PlanGame("t1", g, engine.Config{Seats: names, Seed: seed, Options: opts}, ds)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestPlanGameIsTheBotsGame: for every game, player count and a few seeds,
// a plan is the same when made twice (its bots' random sources are their
// keys'), its moves replay through engine.Replay to its final state, its
// check passes on that log and fails on a log with one move changed or
// one dropped, and every planned answer is an answer of a seat asked.
func TestPlanGameIsTheBotsGame(t *testing.T) {
	for _, g := range engine.Games() {
		info := g.Info()
		opts := map[string]string(nil)
		if info.Name == "dicebrewing" {
			opts = map[string]string{"round_limit": "3"}
		}
		top, seeds := min(info.MaxPlayers, 4), 2
		if raceEnabled {
			// Pure engine play: nothing for the detector, minutes under it.
			top, seeds = max(2, info.MinPlayers), 1
		}
		for n := max(2, info.MinPlayers); n <= top; n++ {
			for s := 0; s < seeds; s++ {
				seed := fmt.Sprintf("plan/%s/%d/%d", info.Name, n, s)
				p := planOf(t, g, n, seed, opts)
				if q := planOf(t, g, n, seed, opts); !reflect.DeepEqual(p, q) {
					t.Fatalf("%s: two plans of one seed differ", seed)
				}
				if p.Answers == 0 || len(p.answers) != p.Answers || p.Final == 0 {
					t.Fatalf("%s: %d answers (%d keys), final token %d", seed, p.Answers, len(p.answers), p.Final)
				}
				// The log the referee would export: the plan's moves
				// from the seats drawn.
				lg := engine.Log{Game: info.Name, Config: engine.Config{Seed: seed, Options: opts}}
				for k := 0; k < n; k++ {
					lg.Config.Seats = append(lg.Config.Seats, fmt.Sprintf("P%d", k+1))
				}
				lg.Config.Seats = planSeats(lg.Config.Seats, seed)
				for _, m := range p.Moves {
					lg.Steps = append(lg.Steps, engine.Step{Seat: m.Seat, Cmd: m.Cmd, Token: m.Token})
				}
				st, err := engine.Replay(g, lg)
				if err != nil {
					t.Fatalf("%s: replay: %v", seed, err)
				}
				if err := p.Check(&lg, st); err != nil {
					t.Fatalf("%s: %v", seed, err)
				}
				last := len(lg.Steps) - 1
				changed := lg
				changed.Steps = append([]engine.Step(nil), lg.Steps...)
				changed.Steps[last].Cmd += " X"
				if p.Check(&changed, nil) == nil {
					t.Errorf("%s: a changed move passes", seed)
				}
				changed.Steps = changed.Steps[:last]
				if p.Check(&changed, nil) == nil {
					t.Errorf("%s: a dropped move passes", seed)
				}
				other := planOf(t, g, n, seed+"/other", opts)
				if other.Check(&lg, st) == nil {
					t.Errorf("%s: another seed's plan passes", seed)
				}
			}
		}
	}
}

// planSeats orders seat names as the referee draws them at the start.
func planSeats(names []string, seed string) []string {
	out := make([]string, len(names))
	perm := lifecycle.DrawSeatOrder(&records.Game{Seed: seed, Seats: make([]records.Seat, len(names))})
	for s, k := range perm {
		out[s] = names[k]
	}
	return out
}

// TestScriptBrainAnswersItsTokensOnce: a ScriptBrain joins on its
// invitation as a GameBrain does, answers the plan's text for the seat and
// token of a mail's Message-ID once (a second mail of that token, a mail
// of another game or a token it is not asked at get nothing), and is done
// on the final mail with the game's log, not on another mail of that token.
func TestScriptBrainAnswersItsTokensOnce(t *testing.T) {
	p := &Plan{Game: "t1", Final: 9, answers: map[[2]int]string{{1, 3}: "M FUND", {1, 5}: "A\nB"}}
	b := &ScriptBrain{Plan: p}
	mail := func(id, replyTo, body string) *Incoming {
		raw := "Message-ID: <" + id + ">\r\nReply-To: <" + replyTo + ">\r\nFrom: referee@example.test\r\nSubject: x\r\n\r\n" + body + "\r\n"
		m, err := mailmsg.Parse([]byte(raw), mailmsg.Options{})
		if err != nil {
			t.Fatal(err)
		}
		return &Incoming{Raw: []byte(raw), Msg: m}
	}
	step := func(in *Incoming, want string, wantDone bool) {
		t.Helper()
		got, done, err := b.Answer(t.Context(), in)
		if err != nil || got != want || done != wantDone {
			t.Fatalf("%s: %q %v %v, want %q %v", in.Msg.MessageID, got, done, err, want, wantDone)
		}
	}
	step(mail("rf.t1.1.3.1@example.test", "referee@example.test", "hello"), "", false) // no seat tag: not the invitation
	step(mail("rf.t1.1.0.2@example.test", "referee+t1.1.abcdefghijkl@example.test", "join?"), "FORMAT json\nJOIN", false)
	step(mail("rf.t1.1.3.3@example.test", "referee+t1.1.abcdefghijkl@example.test", "news, nothing asked"), "", false)
	step(mail("rf.t1.1.3.3@example.test", "referee+t1.1.abcdefghijkl@example.test", "WHAT YOU NEED TO DO NOW\r\nM FUND"), "M FUND", false)
	step(mail("rf.t1.1.3.4@example.test", "referee+t1.1.abcdefghijkl@example.test", "again: WHAT YOU NEED TO DO NOW"), "", false)
	step(mail("rf.t2.1.5.5@example.test", "referee+t2.1.abcdefghijkl@example.test", "other game: WHAT YOU NEED TO DO NOW"), "", false)
	step(mail("rf.t1.1.4.6@example.test", "referee+t1.1.abcdefghijkl@example.test", "not asked: WHAT YOU NEED TO DO NOW"), "", false)
	step(mail("rf.t1.1.5.7@example.test", "referee+t1.1.abcdefghijkl@example.test", "WHAT YOU NEED TO DO NOW\r\nM FUND"), "A\nB", false)
	step(mail("rf.t1.1.9.8@example.test", "referee+t1.1.abcdefghijkl@example.test", "over, no log"), "", false)
	if b.Over() {
		t.Fatal("over without the log")
	}
	step(mail("rf.t1.1.9.9@example.test", "referee+t1.1.abcdefghijkl@example.test", `Content-Disposition: attachment; filename="t1-log.json"`), "", true)
	if !b.Over() || b.Orders() != 2 || !b.WithoutJSON() {
		t.Fatalf("over %v, orders %d", b.Over(), b.Orders())
	}
}
