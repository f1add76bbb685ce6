package tell

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/pbem-referee/referee/templates"
)

// TestJSONPartIsCompactAndTheSameValue_Issue25: marshalPart writes the
// JSON value json.MarshalIndent(v, "", "  ") wrote (the JSON part before
// issue 25) as compact text: no byte outside a string but the tokens, and
// <, >, & as themselves. Generated values (nested maps and lists, empty
// ones, strings with quotes, backslashes, braces, commas, colons, HTML and
// non-ASCII characters, numbers, booleans, null) and every JSON part of
// the mails of random games of the four games.
func TestJSONPartIsCompactAndTheSameValue_Issue25(t *testing.T) {
	check := func(what string, v any) {
		t.Helper()
		old, err1 := json.MarshalIndent(v, "", "  ")
		got, err2 := marshalPart(v)
		if (err1 == nil) != (err2 == nil) {
			t.Fatalf("%s: errors %v / %v", what, err1, err2)
		}
		if err1 != nil {
			return
		}
		checkCompact(t, what, got)
		var a, b any
		if err := json.Unmarshal(old, &a); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(got, &b); err != nil || !reflect.DeepEqual(a, b) {
			t.Fatalf("%s: got %s (%v), want the value of\n%s", what, got, err, old)
		}
	}
	rng := rand.New(rand.NewPCG(25, 25))
	strs := []string{"", "a", `"`, `\`, `\"`, `"\\"`, "{", "}", "[]", ",", ":", `a":"b`, "<&>", "é ü 文", "\n\t", "\u2028", " , : "}
	var gen func(depth int) any
	gen = func(depth int) any {
		switch k := rng.IntN(9); {
		case k == 0 && depth < 5:
			m := map[string]any{}
			for range rng.IntN(4) {
				m[strs[rng.IntN(len(strs))]] = gen(depth + 1)
			}
			return m
		case k == 1 && depth < 5:
			l := []any{}
			for range rng.IntN(4) {
				l = append(l, gen(depth+1))
			}
			return l
		case k == 2:
			return rng.IntN(2000) - 1000
		case k == 3:
			return rng.Float64() * 1e6
		case k == 4:
			return rng.IntN(2) == 0
		case k == 5:
			return nil
		default:
			return strs[rng.IntN(len(strs))]
		}
	}
	n, steps := 3000, 30
	if raceEnabled {
		n, steps = 300, 8
	}
	for i := range n {
		check(fmt.Sprint("generated ", i), gen(0))
	}
	check("unmarshalable", map[string]any{"f": func() {}})
	set, err := templates.Load()
	if err != nil {
		t.Fatal(err)
	}
	te := &Teller{Render: &Renderer{T: set}, Domain: "example.test", ReceiptWindow: time.Minute}
	parts := 0
	playedMailsAs(t, allGames, []string{"en"}, []string{"every"}, []string{"json"}, []int{2, 3}, 1, steps, func(in *Input) (*Told, error) {
		told, err := te.Mails(in)
		for _, m := range told.Mails {
			if m.JSON != nil {
				checkCompact(t, in.Game.Game, m.JSON)
				parts++
			}
		}
		return told, err
	})
	if parts < 6*steps {
		t.Fatalf("%d JSON parts compared", parts)
	}
}

// checkCompact fails unless js is valid JSON with nothing between its
// tokens and no escaped <, > or &.
func checkCompact(t *testing.T, what string, js []byte) {
	t.Helper()
	var c bytes.Buffer
	if err := json.Compact(&c, js); err != nil || !bytes.Equal(c.Bytes(), js) {
		t.Fatalf("%s: not compact JSON (%v):\n%s", what, err, js)
	}
	if bytes.Contains(js, []byte(`\u003c`)) || bytes.Contains(js, []byte(`\u003e`)) || bytes.Contains(js, []byte(`\u0026`)) {
		t.Fatalf("%s: an escaped <, > or &: %s", what, js)
	}
}

// BenchmarkMarshalPart: a JSON part of a Brewcrafters mail, indented by
// encoding/json (the part before issue 25) and compact by marshalPart.
func BenchmarkMarshalPart(b *testing.B) {
	set, err := templates.Load()
	if err != nil {
		b.Fatal(err)
	}
	te := &Teller{Render: &Renderer{T: set}, Domain: "example.test", ReceiptWindow: time.Minute}
	var part any
	playedMailsAs(b, []string{"brewcrafters"}, []string{"en"}, []string{"every"}, []string{"json"}, []int{2}, 1, 10, func(in *Input) (*Told, error) {
		told, err := te.Mails(in)
		for _, m := range told.Mails {
			part = nil
			if err := json.Unmarshal(m.JSON, &part); err != nil {
				b.Fatal(err)
			}
		}
		return told, err
	})
	b.Run("MarshalIndent", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			if _, err := json.MarshalIndent(part, "", "  "); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("marshalPart", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			if _, err := marshalPart(part); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// TestJSONPartKeysAsAMapWroteThem_Issue25: the JSON part is an object
// (jsonMail, no longer a map made at every mail) whose keys come in the
// order encoding/json writes a map's, so its bytes are the map's: every
// part of the mails of random games of the four games, every language,
// NOTIFY every, turn and digest, read back as a map of its values and
// written again, is the same bytes, and has every key a map had: the
// ones of every part, a prompt's with its prompt, a result's at the end.
func TestJSONPartKeysAsAMapWroteThem_Issue25(t *testing.T) {
	set, err := templates.Load()
	if err != nil {
		t.Fatal(err)
	}
	tl := &Teller{Render: &Renderer{T: set}, Domain: "example.test", ReceiptWindow: time.Minute}
	parts, prompts := 0, 0
	steps := 60
	if testing.Short() || raceEnabled {
		steps = 15
	}
	always := []string{"deadline", "game", "kind", "notes", "reply", "seat", "status", "title", "token", "view", "waiting"}
	playedMailsAs(t, allGames, set.Languages(), nil, []string{"json"}, []int{2, 3}, 5, steps, func(in *Input) (*Told, error) {
		told, err := tl.Mails(in)
		if err != nil {
			return nil, err
		}
		for _, m := range told.Mails {
			if m.JSON == nil {
				continue
			}
			var byKey map[string]json.RawMessage
			if err := json.Unmarshal(m.JSON, &byKey); err != nil {
				t.Fatal(err)
			}
			again, err := marshalPart(byKey)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(again, m.JSON) {
				t.Fatalf("%s: the part is not a map's bytes:\n%s\nas a map:\n%s", in.Game.Game, m.JSON, again)
			}
			want := always
			if p := in.Table.Prompts[m.Seat]; p != nil && !p.Complete {
				want = append(slices.Clone(want), "prompt", "legal")
				prompts++
			}
			if in.Table.State.Result() != nil {
				want = append(slices.Clone(want), "result", "seed")
			}
			for _, k := range want {
				if _, ok := byKey[k]; !ok {
					t.Fatalf("%s: the part has no %q:\n%s", in.Game.Game, k, m.JSON)
				}
			}
			parts++
		}
		return told, nil
	})
	if parts < 100 || prompts < 50 {
		t.Fatalf("%d parts, %d with a prompt: the test compares nothing", parts, prompts)
	}
	t.Logf("%d parts, %d with a prompt", parts, prompts)
}
