package tell

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/templates"
)

// TestParamsReadByNameAreAllTheLineReads_Issue25: a menu line or heading
// whose template reads its option's params by name
// (templates.Reads.ParamKeys) reads the same whatever the option's other
// params are: random games of the four games, every prompt of every
// seat in every language, each option rendered with its params and
// again with every other param taken away, or given another value, and a
// param added. So a key holding those params only (appendLineKey) and a
// heading shared by them (groupHeads) give the line rendered afresh
// (issue 25: Heaven & Ale's purchase headings read a tile's prices, not
// the spot's, and were rendered once a spot). The templates never mix
// named and whole reads of the params, so the check is first run on
// fixtures that do (mixedParamReadsReported).
func TestParamsReadByNameAreAllTheLineReads_Issue25(t *testing.T) {
	set, err := templates.Load()
	if err != nil {
		t.Fatal(err)
	}
	mixedParamReadsReported(t)
	r := &Renderer{T: set}
	steps, seeds := 60, 3
	if testing.Short() || raceEnabled {
		steps, seeds = 25, 1
	}
	compared := map[string]int{}
	for seed := range seeds {
		playedMailsAs(t, allGames, set.Languages(), nil, nil, []int{2, 3}, uint64(seed), steps, func(in *Input) (*Told, error) {
			views := engine.Views(in.Table.State)
			for seat, p := range in.Table.Prompts {
				if p == nil || !p.Numbered {
					continue
				}
				view := views(seat)
				for _, lang := range set.Languages() {
					rd := Reader{Game: in.Game.Game, Lang: lang, Seat: seat, Seats: []string{"Ann", "Bob", "Cat", "Dan", "Eve"}}
					kc := r.Ctx(rd, nil)
					for _, tm := range []*templates.Tmpl{r.find(rd, "option."+p.Decision.Kind), r.groupTemplate(rd, p.Decision.Kind)} {
						reads, keyed := tm.Keyed()
						if !keyed || reads.ParamKeys == nil {
							continue
						}
						for _, o := range p.Options {
							od := templates.OptionData{N: 1, Option: o, Decision: p.Decision, View: view}
							n, err := sameWithOtherParams(tm, kc, od, reads.ParamKeys)
							if err != nil {
								t.Fatalf("%s/%s: %v", in.Game.Game, lang, err)
							}
							compared[in.Game.Game+" "+tm.Name()] += n
						}
					}
				}
			}
			return &Told{Seats: in.Game.Seats, Nonce: in.Game.Nonce}, nil
		})
	}
	for _, name := range []string{"heavenale option.buy", "heavenale option.group", "dicebrewing option.place", "dicebrewing option.buy"} {
		if compared[name] < 100 {
			t.Errorf("%s: %d lines compared, the test compares next to nothing", name, compared[name])
		}
	}
	t.Logf("lines compared: %v", compared)
}

// sameWithOtherParams renders tm for od, and again with od's option's
// params other than keys taken away, changed or added to (otherParams),
// and says how many renderings it compared and the first that differs.
func sameWithOtherParams(tm *templates.Tmpl, kc templates.Ctx, od templates.OptionData, keys []string) (int, error) {
	want, err := tm.Render(kc.With(od))
	if err != nil {
		return 0, err
	}
	params := od.Option.Params
	for i, other := range otherParams(params, keys) {
		od.Option.Params = other
		got, err := tm.Render(kc.With(od))
		if err != nil || got != want {
			return i, fmt.Errorf("%s, option %q: params %v read %q (%v), with %v %q",
				tm.Name(), od.Option.Cmd, other, got, err, params, want)
		}
	}
	return len(otherParams(params, keys)), nil
}

// mixedParamReadsReported: the fixtures in testdata/mixedparams read an
// option's params by "price" and whole, each its own way (written,
// ranged over, given to len). The comparison of
// TestParamsReadByNameAreAllTheLineReads_Issue25 reports each when told
// that "price" is all it reads; and Reads must say of each that its
// params are read whole (ParamKeys nil, which the test skips), so that a
// Reads that believed the names fails here, where the templates of the set,
// which never mix the two, would let it pass.
func mixedParamReadsReported(t *testing.T) {
	t.Helper()
	set, err := templates.LoadFS(os.DirFS(filepath.Join("testdata", "mixedparams")))
	if err != nil {
		t.Fatal(err)
	}
	r := &Renderer{T: set}
	rd := Reader{Game: "heavenale", Lang: "en", Seat: 0, Seats: []string{"Ann", "Bob"}}
	od := templates.OptionData{N: 1, Option: engine.Option{Cmd: "BUY 2", Group: "T2", Params: map[string]any{"price": 3, "spot": 2}}}
	for _, name := range []string{"option.buy", "option.group", "option.place"} {
		tm := r.find(rd, name)
		reads, keyed := tm.Keyed()
		if !keyed || !reads.Params {
			t.Fatalf("fixture %s: keyed %v, reads %+v: the fixture no longer reads the option's params only", name, keyed, reads)
		}
		if _, err := sameWithOtherParams(tm, r.Ctx(rd, nil), od, []string{"price"}); err == nil {
			t.Errorf("fixture %s: its params read whole, but keyed by price alone it renders the same: the comparison reports nothing", name)
		}
		if reads.ParamKeys == nil { // read whole: not keyed by name, as the test skips it
			continue
		}
		_, err := sameWithOtherParams(tm, r.Ctx(rd, nil), od, reads.ParamKeys)
		t.Errorf("fixture %s: its params read whole, but Reads.ParamKeys = %v: %v", name, reads.ParamKeys, err)
	}
}

// otherParams are params that hold the same values as m for keys and
// others for the rest: every other param taken away, each set to a value
// of another type, and a param added.
func otherParams(m map[string]any, keys []string) []map[string]any {
	kept := map[string]any{}
	changed := map[string]any{"zz-added": "zz"}
	for k, v := range m {
		if slices.Contains(keys, k) {
			kept[k], changed[k] = v, v
		} else {
			changed[k] = []int{7}
		}
	}
	added := maps.Clone(kept)
	added["zz-added"] = 1
	return []map[string]any{kept, changed, added}
}

// TestHeavenAlePurchaseHeadsOncePerGroup_Issue25: a Heaven & Ale
// purchase menu renders its headings once a group (a tile), not once an
// option (a tile's spot): the heading reads the tile's prices by name
// (templates.Reads.ParamKeys), so the options of a tile share it in the
// menu (groupHeads: not looked up again) and it is kept by those params
// (menuLines: one kept a group), every language, in random games.
func TestHeavenAlePurchaseHeadsOncePerGroup_Issue25(t *testing.T) {
	set, err := templates.Load()
	if err != nil {
		t.Fatal(err)
	}
	menus := 0
	playedMailsAs(t, []string{"heavenale"}, set.Languages(), nil, nil, []int{2, 3}, 5, 80, func(in *Input) (*Told, error) {
		for seat, p := range in.Table.Prompts {
			if p == nil || !p.Numbered || p.Decision.Kind != "buy" {
				continue
			}
			groups := map[string]bool{}
			for _, o := range p.Options {
				groups[o.Group] = true
			}
			if len(groups) == len(p.Options) {
				continue // one option a group: nothing to share
			}
			for _, lang := range set.Languages() {
				r := &Renderer{T: set}
				rd := Reader{Game: in.Game.Game, Lang: lang, Seat: seat, Seats: []string{"Ann", "Bob", "Cat"}}
				if _, _, err := r.PromptMenu(rd, p, engine.Views(in.Table.State)(seat)); err != nil {
					t.Fatal(err)
				}
				heads := 0
				for k := range r.lines.m {
					if strings.Contains(k, ":option.group") && !strings.Contains(k, ":option.group.") {
						heads++
					}
				}
				if heads != len(groups) || r.lines.byName["option.group"] > 0 {
					t.Fatalf("%s: %d options in %d groups, %d headings rendered, %d looked up again",
						lang, len(p.Options), len(groups), heads, r.lines.byName["option.group"])
				}
				menus++
			}
		}
		return &Told{Seats: in.Game.Seats, Nonce: in.Game.Nonce}, nil
	})
	if menus < 20 {
		t.Fatalf("%d purchase menus checked: the test checks next to nothing", menus)
	}
	t.Logf("%d purchase menus checked", menus)
}
