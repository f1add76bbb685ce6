package store

import (
	"path/filepath"
	"testing"
)

// BenchmarkInputTransaction measures the one write transaction the referee
// makes per input (de-duplication record, game record, log entry, outbox
// row), with real fsyncs.
func BenchmarkInputTransaction(b *testing.B) {
	for _, nosync := range []bool{false, true} {
		name := "fsync"
		if nosync {
			name = "nosync"
		}
		b.Run(name, func(b *testing.B) {
			db, err := Open(filepath.Join(b.TempDir(), "b.db"), &Options{NoSync: nosync})
			if err != nil {
				b.Fatal(err)
			}
			defer db.Close()
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if err := db.Update(func(tx *Tx) error { return writeInput(tx, i+1) }); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
