package engine

import (
	"reflect"
	"strings"
	"testing"
)

func TestParseScript(t *testing.T) {
	text := "STORE K5 G4\r\n" +
		"  place   MH1 SEED, MH1+ B3     # get a yellow now\n" +
		"\n" +
		"# a whole comment line\n" +
		"BREW R24 IMPROVE SMALT | BREW R09 | PASS\n" +
		"PLACE HP1 SEED else pass\n" +
		"QUEUE B EXCHANGE COFFEE M; B PROCESS | B RESEARCH ADV\n" +
		"3\n" +
		"NEXT\n" +
		"GO 12\n" +
		"SCORE WA\n" +
		"OR\n" +
		"GO HOME CASH\n" +
		"END\n" +
		"PASS\n"
	got := ParseScript(text)
	want := []Order{
		{Line: 1, Text: "STORE K5 G4", Alts: [][]string{{"STORE K5 G4"}}},
		{Line: 2, Text: "place MH1 SEED, MH1+ B3", Alts: [][]string{{"place MH1 SEED, MH1+ B3"}}},
		{Line: 5, Text: "BREW R24 IMPROVE SMALT | BREW R09 | PASS", Alts: [][]string{{"BREW R24 IMPROVE SMALT"}, {"BREW R09"}, {"PASS"}}},
		{Line: 6, Text: "PLACE HP1 SEED else pass", Alts: [][]string{{"PLACE HP1 SEED"}}, ElsePass: true},
		{Line: 7, Text: "QUEUE B EXCHANGE COFFEE M; B PROCESS | B RESEARCH ADV", Alts: [][]string{{"QUEUE B EXCHANGE COFFEE M", "B PROCESS"}, {"B RESEARCH ADV"}}},
		{Line: 8, Text: "3", Alts: [][]string{{"3"}}},
		{Line: 9, Text: "NEXT / GO 12 / SCORE WA / OR / GO HOME CASH", Alts: [][]string{{"GO 12", "SCORE WA"}, {"GO HOME CASH"}}},
		{Line: 15, Text: "PASS", Alts: [][]string{{"PASS"}}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("ParseScript:\n got %#v\nwant %#v", got, want)
	}
	if got[5].Number() != 3 || got[0].Number() != 0 {
		t.Errorf("Number: %d %d", got[5].Number(), got[0].Number())
	}
	if got[1].Keyword() != "PLACE" {
		t.Errorf("Keyword = %q", got[1].Keyword())
	}
}

func TestParseScriptNextWithoutEnd(t *testing.T) {
	got := ParseScript("next\nGO 9\nor\nGO 10")
	if len(got) != 1 || !reflect.DeepEqual(got[0].Alts, [][]string{{"GO 9"}, {"GO 10"}}) {
		t.Fatalf("got %#v", got)
	}
}

func TestFields(t *testing.T) {
	got := Fields("place mh1 seed,mh1+ b3")
	want := []string{"PLACE", "MH1", "SEED", "MH1+", "B3"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Fields = %v", got)
	}
}

func FuzzParseScript(f *testing.F) {
	f.Add("PLACE MH1 SEED | PASS else pass\nNEXT\nGO 1\nOR\nGO 2\nEND\n# x\n7")
	f.Add(";;||\n\r\nELSE PASS")
	f.Fuzz(func(t *testing.T, s string) {
		for _, o := range ParseScript(s) {
			if o.Line < 1 {
				t.Fatalf("line %d", o.Line)
			}
			for _, alt := range o.Alts {
				if len(alt) == 0 {
					t.Fatalf("empty alternative in %#v", o)
				}
				for _, c := range alt {
					if c == "" {
						t.Fatalf("empty command in %#v", o)
					}
				}
			}
		}
	})
}

// Script read line by line gives ParseScript's orders, and is empty again
// after Orders (an open block ends with the message).
func TestScriptLineByLine(t *testing.T) {
	for _, text := range []string{
		"PASS", "a | b ELSE PASS\n\n# c\nNEXT\nx; y\nOR\nz", "NEXT\nOR\nEND\n2", "  3  \nnext\nq\nEND\nr | s",
	} {
		var sc Script
		for i, l := range strings.Split(text, "\n") {
			sc.Line(i+1, l)
		}
		got, want := sc.Orders(), ParseScript(text)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%q: Script %+v, ParseScript %+v", text, got, want)
		}
		if again := sc.Orders(); again != nil {
			t.Errorf("%q: Orders again %+v", text, again)
		}
	}
}

// TestCanonicalWord: a first word is read in capitals whatever its case,
// and an alias of the game's is read as the keyword it stands for.
func TestCanonicalWord(t *testing.T) {
	aliases := map[string]string{"COMPRA": "BUY", "KOOP": "BUY"}
	for _, c := range []struct{ in, want string }{
		{"compra", "BUY"}, {"Koop", "BUY"}, {"KOOP", "BUY"}, {"buy", "BUY"},
		{"pass", "PASS"}, {"", ""}, {"compraX", "COMPRAX"},
	} {
		if got := CanonicalWord(aliases, c.in); got != c.want {
			t.Errorf("CanonicalWord(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
