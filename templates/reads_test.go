package templates

import (
	"reflect"
	"strings"
	"testing"
	"testing/fstest"
)

// readsCases are templates and what each reads of the option and the
// view (reads.go): "-" when it is refused, else "c" when it reads the
// option's command (or the whole option) or "" when not, then "|" the
// view's fields it reads by the command and "|" by the group ("-" for
// none). OptionOnly and OptionKeyed follow from it: OptionOnly reads no
// field of the view, OptionKeyed none by the group (its fields are the
// ones by the command).
var readsCases = map[string]string{
	`{{.Data.Option.Cmd}} {{$.KwLine .Data.Option.Cmd}} {{.Lang}}`:                   "c|-|-",
	`{{$o := .Data.Option}}{{$p := $o.Params}}{{index $p "price"}} {{str $o.Group}}`: "c|-|-",
	`{{with .Data.Option.Params}}{{index . "price"}}{{end}}`:                         "|-|-",
	`{{range $k, $v := .Data.Option.Params}}{{$k}}={{$v}}{{end}}`:                    "|-|-",
	`{{if eq .Data.Decision.Kind "brew"}}B{{else}}{{$.Kw "PASS"}}{{end}}`:            "|-|-",
	`{{template "safe" .}}`:                                  "|-|-",
	`{{template "rec" .}}`:                                   "c|-|-",
	`{{template "str" (index (fields .Data.Option.Cmd) 0)}}`: "c|-|-",
	`{{index (dict "A" "a" "B" "b") .Data.Option.Group}}`:    "|-|-",
	`{{$c := $}}{{$c.Data.Option.Cmd}}`:                      "c|-|-",
	`{{.Data.View}}`:                                         "-",
	`{{.Data.N}}`:                                            "-",
	`{{.Data}}`:                                              "-",
	`{{.}}`:                                                  "-",
	`{{.Seats}}`:                                             "-",
	`{{$.Name 0}}`:                                           "-",
	`{{.Data.Decision.Seat}}`:                                "-",
	`{{$d := .Data.Decision}}{{$d.Kind}}`:                    "-",
	`{{$d := .Data}}{{$d.View}}`:                             "-",
	`{{$c := $}}{{$c.Seats}}`:                                "-",
	`{{template "unsafe" .}}`:                                "-",
	`{{template "viaDict" (dict "c" $)}}`:                    "-",
	`{{.Data.Option.Cmd | printf "%s %v" $}}`:                "-",
	`{{tmpl "safe" $}}`:                                      "-",
	`{{call .Data.Option.Cmd}}`:                              "-",
	`{{with .Data.View}}{{.}}{{end}}`:                        "-",
	`{{range .Data.View}}x{{end}}`:                           "-",
	`{{if .Compact}}x{{end}}`:                                "-",
	`{{template "missing" .}}`:                               "-",
	`{{template "safe" .}}{{.Data.Option.N}}`:                "|-|-", // Option's fields are all in the key
	`{{$x := .Data.Option.Cmd}}{{$x = $}}{{$x}}`:             "-",
	`{{index $.Data.View.Toward .Data.Option.Cmd}}`:          "c|Toward|-",
	`{{$o := .Data.Option}}{{with index $.Data.View.Costs $o.Cmd}}{{join ", " .}}{{end}}{{index .Data.View.Toward $o.Cmd}}`: "c|Costs,Toward|-",
	`{{$c := .Data.Option.Cmd}}{{if index $.Data.View.Toward $c}}{{$c}}{{end}}`:                                             "c|Toward|-",
	`{{index $.Data.View.Toward .Data.Option.Cmd | printf "%v"}}`:                                                           "c|Toward|-",
	`{{template "byCmd" .}}`:                                                                                   "c|Costs|-",
	`{{template "optDot" .Data.Option}}`:                                                                       "c|-|-",
	`{{.Data.Option.Cmd}}`:                                                                                     "c|-|-",
	`{{index $.Data.View.Toward "PASS"}}`:                                                                      "-",
	`{{index $.Data.View.Toward .Data.Option.Group}}`:                                                          "|-|Toward", // by the group: Keyed, not OptionKeyed
	`{{$c := .Data.Option.Cmd}}{{$c = "X"}}{{index $.Data.View.Toward $c}}`:                                    "-",
	`{{$c := .Data.Option.Cmd}}{{index $.Data.View.Toward $c}}{{$c = "X"}}`:                                    "-",
	`{{$t := $.Data.View.Toward}}{{index $t .Data.Option.Cmd}}`:                                                "-",
	`{{index $.Data.View.Toward .Data.Option.Cmd 0}}`:                                                          "-",
	`{{index (index $.Data.View.Toward .Data.Option.Cmd) 0}}`:                                                  "c|Toward|-",
	`{{range $.Data.View.Toward}}x{{end}}`:                                                                     "-",
	`{{with $.Data.View.Toward}}x{{end}}`:                                                                      "-",
	`{{.Data.View.Toward}}`:                                                                                    "-",
	`{{$.Data.View.Toward.X}}`:                                                                                 "-",
	`{{with .Data.Option}}{{index $.Data.View.Toward .Cmd}}{{end}}`:                                            "-",
	`{{range $c := .Data.Option.Params}}{{index $.Data.View.Toward $c}}{{end}}`:                                "-",
	`{{range $k, $c := .Data.Option.Params}}{{index $.Data.View.Toward $k}}{{end}}`:                            "-",
	`{{template "viewDot" .Data.View.Toward}}`:                                                                 "-",
	`{{.Data.Option.Cmd | index $.Data.View.Toward}}`:                                                          "-",
	`{{index $.Data.View .Data.Option.Cmd}}`:                                                                   "-",
	`{{index $.Data.View.Toward .Data.Option.Cmd}}{{.Data.N}}`:                                                 "-",
	`{{index $.Data.View.Heads .Data.Option.Group}}`:                                                           "|-|Heads",
	`{{$g := .Data.Option.Group}}{{with index $.Data.View.Heads $g}}{{.Listed}}{{end}}{{$g}}`:                  "|-|Heads",
	`{{$h := index $.Data.View.Heads .Data.Option.Group}}{{template "head" (dict "h" $h)}}`:                    "|-|Heads",
	`{{$o := .Data.Option}}{{index $.Data.View.Heads $o.Group}}`:                                               "c|-|Heads",
	`{{index $.Data.View.Heads .Data.Option.Group}}{{.Data.Option.Cmd}}`:                                       "c|-|Heads",
	`{{index $.Data.View.Toward .Data.Option.Cmd}}{{index $.Data.View.Heads .Data.Option.Group}}`:              "c|Toward|Heads",
	`{{index $.Data.View.Heads .Data.Option.Cmd}}`:                                                             "c|Heads|-",
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

// readsLib are the templates readsCases call.
const readsLib = `{{define "safe"}}{{.Data.Option.Group}}{{end}}` +
	`{{define "unsafe"}}{{.Data.View}}{{end}}` +
	`{{define "rec"}}{{if .Data.Option.Cmd}}{{.Data.Option.Cmd}}{{else}}{{template "rec" .}}{{end}}{{end}}` +
	`{{define "str"}}{{.}}{{upper .}}{{end}}` +
	`{{define "viaDict"}}{{.c.Lang}}{{end}}` +
	`{{define "byCmd"}}{{$o := .Data.Option}}{{index $.Data.View.Costs $o.Cmd}}{{end}}` +
	`{{define "optDot"}}{{.Cmd}} {{.Group}}{{end}}` +
	`{{define "viewDot"}}{{index . "X"}}{{end}}` +
	`{{define "head"}}{{.h}}{{end}}`

// TestKeyedReadsOfTemplates_Issue25 (reads.go; one table, readsCases):
// OptionOnly holds for a template that reads the option, the decision's
// kind, the language and keywords, through variables, with, range and
// called templates (a recursive one too), and fails for every other read:
// the view, the number, the seats, the decision but its kind, the context
// given to a function (dict, printf, tmpl) or kept in a variable and
// read, call. A template that reads the view only as
// {{index $.Data.View.F <the option's command>}} is OptionKeyed by its
// fields F; every other read of the view (an index by anything but the
// command itself: a literal, the group, a variable also given something
// else, before or after; a field kept in a variable or indexed further)
// is refused, so that no key can miss what the line reads. It may also
// read the view as {{index $.Data.View.F <the option's group>}} (a menu
// group's heading: Dice Brewing's Heads), and Keyed says whether it reads
// the option's command at all, so that a heading's key leaves the command
// out only when no command, and no whole option, is read; every other
// index by something made of the group (a function of it, a variable also
// given something else, the dot of a with) is refused.
func TestKeyedReadsOfTemplates_Issue25(t *testing.T) {
	texts := make([]string, 0, len(readsCases))
	for text := range readsCases {
		texts = append(texts, text)
	}
	s, names := loadCases(t, readsLib, texts)
	list := func(f []string) string {
		if len(f) == 0 {
			return "-"
		}
		return strings.Join(f, ",")
	}
	for name, text := range names {
		want := readsCases[text]
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
		if got != want {
			t.Errorf("%s: Keyed = %q, want %q", text, got, want)
		}
		// OptionOnly: no field of the view; OptionKeyed: none by the group,
		// its fields the ones by the command.
		parts := strings.Split(want, "|")
		onlyWant := want != "-" && parts[1] == "-" && parts[2] == "-"
		if tm.OptionOnly() != onlyWant {
			t.Errorf("%s: OptionOnly = %v, want %v", text, tm.OptionOnly(), onlyWant)
		}
		view, keyed := tm.OptionKeyed()
		if keyedWant := want != "-" && parts[2] == "-"; keyed != keyedWant {
			t.Errorf("%s: OptionKeyed %v, want %v", text, keyed, keyedWant)
		} else if keyed && list(view) != parts[1] {
			t.Errorf("%s: OptionKeyed by %v, want %s", text, view, parts[1])
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

// TestHeavenAleMoveLinesKeyed_Issue25: Heaven & Ale's move and buy
// option lines read only the option (its command and params) and the
// keywords, in every language: ha.optline gets the keyword line and the
// words GO and HOME as data, not the context.
func TestHeavenAleMoveLinesKeyed_Issue25(t *testing.T) {
	s, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, lang := range s.Languages() {
		for _, kind := range []string{"move", "buy"} {
			if !s.Find("heavenale", lang, "option."+kind).OptionOnly() {
				t.Errorf("heavenale/%s option.%s: not OptionOnly", lang, kind)
			}
		}
	}
}

// readsParamsCases: an option template's text and whether it reads the
// option's params (Reads.Params): a field of the option but its command
// and group, or the whole option, directly or through a template.
var readsParamsCases = map[string]bool{
	`{{.Data.Option.Cmd}}`: false,
	`{{.Data.Option.Group}} {{.Data.Decision.Kind}} {{.Lang}}`:                    false,
	`{{index $.Data.View.Heads .Data.Option.Group}}`:                              false,
	`{{$g := .Data.Option.Group}}{{$g}}`:                                          false,
	`{{template "p.group" .}}`:                                                    false,
	`{{.Data.Option.Params}}`:                                                     true,
	`{{index .Data.Option.Params "x"}}`:                                           true,
	`{{range $k, $v := .Data.Option.Params}}{{$k}}{{end}}`:                        true,
	`{{$o := .Data.Option}}{{$o.Cmd}}`:                                            true,
	`{{with .Data.Option}}{{.Group}}{{end}}`:                                      true,
	`{{with .Data.Option}}{{.Params}}{{end}}`:                                     true,
	`{{template "p.params" .}}`:                                                   true,
	`{{template "p.opt" (dict "o" .Data.Option)}}`:                                true,
	`{{if eq .Data.Decision.Kind "buy"}}{{index .Data.Option.Params "x"}}{{end}}`: true,
}

// TestReadsParamsOfTemplates_Issue25: Reads.Params is true exactly when an
// option template reads the option's params (readsParamsCases), so that a
// heading that reads only its group is shared by group in a menu and kept
// without the params in its key (issue 25: Heaven & Ale's
// option.group.move), and every other template keeps them in its key.
func TestReadsParamsOfTemplates_Issue25(t *testing.T) {
	src := `{{define "p.group"}}{{.Data.Option.Group}}{{end}}{{define "p.params"}}{{.Data.Option.Params}}{{end}}{{define "p.opt"}}{{.o.Cmd}}{{end}}`
	eachKeyed(t, src, readsParamsCases, func(text string, r Reads) {
		if r.Params != readsParamsCases[text] {
			t.Errorf("%s: Reads.Params = %v, want %v", text, r.Params, readsParamsCases[text])
		}
	})
}

// eachKeyed loads lib and each text of cases (loadCases) and calls check
// with the Reads of each, failing a text whose template is not keyed.
func eachKeyed[V any](t *testing.T, lib string, cases map[string]V, check func(text string, r Reads)) {
	t.Helper()
	texts := make([]string, 0, len(cases))
	for text := range cases {
		texts = append(texts, text)
	}
	s, names := loadCases(t, lib, texts)
	for name, text := range names {
		r, ok := s.Find("g", "en", name).Keyed()
		if !ok {
			t.Errorf("%s: not keyed", text)
			continue
		}
		check(text, r)
	}
}

// loadCases loads lib and each of texts as a template of its own, in
// scope "g", English; names gives each template's text by its name.
func loadCases(t *testing.T, lib string, texts []string) (s *Set, names map[string]string) {
	t.Helper()
	src, names := lib, map[string]string{}
	for i, text := range texts {
		name := "option.t" + string(rune('a'+i/26)) + string(rune('a'+i%26))
		names[name] = text
		src += `{{define "` + name + `"}}` + text + `{{end}}`
	}
	s, err := load(fstest.MapFS{"languages.txt": {Data: []byte("en\n")}, "g/en/a.tmpl": {Data: []byte(src)}}, true, true)
	if err != nil {
		t.Fatal(err)
	}
	return s, names
}

// readsParamKeysCases: an option template's text and the params it reads
// by name (Reads.ParamKeys; "-" for nil: the params read whole, or not
// at all).
var readsParamKeysCases = map[string]string{
	`{{.Data.Option.Group}}`:                                                            "-",
	`{{index .Data.Option.Params "x"}}`:                                                 "x",
	`{{$p := .Data.Option.Params}}{{index $p "b"}} {{index $p "a"}}`:                    "a,b",
	`{{.Data.Option.Params.x}}`:                                                         "x",
	`{{with .Data.Option}}{{index .Params "x"}}{{end}}`:                                 "-",
	`{{$o := .Data.Option}}{{index $o.Params "y"}}`:                                     "y",
	`{{$o := .Data.Option}}{{$p := $o.Params}}{{index $p "y"}} {{$o.Cmd}}`:              "y",
	`{{template "p.o" .Data.Option}}`:                                                   "w",
	`{{$o := .Data.Option}}{{index $o.Params "y"}}{{$o}}`:                               "-",
	`{{template "p.any" .Data.Option}}`:                                                 "-",
	`{{$o := .Data.Option}}{{index $o.Params "y"}}{{with $o}}{{.Cmd}}{{end}}`:           "-",
	`{{$o := .Data.Option}}{{index $o.Params "y"}}{{$o = 2}}`:                           "-",
	`{{template "p.named" .}} {{index .Data.Option.Params "x"}}`:                        "x,z",
	`{{$p := .Data.Option.Params}}{{with index $p "e"}}{{.}}{{end}}`:                    "e",
	`{{$p := .Data.Option.Params}}{{if index $p "m"}}{{str (index $p "t")}}{{end}}`:     "m,t",
	`{{if eq .Data.Decision.Kind "buy"}}{{int (index .Data.Option.Params "n")}}{{end}}`: "n",
	`{{.Data.Option.Params}}`:                                                           "-",
	`{{range $k, $v := .Data.Option.Params}}{{$k}}{{end}}`:                              "-",
	`{{with .Data.Option.Params}}{{index . "price"}}{{end}}`:                            "-",
	`{{if .Data.Option.Params}}x{{end}}`:                                                "-",
	`{{len .Data.Option.Params}}`:                                                       "-",
	`{{index .Data.Option.Params .Data.Option.Cmd}}`:                                    "-",
	`{{index .Data.Option.Params "a" "b"}}`:                                             "-",
	`{{$p := .Data.Option.Params}}{{index $p "a"}}{{template "p.any" $p}}`:              "-",
	`{{$p := .Data.Option.Params}}{{index $p "a"}}{{$p = 1}}{{$p}}`:                     "-",
	`{{$p := .Data.Option.Params}}{{index $p "a"}}{{$p | printf "%v"}}`:                 "-",
	`{{index .Data.Option.Params "a"}}{{template "p.params" .}}`:                        "-",
	`{{index .Data.Option.Params "a"}}{{template "p.opt" (dict "o" .Data.Option)}}`:     "-",
}

// TestReadsParamKeysOfTemplates_Issue25: Reads.ParamKeys names the params
// an option template reads when it reads each by its name, through
// variables and the templates it calls, and is nil when any read takes
// the params whole (readsParamKeysCases), so that a key of the text holds
// those params only (issue 25: Heaven & Ale's purchase headings).
func TestReadsParamKeysOfTemplates_Issue25(t *testing.T) {
	src := `{{define "p.named"}}{{index .Data.Option.Params "z"}}{{end}}{{define "p.any"}}{{.}}{{end}}{{define "p.o"}}{{index .Params "w"}}{{end}}` +
		`{{define "p.params"}}{{.Data.Option.Params}}{{end}}{{define "p.opt"}}{{.o.Cmd}}{{end}}`
	eachKeyed(t, src, readsParamKeysCases, func(text string, r Reads) {
		got := "-"
		if r.ParamKeys != nil {
			got = strings.Join(r.ParamKeys, ",")
		}
		if want := readsParamKeysCases[text]; got != want {
			t.Errorf("%s: Reads.ParamKeys = %s, want %s", text, got, want)
		}
		if r.ParamKeys != nil && !r.Params {
			t.Errorf("%s: params read by name but Reads.Params false", text)
		}
	})
}
