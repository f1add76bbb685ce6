package bymail

import (
	"errors"
	"fmt"
	"github.com/pbem-referee/referee/referee/tournament/bymail/tourrec"
	"maps"
	"slices"
	"testing"
	"time"
)

// TestBatchRecordsAsCompared_Issue24 (kept.go, writeBatch): a later batch
// of a round opening, written from its matches alone, leaves the records
// the whole record's encoding and comparison leaves, after every unit of
// work: the same whole record, the same match records byte for byte, the
// same wake entry, the same mails, and the next batch takes the same
// tournament. Generated: the round-opening cases of
// TestRoundMailNeverDependsOnBatching (Swiss, tables, knockout, round
// robin; late entrants, byes asked for, withdrawals; four languages) in
// batches of 1 to 3 games, the store's decoded tournaments kept between
// batches or not, a batch whose unit of work also changes what is not a
// match (another command after it), and a round stuck at its second batch
// then opened by the retry (the stuck mark cleared: a whole record).
func TestBatchRecordsAsCompared_Issue24(t *testing.T) {
	type state struct {
		tour    string
		matches map[[2]int][]byte
		wake    time.Time
		mails   int
	}
	run := func(c roundMailCase, batch int, cached, also, stuck, fast bool) ([]state, []string, int) {
		was := tourrec.BatchRecords
		tourrec.BatchRecords = fast
		defer func() { tourrec.BatchRecords = was }()
		h := newBatchHost(t, batch)
		if cached {
			h.cached = &cachedRecords{memRecords: h.rec, kept: map[string]any{}, raw: map[string][]byte{}}
		}
		if also { // a name changed after the batch, in its unit of work
			h.also = func(d *desk) error {
				tr, err := d.load("cup")
				if err != nil {
					return err
				}
				tr.Entrants[0].Name += "x"
				return d.saveTour(tr)
			}
		}
		var states []state
		puts := 0
		h.after = func() {
			states = append(states, state{string(h.rec.tours["cup"]), maps.Clone(h.rec.matches["cup"]),
				h.rec.wakes[tourWakePrefix+"cup"], len(h.sent)})
			puts = h.rec.puts
		}
		if stuck { // the second batch's first game fails once: stuck, then retried
			calls := 0
			h.fail = func(string) error {
				if calls++; calls == batch+1 {
					return errors.New("a passing failure")
				}
				return nil
			}
		}
		h.openRoundTwo(t, c, 0)
		for tries := 0; loadTourT(t, h.rec).Opening; tries++ {
			if !stuck || tries > 3 {
				t.Fatal("the round is still opening")
			}
			h.now = h.now.Add(2 * time.Hour) // past Stuck.Retry: the next Tick runs the batch again
			for h.later = true; h.later; {
				h.unit(t, func(d *desk) error { return OpenDue(h, "cup") })
			}
		}
		var mails []string
		for _, m := range h.sent {
			mails = append(mails, m.To+"\n"+m.Subject+"\n"+m.Body)
		}
		return states, mails, puts
	}
	langs := []string{"en", "it", "fr", "nl"}
	cases, compared := 0, 0
	for i, f := range []struct {
		format   string
		n, table int
	}{{"swiss", 7, 2}, {"swiss", 13, 2}, {"swiss", 16, 2}, {"tables", 12, 3}, {"tables", 11, 4}, {"knockout", 11, 2},
		{"roundrobin", 9, 2}} {
		for _, late := range [][2]int{{0, 0}, {2, 1}} {
			c := roundMailCase{f.format, f.n, f.table, late[0], late[1], i % 2, 1, langs[i%4]}
			if f.format == "knockout" || f.format == "roundrobin" {
				c.lateNow, c.lateOn, c.asked = 0, 0, 0
			}
			for _, batch := range []int{1, 2, 3} {
				for _, v := range [][3]bool{{false, false, false}, {true, false, false}, {false, true, false}, {true, true, false},
					{false, false, true}, {true, false, true}} {
					cached, also, stuck := v[0], v[1], v[2]
					name := fmt.Sprintf("%s/%d/late%v/batch%d/cached%v/also%v/stuck%v", c.format, c.n, late, batch, cached, also, stuck)
					cases++
					slow, slowMails, slowPuts := run(c, batch, cached, also, stuck, false)
					fast, fastMails, fastPuts := run(c, batch, cached, also, stuck, true)
					if len(slow) != len(fast) {
						t.Fatalf("%s: %d units of work, %d compared", name, len(fast), len(slow))
					}
					for u := range slow {
						s, q := slow[u], fast[u]
						if s.tour != q.tour || !maps.EqualFunc(s.matches, q.matches, func(a, b []byte) bool { return string(a) == string(b) }) ||
							!s.wake.Equal(q.wake) || s.mails != q.mails {
							t.Errorf("%s: unit %d differs from the whole record compared:\nrecord equal %v, match records %d and %d, wake %v and %v, mails %d and %d",
								name, u, s.tour == q.tour, len(q.matches), len(s.matches), q.wake, s.wake, q.mails, s.mails)
						}
						compared++
					}
					if !slices.Equal(slowMails, fastMails) || slowPuts != fastPuts {
						t.Errorf("%s: mails equal %v, whole records written %d, compared %d", name, slices.Equal(slowMails, fastMails), fastPuts, slowPuts)
					}
				}
			}
		}
	}
	if compared < 3*cases {
		t.Fatalf("%d units of work compared in %d cases", compared, cases)
	}
}
