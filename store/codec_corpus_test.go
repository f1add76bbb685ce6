package store

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/klauspost/compress/dict"
	"github.com/klauspost/compress/flate"
	"github.com/klauspost/compress/s2"
	"github.com/klauspost/compress/zstd"
	"github.com/pbem-referee/referee/store/codec"
	"github.com/pbem-referee/referee/store/layout"
	bolt "go.etcd.io/bbolt"
)

// corpus reads the values of the store the environment variable env
// names, uncompressed, by class: the queued mails ("mail": a store keeps
// a mail's payload until its retired row is pruned), the game snapshots
// and deltas, the log entries and the inbound records. A store that
// `referee bench --sizes none --dir D` leaves in D/referee/referee.db, or
// `referee demo --dir D` in D/data/referee.db, will do.
func corpus(tb testing.TB, env string) map[string][][]byte {
	path := os.Getenv(env)
	if path == "" {
		tb.Skip(env + ": no store to read the corpus from")
	}
	db, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true})
	if err != nil {
		tb.Fatal(err)
	}
	defer db.Close()
	out := map[string][][]byte{}
	add := func(class string, v []byte, err error) {
		if err != nil {
			tb.Fatalf("%s: %v", class, err)
		}
		if len(v) > 0 {
			out[class] = append(out[class], bytes.Clone(v))
		}
	}
	err = db.View(func(tx *bolt.Tx) error {
		return tx.ForEach(func(name []byte, b *bolt.Bucket) error {
			n := string(name)
			return b.ForEach(func(k, v []byte) error {
				if v == nil {
					v = getValue(b, k) // a value kept in pieces (store/layout/blob.go)
				}
				if len(v) == 0 {
					return nil
				}
				switch {
				case strings.HasPrefix(n, "queue.") && len(k) == 9 && k[8] == layout.ZBodySuffix:
					p, err := codec.Decompress(v)
					add("mail", p, err)
				case strings.HasPrefix(n, "queue.") && len(k) == 9 && k[8] == layout.BodySuffix:
					add("mail", v, nil)
				case n == string(bGameSnap):
					p, err := decodeSnap(v)
					add("snap", p, err)
				case n == string(bGames) && len(v) > 9 && v[0] == gameDeltaZ:
					p, err := codec.Decompress(v[9:])
					add("delta", p, err)
				case n == string(bGames) && len(v) > 9 && v[0] == gameDelta:
					add("delta", v[9:], nil)
				case n == string(bLogFlat):
					// Beside the entries: games' values, of other forms
					// (flatlog.go), not read here.
					if p, err := decodeSnap(v); err == nil {
						add("log", p, nil)
					}
				case n == string(bInbound) && v[0] == inboundZ:
					p, err := codec.Decompress(v[1:])
					add("inbound", p, err)
				case n == string(bInbound):
					add("inbound", v, nil)
				}
				return nil
			})
		})
	})
	if err != nil {
		tb.Fatal(err)
	}
	return out
}

// BenchmarkCodecCorpus: the codecs the store could keep its values in
// (store/codec), over a real corpus (corpus, REFEREE_CODEC_CORPUS): bytes
// stored against bytes given (a value is kept raw when compressing does
// not make it smaller), and CPU per value to compress and to decompress,
// per class of value. The dictionaries of "zstd-dict-*" (zstd's format,
// with entropy tables) and "zstd-rawdict-*" (raw content, the store's
// kind) are trained on another store's values (REFEREE_CODEC_TRAIN), of
// REFEREE_CODEC_DICT_KB KB (32 unless set); REFEREE_CODEC_WRITE_DICT names
// a file to write the raw dictionary to (a new dictionary for
// store/codec/zdict: a new id, never a changed file). "golden" are the golden
// mails' texts of referee/testdata (all four languages: the dictionary
// was trained on English only). zstd "shared" codecs use one encoder and
// decoder, as the store does. Run with
//
//	REFEREE_CODEC_TRAIN=D1/data/referee.db REFEREE_CODEC_CORPUS=D2/referee/referee.db \
//	  go test -run - -bench CodecCorpus -benchtime 1000x -v ./store/
func BenchmarkCodecCorpus(b *testing.B) {
	test := corpus(b, "REFEREE_CODEC_CORPUS")
	var train [][]byte
	for _, vs := range corpus(b, "REFEREE_CODEC_TRAIN") {
		train = append(train, vs...)
	}
	golden, _ := filepath.Glob("../referee/testdata/golden/*.txt")
	for _, g := range golden {
		if v, err := os.ReadFile(g); err == nil {
			test["golden"] = append(test["golden"], v)
		}
	}
	dictKB := 32
	if s := os.Getenv("REFEREE_CODEC_DICT_KB"); s != "" {
		if _, err := fmt.Sscan(s, &dictKB); err != nil {
			b.Fatal(err)
		}
	}
	t0 := time.Now()
	rd, err := dict.BuildRawDict(train, dict.Options{MaxDictSize: dictKB << 10, HashBytes: 6})
	if err != nil {
		b.Fatal(err)
	}
	zd, err := dict.BuildZstdDict(train, dict.Options{MaxDictSize: dictKB << 10, HashBytes: 6, ZstdDictID: 1, ZstdLevel: zstd.SpeedDefault})
	if err != nil {
		b.Fatal(err)
	}
	b.Logf("dictionaries of %d values: raw %d bytes, zstd %d bytes, in %v", len(train), len(rd), len(zd), time.Since(t0))
	if path := os.Getenv("REFEREE_CODEC_WRITE_DICT"); path != "" {
		if err := os.WriteFile(path, rd, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	type coder struct {
		enc func([]byte) []byte
		dec func([]byte) ([]byte, error)
	}
	deflateAt := func(level int) coder {
		w, _ := flate.NewWriter(nil, level)
		r := flate.NewReader(nil)
		return coder{func(v []byte) []byte { return deflateReusing(w, v) }, func(z []byte) ([]byte, error) {
			r.(flate.Resetter).Reset(bytes.NewReader(z), nil)
			var buf bytes.Buffer
			_, err := buf.ReadFrom(r)
			return buf.Bytes(), err
		}}
	}
	zstdAt := func(level zstd.EncoderLevel, eo zstd.EOption, do zstd.DOption) coder {
		opts := []zstd.EOption{zstd.WithEncoderLevel(level), zstd.WithEncoderConcurrency(1), zstd.WithEncoderCRC(false),
			zstd.WithSingleSegment(true), zstd.WithWindowSize(256 << 10), zstd.WithLowerEncoderMem(true)}
		dopts := []zstd.DOption{zstd.WithDecoderConcurrency(1)}
		if eo != nil {
			opts, dopts = append(opts, eo), append(dopts, do)
		}
		e, err := zstd.NewWriter(nil, opts...)
		if err != nil {
			b.Fatal(err)
		}
		d, err := zstd.NewReader(nil, dopts...)
		if err != nil {
			b.Fatal(err)
		}
		return coder{func(v []byte) []byte { return e.EncodeAll(v, nil) }, func(z []byte) ([]byte, error) { return d.DecodeAll(z, nil) }}
	}
	codecs := map[string]coder{
		"deflate5":             deflateAt(flate.DefaultCompression),
		"deflate1":             deflateAt(1),
		"zstd-fastest":         zstdAt(zstd.SpeedFastest, nil, nil),
		"zstd-default":         zstdAt(zstd.SpeedDefault, nil, nil),
		"zstd-dict-fastest":    zstdAt(zstd.SpeedFastest, zstd.WithEncoderDict(zd), zstd.WithDecoderDicts(zd)),
		"zstd-rawdict-fastest": zstdAt(zstd.SpeedFastest, zstd.WithEncoderDictRaw(1, rd), zstd.WithDecoderDictRaw(1, rd)),
		"zstd-rawdict-default": zstdAt(zstd.SpeedDefault, zstd.WithEncoderDictRaw(1, rd), zstd.WithDecoderDictRaw(1, rd)),
		"store":                {func(v []byte) []byte { return codec.CompressAlways(nil, v) }, codec.Decompress},
		"s2":                   {func(v []byte) []byte { return s2.Encode(nil, v) }, func(z []byte) ([]byte, error) { return s2.Decode(nil, z) }},
		"s2-better":            {func(v []byte) []byte { return s2.EncodeBetter(nil, v) }, func(z []byte) ([]byte, error) { return s2.Decode(nil, z) }},
	}
	names := make([]string, 0, len(codecs))
	for n := range codecs {
		names = append(names, n)
	}
	sort.Strings(names)
	classes := make([]string, 0, len(test))
	for c, vs := range test {
		n := 0
		for _, v := range vs {
			n += len(v)
		}
		b.Logf("class %s: %d values, %d bytes (mean %d)", c, len(vs), n, n/len(vs))
		classes = append(classes, c)
	}
	sort.Strings(classes)
	for _, class := range classes {
		vs := test[class]
		for _, name := range names {
			c := codecs[name]
			b.Run(class+"/"+name, func(b *testing.B) {
				var in, stored int
				var encT, decT time.Duration
				n := 0
				for b.Loop() {
					v := vs[n%len(vs)]
					n++
					t := cpuNow()
					z := c.enc(v)
					t1 := cpuNow()
					got, err := c.dec(z)
					decT += cpuNow() - t1
					encT += t1 - t
					if err != nil || !bytes.Equal(got, v) {
						b.Fatalf("%s: round trip: %v", name, err)
					}
					in += len(v)
					stored += min(len(z), len(v))
				}
				b.ReportMetric(float64(stored)/float64(in)*100, "stored-%")
				b.ReportMetric(float64(encT.Nanoseconds())/1e3/float64(b.N), "enc-us/op")
				b.ReportMetric(float64(decT.Nanoseconds())/1e3/float64(b.N), "dec-us/op")
			})
		}
	}
}
