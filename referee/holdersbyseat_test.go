package referee

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/referee/tell"
	"github.com/pbem-referee/referee/templates"
)

// sameNames are the names the engine knows in the game whose lines are
// compared (an engine refuses two equal ones): one a prefix of another,
// one differing by case, one holding a comma (issue 24: a name matched
// back to its seat finds the first, or splits).
var sameNames = []string{"ann", "ann b", "Ann", "b, ann"}

// plainNames are the same seats' names in the reference game: unique,
// none inside another. Not one plain word, so that a command naming a
// player reads "P<n>" in both games.
var plainNames = []string{"Ulla Q", "Vera Q", "Wim Q", "Xena Q"}

// TestEveryLineNamesTheSeatsHolder_Issue24 (the rule in
// referee/tell/doc.go and templates/doc.go): every game (but the toy, whose summary is its view's
// JSON, and the test games) is played twice with the same seed and the same moves, once with
// the seats named sameNames by the engine, once plainNames; at generated
// moves generated seats are handed on to newcomers. Every summary (each
// seat and an observer), every prompt, the board's description and every
// event line, in the four languages (a language a move, all four for the
// event lines), rendered with the holders now (and before, for event
// lines) are the same text in both games: no line takes a name from the
// engine, so none can name a seat's first holder, nor the first of two
// seats of the same name. And in the reference game no summary, prompt
// or board after a hand-over, nor an event line of a later move, names
// the seat's departed holder. Player counts and variants generated (the
// solo Fromage with its Corporation, the advanced draft's "Still picking").
func TestEveryLineNamesTheSeatsHolder_Issue24(t *testing.T) {
	if raceEnabled {
		t.Skip("whole games in one goroutine: make check runs it without -race (make content)")
	}
	r, err := tell.NewRenderer()
	if err != nil {
		t.Fatal(err)
	}
	for gi, name := range []string{"dicebrewing", "fromage", "heavenale", "brewcrafters"} {
		eg, err := engine.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		info := eg.Info()
		bm := eg.(engine.BotMaker)
		for draw := 0; draw < 2; draw++ {
			rng := rand.New(rand.NewPCG(uint64(gi+24), uint64(draw)))
			variant := info.Variants[rng.IntN(len(info.Variants))].Name
			lo, hi := info.MinPlayers, min(info.MaxPlayers, len(sameNames))
			n := lo + rng.IntN(hi-lo+1)
			if !info.Allows(variant, n) {
				variant = ""
			}
			t.Run(fmt.Sprintf("%s/%s/%dp/%d", info.Name, variant, n, draw), func(t *testing.T) {
				seed := fmt.Sprintf("held-%d", draw)
				tbE, _, setupE, err := engine.NewTable(eg, engine.Config{Variant: variant, Seats: slices.Clone(sameNames[:n]), Seed: seed})
				if err != nil {
					t.Fatal(err)
				}
				tbR, _, setupR, err := engine.NewTable(eg, engine.Config{Variant: variant, Seats: slices.Clone(plainNames[:n]), Seed: seed})
				if err != nil {
					t.Fatal(err)
				}
				bot, err := bm.NewBot(info.Bots[0])
				if err != nil {
					t.Fatal(err)
				}
				// The hand-overs: seat -> after which move, to whom.
				moves := 40 + rng.IntN(40)
				at := map[int]int{}
				for k := 0; k < 1+rng.IntN(2); k++ {
					at[rng.IntN(n)] = 1 + rng.IntN(25)
				}
				// Newcomers named as other seats are (their holders now, the
				// engine's names of the other game).
				newcomers := []string{"Ann", "ann", "ann", "ann b"}
				holders := func(token int) ([]string, [][]tell.Holder, []string) {
					now := slices.Clone(plainNames[:n])
					before := make([][]tell.Holder, n)
					var departed []string
					for s, k := range at {
						if k < token {
							now[s] = newcomers[s]
							before[s] = []tell.Holder{{Name: plainNames[s], Through: k}}
							departed = append(departed, plainNames[s])
						}
					}
					return now, before, departed
				}
				// lines renders what a reader of the game reads at token:
				// the summary, the prompt asked of the seat, the board.
				lines := func(tb *engine.Table, names []string, token, reader int, lang string) map[string]string {
					now, _, _ := holders(token)
					rd := tell.Reader{Game: info.Name, Lang: lang, Seat: reader, Seats: now, Names: names}
					view := tb.State.View(reader)
					out := map[string]string{}
					s, err := r.Summary(rd, view)
					if err != nil {
						t.Fatal(err)
					}
					out["summary"] = s
					if reader >= 0 && tb.Prompts[reader] != nil {
						if out["prompt"], err = r.Prompt(rd, tb.Prompts[reader], view); err != nil {
							t.Fatal(err)
						}
					}
					if s, ok, err := r.Lookup(rd, "board.desc", view); ok {
						if err != nil {
							t.Fatal(err)
						}
						out["board"] = s
					}
					return out
				}
				events := func(steps []engine.Step, setup []engine.Event, token int, lang string, reader int) []string {
					now, before, _ := holders(token)
					rd := tell.Reader{Game: info.Name, Lang: lang, Seat: reader, Seats: now, Before: before}
					var out []string
					for _, ev := range setup {
						if line, ok, err := r.Event(tell.Reader{Game: info.Name, Lang: lang, Seat: reader, Seats: plainNames[:n]}, ev); err != nil {
							t.Fatal(err)
						} else if ok {
							out = append(out, line)
						}
					}
					for _, st := range steps {
						ls, err := tell.EntryLines(r, rd, tell.Entry{Kind: tell.EntryStep, Step: &st})
						if err != nil {
							t.Fatal(err)
						}
						for _, l := range ls {
							out = append(out, fmt.Sprintf("%d\t%s", st.Token, l))
						}
					}
					return out
				}
				checked, handed := 0, 0
				compare := func(token int) {
					lang := templates.Languages[token%len(templates.Languages)]
					_, _, departed := holders(token)
					for reader := -1; reader < n; reader++ {
						if token%3 != 0 && reader != token%(n+1)-1 {
							continue // every reader every third move, one each move
						}
						e, ref := lines(tbE, sameNames[:n], token, reader, lang), lines(tbR, plainNames[:n], token, reader, lang)
						for what, want := range ref {
							got := e[what]
							if got != want {
								t.Fatalf("move %d, reader %d (%s): the %s of the game whose seats are named %q is not the %s of the game named %q (holders now the same):\n%s\nwant\n%s",
									token, reader, lang, what, sameNames[:n], what, plainNames[:n], got, want)
							}
							for _, d := range departed {
								if strings.Contains(want, d) {
									t.Fatalf("move %d, reader %d (%s): the %s names %s, who left the seat:\n%s", token, reader, lang, what, d, want)
								}
							}
							checked++
						}
						handed += len(departed)
					}
				}
				// The event lines of the whole game, once at its end, for
				// every reader: a line names who held the seat at its move.
				eventsCompare := func(stepsE, stepsR []engine.Step, token int) {
					for _, lang := range templates.Languages {
						for reader := -1; reader < n; reader++ {
							e, ref := events(stepsE, setupE, token, lang, reader), events(stepsR, setupR, token, lang, reader)
							if fmt.Sprint(e) != fmt.Sprint(ref) {
								for i := range min(len(e), len(ref)) {
									if e[i] != ref[i] {
										t.Fatalf("reader %d (%s): an event line of the game named %q is not the line of the game named %q:\n%s\nwant\n%s", reader, lang, sameNames[:n], plainNames[:n], e[i], ref[i])
									}
								}
								t.Fatalf("(%s): %d event lines, want %d", lang, len(e), len(ref))
							}
							for s, k := range at {
								for _, l := range ref {
									var tok int
									fmt.Sscanf(l, "%d", &tok)
									if tok > k && strings.Contains(l, plainNames[s]) {
										t.Fatalf("(%s) the event line of move %d, after %s left the seat at move %d, names them: %s", lang, tok, plainNames[s], k, l)
									}
								}
							}
							checked += len(ref)
						}
					}
				}
				var stepsE, stepsR []engine.Step
				for move := 0; move < moves && tbR.State.Result() == nil; move++ {
					w := tbR.Waiting()
					if len(w) == 0 {
						t.Fatalf("nobody waited at token %d", tbR.Token())
					}
					opts := tbR.State.Legal(w[0])
					cmd := opts[bot.Choose(tbR.State, w[0], opts, rng)].Cmd
					order := []engine.Order{{Line: 1, Text: cmd, Alts: [][]string{{cmd}}}}
					repR, err := tbR.Submit(w[0].Seat, order, tbR.Token())
					if err != nil {
						t.Fatalf("%q: %v", cmd, err)
					}
					repE, err := tbE.Submit(w[0].Seat, order, tbE.Token())
					if err != nil {
						t.Fatalf("%q in the game named %q: %v", cmd, sameNames[:n], err)
					}
					stepsR, stepsE = append(stepsR, repR.Steps...), append(stepsE, repE.Steps...)
					if tbE.Token() != tbR.Token() {
						t.Fatalf("%q: the games went apart (tokens %d and %d)", cmd, tbE.Token(), tbR.Token())
					}
					compare(tbR.Token())
				}
				eventsCompare(stepsE, stepsR, tbR.Token()+1)
				if handed == 0 {
					t.Fatalf("no seat was handed on before the game's end (hand-overs %v)", at)
				}
				t.Logf("%d texts compared, %d after a hand-over", checked, handed)
			})
		}
	}
}
