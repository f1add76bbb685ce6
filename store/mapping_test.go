package store

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/pbem-referee/referee/store/pagefile"
)

// rssFile reads RssFile from /proc/self/status (bytes; the kernel's
// figure, not the store's own measure).
func rssFile(t testing.TB) int64 {
	t.Helper()
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Skip("no /proc/self/status:", err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "RssFile:" {
			kb, err := strconv.ParseInt(f[1], 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return kb << 10
		}
	}
	t.Skip("no RssFile in /proc/self/status")
	return 0
}

// mappingRecord is player k's record: size bytes that do not compress.
func mappingRecord(k, size int) []byte {
	r := rand.New(rand.NewPCG(uint64(k), 11))
	b := make([]byte, size)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

func mappingAddr(k int) string { return fmt.Sprintf("p%06d@example.test", k) }

// makeMappingStore writes n records of size bytes (pages of pageSize) and
// closes the store.
func makeMappingStore(t testing.TB, path string, pageSize, n, size int) {
	t.Helper()
	db, err := Open(path, &Options{NoSync: true, PageSize: pageSize})
	if err != nil {
		t.Fatal(err)
	}
	for k := 0; k < n; {
		err := db.Update(func(tx *Tx) error {
			for j := 0; j < 1000 && k < n; j, k = j+1, k+1 {
				if err := tx.PutPlayer(mappingAddr(k), mappingRecord(k, size)); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
}

// The store keeps the process's resident file-backed memory under
// Options.MappedLimit however many of its pages are read (mapping.go:
// 100,000 live games under 300 MB), whatever the page size and whichever
// kind of transaction reads; and without the limit the same reads do map
// the file in (the test can fail).
func TestMappedLimitBoundsResidentFile_Issue25(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the limit is Linux's (/proc/self/statm, madvise)")
	}
	const (
		n      = 8000
		size   = 3000 // 24 MB of records
		budget = 4 << 20
		reads  = 1500
	)
	reads3 := map[string]func(db *DB, addr string) ([]byte, error){
		"View": func(db *DB, addr string) (rec []byte, err error) {
			err = db.View(func(tx *Tx) error { rec, err = tx.Player(addr); return err })
			return
		},
		"Speculate": func(db *DB, addr string) (rec []byte, err error) {
			_, err = db.Speculate(func(tx *Tx) error { rec, err = tx.Player(addr); return err })
			return
		},
		"Update": func(db *DB, addr string) (rec []byte, err error) {
			err = db.Update(func(tx *Tx) error {
				if rec, err = tx.Player(addr); err != nil {
					return err
				}
				return tx.PutPlayer("reader@example.test", []byte(addr))
			})
			return
		},
	}
	for _, pageSize := range []int{1024, 4096} {
		path := filepath.Join(t.TempDir(), "m.db")
		makeMappingStore(t, path, pageSize, n, size)
		for _, kind := range []string{"View", "Speculate", "Update"} {
			for _, limited := range []bool{true, false} {
				name := fmt.Sprintf("pages%d/%s/limited=%v", pageSize, kind, limited)
				t.Run(name, func(t *testing.T) {
					runtime.GC()
					base := rssFile(t)
					limit := int64(-1)
					if limited {
						limit = budget
					}
					db, err := Open(path, &Options{MappedLimit: limit, NoSync: true})
					if err != nil {
						t.Fatal(err)
					}
					defer db.Close()
					r := rand.New(rand.NewPCG(uint64(pageSize), uint64(len(kind))))
					var peak int64
					for i := range reads {
						k := r.IntN(n)
						rec, err := reads3[kind](db, mappingAddr(k))
						if err != nil {
							t.Fatal(err)
						}
						if !bytes.Equal(rec, mappingRecord(k, size)) {
							t.Fatalf("read %d: record %d differs", i, k)
						}
						peak = max(peak, rssFile(t)-base)
					}
					t.Logf("resident file-backed growth peak %.1f MB, %d trims", float64(peak)/1e6, db.MapTrims())
					// One transaction's pages may pass the limit before its
					// end trims them (a record of 3 KB: a few pages).
					if limited && peak > budget+1<<20 {
						t.Errorf("resident file-backed memory grew %d bytes, limit %d above the start", peak, budget)
					}
					if limited && db.MapTrims() == 0 {
						t.Error("never trimmed")
					}
					if !limited && (peak < 4*budget || db.MapTrims() != 0) {
						t.Errorf("without a limit the reads mapped only %d bytes (%d trims): the test cannot fail", peak, db.MapTrims())
					}
				})
			}
		}
	}
}

// A trim never drops memory that is not the store's: while writers grow
// the file past its mapping (bbolt remaps it) and the limit is passed at
// every transaction, readers in parallel read every record right, and a
// reopened store holds what was written (run it with -race).
func TestMappedTrimWhileTheFileGrows_Issue25(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the limit is Linux's")
	}
	path := filepath.Join(t.TempDir(), "g.db")
	// A limit of one byte: every transaction trims.
	db, err := Open(path, &Options{MappedLimit: 1, NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	const writers, perWriter, size = 2, 300, 5000
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	var written sync.Map
	for w := range writers {
		wg.Go(func() {
			for i := range perWriter {
				k := w*perWriter + i
				if err := db.Update(func(tx *Tx) error { return tx.PutPlayer(mappingAddr(k), mappingRecord(k, size)) }); err != nil {
					errs <- err
					return
				}
				written.Store(k, true)
			}
		})
	}
	stop := make(chan struct{})
	var readers sync.WaitGroup
	for r := range 3 {
		readers.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(r), 5))
			for {
				select {
				case <-stop:
					return
				default:
				}
				k := rng.IntN(writers * perWriter)
				if _, ok := written.Load(k); !ok {
					continue
				}
				err := db.View(func(tx *Tx) error {
					rec, err := tx.Player(mappingAddr(k))
					if err == nil && !bytes.Equal(rec, mappingRecord(k, size)) {
						err = fmt.Errorf("record %d differs", k)
					}
					return err
				})
				if err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(stop)
	readers.Wait()
	close(errs)
	var all []error
	for err := range errs {
		all = append(all, err)
	}
	if err := errors.Join(all...); err != nil {
		t.Fatal(err)
	}
	if db.MapTrims() == 0 {
		t.Fatal("never trimmed")
	}
	t.Logf("%d trims", db.MapTrims())
	if err := db.Check(); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db, err = Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	err = db.View(func(tx *Tx) error {
		for k := range writers * perWriter {
			rec, err := tx.Player(mappingAddr(k))
			if err != nil || !bytes.Equal(rec, mappingRecord(k, size)) {
				return fmt.Errorf("record %d: %v", k, err)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// BenchmarkMappedReads reads random records of a 36 MB store, one read
// transaction each, with the mapping trimmed past 4 MiB of growth, with a
// limit never reached (the statm read alone) and with none: what the
// trims and the minor faults after them cost a read. On a busy machine
// the wall time is the scheduler's; the page faults a read takes
// (getrusage) and the process's CPU time are the figures.
func BenchmarkMappedReads(b *testing.B) {
	if runtime.GOOS != "linux" {
		b.Skip("the limit is Linux's")
	}
	const n, size = 12000, 3000
	path := filepath.Join(b.TempDir(), "m.db")
	makeMappingStore(b, path, 1024, n, size)
	for _, limit := range []int64{4 << 20, 1 << 40, -1} {
		b.Run(fmt.Sprintf("limit=%d", max(limit, 0)>>20), func(b *testing.B) {
			db, err := Open(path, &Options{MappedLimit: limit, NoSync: true})
			if err != nil {
				b.Fatal(err)
			}
			defer db.Close()
			r := rand.New(rand.NewPCG(1, 2))
			for k := range n { // every page mapped once: no first touch timed
				if err := db.View(func(tx *Tx) error { _, err := tx.Player(mappingAddr(k)); return err }); err != nil {
					b.Fatal(err)
				}
			}
			base := rssFile(b)
			var peak int64
			var u0, u1 syscall.Rusage
			_ = syscall.Getrusage(syscall.RUSAGE_SELF, &u0)
			b.ResetTimer()
			for b.Loop() {
				addr := mappingAddr(r.IntN(n))
				if err := db.View(func(tx *Tx) error { _, err := tx.Player(addr); return err }); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			_ = syscall.Getrusage(syscall.RUSAGE_SELF, &u1)
			cpu := time.Duration(u1.Utime.Nano() + u1.Stime.Nano() - u0.Utime.Nano() - u0.Stime.Nano())
			b.ReportMetric(float64(u1.Minflt-u0.Minflt+u1.Majflt-u0.Majflt)/float64(b.N), "faults/op")
			b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
			peak = rssFile(b) - base
			b.ReportMetric(float64(db.MapTrims())/float64(b.N), "trims/op")
			b.ReportMetric(float64(peak)/(1<<20), "MiB-file-RSS-grown")
		})
	}
}

// The measure of the resident mapping is read after a transaction only
// every statmEvery(limit) transactions or pagefile.StatmStep (mapping.go's rule):
// generated runs of reads and writes at four limits count the readings,
// at least one per statmEvery transactions and at most one more per step
// of the time they took; a transaction longer than the step is measured
// at its end.
func TestStatmReadEveryFewTransactions_Issue25(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the limit is Linux's")
	}
	r := rand.New(rand.NewPCG(25, 3))
	for _, limit := range []int64{0, 64 << 20, 4 << 20, 1} {
		wantEvery := map[int64]int64{0: 32, 64 << 20: 16, 4 << 20: 1, 1: 1}[limit]
		t.Run(fmt.Sprintf("limit=%d", limit), func(t *testing.T) {
			db, err := Open(filepath.Join(t.TempDir(), "s.db"), &Options{MappedLimit: limit, NoSync: true})
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			if db.mapped.Every() != wantEvery {
				t.Fatalf("every %d, want %d", db.mapped.Every(), wantEvery)
			}
			if err := db.Update(func(tx *Tx) error { return tx.PutPlayer(mappingAddr(0), mappingRecord(0, 100)) }); err != nil {
				t.Fatal(err)
			}
			n := 100 + r.IntN(400)
			r0, start := db.mapped.Reads(), time.Now()
			for i := range n {
				if r.IntN(3) == 0 {
					err = db.Update(func(tx *Tx) error { return tx.PutPlayer(mappingAddr(i), mappingRecord(i, 100)) })
				} else {
					err = db.View(func(tx *Tx) error { _, err := tx.Player(mappingAddr(0)); return err })
				}
				if err != nil {
					t.Fatal(err)
				}
			}
			elapsed := time.Since(start)
			reads := db.mapped.Reads() - r0
			least, most := int64(n)/wantEvery, int64(n)/wantEvery+int64(elapsed/pagefile.StatmStep)+1
			if reads < least || reads > most {
				t.Errorf("%d transactions in %v: %d readings, want %d to %d", n, elapsed, reads, least, most)
			}
			r1 := db.mapped.Reads()
			if err := db.View(func(tx *Tx) error { time.Sleep(pagefile.StatmStep + 5*time.Millisecond); return nil }); err != nil {
				t.Fatal(err)
			}
			if got := db.mapped.Reads() - r1; got != 1 {
				t.Errorf("a transaction longer than the step: %d readings at its end, want 1", got)
			}
		})
	}
}
