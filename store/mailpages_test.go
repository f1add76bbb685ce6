package store

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/pbem-referee/referee/store/pagefile"
)

// mailIntake writes what a player's mail writes in inbound, one commit a
// mail: its record under its Message-ID with its IMAP UID (in order, one
// mailbox), and the VERP ids of the one or two replies it queued, in its
// cluster. twoPlaces writes the form before 2026-12-07 (a pointer under
// the UID too). It returns the pages of inbound a commit wrote, on
// average over the last half of n mails (pagefile.Written: exact).
func mailIntake(t *testing.T, n int, twoPlaces bool) float64 {
	db, err := Open(filepath.Join(t.TempDir(), "referee.db"), &Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rng := rand.New(rand.NewPCG(24, uint64(n)))
	t0 := time.Date(2026, 12, 7, 9, 0, 0, 0, time.UTC)
	pages := 0
	for i := range n {
		mid := fmt.Sprintf("<%x.%d@mail%d.example>", rng.Uint64(), i, i%7)
		rec := InboundRecord{Keys: []string{"msgid:" + mid, fmt.Sprintf("imap:referee/INBOX/1/%d", 100+i)}, Received: t0.Add(time.Duration(i) * time.Second),
			Source: "imap", From: fmt.Sprintf("g%dp%d@example.test", i%6, i%2), Game: fmt.Sprintf("b%d", i%6), Seat: i % 2, Outcome: "applied", LogSeq: uint64(i)}
		for j := range 1 + rng.IntN(2) {
			rec.Messages = append(rec.Messages, fmt.Sprintf("<rf.%s.%d.%d.%d@example.test>", rec.Game, j, i, rng.IntN(1000)))
		}
		before, err := db.PageReading()
		if err != nil {
			t.Fatal(err)
		}
		err = db.Update(func(tx *Tx) error {
			for j, m := range rec.Messages {
				id := fmt.Sprintf("%s%016x", InputCluster(rec.Keys[0]), rng.Uint64())
				if err := tx.PutVERP(id, VERPRecord{To: fmt.Sprintf("g%dp%d@example.test", i%6, j), Key: m, Sent: rec.Received, Game: rec.Game}); err != nil {
					return err
				}
			}
			if err := tx.MarkInbound(rec); err != nil || !twoPlaces {
				return err
			}
			return tx.bucket(bInbound).Put(shortInputKey(rec.Keys[1]), shortInputKey(rec.Keys[0]))
		})
		if err != nil {
			t.Fatal(err)
		}
		after, err := db.PageReading()
		if err != nil {
			t.Fatal(err)
		}
		if i >= n/2 {
			written, _ := pagefile.Written(before, after)
			for owner, c := range written {
				if strings.HasPrefix(owner, "inbound ") {
					pages += c
				}
			}
		}
	}
	return float64(pages) / float64(n-n/2)
}

// TestMailWritesInboundInOnePlace_Issue24: a player's mail by IMAP
// writes its record, and the VERP ids of its replies, at one place of
// inbound (its Message-ID's cluster), no pointer under its UID: a commit
// writes one leaf and the branches above it, where a pointer under the
// UID wrote another leaf and its branches (store/doc.go, "Key layout",
// one place a mail). Measured by the pages each commit wrote (exact).
func TestMailWritesInboundInOnePlace_Issue24(t *testing.T) {
	if testing.Short() {
		t.Skip("reads the file twice a commit")
	}
	n := 300
	if raceEnabled {
		n = 120
	}
	two, one := mailIntake(t, n, true), mailIntake(t, n, false)
	t.Logf("%d mails: %.2f pages of inbound a mail with a pointer under the UID, %.2f without", n, two, one)
	if one > two-1 {
		t.Errorf("%d mails: %.2f pages of inbound a mail, want a page less at least than the %.2f of two places", n, one, two)
	}
}

// TestResentMailSeenAgainstAModel_Issue24: every copy of a message
// recorded (the same Message-ID at the same UID after a restart, at a new
// UID, under a new UIDVALIDITY, in another mailbox, through a webhook) is
// seen, with its record, though no key of its UIDs is indexed; a new
// message is not, nor is a message after PruneInbound took it. The model:
// a UID names one message, and a message is recorded once, with the keys
// of its first copy. Generated: 30 runs of 60 steps, several mailboxes
// and UIDVALIDITYs, inputs named by their UID alone too (indexed then).
func TestResentMailSeenAgainstAModel_Issue24(t *testing.T) {
	t0 := time.Date(2026, 12, 7, 9, 0, 0, 0, time.UTC)
	for run := range 30 {
		rng := rand.New(rand.NewPCG(24, uint64(run)))
		db := open(t)
		recorded := map[string]InboundRecord{} // by Message-ID ("" for an input of its UID alone: by that)
		byUID := map[string]string{}           // a UID's message
		nextUID := map[string]int{}
		var msgs, alone []string
		for step := range 60 {
			stem := fmt.Sprintf("imap:acct%d/INBOX/%d/", rng.IntN(2), 7+rng.IntN(2))
			var mid string
			switch {
			case len(msgs) > 0 && rng.IntN(2) == 0: // a copy of a message seen
				mid = msgs[rng.IntN(len(msgs))]
			default:
				mid = fmt.Sprintf("<%d.%d.%x@mail.example>", run, step, rng.Uint32())
				msgs = append(msgs, mid)
			}
			var keys []string
			uid := ""
			switch rng.IntN(5) {
			case 0: // through a webhook, its own key first
				keys = []string{fmt.Sprintf("webhook:%d", step), "msgid:" + mid}
			case 1: // the same UID again (a restart), when there is one
				for u, m := range byUID {
					if m == mid {
						uid = u
					}
				}
				fallthrough
			default:
				if uid == "" {
					nextUID[stem]++
					uid = fmt.Sprintf("%s%d", stem, nextUID[stem])
				}
				keys = []string{"msgid:" + mid, uid}
			case 4: // a message named by its UID alone (one unreadable), or that UID again
				if len(alone) > 0 && rng.IntN(2) == 0 {
					uid = alone[rng.IntN(len(alone))]
				} else {
					nextUID[stem]++
					uid = fmt.Sprintf("%s%d", stem, nextUID[stem])
					alone = append(alone, uid)
				}
				keys, mid = []string{uid}, ""
			}
			want, dup := recorded[mid], mid != "" && recorded[mid].Keys != nil
			if mid == "" {
				want, dup = recorded[uid], recorded[uid].Keys != nil
			}
			if err := db.Update(func(tx *Tx) error {
				got, ok, err := tx.Seen(keys...)
				if err != nil || ok != dup || (ok && !reflect.DeepEqual(got, want)) {
					t.Fatalf("run %d step %d: Seen(%q) = %+v %v %v, want %+v %v", run, step, keys, got, ok, err, want, dup)
				}
				if ok {
					return nil
				}
				rec := InboundRecord{Keys: keys, Received: t0.Add(time.Duration(step) * time.Minute), Source: "imap", Game: "g", Seat: step % 3, Outcome: "applied", LogSeq: uint64(step)}
				if err := tx.MarkInbound(rec); err != nil {
					return err
				}
				if mid == "" {
					recorded[uid] = rec
				} else {
					recorded[mid] = rec
				}
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			if uid != "" && mid != "" {
				byUID[uid] = mid
			}
			if step == 40 { // prune the first 20 minutes: those messages are new again
				cut := t0.Add(20 * time.Minute)
				if err := db.Update(func(tx *Tx) error { _, err := tx.PruneInbound(cut); return err }); err != nil {
					t.Fatal(err)
				}
				for k, rec := range recorded {
					if rec.Received.Before(cut) {
						delete(recorded, k)
					}
				}
			}
		}
		if err := db.Check(); err != nil {
			t.Fatal(err)
		}
	}
}
