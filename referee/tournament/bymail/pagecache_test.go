package bymail

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/pbem-referee/referee/referee/tournament"
	"github.com/pbem-referee/referee/referee/tournament/bymail/tourrec"
)

// pageCachedRecords are memRecords with the store's decoded tournaments
// for the pages (store.Tx.PageTournament: kept while the whole record and
// the match records are the ones decoded), the records' reads counted.
type pageCachedRecords struct {
	*memRecords
	reads atomic.Int64
	kept  map[string]pageKept
}

type pageKept struct {
	raw  []byte
	over string
	v    any
}

// matchesOf stands for the store's digest of tournament id's match
// records ("" for none: no allocation in a benchmark).
func (c *pageCachedRecords) matchesOf(id string) string {
	if len(c.matches[id]) == 0 {
		return ""
	}
	return fmt.Sprint(c.matches[id])
}

func (c *pageCachedRecords) Tournament(id string) ([]byte, error) {
	c.reads.Add(1)
	return c.memRecords.Tournament(id)
}

func (c *pageCachedRecords) PageTournament(id string) (any, bool) {
	e, ok := c.kept[id]
	return e.v, ok && bytes.Equal(e.raw, c.tours[id]) && e.over == c.matchesOf(id)
}

func (c *pageCachedRecords) KeepPageTournament(id string, rec []byte, v any) {
	c.kept[id] = pageKept{rec, c.matchesOf(id), v}
}

// pageHost is a testHost reading the records rec.
type pageHost struct {
	*testHost
	rec Records
}

func (h pageHost) Records() Records { return h.rec }

// TestPagesShareTheDecodedTournament_Issue24 (pageTour): every public page
// of a tournament (its page in four languages, the crosstable, each
// place's page, each person's, each file, the list) reads the tournament
// the store keeps decoded for the pages while its record and match
// records stay as decoded: a second round of every page reads no record,
// and every page is the one made from the record decoded afresh; no page
// changes the tournament it shares (its encoding after every page is the
// record's), and pages read at once share it (-race). A match record written since (a corrected result) is read:
// the pages after show it. Generated: Swiss and tables, 7 to 12 entrants,
// a place that changed hands twice (one game handed on after a move).
func TestPagesShareTheDecodedTournament_Issue24(t *testing.T) {
	for _, c := range []struct {
		format string
		n      int
	}{{tournament.Swiss, 7}, {tournament.Swiss, 12}, {tournament.Tables, 10}} {
		name := fmt.Sprintf("%s/%d", c.format, c.n)
		tr := threeRounds(t, c.format, "pc", c.n, func(i, _ int) int { return 1 + i })
		e := &tr.Entrants[2]
		e.Before = []tournament.Stint{{Name: e.Name, Address: e.Address, Through: 1, Into: 2},
			{Name: "Sub", Address: "sub@x", Through: 2}}
		e.Name, e.Address = "Twice", tr.Entrants[3].Address
		tr.Listed = true
		plain := hostWith(t, tr)
		cached := &pageCachedRecords{memRecords: plain.rec, kept: map[string]pageKept{}}
		h := pageHost{plain, cached}
		pages := func(h Host) []any {
			var out []any
			add := func(p any, err error) { out = append(out, p, fmt.Sprint(err)) }
			for _, lang := range []string{"en", "it", "fr", "nl"} {
				add(Page(h, "cup", "k", lang))
			}
			add(Page(h, "cup", "wrong", "en"))
			add(CrossPageOf(h, "cup", "k"))
			for n := 1; n <= len(tr.Entrants); n++ {
				add(PlayerPageOf(h, "cup", "k", n))
				for k := 1; k <= len(tr.Entrants[n-1].Before)+1; k++ {
					add(PersonPageOf(h, "cup", "k", n, k))
				}
			}
			for _, x := range exportNames(tr) {
				add(Export(h, "cup", "k", x, "it"))
			}
			add(Listed(h.Records()))
			return out
		}
		unchanged := func(when string) {
			t.Helper()
			v, ok := cached.PageTournament("cup")
			if !ok {
				t.Fatalf("%s: %s: no tournament kept for the pages", name, when)
			}
			got, err := json.Marshal(v)
			if err != nil {
				t.Fatal(err)
			}
			fresh, err := tourrec.Load(plain.rec, "cup")
			if err != nil {
				t.Fatal(err)
			}
			want, _ := json.Marshal(fresh)
			if string(got) != string(want) {
				t.Errorf("%s: %s: a page changed the tournament it shares", name, when)
			}
		}
		want := pages(plain)
		for pass := range 3 {
			reads := cached.reads.Load()
			got := pages(h)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s: pass %d: the pages differ from those of the record decoded afresh", name, pass)
			}
			if r := cached.reads.Load() - reads; (pass == 0) != (r > 0) {
				t.Errorf("%s: pass %d read the record %d times", name, pass, r)
			}
			unchanged(fmt.Sprintf("pass %d", pass))
		}
		// Pages read at once share it (go test -race: no page writes it).
		var wg sync.WaitGroup
		for range 4 {
			wg.Go(func() {
				if got := pages(h); !reflect.DeepEqual(got, want) {
					t.Errorf("%s: pages read at once differ", name)
				}
			})
		}
		wg.Wait()
		// A corrected result as its match record: read by the next page.
		m := tr.Rounds[2].Matches[0]
		for i := range m.Rank {
			m.Rank[i] = len(m.Rank) - i
		}
		m.Corrected = true
		raw, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		if err := plain.rec.PutTournamentMatch("cup", 2, 0, raw); err != nil {
			t.Fatal(err)
		}
		want = pages(plain)
		reads := cached.reads.Load()
		if got := pages(h); !reflect.DeepEqual(got, want) || cached.reads.Load() == reads {
			t.Errorf("%s: after a match record, the pages are not the record's (%d reads)", name, cached.reads.Load()-reads)
		}
		unchanged("after a match record")
	}
}
