package referee

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/referee/pages/boards"
	"github.com/pbem-referee/referee/referee/records"
	"github.com/pbem-referee/referee/referee/tell"
	"github.com/pbem-referee/referee/store"
	"github.com/pbem-referee/referee/templates"
)

// waitWords open the mail's line of who the game waits for (the frame's
// "Nothing is needed from you now" paragraph, templates/referee/<lang>/
// mail.tmpl), written out here so that a broken template fails.
var waitWords = map[string]string{
	"en": "Nothing is needed from you now. Waiting for: ",
	"it": "Per ora non devi fare nulla. In attesa di: ",
	"fr": "Vous n'avez rien à faire pour l'instant. En attente de : ",
	"nl": "Er is nu niets van je nodig. We wachten op: ",
}

// TestWhoMustActIsWhoHoldsTheSeat_Issue24 (issue 24, names after a
// REPLACE; the rule in referee/tell/doc.go): with seats in generated
// languages, a generated seat of each game is handed to a newcomer once
// the game started (before any move, at a generated move, twice), and
// the bots play on. At every step, wherever the game names who must act
// now, it names who holds the seat now, never the seat's first holder:
// the mails' "Waiting for" line (every language), the rule error
// not_your_turn of an order sent out of turn (its waiting_for, in the
// sender's language), the webhook payload's players and waiting, the
// game page's waiting line and its board's "to play" (Dice Brewing,
// Heaven & Ale, Brew Crafters: the page's board legend). The newcomer is
// seen waited for in a mail, a payload and the page at least once. And no
// mail of a seat nor the page's summary and board (the four games) names
// a departed holder anywhere else than in an event line of a move (as
// they may have played it), a list of who held the seat with the end's
// result line it is under, and the notes of the hand-over: not in a
// summary's rows, a prompt, a standing or a board. The "mid" stage plays
// on to the game's end (final scores, result; not under -race: the
// race run is long enough).
func TestWhoMustActIsWhoHoldsTheSeat_Issue24(t *testing.T) {
	if raceEnabled {
		t.Skip("whole games by mail in one goroutine: make check runs it without -race (make content)")
	}
	stages := []struct {
		name string
		at   func(rng *rand.Rand, moves int) []int
	}{
		{"started", func(*rand.Rand, int) []int { return []int{0} }},
		{"mid", func(rng *rand.Rand, moves int) []int { return []int{1 + rng.IntN(moves)} }},
		{"twice", func(rng *rand.Rand, moves int) []int {
			a := 1 + rng.IntN(moves)
			return []int{a, a + 1 + rng.IntN(moves)}
		}},
	}
	games := []struct {
		game    string
		players int
		opts    string
	}{
		{"toy", 3, "rounds=3"},
		{"dicebrewing", 2, ""},
		{"fromage", 3, ""},
		{"heavenale", 4, ""},
		{"brewcrafters", 3, ""},
	}
	newcomers := []string{"Zoe", "Yves"}
	for gi, gc := range games {
		for si, st := range stages {
			draws := 3
			if gc.game != "toy" {
				draws = 1
			}
			for draw := 0; draw < draws; draw++ {
				t.Run(fmt.Sprintf("%s/%s/%d", gc.game, st.name, draw), func(t *testing.T) {
					rng := rand.New(rand.NewPCG(uint64(gi+100), uint64(si*10+draw)))
					at := st.at(rng, 6)
					h := newHarness(t)
					text := fmt.Sprintf("NEW %s id=g1 deadline=none %s\n", gc.game, gc.opts)
					var addrs []string
					for i := 0; i < gc.players; i++ {
						addr := fmt.Sprintf("p%d@p.test", i)
						addrs = append(addrs, addr)
						text += fmt.Sprintf("PLAYER %s P%d %s\n", addr, i, templates.Languages[rng.IntN(len(templates.Languages))])
					}
					h.org(text + "PUBLISH g1\nHOOK g1 https://hooks.example.test/x generic moves,turn,end,org,chat")
					for _, a := range addrs {
						h.send("g1", a, "JOIN", -1)
					}
					h.mails()
					seat := rng.IntN(gc.players)
					holder := h.game("g1").Seats[seat].Address
					var lastHook uint64
					seen := map[string]int{}
					var departed []string // who held the seat before its holder now
					logs := map[string]*renderedLog{}
					check := func(ms []*Outgoing) {
						t.Helper()
						g := h.game("g1")
						tb := h.table("g1")
						cur := g.HoldingNames()
						want := []string{}
						if g.Status == StatusRunning {
							want = tell.WaitingNames(cur, tb)
						}
						if want == nil {
							want = []string{}
						}
						newcomerWaited := g.Seats[seat].Player != "" && slices.Contains(want, g.Seats[seat].Player)
						// The mails' line of who the game waits for.
						for _, m := range ms {
							if m.Game != "g1" || m.Seat < 0 {
								continue
							}
							body := flat(m.Body)
							i := strings.Index(body, waitWords[m.Lang])
							if i < 0 {
								continue
							}
							got, _, _ := strings.Cut(body[i+len(waitWords[m.Lang]):], ".")
							if got != strings.Join(want, ", ") {
								t.Fatalf("the %s mail to %s (%s) waits for %q, want %q (seats now held by %v):\n%s", m.Kind, m.To, m.Lang, got, want, cur, m.Body)
							}
							if newcomerWaited {
								seen["mail"]++
							}
						}
						// No line of a mail names a departed holder where
						// the holder now is meant: only the event lines of
						// moves played before the hand-over and the lists
						// of who held the seat may.
						for _, m := range ms {
							if m.Game != "g1" || m.Seat < 0 || len(departed) == 0 || gc.game == "toy" {
								continue // the toy game's summary is its view's JSON
							}
							held, err := h.r.render.SeatsHeld(g.Reader(m.Seat), g.TellGame().Seats)
							if err != nil {
								t.Fatal(err)
							}
							body := flat(m.Body)
							for i, hl := range held {
								if hl != "" {
									// The end's result line of the seat (its
									// name in the game) heads its holders.
									re := regexp.MustCompile(`\d+\. ` + regexp.QuoteMeta(g.Seats[i].Name) + ` -?\d+(?: <- \S+)? ` + regexp.QuoteMeta(flat(hl)))
									body = strings.ReplaceAll(re.ReplaceAllString(body, ""), flat(hl), "")
								}
							}
							// The notes of the hand-over name who left (to
							// the others, and in the newcomer's welcome up to
							// the name).
							var notes []string
							for _, d := range departed {
								for _, nt := range []string{"note.replaced", "note.handover"} {
									rd := g.Reader(m.Seat)
									n, err := h.r.render.T.Render("referee", rd.Lang, nt, h.r.render.Ctx(rd, map[string]any{"name": d, "old": d, "player_token": ""}))
									if err != nil {
										t.Fatal(err)
									}
									n = flat(n)
									if i := strings.Index(n, d); i >= 0 {
										n = n[:i+len(d)]
									}
									notes = append(notes, n)
								}
							}
							notes = append(notes, eventLines(t, h, g, m.Seat, seat, departed, logs)...)
							if d := namesDeparted(body, departed, notes); d != "" {
								t.Fatalf("the %s mail to %s (%s) names %s, who left the seat to %s:\n%s", m.Kind, m.To, m.Lang, d, g.Seats[seat].Player, m.Body)
							}
							seen["departed"]++
						}
						// The webhook's payloads queued since the last look.
						var items []store.Item
						if err := h.db.View(func(tx *store.Tx) error {
							return tx.Items(HooksQueue, func(it store.Item) error {
								if it.ID > lastHook {
									items = append(items, it)
								}
								return nil
							})
						}); err != nil {
							t.Fatal(err)
						}
						for k, it := range items {
							lastHook = max(lastHook, it.ID)
							var p struct {
								Token   int      `json:"token"`
								Players []string `json:"players"`
								Waiting []string `json:"waiting"`
							}
							if err := json.Unmarshal(it.Payload, &p); err != nil {
								t.Fatalf("payload %s: %v", it.Payload, err)
							}
							if !slices.Equal(p.Players, cur) {
								t.Fatalf("the webhook names the players %q, want %q", p.Players, cur)
							}
							if k == len(items)-1 && p.Token == tb.Token() {
								if p.Waiting == nil {
									p.Waiting = []string{}
								}
								if !slices.Equal(p.Waiting, want) {
									t.Fatalf("the webhook waits for %q, want %q", p.Waiting, want)
								}
								if newcomerWaited {
									seen["hook"]++
								}
							}
						}
						// The page, in a generated language.
						lang := templates.Languages[rng.IntN(len(templates.Languages))]
						p, err := h.r.GamePage("g1-"+g.PageKey, lang)
						if err != nil {
							t.Fatal(err)
						}
						if pw := append([]string{}, p.Waiting...); g.Status == StatusRunning && !slices.Equal(pw, want) {
							t.Fatalf("the %s page waits for %q, want %q", lang, pw, want)
						}
						if newcomerWaited {
							seen["page"]++
						}
						// Nor the page's summary and board.
						if len(departed) > 0 && p.View != nil && gc.game != "toy" {
							svg, err := boards.Draw(p.Game, lang, p.Players, p.View)
							if err != nil {
								t.Fatal(err)
							}
							for what, text := range map[string]string{"summary": p.Summary, "board": string(svg)} {
								if d := namesDeparted(text, departed, nil); d != "" {
									t.Fatalf("the %s page's %s names %s, who left the seat to %s:\n%s", lang, what, d, g.Seats[seat].Player, text)
								}
							}
						}
					}
					// outOfTurn plays an order of the seat asked now for a
					// seat that is asked nothing, on a copy of the game, and
					// renders the engine's rule error as every error of a
					// seat's is (the game's Reader of the seat): it names who
					// holds the seat asked (one seat asked only).
					outOfTurn := func() {
						t.Helper()
						g, tb := h.game("g1"), h.table("g1")
						w := tb.Waiting()
						if g.Status != StatusRunning || len(w) != 1 || w[0].Seat != seat || g.Seats[seat].Player == "" {
							return
						}
						other := (seat + 1) % gc.players
						if tb.Prompts[other] != nil && !tb.Prompts[other].Complete {
							return
						}
						opts := tb.State.Legal(w[0])
						if len(opts) == 0 {
							return
						}
						mv, perr := tb.State.Parse(other, opts[0].Cmd)
						if perr != nil {
							return
						}
						_, perr = tb.State.Clone().Apply(other, mv)
						re, ok := perr.(*engine.RuleError)
						if !ok || re.Code != engine.CodeNotYourTurn {
							return
						}
						o := g.Seats[other]
						rd := g.Reader(other)
						now, err := h.r.render.Error(rd, re)
						if err != nil {
							t.Fatal(err)
						}
						rd.Seats = g.Names()
						old, err := h.r.render.Error(rd, re)
						if err != nil {
							t.Fatal(err)
						}
						if now == old {
							return // the game's error names nobody (Brew Crafters: the common words)
						}
						if !strings.Contains(now, g.Seats[seat].Player) || strings.Contains(now, g.Seats[seat].Name) {
							t.Fatalf("the error (%s) for an order out of turn does not name %q now holding the seat: %q", o.Lang, g.Seats[seat].Player, now)
						}
						seen["error"]++
					}
					replace := func(k int) {
						name := newcomers[k]
						addr := strings.ToLower(name) + "@p.test"
						departed = append(departed, h.game("g1").HoldingNames()[seat])
						h.org(fmt.Sprintf("REPLACE g1 %s %s %s %s", holder, addr, name, templates.Languages[rng.IntN(len(templates.Languages))]))
						holder = addr
						check(h.mails())
					}
					check(h.mails()) // the start, everybody's first holder
					eg, _ := engine.Lookup(gc.game)
					bot, err := eg.(engine.BotMaker).NewBot(eg.Info().Bots[1])
					if err != nil {
						t.Fatal(err)
					}
					next, after := 0, 0
					for n := 0; h.game("g1").Status == StatusRunning && (after < 40 || st.name == "mid"); n++ {
						tb := h.table("g1")
						for next < len(at) && at[next] <= tb.Token() {
							replace(next)
							next++
							tb = h.table("g1")
						}
						if next == len(at) {
							after++
							outOfTurn()
							tb = h.table("g1")
						}
						w := tb.Waiting()
						if len(w) == 0 {
							t.Fatalf("nobody waited at token %d", tb.Token())
						}
						d := tb.Prompts[w[0].Seat].Decision
						opts := tb.State.Legal(d)
						cmd := opts[bot.Choose(tb.State, d, opts, rng)].Cmd
						h.clock.Advance(2 * time.Minute)
						out := h.send("g1", h.game("g1").Seats[d.Seat].Address, cmd, tb.Token())
						if out.Status != "applied" && out.Status != "queued" {
							t.Fatalf("%q for %s: %+v", cmd, d.Kind, out)
						}
						check(h.mails())
					}
					if next < len(at) {
						t.Skipf("the game ended at move %d, before the hand-over at %v", h.table("g1").Token(), at)
					}
					t.Logf("checked with the newcomer waited for: %v", seen)
					if seen["mail"]+seen["hook"]+seen["page"] > 0 && (seen["hook"] == 0 || seen["page"] == 0) {
						t.Fatalf("the newcomer was waited for, but not seen so everywhere: %v", seen)
					}
				})
			}
		}
	}
}

// TestRollbackKeepsTheHandOverAndRedatesTheMoves_Issue24 (the rule in
// referee/organise/doc.go): a toy game's generated seat is handed on
// once or twice at generated moves, then the organiser rolls the game
// back to a generated earlier move (before, between or after the
// hand-overs). The seat stays with its last holder, who is asked to
// play; the earlier holders keep only the moves up to the one rolled
// back to (one left with none is no longer named); every mail of the
// rollback and the page, in every language, name the holders so, and
// the bots then play the game to its end with the same holders named.
func TestRollbackKeepsTheHandOverAndRedatesTheMoves_Issue24(t *testing.T) {
	for draw := 0; draw < 12; draw++ {
		t.Run(fmt.Sprint(draw), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(2424, uint64(draw)))
			h := newHarness(t)
			text := "NEW toy id=g1 deadline=none rounds=3\n"
			var addrs []string
			for i := 0; i < 3; i++ {
				addrs = append(addrs, fmt.Sprintf("p%d@p.test", i))
				text += fmt.Sprintf("PLAYER %s P%d %s\n", addrs[i], i, templates.Languages[rng.IntN(4)])
			}
			h.org(text + "PUBLISH g1")
			for _, a := range addrs {
				h.send("g1", a, "JOIN", -1)
			}
			eg, _ := engine.Lookup("toy")
			bot, _ := eg.(engine.BotMaker).NewBot(eg.Info().Bots[0])
			play := func(until func() bool) {
				for n := 0; h.game("g1").Status == StatusRunning && !until(); n++ {
					if n > 2000 {
						t.Fatal("no end")
					}
					tb := h.table("g1")
					d := tb.Waiting()[0]
					opts := tb.State.Legal(d)
					h.clock.Advance(time.Minute)
					h.send("g1", h.game("g1").Seats[d.Seat].Address, opts[bot.Choose(tb.State, d, opts, rng)].Cmd, tb.Token())
				}
			}
			seat := rng.IntN(3)
			holder := h.game("g1").Seats[seat].Address
			names := []string{h.game("g1").Seats[seat].Name}
			var through []int
			hand := []int{1 + rng.IntN(5)}
			if draw%2 == 1 {
				hand = append(hand, hand[0]+1+rng.IntN(4))
			}
			for k, at := range hand {
				play(func() bool { return h.table("g1").Token() >= at })
				name := []string{"Zoe", "Yves"}[k]
				addr := strings.ToLower(name) + "@p.test"
				h.org(fmt.Sprintf("REPLACE g1 %s %s %s %s", holder, addr, name, templates.Languages[rng.IntN(4)]))
				holder = addr
				through = append(through, h.table("g1").Token())
				names = append(names, name)
			}
			play(func() bool { return h.table("g1").Token() >= through[len(through)-1]+2 })
			if h.game("g1").Status != StatusRunning {
				t.Skip("the game ended before the rollback")
			}
			h.mails()
			to := rng.IntN(h.table("g1").Token())
			h.org(fmt.Sprintf("ROLLBACK g1 %d", to))
			// What the seat must now name: each earlier holder through
			// min(their last move, to), those left with none dropped.
			var wantNames []string
			var wantThrough []int
			last := 0
			for i, th := range through {
				if th = min(th, to); th > last {
					wantNames, wantThrough, last = append(wantNames, names[i]), append(wantThrough, th), th
				}
			}
			wantNames = append(wantNames, names[len(names)-1])
			g := h.game("g1")
			s := g.Seats[g.SeatOfAddress(holder)]
			var kept []string
			for _, b := range s.Before {
				kept = append(kept, fmt.Sprintf("%s %d", b.Name, b.Through))
			}
			var wantKept []string
			for i, th := range wantThrough {
				wantKept = append(wantKept, fmt.Sprintf("%s %d", wantNames[i], th))
			}
			if fmt.Sprint(kept) != fmt.Sprint(wantKept) || s.Player != names[len(names)-1] {
				t.Fatalf("after ROLLBACK %d (hand-overs after %v): the seat is %s's with %v before, want %s's with %v", to, through, s.Player, kept, names[len(names)-1], wantKept)
			}
			checkNamed := func(ms []*Outgoing, what string) {
				t.Helper()
				n := 0
				for _, m := range ms {
					if m.Game != "g1" || m.Seat < 0 {
						continue
					}
					body := flat(m.Body)
					if len(wantThrough) == 0 {
						if strings.Contains(body, "("+heldWords[m.Lang].sub) {
							t.Fatalf("%s: a mail names a substitute though every earlier move was undone:\n%s", what, m.Body)
						}
						continue
					}
					if want := flat(heldLine(m.Lang, wantNames, wantThrough)); !strings.Contains(body, want) {
						t.Fatalf("%s: the %s mail to %s (%s) does not name %q:\n%s", what, m.Kind, m.To, m.Lang, want, m.Body)
					}
					n++
				}
				if what == "rollback" && len(wantThrough) > 0 && n < 3 {
					t.Fatalf("%d mails of the rollback named the holders, want one a seat", n)
				}
			}
			checkNamed(h.mails(), "rollback")
			for _, lang := range templates.Languages {
				p, err := h.r.GamePage("g1-"+g.PageKey, lang)
				if err != nil {
					t.Fatal(err)
				}
				want := g.Seats[g.SeatOfAddress(holder)].Player
				if len(wantThrough) > 0 {
					want = heldLine(lang, wantNames, wantThrough)
				}
				if got := p.Named()[g.SeatOfAddress(holder)]; got != want {
					t.Errorf("%s page names the seat %q, want %q", lang, got, want)
				}
			}
			play(func() bool { checkNamed(h.mails(), "play"); return false })
			checkNamed(h.mails(), "end")
		})
	}
}

// namesDeparted returns the first of names that text names as a word
// (letters or digits on neither side), "" for none; a line of allowed (an
// event line, as it may name who played the move) is taken out first.
func namesDeparted(text string, names, allowed []string) string {
	for _, a := range allowed {
		text = strings.ReplaceAll(text, a, "")
	}
	for _, n := range names {
		re := regexp.MustCompile(`(^|[^\pL\pN])` + regexp.QuoteMeta(n) + `([^\pL\pN]|$)`)
		if re.MatchString(text) {
			return n
		}
	}
	return ""
}

// eventLines are the game's event lines as the reader of seat r reads
// them, with the seat handed on (seat) named by each of its holders in
// turn, departed then the holder now: the lines a mail may name a departed
// holder in, for the moves they played (flat). cache keeps what was
// rendered of the log already, by reader and names.
func eventLines(t *testing.T, h *harness, g *Game, r, seat int, departed []string, cache map[string]*renderedLog) []string {
	t.Helper()
	var out []string
	for k := 0; k <= len(departed); k++ {
		rd := g.Reader(r)
		rd.Before = nil
		rd.Seats = slices.Clone(rd.Seats)
		if k < len(departed) {
			rd.Seats[seat] = departed[k]
		}
		key := fmt.Sprint(r, rd.Lang, rd.Seats)
		c := cache[key]
		if c == nil {
			c = &renderedLog{next: 1}
			cache[key] = c
		}
		var entries []records.Entry
		if err := h.db.View(func(tx *store.Tx) error {
			var err error
			entries, err = records.EntriesBefore(tx, "g1", c.next, 0)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			c.next = e.Seq + 1
			evs := e.Setup
			if e.Step != nil {
				evs = e.Step.Events
			}
			for _, ev := range evs {
				line, ok, err := h.r.render.Event(rd, ev)
				if err != nil {
					t.Fatal(err)
				}
				if ok && line != "" {
					c.lines = append(c.lines, flat(line))
				}
			}
		}
		out = append(out, c.lines...)
	}
	// The longest first, so that none is cut by a shorter one inside it.
	slices.SortFunc(out, func(a, b string) int { return len(b) - len(a) })
	return out
}

// renderedLog is what eventLines rendered of a game's log for a reader:
// the lines, and the seq of the next entry to render.
type renderedLog struct {
	lines []string
	next  uint64
}
