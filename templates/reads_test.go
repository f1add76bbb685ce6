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
