package tell

import (
	"reflect"
	"strings"
	"testing"

	"github.com/pbem-referee/referee/templates"
)

// ownField is, by game, a number of a seat's own data in its view, which
// its summary shows in the seat's own part only ("[seat]" indexes a list
// by the seat).
var ownField = map[string][]string{
	"dicebrewing":  {"Me", "Coins"},
	"fromage":      {"You", "Cheese"},
	"heavenale":    {"Players", "[seat]", "Ducats"},
	"brewcrafters": {"Players", "[seat]", "Money"},
}

// plusOne is view with the number at path, of seat, one more: a copy of
// every struct, pointer and list on the way, the view given unchanged.
func plusOne(tb testing.TB, view any, path []string, seat int) any {
	tb.Helper()
	var walk func(v reflect.Value, path []string) reflect.Value
	walk = func(v reflect.Value, path []string) reflect.Value {
		switch {
		case v.Kind() == reflect.Pointer:
			if v.IsNil() {
				tb.Fatalf("nil on the way to %v", path)
			}
			p := reflect.New(v.Elem().Type())
			p.Elem().Set(walk(v.Elem(), path))
			return p
		case len(path) == 0:
			if v.Kind() != reflect.Int {
				tb.Fatalf("%v is not a number", v.Type())
			}
			n := reflect.New(v.Type()).Elem()
			n.SetInt(v.Int() + 1)
			return n
		case v.Kind() == reflect.Slice:
			if path[0] != "[seat]" || seat >= v.Len() {
				tb.Fatalf("%v: no %s %d", v.Type(), path[0], seat)
			}
			c := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
			reflect.Copy(c, v)
			c.Index(seat).Set(walk(v.Index(seat), path[1:]))
			return c
		case v.Kind() == reflect.Struct:
			c := reflect.New(v.Type()).Elem()
			c.Set(v)
			f := c.FieldByName(path[0])
			if !f.IsValid() {
				tb.Fatalf("%v has no %s", v.Type(), path[0])
			}
			f.Set(walk(f, path[1:]))
			return c
		}
		tb.Fatalf("%v: cannot follow %v", v.Type(), path)
		return v
	}
	return walk(reflect.ValueOf(view), path).Interface()
}

// TestKeptSectionsFollowOneSeatsData_Issue25: the parts of a summary kept
// from one seat and one move to the next (templates' kept.go: Fromage's
// fr.you, fr.player and fr.public, Dice Brewing's db.board, Heaven &
// Ale's ha.board, Brew Crafters' bc.score...) are keyed by all they
// read. Random games of the four games, every seat's summary after every
// third move in the four languages, full and compact, by one Set that
// keeps (warmed by every seat's summary first); then one seat's own data
// is changed (a number of its own part: its coins, cheese tokens, ducats,
// money): that seat's summary changes, in the lines of its own part only
// (at most three lines differ), and is the summary of a Set that keeps
// nothing; every other seat's summary is what it was.
func TestKeptSectionsFollowOneSeatsData_Issue25(t *testing.T) {
	kept, err := templates.LoadFS(templates.Files())
	if err != nil {
		t.Fatal(err)
	}
	unkept, err := templates.LoadUnkept()
	if err != nil {
		t.Fatal(err)
	}
	rk, ru := &Renderer{T: kept}, &Renderer{T: unkept}
	every, steps := 3, 45
	if testing.Short() || raceEnabled {
		every, steps = 9, 27
	}
	changed := 0
	for _, game := range allGames {
		for _, seats := range []int{2, 3} {
			names, views := seatViews(t, game, seats, 7, steps)
			n := len(names)
			for at := 0; at+n <= len(views); at += n * every {
				state := views[at : at+n]
				for _, lang := range kept.Languages() {
					for _, compact := range []bool{true, false} {
						summary := func(r *Renderer, seat int, view any) string {
							s, err := r.Summary(Reader{Game: game, Lang: lang, Seat: seat, Seats: names, Compact: compact}, view)
							if err != nil {
								t.Fatal(err)
							}
							return s
						}
						before := make([]string, n)
						for _, sv := range state {
							before[sv.seat] = summary(rk, sv.seat, sv.view)
						}
						for _, sv := range state {
							mine := plusOne(t, sv.view, ownField[game], sv.seat)
							got, want := summary(rk, sv.seat, mine), summary(ru, sv.seat, mine)
							if got != want {
								t.Fatalf("%s %s seat %d: a kept part was not rendered again for the seat's data:\n%s\n--- afresh:\n%s", game, lang, sv.seat, got, want)
							}
							if d := linesApart(before[sv.seat], got); d == 0 || d > 3 {
								t.Fatalf("%s %s seat %d: %d lines differ with one number of the seat changed:\n%s\n--- was:\n%s", game, lang, sv.seat, d, got, before[sv.seat])
							}
							changed++
							for _, o := range state {
								if o.seat != sv.seat {
									if s := summary(rk, o.seat, o.view); s != before[o.seat] {
										t.Fatalf("%s %s: seat %d's summary changed with seat %d's data", game, lang, o.seat, sv.seat)
									}
								}
							}
						}
					}
				}
			}
		}
	}
	if changed < 100 {
		t.Fatalf("%d summaries changed: the test compares nothing", changed)
	}
	t.Logf("%d summaries with one seat's data changed", changed)
}

// linesApart is how many lines of a and b differ, line by line (and the
// lines one has more).
func linesApart(a, b string) int {
	la, lb := strings.Split(a, "\n"), strings.Split(b, "\n")
	d := max(len(la), len(lb)) - min(len(la), len(lb))
	for i := range min(len(la), len(lb)) {
		if la[i] != lb[i] {
			d++
		}
	}
	return d
}
