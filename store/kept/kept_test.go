package kept

import (
	"bytes"
	"fmt"
	"testing"
)

// TestCacheKeepsTheNewestSizeEntries: past Size entries the oldest put
// leaves first; a zero Size is DefaultSize; Peek keeps an entry, Take
// forgets it (every size 0-40, three times as many puts).
func TestCacheKeepsTheNewestSizeEntries(t *testing.T) {
	for size := 0; size <= 40; size++ {
		c := &Cache{Size: size}
		bound := size
		if bound == 0 {
			bound = DefaultSize
		}
		n := 3 * bound
		for i := range n {
			c.Put(fmt.Sprint(i), []byte{byte(i)}, i)
		}
		for i := range n {
			e := c.Peek(fmt.Sprint(i))
			if kept := i >= n-bound; (e != nil) != kept || e != nil && (e.V != i || e.Stamp[0] != byte(i)) {
				t.Errorf("size %d: entry %d: %+v, kept: %v", size, i, e, kept)
			}
		}
		id := fmt.Sprint(n - 1)
		if c.Peek(id) == nil || c.Take(id) == nil || c.Take(id) != nil || c.Peek(id) != nil {
			t.Errorf("size %d: Peek kept or Take did not forget", size)
		}
	}
}

// TestCacheOrderStaysBounded: ids taken out and never put back do not
// grow the eviction order past four times Size.
func TestCacheOrderStaysBounded(t *testing.T) {
	for _, size := range []int{1, 2, 5, 32} {
		c := &Cache{Size: size}
		for i := range 100 * size {
			c.Put(fmt.Sprint(i), nil, i)
			if i%10 != 0 { // most taken: the cache never fills to evict
				c.Take(fmt.Sprint(i))
			}
			if len(c.order) > 4*size+1 {
				t.Fatalf("size %d: order of %d after %d puts", size, len(c.order), i+1)
			}
		}
	}
}

// TestSnapsGivenOnlyForTheirStoredBytes: a snapshot kept is given back
// only for the stored bytes it came from, compared whole (the same
// bytes, another slice of them, not a prefix, not one byte changed at any
// place), and at most SnapsMax are kept, a new one in.
func TestSnapsGivenOnlyForTheirStoredBytes(t *testing.T) {
	var c Snaps
	stored := []byte("\x03stored form of g")
	c.Keep("g", stored, []byte("snap"))
	if snap, ok := c.Get("g", bytes.Clone(stored)); !ok || string(snap) != "snap" {
		t.Fatalf("same bytes: %q %v", snap, ok)
	}
	if _, ok := c.Get("h", stored); ok {
		t.Error("another id given g's snapshot")
	}
	for n := range len(stored) {
		if _, ok := c.Get("g", stored[:n]); ok {
			t.Errorf("a prefix of %d bytes given the snapshot", n)
		}
		other := bytes.Clone(stored)
		other[n] ^= 1
		if _, ok := c.Get("g", other); ok {
			t.Errorf("byte %d changed: given the snapshot", n)
		}
	}
	for i := range 3 * SnapsMax {
		id := fmt.Sprint("s", i)
		c.Keep(id, []byte(id), []byte(id))
		if _, ok := c.Get(id, []byte(id)); !ok || len(c.m) > SnapsMax {
			t.Fatalf("keep %d: kept %v, %d in all", i, ok, len(c.m))
		}
	}
}
