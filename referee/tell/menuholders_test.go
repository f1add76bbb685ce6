package tell

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/templates"
)

// seatNamePool are the names the generated games draw from: plain words,
// the same word in another case, a name that reads as a seat number,
// stray quotes and spaces (issue 24: a menu line must name each seat so
// that a reader knows whose it is and the parser reads it back).
var seatNamePool = []string{"ann", "Ann", "bob", "Cy", "p2", "P1", `"dee"`, "ed ward", "o'neil", " fay", "gus ", "Hal", "ann,b"}

// TestMenuLinesNameTheSeatsHolder_Issue24 (the rule Reader.Command in
// referee/tell/doc.go): every game (Dice Brewing is the one whose
// commands name seats, "PLAY SHIELD ann:G6@S") is played by its bot with
// seats named from seatNamePool, seats handed on at generated moves to
// newcomers named from the same pool (so like other seats, their holders
// or their game names). At every move every numbered prompt of every
// seat is rendered in a language in turn, and for every option: the menu
// shows the option's command as the reader copies it (Reader.Command);
// that text, copied back, is read by the game as the same move (the same
// seat targeted); every seat it names is written by the name of the
// seat's holder now only when that holder is the one the game knows by
// that name and no other seat's holder or game name is the same in any
// case, else as the seat's number; and before any hand-over the line is
// the game's own command, byte for byte.
func TestMenuLinesNameTheSeatsHolder_Issue24(t *testing.T) {
	if raceEnabled {
		t.Skip("whole games in one goroutine: make check runs it without -race (make content)")
	}
	r, err := NewRenderer()
	if err != nil {
		t.Fatal(err)
	}
	named, numbered, kept, departed := 0, 0, 0, 0
	for gi, game := range []string{"dicebrewing", "fromage", "heavenale", "brewcrafters"} {
		eg, err := engine.Lookup(game)
		if err != nil {
			t.Fatal(err)
		}
		info := eg.Info()
		bm := eg.(engine.BotMaker)
		draws := 2
		if game == "dicebrewing" {
			draws = 16
		}
		for draw := range draws {
			rng := rand.New(rand.NewPCG(uint64(gi+2400), uint64(draw)))
			n := info.MinPlayers + rng.IntN(min(info.MaxPlayers, 4)-info.MinPlayers+1)
			if draw == 0 {
				n = max(n, min(info.MaxPlayers, 3))
			}
			names := make([]string, 0, n)
			for _, k := range rng.Perm(len(seatNamePool)) {
				if len(names) < n {
					names = append(names, seatNamePool[k])
				}
			}
			if draw == 0 && n >= 3 {
				names[0], names[1], names[2] = "Hal", "ann", "Ann" // the same but for case
			}
			t.Run(fmt.Sprintf("%s/%q", game, names), func(t *testing.T) {
				tb, _, _, err := engine.NewTable(eg, engine.Config{Seats: slices.Clone(names), Seed: fmt.Sprintf("menuholders-%d", draw)})
				if err != nil {
					t.Fatal(err)
				}
				bot, err := bm.NewBot(info.Bots[0])
				if err != nil {
					t.Fatal(err)
				}
				moves := 30 + rng.IntN(30)
				if game == "dicebrewing" {
					moves = 100 + rng.IntN(100)
				}
				// The hand-overs: seat -> the move after which, and to whom
				// (a newcomer named like a seat, a holder, or anew).
				at, to := map[int]int{}, map[int]string{}
				for range 1 + rng.IntN(2) {
					s := rng.IntN(n)
					at[s] = 1 + rng.IntN(moves/2)
					to[s] = seatNamePool[rng.IntN(len(seatNamePool))]
				}
				for move := 1; move <= moves && tb.State.Result() == nil; move++ {
					now := slices.Clone(names)
					handed := false
					for s, k := range at {
						if k < move {
							now[s], handed = to[s], true
						}
					}
					lang := templates.Languages[move%len(templates.Languages)]
					for seat, p := range tb.Prompts {
						if p == nil || !p.Numbered || len(p.Options) == 0 {
							continue
						}
						rd := Reader{Game: game, Lang: lang, Seat: seat, Seats: now, Names: names}
						menu, err := r.Prompt(rd, p, tb.State.View(seat))
						if err != nil {
							t.Fatal(err)
						}
						kc := r.Ctx(rd, nil)
						flat := strings.Join(strings.Fields(menu), " ")
						for i, o := range p.Options {
							said := rd.Command(o.Cmd)
							shown := strconv.Itoa(i+1) + ") " + kc.KwLine(said)
							if !strings.Contains(flat, strings.Join(strings.Fields(shown), " ")) {
								t.Fatalf("move %d, seat %d (%s), holders %q: option %d %q is not shown as %q:\n%s", move, seat, lang, now, i+1, o.Cmd, shown, menu)
							}
							if !handed && said != o.Cmd {
								t.Fatalf("move %d, before any hand-over: option %q shown as %q", move, o.Cmd, said)
							}
							if said == o.Cmd {
								kept++
							}
							// The move meant: the option's command with the
							// seat it targets (its "seat" param) by number.
							meant := o.Cmd
							if ts, ok := o.Params["seat"].(int); ok {
								meant = withTarget(o.Cmd, ts)
							}
							want, err1 := tb.State.Parse(seat, meant)
							got, err2 := tb.State.Parse(seat, said)
							if err1 != nil || err2 != nil || want.String() != got.String() {
								t.Fatalf("move %d, seat %d, holders %q: the menu line %q copied back is %v (%v), the option %q (%v) is %v (%v)", move, seat, now, said, got, err2, o.Cmd, o.Params, want, err1)
							}
							for _, w := range strings.Fields(said)[1:] {
								who, _, ok := strings.Cut(w, ":")
								if !ok {
									continue
								}
								target := slices.Index(names, who)
								if k, err := strconv.Atoi(strings.TrimPrefix(who, "P")); err == nil && strings.HasPrefix(who, "P") {
									numbered++
									if now[k-1] != names[k-1] {
										departed++ // the seat's game name is a departed holder's
									}
									if !sameTarget(tb, seat, o.Cmd, k-1) {
										t.Fatalf("move %d: %q names P%d, not the seat the option %q targets", move, said, k, o.Cmd)
									}
									continue
								}
								named++
								if target < 0 || now[target] != who || !sameTarget(tb, seat, o.Cmd, target) {
									t.Fatalf("move %d, holders %q (game names %q): %q names %q, not the holder now of the seat the option %q targets", move, now, names, said, who, o.Cmd)
								}
								for s := range names {
									if s != target && (strings.EqualFold(now[s], who) || strings.EqualFold(names[s], who)) {
										t.Fatalf("move %d, holders %q (game names %q): %q names %q, which seat %d's holder or name is too", move, now, names, said, who, s+1)
									}
								}
							}
						}
					}
					w := tb.Waiting()
					if len(w) == 0 {
						break
					}
					opts := tb.State.Legal(w[0])
					cmd := opts[bot.Choose(tb.State, w[0], opts, rng)].Cmd
					if _, err := tb.Submit(w[0].Seat, []engine.Order{{Line: 1, Text: cmd, Alts: [][]string{{cmd}}}}, tb.Token()); err != nil {
						t.Fatalf("%q: %v", cmd, err)
					}
				}
			})
		}
	}
	if numbered == 0 || named == 0 || kept == 0 || departed == 0 {
		t.Fatalf("targets by number %d (%d of a seat handed on), by name %d, lines as the game's %d: the draws do not reach each form", numbered, departed, named, kept)
	}
	t.Logf("targets by number %d (%d of a seat handed on), by name %d; lines as the game writes them %d", numbered, departed, named, kept)
}

// sameTarget reports whether cmd, parsed for seat, names seat target
// (the command written with that seat's number reads as the same move).
func sameTarget(tb *engine.Table, seat int, cmd string, target int) bool {
	a, err1 := tb.State.Parse(seat, cmd)
	b, err2 := tb.State.Parse(seat, withTarget(cmd, target))
	return err1 == nil && err2 == nil && a.String() == b.String()
}

// withTarget is cmd with the seat of its "<seat>:" word written P<target+1>
// (the number form, which Dice Brewing reads as that seat whatever the names).
func withTarget(cmd string, target int) string {
	words := strings.Fields(cmd)
	for i, w := range words[1:] {
		if _, rest, ok := strings.Cut(w, ":"); ok {
			words[i+1] = "P" + strconv.Itoa(target+1) + ":" + rest
		}
	}
	return strings.Join(words, " ")
}

// TestEchoedCommandsNameTheSeatsHolder_Issue24 (the rule Reader.Command):
// the command an echo says it read ("=> PLAY SHIELD ann:G6@S") names a
// seat handed on by its number, not by the departed holder's name, in
// every language; a seat not handed on keeps its name.
func TestEchoedCommandsNameTheSeatsHolder_Issue24(t *testing.T) {
	eg, err := engine.Lookup("dicebrewing")
	if err != nil {
		t.Fatal(err)
	}
	tb, _, _, err := engine.NewTable(eg, engine.Config{Seats: []string{"ann", "bob", "cy"}, Seed: "echo"})
	if err != nil {
		t.Fatal(err)
	}
	r, err := NewRenderer()
	if err != nil {
		t.Fatal(err)
	}
	for _, lang := range templates.Languages {
		seat := func(name string) Seat {
			return Seat{Name: name, Address: name + "@x.test", Lang: lang, Secret: "s" + name, State: SeatPlaying, Notify: "every", Format: "text"}
		}
		g := &Game{ID: "t1", Game: "dicebrewing", Status: StatusRunning, Seats: []Seat{seat("ann"), seat("bob"), seat("cy")}}
		g.Seats[0].Player, g.Seats[0].Before = "Zed", []Holder{{Name: "ann", Through: 1}}
		read := "PLAY SHIELD ann:G6@S; PLAY BLOCKB cy:MH"
		changes := []SeatChange{{}, {Reply: &Reply{Lines: []ReplyLine{{Status: "applied", Text: "PLAY SHIELD P1:G6", Cmds: strings.Split(read, "; ")}}}, Answering: "<m@x>"}, {}}
		told, err := (&Teller{Render: r, Domain: "x.test"}).Mails(&Input{Game: g, Table: tb, Engine: eg, Changes: changes,
			Now: time.Date(2026, 12, 6, 9, 0, 0, 0, time.UTC)})
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, m := range told.Mails {
			if m.To != "bob@x.test" {
				continue
			}
			found = true
			if !strings.Contains(m.Body, "PLAY SHIELD P1:G6@S; PLAY BLOCKB cy:MH") || strings.Contains(m.Body, "ann:") {
				t.Errorf("%s: the echo names the seat handed on by the departed holder, or not as read:\n%s", lang, m.Body)
			}
		}
		if !found {
			t.Fatalf("%s: no mail to bob", lang)
		}
	}
}
