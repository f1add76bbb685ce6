package pagefile

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"os"
	"strings"
)

// File names a bbolt file to read: its path, its page size, and the name
// of the top-level bucket whose tree holds bucket headers too (store's
// "rest", store/layout/schema10.go).
type File struct {
	Path     string
	PageSize int
	Rest     string
}

// Names of the trees of headers (Owners).
const (
	Headers     = "(bucket headers)"
	RestHeaders = "(rest headers)"
)

// Owners maps every page of the file in use to the bucket whose tree
// holds it, at the top level or in rest (Headers for the tree of the
// top-level buckets' headers, RestHeaders for rest's; with " (branch)"
// for a branch page, " (nested)" for a page of a bucket nested in it: a
// blob), read from the file as the last commit left it (issue 25: the
// bench's figures per bucket, in pages). It reads the whole file: a
// diagnostic for benches and tests, not for the daemon. Call it while no
// commit runs; pages of an earlier reading stay unused while the store's
// BucketRoots release is pending, so that a page in a later reading and
// not in the earlier one was written by the commits between them.
func (fl File) Owners() (map[uint64]string, error) {
	f, err := os.Open(fl.Path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	out := map[uint64]string{}
	err = fl.walk(f, func(id uint64, owner, kind string, node []byte, _ []uint64) bool {
		switch kind {
		case "nested":
			owner += " (nested)"
		case "branch":
			owner += " (branch)"
		}
		for i := range uint64(len(node)) / uint64(fl.PageSize) {
			out[id+i] = owner
		}
		return true
	})
	return out, err
}

// walk walks the tree of the last commit in the file f (fl's) from the
// root, calling visit with each node's first page id,
// the top-level bucket whose tree holds it (Owners' names), its kind
// ("leaf", "branch", or "nested" for a page of a bucket nested in it),
// its bytes, overflow pages included, and the first pages of its
// children (a branch's, or the roots of the buckets a leaf holds); it
// goes down into them when visit returns true.
func (fl File) walk(f *os.File, visit func(id uint64, owner, kind string, node []byte, kids []uint64) bool) error {
	ps := int64(fl.PageSize)
	read := func(id uint64, n int64) ([]byte, error) {
		buf := make([]byte, n*ps)
		_, err := f.ReadAt(buf, int64(id)*ps)
		return buf, err
	}
	// The meta page of the last commit: the one with the higher txid.
	var root, txid uint64
	for id := uint64(0); id < 2; id++ {
		p, err := read(id, 1)
		if err != nil {
			return err
		}
		// page header 16 bytes; meta: magic, version, page size, flags
		// (4 bytes each), root bucket (root, sequence), freelist, pgid,
		// txid.
		m := p[16:]
		if t := binary.LittleEndian.Uint64(m[48:]); id == 0 || t > txid {
			root, txid = binary.LittleEndian.Uint64(m[16:]), t
		}
	}
	var walk func(id uint64, owner string, top bool) error
	walk = func(id uint64, owner string, top bool) error {
		if top && owner == "" {
			owner = Headers
		}
		head, err := read(id, 1)
		if err != nil {
			return err
		}
		flags := binary.LittleEndian.Uint16(head[8:])
		count := int(binary.LittleEndian.Uint16(head[10:]))
		overflow := uint64(binary.LittleEndian.Uint32(head[12:]))
		p := head
		if overflow > 0 {
			if p, err = read(id, int64(overflow)+1); err != nil {
				return err
			}
		}
		kind := "leaf"
		switch {
		case !top:
			kind = "nested"
		case flags == 0x01:
			kind = "branch"
		}
		type child struct {
			id      uint64
			owner   string
			headers bool
		}
		var children []child
		for i := 0; i < count; i++ {
			e := 16 + i*16
			switch flags {
			case 0x01: // branch: pos, ksize, pgid
				children = append(children, child{binary.LittleEndian.Uint64(p[e+8:]), owner, top})
			case 0x02: // leaf: flags, pos, ksize, vsize
				if binary.LittleEndian.Uint32(p[e:])&0x01 == 0 {
					continue // not a bucket
				}
				pos := e + int(binary.LittleEndian.Uint32(p[e+4:]))
				ksize := int(binary.LittleEndian.Uint32(p[e+8:]))
				sub := binary.LittleEndian.Uint64(p[pos+ksize:])
				if sub == 0 {
					continue // an inline bucket: in this leaf
				}
				name, headers := owner, owner == Headers || owner == RestHeaders
				if headers {
					name = string(p[pos : pos+ksize])
				}
				if owner == Headers && name == fl.Rest {
					// Its tree holds headers too (store/layout/schema10.go).
					name = RestHeaders
				}
				children = append(children, child{sub, name, headers})
			default:
				return fmt.Errorf("store/pagefile: page %d: flags %#x in a tree", id, flags)
			}
		}
		kids := make([]uint64, len(children))
		for i, c := range children {
			kids[i] = c.id
		}
		if !visit(id, owner, kind, p, kids) {
			return nil
		}
		for _, c := range children {
			if err := walk(c.id, c.owner, c.headers); err != nil {
				return err
			}
		}
		return nil
	}
	return walk(root, "", true)
}

// Added counts, per owner, the pages of after not in before (readings of
// Owners).
func Added(before, after map[uint64]string) map[string]int {
	out := map[string]int{}
	for id, owner := range after {
		if _, ok := before[id]; !ok {
			out[owner]++
		}
	}
	return out
}

// Info is one page of a reading (File.Reading): the top-level
// bucket whose tree holds it, its kind ("leaf", "branch", "nested" for a
// page of a bucket nested in it, "overflow" for a page that continues
// the one before), and a digest of its bytes.
type Info struct {
	Owner string
	Kind  string
	Sum   uint64
}

// Reading is Owners with each page's kind and a digest of its bytes, so that
// two readings name the pages written between them (Written) with no read
// transaction held: a page freed and used again by a later commit differs in
// its bytes. A diagnostic that reads the whole file (issue 25: what a move
// writes at scale).
func (fl File) Reading() (map[uint64]Info, error) {
	owners, err := fl.Owners()
	if err != nil {
		return nil, err
	}
	f, err := os.Open(fl.Path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	ps := int64(fl.PageSize)
	out := make(map[uint64]Info, len(owners))
	buf := make([]byte, ps)
	for id, owner := range owners {
		if _, err := f.ReadAt(buf, int64(id)*ps); err != nil {
			return nil, err
		}
		info := Info{Owner: owner, Kind: "leaf", Sum: uint64(crc32.ChecksumIEEE(buf))<<32 | uint64(binary.LittleEndian.Uint32(buf[len(buf)-4:]))}
		if o, ok := strings.CutSuffix(owner, " (branch)"); ok {
			info.Owner, info.Kind = o, "branch"
		} else if o, ok := strings.CutSuffix(owner, " (nested)"); ok {
			info.Owner, info.Kind = o, "nested"
		}
		// A page that starts a node has a header whose id is its own.
		if binary.LittleEndian.Uint64(buf) != id {
			info.Kind = "overflow"
		}
		out[id] = info
	}
	return out, nil
}

// Written counts the pages of after that are not in before or
// whose bytes differ, per owner and kind ("games leaf"), and the leaves
// each owner gained between the readings (a split; none when it lost
// some).
func Written(before, after map[uint64]Info) (written, splits map[string]int) {
	written, leaves := map[string]int{}, map[string]int{}
	for id, p := range after {
		if q, ok := before[id]; !ok || q.Sum != p.Sum {
			written[p.Owner+" "+p.Kind]++
		}
		if p.Kind == "leaf" {
			leaves[p.Owner]++
		}
	}
	for _, p := range before {
		if p.Kind == "leaf" {
			leaves[p.Owner]--
		}
	}
	splits = map[string]int{}
	for owner, n := range leaves {
		if n > 0 {
			splits[owner] = n
		}
	}
	return written, splits
}
