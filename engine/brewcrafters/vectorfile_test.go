package brewcrafters

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/pbem-referee/referee/engine/brewcrafters/catalog"
	"github.com/pbem-referee/referee/engine/enginetest"
)

// The test vectors of the spec (§11) that play moves live in
// testdata/*.vectors (issue 25, "rule-vector tests in one shape": the
// layout of engine/dicebrewing and engine/heavenale), one CASE per
// vector, with these lines (seats by name: ann, bob, cat, dan, eve; A and
// B are the seat ACTOR named and the next one):
//
//	CASE <id> <title>          starts a vector; END ends it; # comments
//	SETUP <n> <seed> [opt=val...]   a new n-player first game, ann starting (newGame)
//	SEASON <k>                 sets the season (0..11)
//	TO <phase>|season <k>      answers every decision with its default
//	                           until the phase (market, brewery) or season k
//	ACTOR                      A is the seat owing the next decision, B the next seat
//	SET <seat>.<field> = <v>   a field of the player's record (its JSON
//	                           name: ing is a bag, "5M 2H 1Y" or "-"; any
//	                           other a JSON value)
//	HIRE <seat> <worker>       the worker leaves the display for the seat
//	PLAY <line> [/ <line>...]  each line answers the next decision, whoever owes it
//	DO <seat> <line>           a line that must apply (and pass Check)
//	REFUSE <seat> <line> = <rule>   a line refused under the rule id, the state unchanged
//	EXPECT <query> = <value>   see vquery
//	MARK                       remembers the state for DELTA
//	DELTA <query> = <value>    the change of a number, or of a bag (ing,
//	                           goods), since MARK
func TestVectors(t *testing.T) { enginetest.RunVectorFiles(t, 10, runVectorCase) }

var vectorSeats = []string{"ann", "bob", "cat", "dan", "eve"}

func runVectorCase(t *testing.T, c enginetest.VectorCase) {
	var s, mark *State
	actor := -1
	for _, l := range c.Lines {
		at := fmt.Sprintf("%s:%d", c.File, l.N)
		seat := func(name string) int {
			switch {
			case name == "A" && actor >= 0:
				return actor
			case name == "B" && actor >= 0:
				return (actor + 1) % len(s.P)
			}
			for i, n := range vectorSeats {
				if n == name && i < len(s.P) {
					return i
				}
			}
			t.Fatalf("%s: no seat %q", at, name)
			return -1
		}
		atoi := func(v string) int {
			n, err := strconv.Atoi(strings.TrimSpace(v))
			if err != nil {
				t.Fatalf("%s: not a number %q", at, v)
			}
			return n
		}
		head, value, hasValue := strings.Cut(l.Text, " = ")
		if !hasValue && strings.HasSuffix(l.Text, " =") {
			head, hasValue = strings.TrimSuffix(l.Text, " ="), true
		}
		value = strings.TrimSpace(value)
		f := strings.Fields(head)
		if s == nil && f[0] != "SETUP" {
			t.Fatalf("%s: SETUP first", at)
		}
		// rest is the head after its first n words (a command line).
		rest := func(n int) string {
			r := head
			for range n {
				r = strings.TrimSpace(r)
				_, r, _ = strings.Cut(r, " ")
			}
			return strings.TrimSpace(r)
		}
		switch f[0] {
		case "SETUP":
			var kv []string
			for _, o := range f[3:] {
				k, v, _ := strings.Cut(o, "=")
				kv = append(kv, k, v)
			}
			s, actor = newGame(t, atoi(f[1]), f[2], kv...), -1
		case "SEASON":
			s.Season = atoi(f[1])
		case "TO":
			if f[1] == "season" {
				toSeason(t, s, atoi(f[2]))
			} else {
				toPhase(t, s, f[1])
			}
		case "ACTOR":
			actor = s.Pending()[0].Seat
		case "SET":
			if !hasValue {
				t.Fatalf("%s: SET without =", at)
			}
			who, field, _ := strings.Cut(f[1], ".")
			setPlayerField(t, at, &s.P[seat(who)], field, value)
		case "HIRE":
			p := &s.P[seat(f[1])]
			p.Workers = append(p.Workers, f[2])
			s.Workers = remove(s.Workers, f[2])
		case "PLAY":
			for _, line := range strings.Split(rest(1), " / ") {
				d := s.Pending()[0]
				if re := try(s, d.Seat, line); re != nil {
					t.Fatalf("%s: %s %q: %v", at, vectorSeats[d.Seat], line, re)
				}
				if err := s.Check(); err != nil {
					t.Fatalf("%s: after %q: %v", at, line, err)
				}
			}
		case "DO":
			do(t, s, seat(f[1]), rest(2))
		case "REFUSE":
			before, err := json.Marshal(s)
			if err != nil {
				t.Fatal(err)
			}
			re := try(s, seat(f[1]), rest(2))
			if re == nil || re.Rule != value {
				t.Fatalf("%s: %s %q: %v, want rule %s", at, f[1], rest(2), re, value)
			}
			if after, _ := json.Marshal(s); string(after) != string(before) {
				t.Errorf("%s: a refused line changed the state", at)
			}
		case "EXPECT":
			if !hasValue {
				t.Fatalf("%s: EXPECT without =", at)
			}
			got := vquery(t, at, s, seat, f[1])
			want := value
			switch w := strings.Fields(want); {
			case len(w) == 1 && (w[0] == "A" || w[0] == "B" || isSeatName(w[0])):
				want = strconv.Itoa(seat(w[0]))
			case f[1] == "pending" && len(w) == 2:
				want = vectorSeats[seat(w[0])] + " " + w[1]
			}
			if got != want {
				t.Errorf("%s: %s = %s, want %s", at, f[1], got, want)
			}
		case "MARK":
			mark = s.Clone().(*State)
		case "DELTA":
			if mark == nil || !hasValue {
				t.Fatalf("%s: DELTA without MARK or =", at)
			}
			was, now := vquery(t, at, mark, seat, f[1]), vquery(t, at, s, seat, f[1])
			var got string
			if a, err := strconv.Atoi(was); err == nil {
				b := atoi(now)
				got = strconv.Itoa(b - a)
			} else {
				got = bagText(parseBag(t, at, now).Sub(parseBag(t, at, was)))
			}
			if got != value {
				t.Errorf("%s: %s changed by %s (%s -> %s), want %s", at, f[1], got, was, now, value)
			}
		default:
			t.Fatalf("%s: unknown line %q", at, l.Text)
		}
	}
	if s == nil {
		t.Fatalf("%s:%d: an empty case", c.File, c.Line)
	}
}

func isSeatName(w string) bool {
	for _, n := range vectorSeats {
		if n == w {
			return true
		}
	}
	return false
}

// parseBag reads "5M 2H 1Y" ("-" or "" empty).
func parseBag(t *testing.T, at, v string) catalog.Bag {
	var b catalog.Bag
	if v == "-" {
		return b
	}
	for _, f := range strings.Fields(v) {
		i := catalog.IngIndex(f[len(f)-1:])
		n, err := strconv.Atoi(f[:len(f)-1])
		if i < 0 || err != nil {
			t.Fatalf("%s: not a bag %q", at, v)
		}
		b[i] += n
	}
	return b
}

func bagText(b catalog.Bag) string {
	if s := b.String(); s != "" {
		return s
	}
	return "-"
}

// setPlayerField sets one field of a player's record by its JSON name.
func setPlayerField(t *testing.T, at string, p *Player, field, value string) {
	if field == "ing" {
		p.Ing = parseBag(t, at, value)
		return
	}
	raw, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	if _, ok := m[field]; !ok {
		t.Fatalf("%s: a player has no field %q", at, field)
	}
	m[field] = json.RawMessage(value)
	if raw, err = json.Marshal(m); err != nil {
		t.Fatalf("%s: %s = %s: %v", at, field, value, err)
	}
	var np Player
	if err := json.Unmarshal(raw, &np); err != nil {
		t.Fatalf("%s: %s = %s: %v", at, field, value, err)
	}
	*p = np
}

// vquery answers an EXPECT query:
//
//	<seat>.<field>        a field of the player's record by its JSON name (ing a bag)
//	<seat>.ing.total      the ingredients held
//	<seat>.capacity|cost|tokens   storage capacity, operating cost, brewery tokens
//	space.<i>.<field>     a Market space's field (goods a bag)
//	pending               "<seat> <kind>" of the next decision
//	pending.kind          its kind
//	pending.<param>       a parameter of the next decision
//	<field>[.<i>]         a field of the state by its JSON name (start, collab.1, ...)
func vquery(t *testing.T, at string, s *State, seat func(string) int, q string) string {
	parts := strings.Split(q, ".")
	jsonOf := func(v any) string {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	field := func(v any, name string) string {
		var m map[string]json.RawMessage
		if err := json.Unmarshal([]byte(jsonOf(v)), &m); err != nil {
			t.Fatal(err)
		}
		raw, ok := m[name]
		if !ok {
			t.Fatalf("%s: no field %q in %s", at, name, q)
		}
		return string(raw)
	}
	index := func(raw, i string) string {
		var xs []json.RawMessage
		if err := json.Unmarshal([]byte(raw), &xs); err != nil {
			t.Fatalf("%s: %s: not a list", at, q)
		}
		k, err := strconv.Atoi(i)
		if err != nil || k < 0 || k >= len(xs) {
			t.Fatalf("%s: %s: no item %s", at, q, i)
		}
		return string(xs[k])
	}
	switch {
	case parts[0] == "A" || parts[0] == "B" || isSeatName(parts[0]):
		p := &s.P[seat(parts[0])]
		switch {
		case len(parts) == 3 && parts[1] == "ing" && parts[2] == "total":
			return strconv.Itoa(p.Ing.Total())
		case len(parts) == 2 && parts[1] == "ing":
			return bagText(p.Ing)
		case len(parts) == 3 && parts[1] == "ing" && catalog.IngIndex(parts[2]) >= 0:
			return strconv.Itoa(p.Ing[catalog.IngIndex(parts[2])])
		case len(parts) == 2 && parts[1] == "capacity":
			return strconv.Itoa(s.capacity(p))
		case len(parts) == 2 && parts[1] == "cost":
			return strconv.Itoa(s.opCost(p))
		case len(parts) == 2 && parts[1] == "tokens":
			return strconv.Itoa(s.tokens(p))
		case len(parts) == 2:
			return field(p, parts[1])
		case len(parts) == 3:
			return index(field(p, parts[1]), parts[2])
		}
	case parts[0] == "space" && len(parts) == 3:
		sp := s.Spaces[atoiOr(t, at, parts[1])]
		if parts[2] == "goods" {
			return bagText(sp.Goods)
		}
		return field(sp, parts[2])
	case parts[0] == "pending":
		ds := s.Pending()
		if len(ds) == 0 {
			return "none"
		}
		switch {
		case len(parts) == 1:
			return vectorSeats[ds[0].Seat] + " " + ds[0].Kind
		case parts[1] == "kind":
			return ds[0].Kind
		}
		return fmt.Sprint(ds[0].Params[parts[1]])
	case len(parts) == 1:
		return field(s, parts[0])
	case len(parts) == 2:
		return index(field(s, parts[0]), parts[1])
	}
	t.Fatalf("%s: no query %q", at, q)
	return ""
}

func atoiOr(t *testing.T, at, v string) int {
	n, err := strconv.Atoi(v)
	if err != nil {
		t.Fatalf("%s: not a number %q", at, v)
	}
	return n
}

// TestEveryVectorKept: the specification's 30 test vectors (TV-01 to
// TV-30, §11) are each played once, by a case of testdata/*.vectors or by
// a Go test of vectors_test.go (its "// TV-nn" comment): moving a vector
// between the two shapes cannot lose one.
func TestEveryVectorKept(t *testing.T) {
	where := map[string][]string{}
	files, _ := filepath.Glob("testdata/*.vectors")
	for _, f := range files {
		for _, c := range enginetest.ReadVectors(t, f, false) {
			where[c.ID] = append(where[c.ID], fmt.Sprintf("%s:%d", f, c.Line))
		}
	}
	src, err := os.ReadFile("vectors_test.go")
	if err != nil {
		t.Fatal(err)
	}
	comment := regexp.MustCompile(`(?m)^// (TV-\d\d(?:, TV-\d\d)*) `)
	id := regexp.MustCompile(`TV-\d\d`)
	for _, m := range comment.FindAllStringSubmatch(string(src), -1) {
		for _, v := range id.FindAllString(m[1], -1) {
			where[v] = append(where[v], "vectors_test.go")
		}
	}
	for k := 1; k <= 30; k++ {
		v := fmt.Sprintf("TV-%02d", k)
		if len(where[v]) != 1 {
			t.Errorf("%s is played %d times: %v", v, len(where[v]), where[v])
		}
		delete(where, v)
	}
	if len(where) > 0 {
		t.Errorf("vectors the specification does not have: %v", where)
	}
}
