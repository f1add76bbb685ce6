package referee

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/pbem-referee/referee/referee/tell"
	"github.com/pbem-referee/referee/templates"
)

// heldWords are how each language names who held a seat (the common
// template seat.holders), written out here on their own so that a broken
// template fails: the joiner, the substitute's mark, and the moves.
var heldWords = map[string]struct{ then, sub, from, one, many string }{
	"en": {", then ", "substitute, ", "from move %d", "move %d", "moves %d–%d"},
	"it": {", poi ", "in sostituzione, ", "dalla mossa %d", "mossa %d", "mosse %d–%d"},
	"fr": {", puis ", "en remplacement, ", "à partir du coup %d", "coup %d", "coups %d–%d"},
	"nl": {", daarna ", "invaller, ", "vanaf zet %d", "zet %d", "zetten %d–%d"},
}

// heldLine is what a reader of lang must read for a seat held by names
// (first to last) handed over after the moves through (one fewer).
func heldLine(lang string, names []string, through []int) string {
	w := heldWords[lang]
	var b strings.Builder
	from := 1
	for i, n := range names {
		if i > 0 {
			b.WriteString(w.then)
		}
		b.WriteString(n + " (")
		if i > 0 {
			b.WriteString(w.sub)
		}
		switch {
		case i == len(names)-1:
			fmt.Fprintf(&b, w.from, from)
		case through[i] == from:
			fmt.Fprintf(&b, w.one, from)
		default:
			fmt.Fprintf(&b, w.many, from, through[i])
		}
		b.WriteString(")")
		if i < len(through) {
			from = through[i] + 1
		}
	}
	return b.String()
}

// flat is s with every run of white space one space (a mail folds long
// lines).
func flat(s string) string { return strings.Join(strings.Fields(s), " ") }

// TestEveryMailAndPageNamesWhoHeldTheSeat_Issue24 (issue 24: after a
// REPLACE, every page and mail names who played which game, substitutes
// marked): with seats in the four languages and newcomers in generated
// ones, a generated seat is replaced at a stage of a game: before it
// starts, once it started but before any move, at a generated move, twice
// at two generated moves, and twice at the same move (the one in between
// played nothing); the toy game at every stage (four draws each, one
// under -race), each real game at one of the stages with a move (in the
// Makefile's content pass: not under -race nor -short). The bots play it
// to the end.
// Then: the seat keeps each holder who played, with the move they
// handed over after (and no one who played nothing); every mail of the
// game to a seat from the first hand-over after a move on names, in its
// reader's language, every holder and their moves, the substitutes
// marked, the end-of-game mail's result too; the game's page names them
// in the players' line and the result, in every language; and a game
// whose seat never changed hands (or only before a move) names no one
// so. Every mail fits 80 columns.
func TestEveryMailAndPageNamesWhoHeldTheSeat_Issue24(t *testing.T) {
	type stage struct {
		name string
		at   func(rng *rand.Rand, moves int) []int // the tokens of the hand-overs; -1: before the start
	}
	stages := []stage{
		{"forming", func(*rand.Rand, int) []int { return []int{-1} }},
		{"started", func(*rand.Rand, int) []int { return []int{0} }},
		{"mid", func(rng *rand.Rand, moves int) []int { return []int{1 + rng.IntN(moves)} }},
		{"twice", func(rng *rand.Rand, moves int) []int {
			a := 1 + rng.IntN(moves)
			return []int{a, a + 1 + rng.IntN(moves)}
		}},
		{"same-move", func(rng *rand.Rand, moves int) []int { a := 1 + rng.IntN(moves); return []int{a, a} }},
	}
	games := []struct {
		game    string
		players int
		moves   int // a move a replacement may come at, at most
		opts    string
	}{
		{"toy", 3, 6, "rounds=2"},
		{"dicebrewing", 2, 40, ""},
		{"fromage", 3, 40, ""},
		{"heavenale", 4, 40, ""},
		{"brewcrafters", 3, 40, ""},
	}
	newcomers := []string{"Zoe", "Yves"}
	for gi, gc := range games {
		for si, st := range stages {
			// The toy game at every stage, four draws each; a real game
			// (a whole game of bots: seconds) at one stage each, in
			// turn, and none under the race detector (ten times slower,
			// nothing to detect): the content pass runs them.
			draws := 4
			if raceEnabled {
				draws = 1
			}
			if gc.game != "toy" {
				if si != 2+(gi%3) {
					continue
				}
				draws = 1
			}
			for draw := 0; draw < draws; draw++ {
				t.Run(fmt.Sprintf("%s/%s/%d", gc.game, st.name, draw), func(t *testing.T) {
					if gc.game != "toy" && (raceEnabled || testing.Short()) {
						t.Skip("a real game's whole play: in the content pass")
					}
					rng := rand.New(rand.NewPCG(uint64(gi), uint64(si*10+draw)))
					at := st.at(rng, gc.moves)
					h := newHarness(t)
					text := fmt.Sprintf("NEW %s id=g1 deadline=none %s\n", gc.game, gc.opts)
					var addrs []string
					for i := 0; i < gc.players; i++ {
						addr := fmt.Sprintf("p%d@p.test", i)
						addrs = append(addrs, addr)
						text += fmt.Sprintf("PLAYER %s P%d %s\n", addr, i, templates.Languages[(i+gi+si)%len(templates.Languages)])
					}
					h.org(text + "PUBLISH g1")
					seat := rng.IntN(gc.players) // in invitation order until the start
					holder := addrs[seat]
					names := []string{fmt.Sprintf("P%d", seat)}
					var through []int
					named := false // a hand-over after a move happened
					mailsChecked, endChecked := 0, 0
					check := func(ms []*Outgoing) {
						want := map[string]string{}
						for _, lang := range templates.Languages {
							want[lang] = flat(heldLine(lang, names, through))
						}
						checkMailWidth(t, ms)
						for _, m := range ms {
							if m.Game != "g1" || m.Seat < 0 {
								continue
							}
							body := flat(m.Body)
							if !named {
								for _, lang := range templates.Languages {
									if w := heldWords[lang]; strings.Contains(body, "("+w.sub) {
										t.Fatalf("a mail names a substitute before anyone played for the seat:\n%s", m.Body)
									}
								}
								continue
							}
							if !strings.Contains(body, want[m.Lang]) {
								t.Fatalf("the %s mail to %s (%s) does not name %q:\n%s", m.Kind, m.To, m.Lang, want[m.Lang], m.Body)
							}
							mailsChecked++
							if m.Kind == "end" {
								endChecked++
							}
						}
					}
					replace := func(k int) {
						lang := templates.Languages[rng.IntN(len(templates.Languages))]
						name := newcomers[k]
						addr := strings.ToLower(name) + "@p.test"
						h.org(fmt.Sprintf("REPLACE g1 %s %s %s %s", holder, addr, name, lang))
						token := 0
						if h.game("g1").Table != nil {
							token = h.table("g1").Token()
						}
						if token > 0 && (len(through) == 0 || token > through[len(through)-1]) {
							through = append(through, token)
						} else {
							names = names[:len(names)-1]
						}
						names = append(names, name)
						for i, a := range addrs {
							if a == holder {
								addrs[i] = addr
							}
						}
						holder = addr
						named = len(through) > 0
						check(h.mails())
					}
					next := 0
					if at[0] == -1 {
						replace(0)
						next++
					}
					for _, a := range addrs {
						h.send("g1", a, "JOIN", -1)
					}
					bg := h.newBotGame("g1", 1, 0, 0)
					bg.rng = rng // the replacements draw from it too
					bg.Limit = 20000
					bg.Mails = func(ms []*Outgoing) {
						check(ms)
						if h.game("g1").Status != StatusRunning {
							return
						}
						for next < len(at) && at[next] <= h.table("g1").Token() {
							replace(next)
							next++
						}
						check(h.mails())
					}
					bg.play()
					g := h.game("g1")
					if g.Status != StatusOver {
						t.Fatalf("status %s", g.Status)
					}
					if next < len(at) {
						t.Skipf("the game ended at move %d, before the hand-over at %v", h.table("g1").Token(), at)
					}
					s := g.Seats[g.SeatOfAddress(holder)]
					var kept []string
					for _, b := range s.Before {
						kept = append(kept, fmt.Sprintf("%s %d", b.Name, b.Through))
					}
					wantKept := []string{}
					for i, th := range through {
						wantKept = append(wantKept, fmt.Sprintf("%s %d", names[i], th))
					}
					if strings.Join(kept, ",") != strings.Join(wantKept, ",") {
						t.Fatalf("the seat keeps %v as its earlier holders, want %v", kept, wantKept)
					}
					if named && (mailsChecked == 0 || endChecked != gc.players) {
						t.Fatalf("%d mails after the hand-over, %d end mails of %d seats named the holders", mailsChecked, endChecked, gc.players)
					}
					for _, lang := range templates.Languages {
						p, err := h.r.GamePage("g1-"+g.PageKey, lang)
						if err != nil {
							t.Fatal(err)
						}
						want := heldLine(lang, names, through)
						inPlayers, inResult := false, false
						for _, n := range p.Named() {
							inPlayers = inPlayers || n == want
						}
						for _, r := range p.Result {
							inResult = inResult || r.Holders == want
						}
						if named != inPlayers || named != inResult {
							t.Errorf("%s page: the players %q and the result %+v name %q: %v, %v; want %v", lang, p.Named(), p.Result, want, inPlayers, inResult, named)
						}
					}
				})
			}
		}
	}
}

// TestStints: the holders of a seat, first to last, with their moves.
func TestStints(t *testing.T) {
	if st := tell.Stints(nil, "Ann"); st != nil {
		t.Fatalf("a seat that never changed hands: %+v", st)
	}
	got := tell.Stints([]tell.Holder{{Name: "Ann", Through: 4}, {Name: "Bob", Through: 5}}, "Cat")
	want := []tell.Stint{{Name: "Ann", From: 1, Through: 4}, {Name: "Bob", From: 5, Through: 5, Sub: true}, {Name: "Cat", From: 6, Sub: true}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("%+v, want %+v", got, want)
	}
}
