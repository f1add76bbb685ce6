package pagefile

import (
	"bytes"
	"os"
	"strconv"
	"syscall"
)

// statmFile reads /proc/self/statm from a file kept open.
type statmFile struct{ f *os.File }

func openStatm() *statmFile {
	f, err := os.Open("/proc/self/statm")
	if err != nil {
		return nil
	}
	return &statmFile{f}
}

func (s *statmFile) close() {
	if s != nil {
		s.f.Close()
	}
}

var osPage = int64(os.Getpagesize())

// shared returns the third field of statm (resident shared pages: RssFile
// + RssShmem) in bytes.
func (s *statmFile) shared() (int64, bool) {
	if s == nil {
		return 0, false
	}
	var buf [128]byte
	n, err := s.f.ReadAt(buf[:], 0)
	if n == 0 && err != nil {
		return 0, false
	}
	fields := bytes.Fields(buf[:n])
	if len(fields) < 3 {
		return 0, false
	}
	pages, err := strconv.ParseInt(string(fields[2]), 10, 64)
	if err != nil {
		return 0, false
	}
	return pages * osPage, true
}

// dropMapped advises MADV_DONTNEED over size bytes of the mapping at
// addr: the process unmaps those pages; the page cache keeps them.
func dropMapped(addr uintptr, size int64) error {
	if addr == 0 || size <= 0 {
		return nil
	}
	_, _, errno := syscall.Syscall(syscall.SYS_MADVISE, addr, uintptr(size), syscall.MADV_DONTNEED)
	if errno != 0 {
		return errno
	}
	return nil
}
