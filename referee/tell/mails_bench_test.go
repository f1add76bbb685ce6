package tell

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/templates"
)

// playedMails plays random games of the four games by the tell stage as
// the core does: after each move the mover gets the echo of their
// message, every seat the mail its NOTIFY asks for, seats in generated
// languages and formats (text and JSON), the seats as told carried to the
// next move. tell is called with each move's Input; it returns the mails
// in the order told. games and steps bound the work; seed varies it.
func playedMails(tb testing.TB, games, langs []string, seed uint64, steps int, tell func(in *Input) (*Told, error)) int {
	return playedMailsAs(tb, games, langs, nil, nil, []int{2, 3}, seed, steps, tell)
}

// playedMailsAs is playedMails with the NOTIFY modes, formats and seat
// counts given (nil: generated).
func playedMailsAs(tb testing.TB, games, langs, notifies, formats []string, counts []int, seed uint64, steps int, tell func(in *Input) (*Told, error)) int {
	tb.Helper()
	mails := 0
	for gi, name := range games {
		eg, err := engine.Lookup(name)
		if err != nil {
			tb.Fatal(err)
		}
		for _, seats := range counts {
			n := eg.Info().NearestPlayers(seats)
			names := []string{"Ann", "Bob", "Cat", "Dan", "Eve"}[:n]
			table, _, _, err := engine.NewTable(eg, engine.Config{Seats: names, Seed: fmt.Sprintf("tell/%d/%d", seed, seats)})
			if err != nil {
				tb.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(seed, uint64(gi*10+seats)))
			g := &Game{ID: fmt.Sprintf("g%d%d", gi, seats), Game: name, Status: StatusRunning}
			notify := []string{"every", "turn", "every", "digest"}
			if notifies != nil {
				notify = notifies
			}
			format := []string{"text", "json"}
			if formats != nil {
				format = formats
			}
			for s := range n {
				g.Seats = append(g.Seats, Seat{Name: names[s], Address: names[s] + "@example.test",
					Lang: langs[(int(seed)+gi+s)%len(langs)], Secret: fmt.Sprintf("sec%d", s), State: SeatPlaying,
					Notify: notify[(int(seed)+s)%len(notify)], Format: format[(int(seed)+gi+s)%len(format)]})
			}
			var log []Entry
			now := time.Date(2026, 12, 6, 9, 0, 0, 0, time.UTC)
			for step := 0; step < steps && table.State.Result() == nil; step++ {
				d, cmd, ok := randomMove(table, rng)
				if !ok {
					break
				}
				rep, err := table.Submit(d.Seat, engine.ParseScript(cmd), table.Token())
				if err != nil {
					tb.Fatalf("%s: %v", name, err)
				}
				reply := &Reply{}
				for _, res := range rep.Results {
					reply.Lines = append(reply.Lines, ReplyLine{Status: LineStatus(res.Status), Text: res.Order.Text})
				}
				first := uint64(len(log) + 1)
				log = append(log, Entry{Seq: first, Kind: EntryInput, Seat: d.Seat, Vis: engine.Public, Text: cmd})
				for i := range rep.Steps {
					log = append(log, Entry{Seq: uint64(len(log) + 1), Kind: EntryStep, Seat: rep.Steps[i].Seat,
						Vis: engine.Public, Step: &rep.Steps[i]})
				}
				changes := make([]SeatChange, n)
				changes[d.Seat] = SeatChange{Reply: reply, Answering: fmt.Sprintf("<m%d.%d@players.test>", step, d.Seat)}
				for _, w := range table.Waiting() {
					changes[w.Seat].Asked = true
				}
				oldest := log[len(log)-1].Seq
				for _, s := range g.Seats {
					oldest = min(oldest, s.Seen+1)
				}
				in := &Input{Game: g, Table: table, Engine: eg, Log: log[oldest-1:], Changes: changes,
					Ended: table.State.Result() != nil, FinalLog: []byte("[]"), Now: now}
				told, err := tell(in)
				if err != nil {
					tb.Fatalf("%s step %d: %v", name, step, err)
				}
				mails += len(told.Mails)
				g.Seats, g.Nonce = told.Seats, told.Nonce
				now = now.Add(7 * time.Minute)
			}
		}
	}
	return mails
}

// randomMove is a random legal command of a random seat the table waits
// for; ok is false when it waits for none or the seat has no option.
func randomMove(table *engine.Table, rng *rand.Rand) (d engine.Decision, cmd string, ok bool) {
	waiting := table.Waiting()
	if len(waiting) == 0 {
		return d, "", false
	}
	d = waiting[rng.IntN(len(waiting))]
	opts := table.State.Legal(d)
	if len(opts) == 0 {
		return d, "", false
	}
	return d, opts[rng.IntN(len(opts))].Cmd, true
}

// BenchmarkTellMails is the tell stage alone (Teller.Mails) over random
// games of the four games: the engine's moves are outside the timing.
func BenchmarkTellMails(b *testing.B) {
	set, err := templates.Load()
	if err != nil {
		b.Fatal(err)
	}
	langs := set.Languages()
	// "bench" is the mix of referee bench's mail run: two players,
	// English, FORMAT json, NOTIFY every.
	for _, games := range [][]string{nil, allGames, {"dicebrewing"}, {"fromage"}, {"heavenale"}, {"brewcrafters"}} {
		name, langs, notifies, formats, counts := "all", langs, []string(nil), []string(nil), []int{2, 3}
		switch {
		case games == nil:
			name, games, langs, notifies, formats, counts = "bench", allGames, []string{"en"}, []string{"every"}, []string{"json"}, []int{2}
		case len(games) == 1:
			name = games[0]
		}
		b.Run(name, func(b *testing.B) {
			t := &Teller{Render: &Renderer{T: set}, Domain: "example.test", ReceiptWindow: time.Minute}
			b.ReportAllocs()
			b.ResetTimer()
			mails := 0
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				mails += playedMailsAs(b, games, langs, notifies, formats, counts, uint64(i%4), 40, func(in *Input) (*Told, error) {
					b.StartTimer()
					defer b.StopTimer()
					return t.Mails(in)
				})
				b.StartTimer()
			}
			b.ReportMetric(float64(mails)/float64(b.N), "mails/op")
		})
	}
}

var allGames = []string{"dicebrewing", "fromage", "heavenale", "brewcrafters"}

// TestMailsAsRenderedAfresh_Issue25: what the renderers keep from one mail
// to the next (menu lines and headings, menuLines; tmpl's texts,
// templates' kept.go) never changes a mail: random games of the four
// games played move by move, seats in every language, NOTIFY every, turn
// and digest, text and JSON, four seeds; each move's mails by a Renderer
// shared by every game and language (as in the daemon) are the mails of
// a Renderer that keeps nothing, byte for byte (subject, body, JSON,
// attachments, headers), and the seats as told are the same.
func TestMailsAsRenderedAfresh_Issue25(t *testing.T) {
	set, err := templates.Load()
	if err != nil {
		t.Fatal(err)
	}
	unkept, err := templates.LoadUnkept()
	if err != nil {
		t.Fatal(err)
	}
	shared := &Teller{Render: &Renderer{T: set}, Domain: "example.test", ReceiptWindow: time.Minute}
	afresh := &Teller{Render: &Renderer{T: unkept, everyGroup: true}, Domain: "example.test", ReceiptWindow: time.Minute}
	mails, prompts := 0, 0
	steps, seeds := 40, 3
	if testing.Short() || raceEnabled {
		steps, seeds = 12, 1
	}
	for seed := range seeds {
		mails += playedMails(t, allGames, set.Languages(), uint64(seed), steps, func(in *Input) (*Told, error) {
			got, err := shared.Mails(in)
			if err != nil {
				return nil, err
			}
			want, err := afresh.Mails(in)
			if err != nil {
				return nil, err
			}
			if !reflect.DeepEqual(got, want) {
				for i := range min(len(got.Mails), len(want.Mails)) {
					if !reflect.DeepEqual(got.Mails[i], want.Mails[i]) {
						t.Fatalf("%s seed %d: mail %d differs:\n%s\n--- afresh:\n%s", in.Game.Game, seed, i, got.Mails[i].Body, want.Mails[i].Body)
					}
				}
				t.Fatalf("%s seed %d: the mails or seats told differ", in.Game.Game, seed)
			}
			for _, m := range got.Mails {
				if strings.Contains(m.Body, " 1) ") {
					prompts++
				}
			}
			return got, nil
		})
	}
	if n := steps * seeds; mails < 10*n || prompts < 5*n || shared.Render.lines.hits < 10*n {
		t.Fatalf("%d mails, %d with a menu, %d menu lines kept: the test compares nothing", mails, prompts, shared.Render.lines.hits)
	}
	t.Logf("%d mails compared, %d with a menu", mails, prompts)
}
