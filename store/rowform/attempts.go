package rowform

import (
	"encoding/binary"
	"slices"
	"strconv"
	"strings"
)

// Split returns the stem and number of a key of the form <stem>/<n> (n
// decimal, no leading zero, below 10^18; the stem ends with the '/'), false
// for any other key. Join(stem, n) gives the key back.
func Split(key string) (stem string, n uint64, ok bool) {
	i := strings.LastIndexByte(key, '/') + 1
	d := key[i:]
	if i == 0 || d == "" || len(d) > 18 || (d[0] == '0' && d != "0") {
		return "", 0, false
	}
	n, err := strconv.ParseUint(d, 10, 64)
	return key[:i], n, err == nil
}

// Join is the key of a stem's number n.
func Join(stem string, n uint64) string { return stem + strconv.FormatUint(n, 10) }

// Attempts are the counts of the numbers of one stem, by number.
type Attempts struct {
	Nums   []uint64
	Counts []int
}

// ParseAttempts reads a stem's row (AppendAttempts); a row cut short
// reads as far as it is whole.
func ParseAttempts(v []byte) Attempts {
	var a Attempts
	var n uint64
	for len(v) > 0 {
		d, i := binary.Uvarint(v)
		c, j := binary.Uvarint(v[max(i, 0):])
		if i <= 0 || j <= 0 {
			break
		}
		n += d
		a.Nums, a.Counts, v = append(a.Nums, n), append(a.Counts, int(c)), v[i+j:]
	}
	return a
}

// Count is number n's count (0: none).
func (a Attempts) Count(n uint64) int {
	if i, ok := slices.BinarySearch(a.Nums, n); ok {
		return a.Counts[i]
	}
	return 0
}

// Set makes number n's count c (0 forgets n) and reports whether that
// changed anything.
func (a *Attempts) Set(n uint64, c int) bool {
	i, ok := slices.BinarySearch(a.Nums, n)
	switch {
	case ok && c == 0:
		a.Nums, a.Counts = slices.Delete(a.Nums, i, i+1), slices.Delete(a.Counts, i, i+1)
	case ok:
		if a.Counts[i] == c {
			return false
		}
		a.Counts[i] = c
	case c == 0:
		return false
	default:
		a.Nums, a.Counts = slices.Insert(a.Nums, i, n), slices.Insert(a.Counts, i, c)
	}
	return true
}

// AppendAttempts appends a stem's row to b: for each number, ascending,
// the uvarint of its difference from the one before (the first's from 0)
// and the uvarint of its count. The IMAP watcher's 20 or so UIDs presumed
// begun (consecutive, each counted once) take two bytes each.
func AppendAttempts(b []byte, a Attempts) []byte {
	var prev uint64
	for i, n := range a.Nums {
		b = binary.AppendUvarint(binary.AppendUvarint(b, n-prev), uint64(a.Counts[i]))
		prev = n
	}
	return b
}
