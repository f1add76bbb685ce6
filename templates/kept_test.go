package templates

import (
	"fmt"
	"testing"
	"testing/fstest"
)

// plainFact is a struct of plain fields, as engine.Fact.
type plainFact struct {
	Key   string
	N     int
	Goods string
	On    bool
}

// TestKeptCallsKeyEveryInput_Issue25: a text tmpl keeps is keyed by the
// template and the whole data by value: data that differ in one field, a
// dict key, a value's type, or that go to another template of the same
// text get their own text, and every text is the one rendered afresh. A
// list, a pointer, a struct with a field not plain and a dict with such
// a value are never kept.
func TestKeptCallsKeyEveryInput_Issue25(t *testing.T) {
	fsys := fstest.MapFS{
		"languages.txt": {Data: []byte("en\n")},
		"g/en/a.tmpl": {Data: []byte(`{{define "call"}}{{tmpl .Data.T .Data.D}}{{end}}` +
			`{{define "x"}}{{printf "%#v" .}}{{end}}{{define "y"}}Y{{printf "%#v" .}}{{end}}`)},
	}
	kept, err := LoadFS(fsys)
	if err != nil {
		t.Fatal(err)
	}
	fresh, err := LoadFS(fsys)
	if err != nil {
		t.Fatal(err)
	}
	fresh.kept.off = true
	datas := []any{
		"a", "b", "", 1, int64(1), 1.0, 2, true, false,
		plainFact{Key: "rep", N: 1}, plainFact{Key: "rep", N: 2}, plainFact{Key: "rep", N: 1, Goods: "g"},
		plainFact{Key: "rep", N: 1, On: true}, plainFact{Key: "money", N: 1},
		map[string]any{"K": "a"}, map[string]any{"K": "b"}, map[string]any{"L": "a"}, map[string]any{"K": 1},
		map[string]any{"K": int64(1)}, map[string]any{"K": 1.0}, map[string]any{"K": true}, map[string]any{"K": nil},
		map[string]any{"K": "a", "L": "b"}, map[string]any{"K": "ab"}, map[string]any{"Ka": "b"},
		map[string]any{"K": "a", "L": "b", "M": 3}, map[string]any{},
	}
	// Each datum twice through each template, in turn: the second call
	// finds the text kept by the first.
	for round := range 2 {
		for _, name := range []string{"x", "y"} {
			for i, d := range datas {
				in := Ctx{Data: map[string]any{"T": name, "D": d}}
				got, err1 := kept.Render("g", "en", "call", in)
				want, err2 := fresh.Render("g", "en", "call", in)
				if err1 != nil || err2 != nil {
					t.Fatalf("%v / %v", err1, err2)
				}
				if got != want {
					t.Errorf("round %d, %s, datum %d (%#v): kept %q, afresh %q", round, name, i, d, got, want)
				}
			}
		}
	}
	if want := 2 * len(datas); kept.kept.hits != want || len(kept.kept.m) != want {
		t.Errorf("%d texts kept, %d found: want %d and %d", len(kept.kept.m), kept.kept.hits, want, want)
	}
	for _, d := range []any{[]string{"a"}, &plainFact{}, struct{ L []int }{}, struct{ F float64 }{},
		map[string]any{"K": []int{1}}, map[string]any{"K": plainFact{}}, nil} {
		if _, ok := keptDataKey(d); ok {
			t.Errorf("%#v is kept", d)
		}
	}
}

// TestKeptCallsAreBounded: past maxKeptCalls texts, the kept ones are
// dropped and the texts stay the ones rendered afresh.
func TestKeptCallsAreBounded(t *testing.T) {
	fsys := fstest.MapFS{
		"languages.txt": {Data: []byte("en\n")},
		"g/en/a.tmpl":   {Data: []byte(`{{define "call"}}{{tmpl "x" .Data}}{{end}}{{define "x"}}<{{.}}>{{end}}`)},
	}
	s, err := LoadFS(fsys)
	if err != nil {
		t.Fatal(err)
	}
	for i := range maxKeptCalls + 10 {
		got, err := s.Render("g", "en", "call", Ctx{Data: i})
		if err != nil || got != fmt.Sprintf("<%d>", i) {
			t.Fatalf("%d: %q %v", i, got, err)
		}
	}
	if n := len(s.kept.m); n > maxKeptCalls || n == 0 {
		t.Fatalf("%d texts kept", n)
	}
}
