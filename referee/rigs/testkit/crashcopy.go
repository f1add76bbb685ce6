package testkit

import (
	"io"
	"os"
	"testing"
)

// CrashCopy writes a copy of a store as it stands to path, through its
// backup function (store.DB.Backup): the crash tests' "the process died
// here", reopened by the restarted process.
func CrashCopy(t testing.TB, path string, backup func(io.Writer) (int64, error)) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := backup(f); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}
