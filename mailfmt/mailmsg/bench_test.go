package mailmsg

import (
	"encoding/json"
	"fmt"
	"testing"
)

func BenchmarkCompose(b *testing.B) {
	tag, _ := SeatTag("g42", 1, "k7x9q2abcd3e", 57)
	o := Out{
		From: goldenReferee, To: Address{Name: "Anna Rossi", Addr: "anna@rossi.example"}, Tag: tag,
		Subject: "Dice Brewing: your turn", Reply: true, MessageID: "<rf.g42.1.57.a1b2@example.test>",
		References: []string{"<rf.g42.x.55.k3@example.test>"}, Date: goldenDate,
		Text: prompt,
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Compose(o); err != nil {
			b.Fatal(err)
		}
	}
}

const prompt = `Dice Brewing - game g42, move 57
It is your turn, Anna (seat 1).

Your options:
  1  PLACE MH1 SEED, MH1+ B3
  2  STORE Y5 G4
  3  PASS

-- 
Referee of game g42 - reply STATUS for the full board
`

// BenchmarkComposeJSON: a mail with a JSON part of a view's size (12 KB
// compact, with non-ASCII names), checked, and said valid as the tell
// stage gives it (Out.JSONValid, issue 25).
func BenchmarkComposeJSON(b *testing.B) {
	tag, _ := SeatTag("g42", 1, "k7x9q2abcd3e", 57)
	for _, valid := range []bool{false, true} {
		o := Out{
			From: goldenReferee, To: Address{Name: "Anna Rossi", Addr: "anna@rossi.example"}, Tag: tag,
			Subject: "Dice Brewing: your turn", MessageID: "<rf.g42.1.57.a1b2@example.test>",
			Date: goldenDate, Text: prompt, JSON: benchView(false), JSONValid: valid,
		}
		b.Run(map[bool]string{false: "checked", true: "said-valid"}[valid], func(b *testing.B) {
			b.SetBytes(int64(len(o.JSON)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Compose(o); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// benchView is a view-like JSON text: a menu of options with cards and
// facts, players with names in several scripts; indented as the JSON
// part was before issue 25, or compact.
func benchView(indent bool) []byte {
	var menu []any
	for i := range 60 {
		menu = append(menu, map[string]any{"cmd": fmt.Sprintf("B INSTALL CARD%d", i), "group": "install", "rank": i % 5,
			"card": map[string]any{"name": "Double Batch Brewing System", "rule": "BC-5.8.4",
				"facts": []any{map[string]any{"key": "wage", "n": 2}, map[string]any{"key": "yields", "goods": "4M 3H 2F"}}}})
	}
	v := map[string]any{"game": "g42", "seat": 1, "token": 57, "title": "Brew Crafters g42",
		"players": []any{map[string]any{"name": "Zoë Müller", "score": 12}, map[string]any{"name": "Łukasz 李", "score": 9}},
		"view":    map[string]any{"menu": menu}}
	if indent {
		out, _ := json.MarshalIndent(v, "", "  ")
		return out
	}
	out, _ := json.Marshal(v)
	return out
}
