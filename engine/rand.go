package engine

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"strconv"
	"strings"
)

// Rand is a game's random source: a PCG generator (math/rand/v2, whose
// algorithm is fixed) seeded from the game's seed, plus a script of forced
// outcomes. It lives in the state, so replaying a game's moves from its seed
// reproduces every die and draw.
//
// Each draw names a kind ("dice", "draw", "first"...). When the script holds
// an entry of that kind, the first such entry decides the outcome instead of
// the generator; an entry that does not fit the draw (a die value out of
// range, a card not in the deck) is consumed, recorded as a miss, and the
// generator decides.
type Rand struct {
	pcg    rand.PCG
	drawn  int64
	script []Forced
	misses []Forced
}

// Forced is one scripted outcome.
type Forced struct {
	Kind  string `json:"kind"`
	Value string `json:"value"`
}

// Commitment returns the public commitment to a seed: the hex SHA-256 of the
// seed's bytes. Anyone can check it with sha256sum once the seed is revealed.
func Commitment(seed string) string {
	sum := sha256.Sum256([]byte(seed))
	return hex.EncodeToString(sum[:])
}

// NewRand derives a generator from a seed string. Different seeds give
// independent streams; the derivation is domain-separated from Commitment.
func NewRand(seed string) Rand {
	sum := sha256.Sum256([]byte("pbem-referee rand v1\x00" + seed))
	return Rand{pcg: *rand.NewPCG(binary.BigEndian.Uint64(sum[0:8]), binary.BigEndian.Uint64(sum[8:16]))}
}

type randJSON struct {
	PCG    string   `json:"pcg"`
	Drawn  int64    `json:"drawn"`
	Script []Forced `json:"script,omitempty"`
}

// MarshalJSON encodes the generator state, the draw count and the script.
func (r Rand) MarshalJSON() ([]byte, error) {
	b, err := r.pcg.MarshalBinary()
	if err != nil {
		return nil, err
	}
	return json.Marshal(randJSON{PCG: hex.EncodeToString(b), Drawn: r.drawn, Script: r.script})
}

// UnmarshalJSON decodes what MarshalJSON produced.
func (r *Rand) UnmarshalJSON(data []byte) error {
	var j randJSON
	if err := json.Unmarshal(data, &j); err != nil {
		return err
	}
	b, err := hex.DecodeString(j.PCG)
	if err != nil {
		return fmt.Errorf("rand: %w", err)
	}
	var p rand.PCG
	if err := p.UnmarshalBinary(b); err != nil {
		return fmt.Errorf("rand: %w", err)
	}
	*r = Rand{pcg: p, drawn: j.Drawn, script: j.Script}
	return nil
}

// Clone returns an independent copy.
func (r Rand) Clone() Rand {
	c := r
	c.script = append([]Forced(nil), r.script...)
	c.misses = append([]Forced(nil), r.misses...)
	return c
}

// Drawn returns how many outcomes the generator has produced.
func (r *Rand) Drawn() int64 { return r.drawn }

// Push appends scripted outcomes of one kind.
func (r *Rand) Push(kind string, values ...string) {
	for _, v := range values {
		r.script = append(r.script, Forced{Kind: kind, Value: v})
	}
}

// Script returns the outcomes still scripted.
func (r *Rand) Script() []Forced { return append([]Forced(nil), r.script...) }

// TakeMisses returns the scripted entries that did not fit their draw since
// the last call, and forgets them.
func (r *Rand) TakeMisses() []Forced {
	m := r.misses
	r.misses = nil
	return m
}

// Blind replaces the generator by an unrelated stream and drops the script.
// The Table uses it on a throw-away copy when it checks a sealed answer, so
// that the check reveals nothing about the real outcomes to come.
func (r *Rand) Blind() {
	b, _ := r.pcg.MarshalBinary()
	sum := sha256.Sum256(append([]byte("blind\x00"), b...))
	r.pcg = *rand.NewPCG(binary.BigEndian.Uint64(sum[0:8]), binary.BigEndian.Uint64(sum[8:16]))
	r.script = nil
}

func (r *Rand) next(kind string) (Forced, bool) {
	for i, f := range r.script {
		if strings.EqualFold(f.Kind, kind) {
			r.script = append(r.script[:i:i], r.script[i+1:]...)
			return f, true
		}
	}
	return Forced{}, false
}

// uintn returns a uniform value in [0, n) from the generator (Lemire's
// multiply-and-reject method, so no modulo bias).
func (r *Rand) uintn(n uint64) uint64 {
	r.drawn++
	threshold := -n % n
	for {
		hi, lo := bits.Mul64(r.pcg.Uint64(), n)
		if lo >= threshold {
			return hi
		}
	}
}

// Intn returns a value in [0, n). A scripted value must be an integer in that
// range. n must be positive.
func (r *Rand) Intn(kind string, n int) int {
	if f, ok := r.next(kind); ok {
		if v, err := strconv.Atoi(strings.TrimSpace(f.Value)); err == nil && v >= 0 && v < n {
			return v
		}
		r.misses = append(r.misses, f)
	}
	return int(r.uintn(uint64(n)))
}

// Roll returns a die value in [1, sides]. A scripted value must be in range.
func (r *Rand) Roll(kind string, sides int) int {
	if f, ok := r.next(kind); ok {
		if v, err := strconv.Atoi(strings.TrimSpace(f.Value)); err == nil && v >= 1 && v <= sides {
			return v
		}
		r.misses = append(r.misses, f)
	}
	return int(r.uintn(uint64(sides))) + 1
}

// Choose returns the index of one of labels, uniformly at random, or the one
// a scripted value names (compared case-insensitively).
func (r *Rand) Choose(kind string, labels []string) int {
	if f, ok := r.next(kind); ok {
		if i := indexFold(labels, f.Value); i >= 0 {
			return i
		}
		r.misses = append(r.misses, f)
	}
	return int(r.uintn(uint64(len(labels))))
}

// Take returns def, or the index of the label a scripted value names. Games
// use it for card draws and tile reveals: the deck order comes from a shuffle
// and def is the top card; a script can put a named card on top instead.
func (r *Rand) Take(kind string, labels []string, def int) int {
	if f, ok := r.next(kind); ok {
		if i := indexFold(labels, f.Value); i >= 0 {
			return i
		}
		r.misses = append(r.misses, f)
	}
	return def
}

// Shuffle permutes n elements (Fisher-Yates) with the generator. Shuffles are
// not scripted; script the draws that follow with Take instead.
func (r *Rand) Shuffle(n int, swap func(i, j int)) {
	for i := n - 1; i > 0; i-- {
		j := int(r.uintn(uint64(i + 1)))
		swap(i, j)
	}
}

func indexFold(labels []string, v string) int {
	v = strings.TrimSpace(v)
	for i, l := range labels {
		if strings.EqualFold(l, v) {
			return i
		}
	}
	return -1
}
