package store

import (
	"bytes"
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/klauspost/compress/dict"
	"github.com/klauspost/compress/flate"
	"github.com/klauspost/compress/s2"
	"github.com/klauspost/compress/zstd"
	bolt "go.etcd.io/bbolt"
)

// corpus reads the values of a store, uncompressed, by class: the queued
// mails, the game snapshots and deltas, the log entries and the inbound
// records. The store is the one REFEREE_CODEC_CORPUS names (a store
// `referee bench --sizes none --dir D` leaves in D/referee/referee.db).
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
					v = getValue(b, k) // a value kept in pieces (blob.go)
				}
				if len(v) == 0 {
					return nil
				}
				switch {
				case strings.HasPrefix(n, "queue."):
					if bytes.Equal(k[len(k)-1:], []byte{zbodySuffix}) && len(k) == 9 {
						p, err := inflate(v)
						add("mail", p, err)
					} else if bytes.Equal(k[len(k)-1:], []byte{bodySuffix}) && len(k) == 9 {
						add("mail", v, nil)
					}
				case n == "games.snap":
					p, err := decodeSnap(v)
					add("snap", p, err)
				case n == "games":
					if len(v) > 9 && v[0] == gameDeltaZ {
						p, err := inflate(v[9:])
						add("delta", p, err)
					} else if len(v) > 9 && v[0] == gameDelta {
						add("delta", v[9:], nil)
					}
				case n == "log.flat":
					p, err := decodeSnap(v)
					add("log", p, err)
				case n == "inbound":
					if v[0] == inboundZ {
						p, err := inflate(v[1:])
						add("inbound", p, err)
					} else {
						add("inbound", v, nil)
					}
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

// BenchmarkCodecCorpus: the codecs the store could keep its values in,
// over a real corpus (corpus): bytes stored against bytes given, and CPU
// per value to compress and to decompress, per class of value. Half of
// each class (every other value) trains the dictionary of "zstd-dict",
// the other half is measured. Run with
//
//	REFEREE_CODEC_CORPUS=D/referee/referee.db go test -run - -bench CodecCorpus ./store/
func BenchmarkCodecCorpus(b *testing.B) {
	test := corpus(b, "REFEREE_CODEC_CORPUS")
	train := [][]byte{}
	for _, vs := range corpus(b, "REFEREE_CODEC_TRAIN") {
		train = append(train, vs...)
	}
	type codec struct {
		enc func([]byte) []byte
		dec func([]byte) ([]byte, error)
	}
	fl := func(level int) codec {
		w, _ := flate.NewWriter(nil, level)
		r := flate.NewReader(nil)
		return codec{func(v []byte) []byte {
			var buf bytes.Buffer
			w.Reset(&buf)
			w.Write(v)
			w.Close()
			return buf.Bytes()
		}, func(z []byte) ([]byte, error) {
			r.(flate.Resetter).Reset(bytes.NewReader(z), nil)
			var buf bytes.Buffer
			_, err := buf.ReadFrom(r)
			return buf.Bytes(), err
		}}
	}
	zs := func(level zstd.EncoderLevel, opts ...zstd.EOption) codec {
		e, err := zstd.NewWriter(nil, append([]zstd.EOption{zstd.WithEncoderLevel(level), zstd.WithEncoderConcurrency(1),
			zstd.WithEncoderCRC(false), zstd.WithWindowSize(1 << 18), zstd.WithLowerEncoderMem(true)}, opts...)...)
		if err != nil {
			b.Fatal(err)
		}
		var dopts []zstd.DOption
		return codec{func(v []byte) []byte { return e.EncodeAll(v, nil) }, func(z []byte) ([]byte, error) {
			d, _ := zstd.NewReader(nil, append(dopts, zstd.WithDecoderConcurrency(1))...)
			defer d.Close()
			return d.DecodeAll(z, nil)
		}}
	}
	t0 := time.Now()
	zd := []byte(nil)
	if os.Getenv("REFEREE_CODEC_DICT_KB") == "" {
		var err error
		zd, err = dict.BuildZstdDict(train, dict.Options{MaxDictSize: 64 << 10, HashBytes: 6, ZstdDictID: 1, ZstdLevel: zstd.SpeedDefault})
		if err != nil {
			b.Fatal(err)
		}
		b.Logf("dictionary: %d bytes of %d values in %v", len(zd), len(train), time.Since(t0))
	}
	dictKB := 64
	if s := os.Getenv("REFEREE_CODEC_DICT_KB"); s != "" {
		fmt.Sscan(s, &dictKB)
	}
	rd, err := dict.BuildRawDict(train, dict.Options{MaxDictSize: dictKB << 10, HashBytes: 6})
	if err != nil {
		b.Fatal(err)
	}
	os.WriteFile("/tmp/codec-rawdict", rd, 0o644)
	os.WriteFile("/tmp/codec-zdict", zd, 0o644)
	zsd := func(level zstd.EncoderLevel, raw bool) codec {
		eo, do := zstd.WithEncoderDict(zd), zstd.WithDecoderDicts(zd)
		if raw {
			eo, do = zstd.WithEncoderDictRaw(1, rd), zstd.WithDecoderDictRaw(1, rd)
		}
		e, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(level), zstd.WithEncoderConcurrency(1),
			zstd.WithEncoderCRC(false), zstd.WithWindowSize(1<<18), zstd.WithLowerEncoderMem(true), eo)
		if err != nil {
			b.Fatal(err)
		}
		d, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), do)
		if err != nil {
			b.Fatal(err)
		}
		return codec{func(v []byte) []byte { return e.EncodeAll(v, nil) }, func(z []byte) ([]byte, error) { return d.DecodeAll(z, nil) }}
	}
	zsShared := func(level zstd.EncoderLevel) codec {
		c := zs(level)
		d, _ := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1))
		c.dec = func(z []byte) ([]byte, error) { return d.DecodeAll(z, nil) }
		return c
	}
	codecs := map[string]codec{
		"deflate5":             fl(flate.DefaultCompression),
		"deflate1":             fl(1),
		"zstd-fastest":         zsShared(zstd.SpeedFastest),
		"zstd-default":         zsShared(zstd.SpeedDefault),
		"zstd-better":          zsShared(zstd.SpeedBetterCompression),
		"zstd-rawdict-fastest": zsd(zstd.SpeedFastest, true),
		"zstd-rawdict-default": zsd(zstd.SpeedDefault, true),
		"s2":                   {func(v []byte) []byte { return s2.Encode(nil, v) }, func(z []byte) ([]byte, error) { return s2.Decode(nil, z) }},
		"s2-better": {func(v []byte) []byte { return s2.EncodeBetter(nil, v) }, func(z []byte) ([]byte, error) {
			return s2.Decode(nil, z)
		}},
	}
	if zd != nil {
		codecs["zstd-dict-fastest"] = zsd(zstd.SpeedFastest, false)
		codecs["zstd-dict-default"] = zsd(zstd.SpeedDefault, false)
	}
	b.Logf("raw dictionary: %d bytes", len(rd))
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
	_ = fmt.Sprint
}
