package templates

import (
	"reflect"
	"strings"
	"testing"
	"testing/fstest"
)

// TestOptionOnlyReadsTheTree_Issue25: OptionOnly (reads.go) holds for a
// template that reads the option, the decision's kind, the language and
// keywords, through variables, with, range and called templates (a
// recursive one too), and fails for every other read: the view, the
// number, the seats, the decision but its kind, the context given to a
// function (dict, printf, tmpl) or kept in a variable and read, call.
func TestOptionOnlyReadsTheTree_Issue25(t *testing.T) {
	cases := map[string]bool{
		`{{.Data.Option.Cmd}} {{$.KwLine .Data.Option.Cmd}} {{.Lang}}`:                   true,
		`{{$o := .Data.Option}}{{$p := $o.Params}}{{index $p "price"}} {{str $o.Group}}`: true,
		`{{with .Data.Option.Params}}{{index . "price"}}{{end}}`:                         true,
		`{{range $k, $v := .Data.Option.Params}}{{$k}}={{$v}}{{end}}`:                    true,
		`{{if eq .Data.Decision.Kind "brew"}}B{{else}}{{$.Kw "PASS"}}{{end}}`:            true,
		`{{template "safe" .}}`:                                  true,
		`{{template "rec" .}}`:                                   true,
		`{{template "str" (index (fields .Data.Option.Cmd) 0)}}`: true,
		`{{index (dict "A" "a" "B" "b") .Data.Option.Group}}`:    true,
		`{{$c := $}}{{$c.Data.Option.Cmd}}`:                      true,
		`{{.Data.View}}`:                                         false,
		`{{.Data.N}}`:                                            false,
		`{{.Data}}`:                                              false,
		`{{.}}`:                                                  false,
		`{{.Seats}}`:                                             false,
		`{{$.Name 0}}`:                                           false,
		`{{.Data.Decision.Seat}}`:                                false,
		`{{$d := .Data.Decision}}{{$d.Kind}}`:                    false,
		`{{$d := .Data}}{{$d.View}}`:                             false,
		`{{$c := $}}{{$c.Seats}}`:                                false,
		`{{template "unsafe" .}}`:                                false,
		`{{template "viaDict" (dict "c" $)}}`:                    false,
		`{{.Data.Option.Cmd | printf "%s %v" $}}`:                false,
		`{{tmpl "safe" $}}`:                                      false,
		`{{call .Data.Option.Cmd}}`:                              false,
		`{{with .Data.View}}{{.}}{{end}}`:                        false,
		`{{range .Data.View}}x{{end}}`:                           false,
		`{{if .Compact}}x{{end}}`:                                false,
		`{{template "missing" .}}`:                               false,
		`{{template "safe" .}}{{.Data.Option.N}}`:                true, // Option's fields are all in the key
		`{{$x := .Data.Option.Cmd}}{{$x = $}}{{$x}}`:             false,
	}
	lib := `{{define "safe"}}{{.Data.Option.Group}}{{end}}` +
		`{{define "unsafe"}}{{.Data.View}}{{end}}` +
		`{{define "rec"}}{{if .Data.Option.Cmd}}{{.Data.Option.Cmd}}{{else}}{{template "rec" .}}{{end}}{{end}}` +
		`{{define "str"}}{{.}}{{upper .}}{{end}}` +
		`{{define "viaDict"}}{{.c.Lang}}{{end}}`
	src, names := lib, map[string]string{}
	i := 0
	for text := range cases {
		name := "option.t" + string(rune('a'+i/26)) + string(rune('a'+i%26))
		i++
		names[name] = text
		src += `{{define "` + name + `"}}` + text + `{{end}}`
	}
	s, err := load(fstest.MapFS{"languages.txt": {Data: []byte("en\n")}, "g/en/a.tmpl": {Data: []byte(src)}}, true)
	if err != nil {
		t.Fatal(err)
	}
	for name, text := range names {
		if got := s.Find("g", "en", name).OptionOnly(); got != cases[text] {
			t.Errorf("%s: OptionOnly = %v, want %v", text, got, cases[text])
		}
	}
}

// TestOptionKeyedReadsViewByCommand_Issue25: a template that reads the
// view only as {{index $.Data.View.F <the option's command>}} is
// OptionKeyed by its fields F (the key holds View.F[Cmd]); every other
// read of the view, an index by anything but the command itself (a
// literal, the group, a variable also given something else, before or
// after), a field of the view kept in a variable or indexed further, is
// refused, so that no key can miss what the line reads.
func TestOptionKeyedReadsViewByCommand_Issue25(t *testing.T) {
	cases := map[string]string{ // text: the fields, "-" when not keyed
		`{{index $.Data.View.Toward .Data.Option.Cmd}}`: "Toward",
		`{{$o := .Data.Option}}{{with index $.Data.View.Costs $o.Cmd}}{{join ", " .}}{{end}}{{index .Data.View.Toward $o.Cmd}}`: "Costs,Toward",
		`{{$c := .Data.Option.Cmd}}{{if index $.Data.View.Toward $c}}{{$c}}{{end}}`:                                             "Toward",
		`{{index $.Data.View.Toward .Data.Option.Cmd | printf "%v"}}`:                                                           "Toward",
		`{{template "byCmd" .}}`:                                                        "Costs",
		`{{template "optDot" .Data.Option}}`:                                            "",
		`{{.Data.Option.Cmd}}`:                                                          "",
		`{{index $.Data.View.Toward "PASS"}}`:                                           "-",
		`{{index $.Data.View.Toward .Data.Option.Group}}`:                               "-",
		`{{$c := .Data.Option.Cmd}}{{$c = "X"}}{{index $.Data.View.Toward $c}}`:         "-",
		`{{$c := .Data.Option.Cmd}}{{index $.Data.View.Toward $c}}{{$c = "X"}}`:         "-",
		`{{$t := $.Data.View.Toward}}{{index $t .Data.Option.Cmd}}`:                     "-",
		`{{index $.Data.View.Toward .Data.Option.Cmd 0}}`:                               "-",
		`{{index (index $.Data.View.Toward .Data.Option.Cmd) 0}}`:                       "Toward",
		`{{range $.Data.View.Toward}}x{{end}}`:                                          "-",
		`{{with $.Data.View.Toward}}x{{end}}`:                                           "-",
		`{{.Data.View.Toward}}`:                                                         "-",
		`{{$.Data.View.Toward.X}}`:                                                      "-",
		`{{with .Data.Option}}{{index $.Data.View.Toward .Cmd}}{{end}}`:                 "-",
		`{{range $c := .Data.Option.Params}}{{index $.Data.View.Toward $c}}{{end}}`:     "-",
		`{{range $k, $c := .Data.Option.Params}}{{index $.Data.View.Toward $k}}{{end}}`: "-",
		`{{template "viewDot" .Data.View.Toward}}`:                                      "-",
		`{{.Data.Option.Cmd | index $.Data.View.Toward}}`:                               "-",
		`{{index $.Data.View .Data.Option.Cmd}}`:                                        "-",
		`{{index $.Data.View.Toward .Data.Option.Cmd}}{{.Data.N}}`:                      "-",
	}
	lib := `{{define "byCmd"}}{{$o := .Data.Option}}{{index $.Data.View.Costs $o.Cmd}}{{end}}` +
		`{{define "optDot"}}{{.Cmd}} {{.Group}}{{end}}` +
		`{{define "viewDot"}}{{index . "X"}}{{end}}`
	src, names := lib, map[string]string{}
	i := 0
	for text := range cases {
		name := "option.k" + string(rune('a'+i/26)) + string(rune('a'+i%26))
		i++
		names[name] = text
		src += `{{define "` + name + `"}}` + text + `{{end}}`
	}
	s, err := load(fstest.MapFS{"languages.txt": {Data: []byte("en\n")}, "g/en/a.tmpl": {Data: []byte(src)}}, true)
	if err != nil {
		t.Fatal(err)
	}
	for name, text := range names {
		tm := s.Find("g", "en", name)
		view, ok := tm.OptionKeyed()
		got := strings.Join(view, ",")
		if !ok {
			got = "-"
		}
		if got != cases[text] {
			t.Errorf("%s: OptionKeyed = %q, want %q", text, got, cases[text])
		}
		if tm.OptionOnly() != (cases[text] == "") {
			t.Errorf("%s: OptionOnly = %v", text, tm.OptionOnly())
		}
	}
}

type keyView struct {
	Toward map[string][]string
	Any    map[string]any
	Ptr    map[string]*int
	Plain  []string
}

type innerView struct{ Toward map[string][]string }

// methodView's Toward is a method (text/template calls it), its
// embedded view's Toward a field.
type methodView struct{ innerView }

func (methodView) Toward() map[string][]string { return nil }

// TestAppendViewKeyTellsValuesApart_Issue25: the key of View.F[cmd] is
// different for every different value (missing, nil, empty, other
// strings, other types inside an interface), the same for equal values,
// and refused when it cannot stand for the value: a pointer inside, a
// field that is also a method, a field that is not a map, a view that is
// not a struct.
func TestAppendViewKeyTellsValuesApart_Issue25(t *testing.T) {
	views := []any{
		keyView{},
		keyView{Toward: map[string][]string{"A": nil}},
		keyView{Toward: map[string][]string{"A": {}}},
		keyView{Toward: map[string][]string{"A": {""}}},
		keyView{Toward: map[string][]string{"A": {"x"}}},
		keyView{Toward: map[string][]string{"A": {"x", "y"}}},
		keyView{Toward: map[string][]string{"A": {"x,y"}}},
		keyView{Toward: map[string][]string{"A": {"1:x"}}},
		keyView{Any: map[string]any{"A": 1}},
		keyView{Any: map[string]any{"A": "1"}},
		keyView{Any: map[string]any{"A": 1.5}},
		keyView{Any: map[string]any{"A": map[string]any{"b": 1, "c": 2}}},
		keyView{Any: map[string]any{"A": map[string]any{"b": 2, "c": 1}}},
		keyView{Any: map[string]any{"A": nil}},
		keyView{Any: map[string]any{"A": true}},
	}
	seen := map[string]int{}
	for i, v := range views {
		ptr := reflect.New(reflect.TypeOf(v))
		ptr.Elem().Set(reflect.ValueOf(v))
		for _, p := range []any{v, ptr.Interface()} {
			b, ok := AppendViewKey(nil, p, []string{"Any", "Toward"}, "A")
			if !ok {
				t.Fatalf("view %d: not keyed", i)
			}
			if j, dup := seen[string(b)]; dup && j != i {
				t.Errorf("views %d and %d share the key %q", j, i, b)
			}
			seen[string(b)] = i
			// Equal values, equal keys; another command reads nothing.
			again, _ := AppendViewKey(nil, p, []string{"Any", "Toward"}, "A")
			other, _ := AppendViewKey(nil, p, []string{"Any", "Toward"}, "B")
			none, _ := AppendViewKey(nil, p, []string{"Any", "Toward"}, "C")
			if string(again) != string(b) || string(other) != string(none) {
				t.Errorf("view %d: keys %q %q, %q %q", i, b, again, other, none)
			}
		}
	}
	for _, c := range []struct {
		view  any
		field string
	}{{keyView{Ptr: map[string]*int{"A": new(int)}}, "Ptr"}, {methodView{}, "Toward"}, {keyView{}, "Plain"},
		{keyView{}, "Missing"}, {map[string]any{"Toward": map[string][]string{}}, "Toward"}, {nil, "Toward"}, {(*keyView)(nil), "Toward"}} {
		if _, ok := AppendViewKey(nil, c.view, []string{c.field}, "A"); ok {
			t.Errorf("%T %s: keyed", c.view, c.field)
		}
	}
}

// TestDiceBrewingLinesKeyed_Issue25: Dice Brewing's menu lines read the
// view only by the option's command, in every language: they are kept
// from one mail to the next (referee/tell's menuLines).
func TestDiceBrewingLinesKeyed_Issue25(t *testing.T) {
	s, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, lang := range s.Languages() {
		for _, kind := range []string{"place", "buy", "brew", "window", "second", "reroll", "reward"} {
			view, ok := s.Find("dicebrewing", lang, "option."+kind).OptionKeyed()
			if !ok || strings.Join(view, ",") != "Costs,Toward" {
				t.Errorf("dicebrewing/%s option.%s: OptionKeyed = %v %v, want [Costs Toward]", lang, kind, view, ok)
			}
		}
	}
}

// TestKeyedReadsViewByGroup_Issue25: a template may also read the view as
// {{index $.Data.View.F <the option's group>}} (a menu group's heading:
// Dice Brewing's Heads), and Keyed says whether it reads the option's
// command at all, so that a heading's key leaves the command out only
// when no command, and no whole option, is read. Every other index by
// something made of the group (a function of it, a variable also given
// something else, the dot of a with) is refused. Case text: "c" when the
// command is read, then the fields by command and by group; "-" refused.
func TestKeyedReadsViewByGroup_Issue25(t *testing.T) {
	cases := map[string]string{
		`{{index $.Data.View.Heads .Data.Option.Group}}`:                                                           "|-|Heads",
		`{{$g := .Data.Option.Group}}{{with index $.Data.View.Heads $g}}{{.Listed}}{{end}}{{$g}}`:                  "|-|Heads",
		`{{$h := index $.Data.View.Heads .Data.Option.Group}}{{template "head" (dict "h" $h)}}`:                    "|-|Heads",
		`{{$o := .Data.Option}}{{index $.Data.View.Heads $o.Group}}`:                                               "c|-|Heads",
		`{{index $.Data.View.Heads .Data.Option.Group}}{{.Data.Option.Cmd}}`:                                       "c|-|Heads",
		`{{index $.Data.View.Toward .Data.Option.Cmd}}{{index $.Data.View.Heads .Data.Option.Group}}`:              "c|Toward|Heads",
		`{{index $.Data.View.Heads .Data.Option.Cmd}}`:                                                             "c|Heads|-",
		`{{template "optDot" .Data.Option}}`:                                                                       "c|-|-",
		`{{.Data.Option.Group}} {{.Data.Decision.Kind}} {{index .Data.Option.Params "price"}}`:                     "|-|-",
		`{{$g := .Data.Option.Group}}{{$g = "X"}}{{index $.Data.View.Heads $g}}`:                                   "-",
		`{{index $.Data.View.Heads (str .Data.Option.Group)}}`:                                                     "-",
		`{{index $.Data.View.Heads (print .Data.Option.Group "+")}}`:                                               "-",
		`{{with .Data.Option}}{{index $.Data.View.Heads .Group}}{{end}}`:                                           "-",
		`{{with .Data.Option.Group}}{{index $.Data.View.Heads .}}{{end}}`:                                          "-",
		`{{range $g := .Data.Option.Params}}{{index $.Data.View.Heads $g}}{{end}}`:                                 "-",
		`{{$h := $.Data.View.Heads}}{{index $h .Data.Option.Group}}`:                                               "-",
		`{{index $.Data.View.Heads .Data.Option.Group}}{{range $.Data.View.Display}}{{.ID}}{{end}}`:                "-",
		`{{index $.Data.View.Heads .Data.Option.Group}}{{template "head" (dict "v" $.Data.View)}}`:                 "-",
		`{{$h := index $.Data.View.Heads .Data.Option.Group}}{{$h}}{{index $.Data.View.Heads .Data.Option.Group}}`: "|-|Heads",
	}
	lib := `{{define "optDot"}}{{.Cmd}} {{.Group}}{{end}}{{define "head"}}{{.h}}{{end}}`
	src, names := lib, map[string]string{}
	i := 0
	for text := range cases {
		name := "option.g" + string(rune('a'+i/26)) + string(rune('a'+i%26))
		i++
		names[name] = text
		src += `{{define "` + name + `"}}` + text + `{{end}}`
	}
	s, err := load(fstest.MapFS{"languages.txt": {Data: []byte("en\n")}, "g/en/a.tmpl": {Data: []byte(src)}}, true)
	if err != nil {
		t.Fatal(err)
	}
	list := func(f []string) string {
		if len(f) == 0 {
			return "-"
		}
		return strings.Join(f, ",")
	}
	for name, text := range names {
		tm := s.Find("g", "en", name)
		r, ok := tm.Keyed()
		got := "-"
		if ok {
			got = list(r.ByCmd) + "|" + list(r.ByGroup)
			if r.Cmd {
				got = "c|" + got
			} else {
				got = "|" + got
			}
		}
		if got != cases[text] {
			t.Errorf("%s: Keyed = %q, want %q", text, got, cases[text])
		}
		if _, keyed := tm.OptionKeyed(); keyed && ok && len(r.ByGroup) > 0 {
			t.Errorf("%s: OptionKeyed though it reads the view by the group", text)
		}
	}
}

type headView struct {
	Heads map[string]headEntry
}

type headEntry struct {
	Listed bool
	N      int
	Card   struct {
		ID   string
		Gain struct{ XP, Coins int }
		Use  []string
	}
	hidden int // never read by a template: not keyed
}

type methodEntry struct{ ID string }

func (methodEntry) Name() string { return "" }

// TestAppendReadsKeyTellsGroupValuesApart_Issue25: the key of
// View.F[group] holds every exported field of a struct value, each a
// different key (a bool, a number, a nested struct's field, a slice), the
// same for equal values; the group indexed and the command's fields are
// kept apart; a struct with methods is refused.
func TestAppendReadsKeyTellsGroupValuesApart_Issue25(t *testing.T) {
	var es []headEntry
	es = append(es, headEntry{}, headEntry{Listed: true}, headEntry{N: 3})
	e := headEntry{}
	e.Card.ID = "R01"
	es = append(es, e)
	e.Card.Gain.XP = 2
	es = append(es, e)
	e.Card.Gain.XP, e.Card.Gain.Coins = 0, 2
	es = append(es, e)
	e.Card.Use = []string{"Y3"}
	es = append(es, e)
	e.Card.Use = []string{"Y3", ""}
	es = append(es, e)
	r := Reads{ByGroup: []string{"Heads"}}
	seen := map[string]int{}
	for i, e := range es {
		v := headView{Heads: map[string]headEntry{"PLACE MH1": e}}
		b, ok := AppendReadsKey(nil, v, r, "PLACE MH1 Y3@A", "PLACE MH1")
		if !ok {
			t.Fatalf("entry %d: not keyed", i)
		}
		if j, dup := seen[string(b)]; dup {
			t.Errorf("entries %d and %d share the key %q", j, i, b)
		}
		seen[string(b)] = i
		e.hidden = 7
		again, _ := AppendReadsKey(nil, headView{Heads: map[string]headEntry{"PLACE MH1": e}}, r, "OTHER", "PLACE MH1")
		if string(again) != string(b) {
			t.Errorf("entry %d: %q then %q (the command or an unexported field changed the key)", i, b, again)
		}
		other, _ := AppendReadsKey(nil, v, r, "PLACE MH1 Y3@A", "PLACE MH2")
		if i > 0 && string(other) == string(b) {
			t.Errorf("entry %d: another group reads the same key", i)
		}
	}
	// The same field read by the command and by the group: two keys.
	v := headView{Heads: map[string]headEntry{"A": {Listed: true}}}
	a, _ := AppendReadsKey(nil, v, Reads{ByCmd: []string{"Heads"}}, "A", "B")
	b, _ := AppendReadsKey(nil, v, Reads{ByGroup: []string{"Heads"}}, "A", "B")
	if string(a) == string(b) {
		t.Errorf("by command and by group share the key %q", a)
	}
	type mview struct{ Heads map[string]methodEntry }
	if _, ok := AppendReadsKey(nil, mview{Heads: map[string]methodEntry{"A": {}}}, Reads{ByGroup: []string{"Heads"}}, "", "A"); ok {
		t.Errorf("a struct with a method is keyed")
	}
}

// TestDiceBrewingHeadsKeyed_Issue25: Dice Brewing's group headings read
// the view only by the option's group (Heads), never the command, in
// every language: kept from one mail to the next by their group.
func TestDiceBrewingHeadsKeyed_Issue25(t *testing.T) {
	s, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, lang := range s.Languages() {
		r, ok := s.Find("dicebrewing", lang, "option.group").Keyed()
		if !ok || r.Cmd || len(r.ByCmd) != 0 || strings.Join(r.ByGroup, ",") != "Heads" {
			t.Errorf("dicebrewing/%s option.group: Keyed = %+v %v, want the Heads by group only", lang, r, ok)
		}
	}
}
