package records

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/pbem-referee/referee/engine"
)

// oddStrings are strings encoding/json escapes or keeps: plain, HTML,
// control, quote, backslash, accents, invalid UTF-8, U+2028.
var oddStrings = []string{"", "Ann", "Zoë Müller", "a<b>&c", "tab\there", `q"uote`, `back\slash`,
	"bad\xffutf8", "line\u2028sep", "para\u2029", "\x00nul", "日本語", "ok\u007f", "A1 B2 PASS"}

type namedString string

// randValue is a params value of any kind the log's entries hold, and
// some they do not (floats, a named type, a struct, nested lists).
func randValue(r *rand.Rand, depth int) any {
	str := func() string { return oddStrings[r.IntN(len(oddStrings))] }
	switch k := r.IntN(16); {
	case k == 0:
		return nil
	case k == 1:
		return str()
	case k == 2:
		return r.IntN(3) == 0
	case k == 3:
		return r.IntN(2000) - 1000
	case k == 4:
		return int64(r.Uint64())
	case k == 5:
		return []float64{r.Float64() * 1e22, 0.5, 1e-7}[r.IntN(3)]
	case k == 6:
		if r.IntN(3) == 0 {
			return []int(nil)
		}
		out := make([]int, r.IntN(4))
		for i := range out {
			out[i] = r.IntN(100) - 10
		}
		return out
	case k == 7:
		if r.IntN(3) == 0 {
			return []string(nil)
		}
		out := make([]string, r.IntN(4))
		for i := range out {
			out[i] = str()
		}
		return out
	case k == 8:
		if r.IntN(3) == 0 {
			return map[string]string(nil)
		}
		out := map[string]string{}
		for range r.IntN(4) {
			out[str()] = str()
		}
		return out
	case k == 9 && depth < 3:
		return randParams(r, depth+1)
	case k == 10 && depth < 3:
		out := make([]any, r.IntN(4))
		for i := range out {
			out[i] = randValue(r, depth+1)
		}
		return out
	case k == 11:
		return namedString(str())
	case k == 12:
		return struct {
			A int    `json:"a"`
			B string `json:"b,omitempty"`
		}{r.IntN(9), str()}
	case k == 13:
		return uint8(r.IntN(256))
	case k == 14:
		return time.Date(2026, 12, 7, r.IntN(24), 0, 0, r.IntN(1e9), time.UTC)
	}
	return "x"
}

func randParams(r *rand.Rand, depth int) map[string]any {
	if r.IntN(5) == 0 {
		return nil
	}
	m := map[string]any{}
	for range r.IntN(7) {
		m[oddStrings[r.IntN(len(oddStrings))]+[]string{"", "round", "order", "options"}[r.IntN(4)]] = randValue(r, depth)
	}
	return m
}

func randVis(r *rand.Rand) engine.Visibility {
	switch r.IntN(4) {
	case 0:
		return engine.Public
	case 1:
		return engine.Only(r.IntN(5))
	case 2:
		return engine.Visibility{Public: true, Seats: []int{0, 2}}
	}
	return engine.Visibility{Seats: []int{}}
}

func randEntry(r *rand.Rand) Entry {
	zones := []*time.Location{time.UTC, time.FixedZone("CET", 3600), time.FixedZone("odd", -(5*3600 + 30*60))}
	e := Entry{Seq: uint64(r.IntN(3)) * r.Uint64N(1e6), Kind: []string{EntryCreate, EntryStart, EntryOrg, EntryInput, "k<&>"}[r.IntN(5)],
		Seat: r.IntN(6) - 1, Vis: randVis(r), Params: randParams(r, 0)}
	if r.IntN(4) > 0 {
		e.At = time.Date(2020+r.IntN(10), time.Month(1+r.IntN(12)), 1+r.IntN(28), r.IntN(24), r.IntN(60), r.IntN(60), r.IntN(3)*r.IntN(1e9), zones[r.IntN(len(zones))])
	}
	if r.IntN(3) == 0 {
		e.Text = oddStrings[r.IntN(len(oddStrings))]
	}
	if r.IntN(4) == 0 {
		e.Ruleset = "sha" + oddStrings[r.IntN(len(oddStrings))]
	}
	for range r.IntN(4) {
		ev := engine.Event{Type: oddStrings[r.IntN(len(oddStrings))], Seat: r.IntN(4) - 1, Vis: randVis(r), Params: randParams(r, 0)}
		switch r.IntN(4) {
		case 0:
			ev.Redacted = map[string]any{}
		case 1:
			ev.Redacted = randParams(r, 1)
		case 2:
			ev.Err = &engine.RuleError{Code: "bad", Rule: "DB-5.3.4", Params: randParams(r, 1)}
		}
		e.Setup = append(e.Setup, ev)
	}
	if r.IntN(5) == 0 {
		e.Setup = []engine.Event{}
	}
	if r.IntN(5) == 0 {
		e.Step = &engine.Step{Seat: 1, Cmd: "PASS", How: "move", Events: e.Setup, Token: 3}
	}
	return e
}

// TestEntryEncodedAsEncodingJSONDoes_Issue24: EncodeEntry writes what
// json.Marshal writes, byte for byte, for 20,000 generated entries (every
// kind of params value, strings that need escaping, set-up events with
// and without a redaction or an error, steps, times in several zones):
// the log's stored bytes did not change when the hand-built encoding
// replaced encoding/json's reflection.
func TestEntryEncodedAsEncodingJSONDoes_Issue24(t *testing.T) {
	r := rand.New(rand.NewPCG(24, 5000))
	bad := 0
	for i := range 20000 {
		e := randEntry(r)
		want, werr := json.Marshal(e)
		got, gerr := EncodeEntry(&e)
		if (werr != nil) != (gerr != nil) || !bytes.Equal(got, want) {
			if bad++; bad <= 3 {
				t.Errorf("entry %d:\n got %s (%v)\nwant %s (%v)", i, got, gerr, want, werr)
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of 20,000 entries encoded otherwise", bad)
	}
	far := Entry{At: time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)}
	if _, err := EncodeEntry(&far); err == nil {
		t.Fatal("a year past 9999 encoded; encoding/json refuses it")
	}
}

// FuzzEncodeEntry: for any strings, numbers and seats, EncodeEntry is
// json.Marshal.
func FuzzEncodeEntry(f *testing.F) {
	f.Add("create", "Ann", "a<b", int64(3), -1, uint64(0), int64(0))
	f.Add("org", "bad\xff", "\u2028", int64(-7), 2, uint64(9), int64(1e9))
	f.Fuzz(func(t *testing.T, kind, s1, s2 string, n int64, seat int, seq uint64, nanos int64) {
		e := Entry{Seq: seq, At: time.Unix(0, nanos).UTC(), Kind: kind, Seat: seat, Text: s1, Vis: engine.Only(seat),
			Params: map[string]any{s1: s2, s2: n, "order": []string{s1, s2}, "options": map[string]string{s2: s1}},
			Setup:  []engine.Event{{Type: s2, Seat: seat, Params: map[string]any{kind: []any{s1, n, nil}}, Redacted: map[string]any{}}}}
		want, werr := json.Marshal(e)
		got, gerr := EncodeEntry(&e)
		if (werr != nil) != (gerr != nil) || !bytes.Equal(got, want) {
			t.Fatalf("got %s (%v)\nwant %s (%v)", got, gerr, want, werr)
		}
	})
}
