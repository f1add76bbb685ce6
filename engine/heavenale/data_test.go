package heavenale

import (
	"strings"
	"testing"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/heavenale/catalog"
)

// An organiser's ruleset (RULESET by mail, --ruleset on the command line)
// is validated: each broken file is refused with bad_ruleset and a reason.
func TestRulesetValidation(t *testing.T) {
	base := string(catalog.DefaultRuleset)
	for name, edit := range map[string][2]string{
		"wrong game":       {`game = "heavenale"`, `game = "fromage"`},
		"unknown key":      {`start_ducats = 25`, "start_ducats = 25\nstart_money = 3"},
		"no version":       {`version = "2026.1"`, `version = ""`},
		"band gap":         {"from = 5\nto = 8", "from = 6\nto = 8"},
		"shed gap":         {"from = 8\nto = 11", "from = 9\nto = 11"},
		"shed type":        {"brewmaster = 0\ntype = 4", "brewmaster = 0\ntype = 5"},
		"pair twice":       {`["M3", "M4"]`, `["M3", "M3"]`},
		"stacks != rounds": {`rounds = 4`, `rounds = 5`},
		"track numbering":  {`{ n = 2, kind = "resource", label = "R2" }`, `{ n = 3, kind = "resource", label = "R2" }`},
		"track kind":       {`{ n = 2, kind = "resource", label = "R2" }`, `{ n = 2, kind = "forest", label = "R2" }`},
		"not mutual":       {`{ id = "S1", x = -1, y = 0, side = "sun", nb = ["D1", "SH1", "S2", "", "", ""] }`, `{ id = "S1", x = -1, y = 0, side = "sun", nb = ["D2", "SH1", "S2", "", "", ""] }`},
		"shed border":      {`{ id = "SH1", x = 0, y = 1, side = "shed", nb = ["D2", "D3", "S5", "S2", "S1", "D1"] }`, `{ id = "SH1", x = 0, y = 1, side = "shed", nb = ["D2", "D3", "S5", "S2", "S1", ""] }`},
		"goal kind":        {`{ id = "G01", kind = "brewmaster", n = 1 }`, `{ id = "G01", kind = "luck", n = 1 }`},
		"too few tiles":    {`per_colour_fertility = { I = 2, II = 2 }`, `per_colour_fertility = { I = 1, II = 1 }`},
		"final disc":       {`final_extra_discs = [7, 12]`, `final_extra_discs = [7, 13]`},
		"start marker":     {`start_markers = [0, -2, -4, -6, -8]`, `start_markers = [0, -2, -4, -6]`},
	} {
		if !strings.Contains(base, edit[0]) {
			t.Fatalf("%s: %q not in the default file", name, edit[0])
		}
		data := []byte(strings.Replace(base, edit[0], edit[1], 1))
		_, _, err := Game{}.NewState(engine.Config{Seats: seatNames[:2], Seed: "x", Ruleset: data})
		re, ok := engine.AsRuleError(err)
		if !ok || re.Code != "bad_ruleset" {
			t.Errorf("%s: %v", name, err)
		}
	}
	// A valid override is used, and a stored state only decodes with it.
	data := []byte(strings.Replace(base, "start_ducats = 25", "start_ducats = 30", 1))
	st, _, err := Game{}.NewState(engine.Config{Seats: seatNames[:2], Seed: "x", Ruleset: data, Options: map[string]string{"start_player": "1"}})
	if err != nil {
		t.Fatal(err)
	}
	if st.(*State).Players[0].Ducats != 30 {
		t.Fatalf("override not used")
	}
	js, _ := jsonOf(st)
	if _, err := (Game{}).DecodeState(js, nil); err == nil {
		t.Fatalf("state decoded with the wrong ruleset")
	}
	if _, err := (Game{}).DecodeState(js, data); err != nil {
		t.Fatal(err)
	}
}

// The embedded file restates the spec: 37 cells (15 sunny, 15 shady, 7
// sheds), 27 spaces (15 resource, 4 monk, 6 disc, 2 barrel), 12 goals,
// and it is marked provisional.
func TestDefaultRuleset(t *testing.T) {
	r, _, err := catalog.DataFile.Load(nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Cells) != 37 || len(r.SunCells) != 15 || len(r.ShadeCells) != 15 || len(r.ShedSites) != 7 {
		t.Fatalf("garden %d/%d/%d/%d", len(r.Cells), len(r.SunCells), len(r.ShadeCells), len(r.ShedSites))
	}
	if len(r.ResSpaces) != 15 || len(r.MonkSpaces) != 4 || len(r.DiscSpaces) != 6 || len(r.Goals) != 12 {
		t.Fatalf("track %d %d %d, goals %d", len(r.ResSpaces), len(r.MonkSpaces), len(r.DiscSpaces), len(r.Goals))
	}
	if !r.Provisional || r.ProvisionalTables() != "tiles" {
		t.Fatalf("provisional marks: %v %q", r.Provisional, r.ProvisionalTables())
	}
	// §8.3: SH2 and SH5 are surrounded by sunny spots, SH4 and SH7 by shady.
	for _, c := range []struct {
		site string
		side int
	}{{"SH2", catalog.SideSun}, {"SH5", catalog.SideSun}, {"SH4", catalog.SideShade}, {"SH7", catalog.SideShade}} {
		for _, j := range r.Cells[r.CellIdx[c.site]].Nb {
			if r.Cells[j].Side != c.side {
				t.Errorf("%s touches %s", c.site, r.Cells[j].ID)
			}
		}
	}
}
