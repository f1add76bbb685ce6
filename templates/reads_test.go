package templates

import (
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
