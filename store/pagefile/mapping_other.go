//go:build !linux

package pagefile

// statmFile: no /proc/self/statm elsewhere than Linux; the limit does
// nothing there.
type statmFile struct{}

func openStatm() *statmFile { return nil }

func (*statmFile) close() {}

func (*statmFile) shared() (int64, bool) { return 0, false }

func dropMapped(uintptr, int64) error { return nil }
