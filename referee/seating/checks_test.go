package seating

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/pbem-referee/referee/engine"
)

// countingGame is a real game under another name that counts its
// throw-away set-ups (the check's seed).
type countingGame struct {
	engine.Game
	name   string
	checks *atomic.Int64
}

func (g countingGame) Info() engine.Info {
	info := g.Game.Info()
	info.Name = g.name
	return info
}

func (g countingGame) NewState(cfg engine.Config) (engine.State, []engine.Event, error) {
	if cfg.Seed == "check" {
		g.checks.Add(1)
	}
	return g.Game.NewState(cfg)
}

var (
	countingOnce  sync.Once
	countingGames []countingGame
)

// counted registers, once, a counting twin ("count<name>") of every game
// the referee runs.
func counted(t *testing.T) []countingGame {
	t.Helper()
	countingOnce.Do(func() {
		for _, eg := range engine.Games() {
			cg := countingGame{Game: eg, name: "count" + eg.Info().Name, checks: &atomic.Int64{}}
			if _, isTwin := eg.(countingGame); isTwin {
				continue
			}
			engine.Register(cg)
			countingGames = append(countingGames, cg)
		}
	})
	if len(countingGames) < 4 {
		t.Fatalf("%d games: the check reads nothing", len(countingGames))
	}
	return countingGames
}

// kindOf is a generated request of game g: a seat count in and out of
// its range, a variant of its own or none or an unknown one, options of
// its own (a valid or an unknown value) or an unknown option, a ruleset
// or none; the same draw gives the same kind.
func kindOf(g countingGame, r *rand.Rand, seated bool) NewGame {
	info := g.Info()
	ng := NewGame{Game: g.name, Players: info.MinPlayers + r.IntN(info.MaxPlayers-info.MinPlayers+2), Organiser: "org@example.org", Seated: seated}
	switch v := r.IntN(len(info.Variants) + 2); {
	case v < len(info.Variants):
		ng.Variant = info.Variants[v].Name
	case v == len(info.Variants):
		ng.Variant = "nosuchvariant"
	}
	if len(info.Options) > 0 && r.IntN(2) == 0 {
		o := info.Options[r.IntN(len(info.Options))]
		ng.Options = map[string]string{o.Name: o.Values[r.IntN(len(o.Values))]}
		if r.IntN(4) == 0 {
			ng.Options[o.Name] = "nosuchvalue"
		}
	}
	if r.IntN(6) == 0 {
		ng.Options = map[string]string{"nosuchoption": "1"}
	}
	if r.IntN(8) == 0 {
		ng.Ruleset = []byte("{not a ruleset")
	}
	for i := range ng.Players {
		ng.Invite = append(ng.Invite, Invitee{Address: fmt.Sprintf("p%d@example.org", i), Name: fmt.Sprint("P", i), Lang: "en"})
	}
	return ng
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// TestChecksSharedByKind_Issue24: in a unit of work that keeps its
// checks (Host.Checks), games of one kind (game, variant, options,
// ruleset, seat count) share one throw-away set-up; every game is
// refused or created exactly as when each checks its own, a refused one
// leaves nothing (no game, token, player or random byte), and a kind
// that failed is refused again without a second set-up. Generated: every
// game of the referee, 40 draws of 60 requests each, seated (a
// tournament's) or invited, over kinds drawn again and again.
func TestChecksSharedByKind_Issue24(t *testing.T) {
	games := counted(t)
	count := func() (n int64) {
		for _, g := range games {
			n += g.checks.Load()
		}
		return n
	}
	refused, shared := 0, 0
	for draw := range 40 {
		r := rand.New(rand.NewPCG(24, uint64(draw)))
		kept, each := newHost(), newHost()
		kept.checks = &Checks{}
		kinds := map[string]bool{}
		for i := range 60 {
			// A few kinds, drawn again and again: the seed of the kind's
			// draw repeats.
			g := games[r.IntN(len(games))]
			kr := rand.New(rand.NewPCG(uint64(r.IntN(5)), uint64(slices.Index(games, g))))
			ng := kindOf(g, kr, r.IntN(2) == 0)
			ng.ID = fmt.Sprintf("g%d", i)
			key := checkKey(g.name, ng, Seats(ng.Players, len(ng.Invite), g.Info().MinPlayers))

			before := count()
			_, errEach := Create(each, ng)
			if count()-before != 1 {
				t.Fatalf("draw %d request %d: %d set-ups without kept checks, want 1", draw, i, count()-before)
			}
			games0, tokens0, players0, randoms0 := len(kept.games), len(kept.tokens), len(kept.players), kept.randoms
			before = count()
			_, errKept := Create(kept, ng)
			checked := count() - before
			if errText(errKept) != errText(errEach) {
				t.Fatalf("draw %d request %d %+v: %q with kept checks, %q each", draw, i, ng, errText(errKept), errText(errEach))
			}
			if want := int64(1); kinds[key] {
				if checked != 0 {
					t.Fatalf("draw %d request %d: kind %q checked again", draw, i, key)
				}
				shared++
			} else if checked != want {
				t.Fatalf("draw %d request %d: %d set-ups for a new kind", draw, i, checked)
			}
			kinds[key] = true
			if errKept != nil && (len(kept.games) != games0 || len(kept.tokens) != tokens0 || len(kept.players) != players0 || kept.randoms != randoms0) {
				t.Fatalf("draw %d request %d: refused (%v) but left a trace", draw, i, errKept)
			}
			if errKept != nil {
				refused++
			}
		}
		if int64(len(kept.checks.done)) != int64(len(kinds)) {
			t.Fatalf("draw %d: %d checks kept for %d kinds", draw, len(kept.checks.done), len(kinds))
		}
	}
	if refused < 100 || shared < 1000 {
		t.Fatalf("%d refused, %d shared: the draws do not exercise the rule", refused, shared)
	}
}

// TestCheckKeyNamesEveryPart_Issue24: two requests share a key exactly
// when their game, variant, seat count, ruleset and options are the
// same, whatever the characters in them (a part that could run into the
// next, "a" "b:c" against "a:b" "c"). Generated: 20,000 pairs over a
// small alphabet, so that equal and near-equal parts are frequent.
func TestCheckKeyNamesEveryPart_Issue24(t *testing.T) {
	r := rand.New(rand.NewPCG(24, 2))
	word := func() string {
		const abc = "a1:;"
		b := make([]byte, r.IntN(3))
		for i := range b {
			b[i] = abc[r.IntN(len(abc))]
		}
		return string(b)
	}
	type kind struct {
		game string
		ng   NewGame
		n    int
	}
	gen := func() kind {
		k := kind{game: word(), n: r.IntN(3), ng: NewGame{Variant: word()}}
		if r.IntN(2) == 0 {
			k.ng.Ruleset = []byte(word())
		}
		if r.IntN(3) > 0 {
			k.ng.Options = map[string]string{}
			for range r.IntN(3) {
				k.ng.Options[word()] = word()
			}
		}
		return k
	}
	same := func(a, b kind) bool {
		return a.game == b.game && a.n == b.n && a.ng.Variant == b.ng.Variant &&
			(a.ng.Ruleset == nil) == (b.ng.Ruleset == nil) && string(a.ng.Ruleset) == string(b.ng.Ruleset) &&
			maps.Equal(a.ng.Options, b.ng.Options)
	}
	equal := 0
	for range 20000 {
		a, b := gen(), gen()
		if r.IntN(3) == 0 {
			b = a // the same kind, another map
			b.ng.Options = maps.Clone(a.ng.Options)
		}
		ka, kb := checkKey(a.game, a.ng, a.n), checkKey(b.game, b.ng, b.n)
		if (ka == kb) != same(a, b) {
			t.Fatalf("%+v and %+v: keys %q and %q", a, b, ka, kb)
		}
		if ka == kb {
			equal++
		}
	}
	if equal < 5000 {
		t.Fatalf("%d equal pairs: too few", equal)
	}
}

// BenchmarkCheckKey: the key of a tournament game's check (a few options).
func BenchmarkCheckKey(b *testing.B) {
	ng := NewGame{Variant: "standard", Options: map[string]string{"start_player": "random", "setup_pick_direction": "clockwise"}}
	b.ReportAllocs()
	for b.Loop() {
		_ = checkKey("heavenale", ng, 2)
	}
}
