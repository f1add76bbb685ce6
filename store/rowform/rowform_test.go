package rowform

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

// randomItem is an item with every field drawn: empty or not, zero times
// or not (before 1970 too), a state of the three or another.
func randomItem(rng *rand.Rand) Item {
	str := func() string {
		return []string{"", "<rf.b1.0.0.1@example.test>", "g42", "prompt", "ann@example.test", "é ü 中", strings.Repeat("x", 300)}[rng.IntN(7)]
	}
	at := func() time.Time {
		switch rng.IntN(4) {
		case 0:
			return time.Time{}
		case 1:
			return time.Unix(0, rng.Int64N(1<<62)-1<<61).UTC()
		}
		return time.Date(2026, 12, 8, 10, 0, 0, 0, time.UTC).Add(time.Duration(rng.Int64N(1 << 50)))
	}
	it := Item{Key: str(), Game: str(), Kind: str(), To: str(), Created: at(), Due: at(), Attempts: rng.IntN(3) * rng.IntN(1000),
		LastAttempt: at(), LastError: str(), State: []string{"pending", "sent", "failed", "", "odd"}[rng.IntN(5)],
		Finished: at(), KeepUntil: at()}
	if n := rng.IntN(3); n > 0 {
		it.Meta = map[string]string{}
		for i := range n {
			it.Meta[fmt.Sprint("k", i, str())] = str()
		}
	}
	return it
}

// TestItemRoundTrip_Issue24: every field of 5,000 generated items reads
// back as written (times equal to the nanosecond), from a row that starts
// with ItemForm; a row cut short or with a byte more fails with ErrItem.
func TestItemRoundTrip_Issue24(t *testing.T) {
	rng := rand.New(rand.NewPCG(24, 8))
	for i := range 5000 {
		it := randomItem(rng)
		it.ID = uint64(i + 1)
		row := AppendItem(nil, it)
		if row[0] != ItemForm {
			t.Fatalf("row starts with %#x", row[0])
		}
		got, err := ParseItem(it.ID, row)
		if err != nil {
			t.Fatalf("item %d: %v", i, err)
		}
		for _, p := range []*time.Time{&it.Created, &it.Due, &it.LastAttempt, &it.Finished, &it.KeepUntil} {
			if !p.IsZero() {
				*p = p.UTC()
			}
		}
		if !reflect.DeepEqual(got, it) {
			t.Fatalf("item %d:\n got %+v\nwant %+v", i, got, it)
		}
		if _, err := ParseItem(it.ID, row[:rng.IntN(len(row))]); err != ErrItem {
			t.Fatalf("item %d: a row cut short reads: %v", i, err)
		}
		if _, err := ParseItem(it.ID, append(row, 0)); err != ErrItem {
			t.Fatalf("item %d: a row with a byte more reads: %v", i, err)
		}
	}
}

// TestAttemptsAgainstAMap_Issue24: a stem's row kept through 20,000
// random sets (counts 0 to forget, numbers near each other and far) reads
// as a map of the same sets does, after every step, through its bytes.
func TestAttemptsAgainstAMap_Issue24(t *testing.T) {
	rng := rand.New(rand.NewPCG(24, 9))
	var row []byte
	model := map[uint64]int{}
	for step := range 20000 {
		n := uint64(rng.IntN(64))
		if rng.IntN(10) == 0 {
			n = rng.Uint64() >> rng.IntN(64)
		}
		c := rng.IntN(4)
		a := ParseAttempts(row)
		changed := a.Set(n, c)
		if changed != (model[n] != c) {
			t.Fatalf("step %d: Set(%d, %d) changed %v, model had %d", step, n, c, changed, model[n])
		}
		if c == 0 {
			delete(model, n)
		} else {
			model[n] = c
		}
		row = AppendAttempts(nil, a)
		got := ParseAttempts(row)
		if len(got.Nums) != len(model) || !slices.IsSorted(got.Nums) {
			t.Fatalf("step %d: %v, want %v", step, got, model)
		}
		for i, n := range got.Nums {
			if model[n] != got.Counts[i] || got.Count(n) != model[n] {
				t.Fatalf("step %d: %d counted %d, want %d", step, n, got.Counts[i], model[n])
			}
		}
	}
}

// TestSplitJoin_Issue24: keys of the form <stem>/<n> split and join back;
// every other key (no '/', no number, a leading zero, too long, a sign)
// does not split.
func TestSplitJoin_Issue24(t *testing.T) {
	for _, k := range []string{"imap:a@x/INBOX/1765432100/7", "imap:a/b/1/0", "x/123456789012345678", "/5"} {
		stem, n, ok := Split(k)
		if !ok || Join(stem, n) != k || !strings.HasSuffix(stem, "/") {
			t.Errorf("%q: %q %d %v", k, stem, n, ok)
		}
	}
	for _, k := range []string{"", "7", "imap:a/INBOX/1/", "a/07", "a/1234567890123456789", "a/-1", "a/+1", "a/1x", "webhook-failed:ab12", "opsmail:2026-12-07"} {
		if _, _, ok := Split(k); ok {
			t.Errorf("%q split", k)
		}
	}
}

// FuzzParseItem: no bytes make ParseItem panic, and a row it reads writes
// back to a row that reads the same.
func FuzzParseItem(f *testing.F) {
	rng := rand.New(rand.NewPCG(24, 10))
	for range 20 {
		f.Add(AppendItem(nil, randomItem(rng)))
	}
	f.Fuzz(func(t *testing.T, v []byte) {
		it, err := ParseItem(1, v)
		if err != nil {
			return
		}
		again, err := ParseItem(1, AppendItem(nil, it))
		if err != nil || !reflect.DeepEqual(again, it) {
			t.Fatalf("%x: %+v, again %+v %v", v, it, again, err)
		}
	})
}

// FuzzParseAttempts: no bytes make ParseAttempts panic, and what it reads
// writes back to the same numbers and counts.
func FuzzParseAttempts(f *testing.F) {
	f.Add([]byte{1, 1, 1, 1, 1, 2})
	f.Fuzz(func(t *testing.T, v []byte) {
		a := ParseAttempts(v)
		if b := ParseAttempts(AppendAttempts(nil, a)); !reflect.DeepEqual(a, b) {
			t.Fatalf("%x: %v, again %v", v, a, b)
		}
	})
}

// TestItemRowAllocatedOnce_Issue24 (AppendItem, itemSize): the row of
// each of 3,000 generated items is made in one allocation when its Meta
// has one key or none (a mail's), fits the room asked for, and is the
// same bytes when made again from the item it reads as (Meta by key).
func TestItemRowAllocatedOnce_Issue24(t *testing.T) {
	rng := rand.New(rand.NewPCG(24, 25))
	for i := range 3000 {
		it := randomItem(rng)
		var row []byte
		allocs := testing.AllocsPerRun(1, func() { row = AppendItem(nil, it) })
		if len(it.Meta) <= 1 && allocs > 1 && !raceEnabled {
			t.Fatalf("item %d (%d keys of Meta): %.0f allocations", i, len(it.Meta), allocs)
		}
		if len(row) > itemSize(it) {
			t.Fatalf("item %d: a row of %d bytes, room for %d", i, len(row), itemSize(it))
		}
		back, err := ParseItem(0, row)
		if err != nil || !slices.Equal(AppendItem(nil, back), row) {
			t.Fatalf("item %d: the row is not made again the same (%v)", i, err)
		}
	}
}
