package templates

import (
	"fmt"
	"math"
	"strings"
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

// deepView and otherView are data of lists, maps and structs of values
// (as a view's parts), two types of the same fields.
type deepView struct {
	Name string
	Rows []plainFact
	By   map[string]int
	Any  any
}

type otherView deepView

// withMethod has a method: a template may call it, and it may read what
// a key does not hold.
type withMethod struct{ N int }

func (withMethod) Now() string { return "" }

// TestKeptCallsKeyEveryInput_Issue25: a text tmpl keeps is keyed by the
// template and the whole data by value: data that differ in one field, a
// dict key, a list's length or element, nil or empty, a value's type (in
// an interface, or a struct's type), or that go to another template of
// the same text get their own text, and every text is the one rendered
// afresh. Data holding a pointer, a function, a value of a type with
// methods (a Ctx) or a NaN is never kept.
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
		// Lists, maps and structs of values, by value (issue 25: every
		// {{template}} call is kept by its data): each part, its length,
		// nil apart from empty, a value's type in an interface.
		[]string{"a"}, []string{"b"}, []string{"a", "b"}, []string{"ab"}, []string{}, []string(nil), []int{1},
		[]any{"a", 1}, []any{"a", int64(1)}, []any{"a", "1"}, [2]int{1, 2}, [2]int{2, 1},
		map[string]any{"K": []int{1}}, map[string]any{"K": []int{2}}, map[string]any{"K": plainFact{}},
		map[string]any{"K": plainFact{N: 1}}, map[string][]string{"K": {"a"}}, map[string][]string{"K": nil},
		struct{ L []int }{}, struct{ L []int }{L: []int{}}, struct{ L []int }{L: []int{0}},
		struct{ F float64 }{}, struct{ F float64 }{F: 0.5},
		deepView{Name: "v", Rows: []plainFact{{Key: "a"}}, By: map[string]int{"x": 1}},
		deepView{Name: "v", Rows: []plainFact{{Key: "a", On: true}}, By: map[string]int{"x": 1}},
		deepView{Name: "v", Rows: []plainFact{{Key: "a"}}, By: map[string]int{"x": 2}},
		deepView{Name: "v", Rows: []plainFact{{Key: "a"}}, By: map[string]int{"y": 1}},
		deepView{Name: "v", Rows: []plainFact{{Key: "a"}}, By: map[string]int{"x": 1}, Any: "a"},
		deepView{Name: "v", Rows: []plainFact{{Key: "a"}}, By: map[string]int{"x": 1}, Any: []string{"a"}},
		otherView{Name: "v", Rows: []plainFact{{Key: "a"}}, By: map[string]int{"x": 1}},
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
	if want := 2 * len(datas); kept.kept.hits.Load() != int64(want) || kept.kept.size() != want {
		t.Errorf("%d texts kept, %d found: want %d and %d", kept.kept.size(), kept.kept.hits.Load(), want, want)
	}
	for _, d := range []any{&plainFact{}, struct{ P *int }{}, map[string]any{"K": &plainFact{}}, []any{"a", &plainFact{}},
		struct{ F func() }{}, withMethod{}, []withMethod{{}}, map[string]any{"K": withMethod{}}, Ctx{}, nil,
		math.NaN(), deepView{Any: &plainFact{}}} {
		if _, _, ok := keptDataKey(nil, d); ok {
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
	if n := s.kept.size(); n > maxKeptCalls || n == 0 {
		t.Fatalf("%d texts kept", n)
	}
}

// TestTemplateCallsKeptAsWritten_Issue25: a {{template}} call, rewritten
// at load into a kept call (keepTemplateCalls), finds the template
// {{template}} finds (a scope's own definition before the common one of
// its language, the common one else) and renders the same text; a call
// with a value for data is kept (the second rendering finds it), a call
// with a Ctx or a view holding a pointer is rendered every time, and a
// call of a template defined nowhere fails as {{template}} does.
func TestTemplateCallsKeptAsWritten_Issue25(t *testing.T) {
	fsys := fstest.MapFS{
		"languages.txt": {Data: []byte("en\n")},
		"common/en/c.tmpl": {Data: []byte(`{{define "name"}}common {{.}}{{end}}` +
			`{{define "page"}}[{{template "name" .Data.N}}|{{template "ctx" .}}|{{range .Data.L}}{{template "row" .}}{{end}}]{{end}}` +
			`{{define "ctx"}}{{.Lang}}{{end}}{{define "row"}}<{{.Key}}{{.N}}>{{end}}`)},
		"g/en/g.tmpl": {Data: []byte(`{{define "name"}}own {{.}}{{end}}{{define "bad"}}{{template "nowhere" .}}{{end}}`)},
		"h/en/h.tmpl": {Data: []byte(`{{define "x"}}{{end}}`)},
	}
	kept, err := LoadFS(fsys)
	if err != nil {
		t.Fatal(err)
	}
	plain, err := load(fsys, true, false)
	if err != nil {
		t.Fatal(err)
	}
	data := map[string]any{"N": "n", "L": []plainFact{{Key: "a", N: 1}, {Key: "b"}}}
	for round := range 2 {
		for scope, want := range map[string]string{"g": "[own n|en|<a1><b0>]", "h": "[common n|en|<a1><b0>]"} {
			got, err := kept.Render(scope, "en", "page", Ctx{Lang: "en", Data: data})
			if err != nil || got != want {
				t.Errorf("round %d, %s: %q %v, want %q", round, scope, got, err, want)
			}
			if p, err := plain.Render(scope, "en", "page", Ctx{Lang: "en", Data: data}); err != nil || p != want {
				t.Errorf("%s as written: %q %v", scope, p, err)
			}
		}
	}
	// Per scope: "name" and two rows kept, found in the second round;
	// the Ctx never.
	if got := kept.kept.hits.Load(); got != 2*3 {
		t.Errorf("%d calls found kept, want 6", got)
	}
	if _, err := kept.Render("g", "en", "bad", Ctx{}); err == nil || !strings.Contains(err.Error(), "nowhere") {
		t.Errorf("a call of a template defined nowhere: %v", err)
	}
}

// BenchmarkKeptCallsParallel: kept texts found by renderers at once (the
// daemon renders on every core); run with -cpu 1,2,4 to see what the
// locks cost as renderers are added.
func BenchmarkKeptCallsParallel(b *testing.B) {
	fsys := fstest.MapFS{
		"languages.txt": {Data: []byte("en\n")},
		"g/en/a.tmpl":   {Data: []byte(`{{define "x"}}<{{.Key}} {{.N}}>{{end}}`)},
	}
	s, err := LoadFS(fsys)
	if err != nil {
		b.Fatal(err)
	}
	d := s.lookup("g", "en", "x")
	datas := make([]plainFact, 256)
	for i := range datas {
		datas[i] = plainFact{Key: "k", N: i}
	}
	b.RunParallel(func(pb *testing.PB) {
		i := 0
		for pb.Next() {
			if _, err := s.kept.render(d, datas[i%len(datas)]); err != nil {
				b.Fatal(err)
			}
			i++
		}
	})
}

// BenchmarkKeptDataKey: the key of a call's data (a fact, a dict, a row).
func BenchmarkKeptDataKey(b *testing.B) {
	for name, d := range map[string]any{"fact": plainFact{Key: "k", N: 3}, "dict": map[string]any{"Kind": "space", "ID": "MH1", "Name": ""},
		"row": deepView{Name: "v", Rows: []plainFact{{Key: "a"}, {Key: "b", N: 2}}, By: map[string]int{"x": 1}}} {
		b.Run(name, func(b *testing.B) {
			for range b.N {
				if _, _, ok := keptDataKey(nil, d); !ok {
					b.Fatal("not kept")
				}
			}
		})
	}
}

// TestKeptTextFoundWithoutAllocating_Issue25: a text found kept costs no
// allocation for its key, whatever the data (a string, a dict of values,
// a dict holding a list and a struct, a struct of lists and values): the
// key is encoded into a pooled buffer and looked up as it is (it was made
// a string on the heap, with the buffer it was written in, at every call).
// A map of another type than map[string]any is read by reflection, which
// copies its keys and values.
func TestKeptTextFoundWithoutAllocating_Issue25(t *testing.T) {
	if raceEnabled {
		t.Skip("sync.Pool drops items at random under -race")
	}
	s, err := LoadFS(fstest.MapFS{
		"languages.txt": {Data: []byte("en\n")},
		"g/en/a.tmpl":   {Data: []byte(`{{define "x"}}{{printf "%#v" .}}{{end}}`)},
	})
	if err != nil {
		t.Fatal(err)
	}
	d := s.lookup("g", "en", "x")
	for i, data := range []any{
		"a", plainFact{Key: "rep", N: 1},
		map[string]any{"K": "a", "N": 2, "B": true},
		map[string]any{"L": []string{"a", "b"}, "F": plainFact{Key: "rep"}, "n": nil},
		deepView{Name: "v", Rows: []plainFact{{Key: "a"}, {Key: "b", N: 2}}, Any: []string{"a"}},
		map[string]any{"p": deepView{Rows: []plainFact{{Key: "a"}}, Any: map[string]any{"K": []int{1}}}, "you": true},
	} {
		want, err := s.kept.render(d, data)
		if err != nil {
			t.Fatal(err)
		}
		hits := s.kept.hits.Load()
		n := testing.AllocsPerRun(100, func() {
			if got, _ := s.kept.render(d, data); got != want {
				t.Fatalf("datum %d: %q, want %q", i, got, want)
			}
		})
		if s.kept.hits.Load() == hits {
			t.Fatalf("datum %d: never found kept", i)
		}
		if n != 0 {
			t.Errorf("datum %d (%#v): a text found kept allocates %.0f times; want none", i, data, n)
		}
	}
}
