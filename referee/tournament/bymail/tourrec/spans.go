package tourrec

// Where a tournament's matches are in its record's bytes (records.go,
// Shape): a small scanner over the JSON json.Marshal writes, so that a
// record is compared match by match without being encoded again.
//
// Why a scanner of our own and not encoding/json (issue 25's review):
// json.Decoder finds the same spans (Token for the structure, a
// RawMessage per value, InputOffset for its end: matchSpansByDecoder in
// package bymail's spans_test.go, TestMatchSpansByDecoderAgree) at 8 times the CPU, 7 times
// the bytes and 600 times the allocations: BenchmarkMatchSpans, a
// 10,000-entrant Swiss record of 3 rounds (2 MB), 22 ms / 0.78 MB / 51
// allocations against 176 ms / 5.4 MB / 30,552 (load 16), and the scan
// runs at every load of a round opening's batches. encoding/json/jsontext
// (a token reader without those costs) needs GOEXPERIMENT=jsonv2 in
// go1.26, which the build does not set.

// MatchSpans finds in raw, a tournament's record, each match of each
// round: the elements of "matches" in each element of the top-level
// "rounds" ([from, to) in raw, by round). ok is false when raw is not one
// JSON object with a "rounds" array (or null) whose elements are objects
// with a "matches" array (or null).
func MatchSpans(raw []byte) (rounds [][]Span, ok bool) {
	p := &scanner{b: raw}
	found := false
	ok = p.object(func(key []byte) bool {
		if string(key) != "rounds" {
			return p.skip()
		}
		found = true
		return p.array(func() bool {
			ms, mfound := []Span{}, false
			ok := p.object(func(key []byte) bool {
				if string(key) != "matches" {
					return p.skip()
				}
				mfound = true
				return p.array(func() bool {
					p.ws()
					from := p.i
					if !p.skip() {
						return false
					}
					ms = append(ms, Span{from, p.i})
					return true
				})
			})
			rounds = append(rounds, ms)
			return ok && mfound
		})
	})
	p.ws()
	return rounds, ok && found && p.i == len(raw)
}

// scanner reads JSON from b at i.
type scanner struct {
	b []byte
	i int
}

func (p *scanner) ws() {
	for p.i < len(p.b) && (p.b[p.i] == ' ' || p.b[p.i] == '\t' || p.b[p.i] == '\n' || p.b[p.i] == '\r') {
		p.i++
	}
}

// eat reads byte c after any space.
func (p *scanner) eat(c byte) bool {
	p.ws()
	if p.i < len(p.b) && p.b[p.i] == c {
		p.i++
		return true
	}
	return false
}

// null reads a null after any space.
func (p *scanner) null() bool {
	p.ws()
	if len(p.b)-p.i >= 4 && string(p.b[p.i:p.i+4]) == "null" {
		p.i += 4
		return true
	}
	return false
}

// str reads a string and returns its bytes between the quotes, as
// written (escapes left as they are).
func (p *scanner) str() ([]byte, bool) {
	if !p.eat('"') {
		return nil, false
	}
	from := p.i
	for p.i < len(p.b) {
		switch p.b[p.i] {
		case '\\':
			p.i += 2
		case '"':
			p.i++
			return p.b[from : p.i-1], true
		default:
			p.i++
		}
	}
	return nil, false
}

// object reads an object, calling member with each key, positioned
// before its value, which member must read.
func (p *scanner) object(member func(key []byte) bool) bool {
	if !p.eat('{') {
		return false
	}
	if p.eat('}') {
		return true
	}
	for {
		key, ok := p.str()
		if !ok || !p.eat(':') || !member(key) {
			return false
		}
		if p.eat('}') {
			return true
		}
		if !p.eat(',') {
			return false
		}
	}
}

// array reads an array (or null: none), calling elem before each
// element, which elem must read.
func (p *scanner) array(elem func() bool) bool {
	if p.null() {
		return true
	}
	if !p.eat('[') {
		return false
	}
	if p.eat(']') {
		return true
	}
	for {
		if !elem() {
			return false
		}
		if p.eat(']') {
			return true
		}
		if !p.eat(',') {
			return false
		}
	}
}

// skip reads any value.
func (p *scanner) skip() bool {
	p.ws()
	if p.i >= len(p.b) {
		return false
	}
	switch p.b[p.i] {
	case '{':
		return p.object(func([]byte) bool { return p.skip() })
	case '[':
		return p.array(p.skip)
	case '"':
		_, ok := p.str()
		return ok
	}
	from := p.i
	for p.i < len(p.b) {
		switch p.b[p.i] {
		case ',', '}', ']', ' ', '\t', '\n', '\r':
			return p.i > from
		}
		p.i++
	}
	return p.i > from
}
