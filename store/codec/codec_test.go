package codec

import (
	"bytes"
	stdflate "compress/flate"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"testing/synctest"

	kflate "github.com/klauspost/compress/flate"
	"github.com/klauspost/compress/zstd"
)

// mainDeflate is the compressor of the stores written before 2026-12-06's
// codec change (codec.go): compress/flate at its default level, as
// main's deflateAlways wrote every compressed value.
func mainDeflate(t testing.TB, v []byte) []byte {
	return deflateWith(t, v, func(w io.Writer) (io.WriteCloser, error) {
		return stdflate.NewWriter(w, stdflate.DefaultCompression)
	})
}

// stdInflate is compress/flate's reader: what main's code reads with.
func stdInflate(z []byte) ([]byte, error) {
	return io.ReadAll(stdflate.NewReader(bytes.NewReader(z)))
}

// klauspostDeflate is the compressor of the stores written on 2026-12-06
// (klauspost's flate at its default level), before the zstd form.
func klauspostDeflate(t testing.TB, v []byte) []byte {
	return deflateWith(t, v, func(w io.Writer) (io.WriteCloser, error) {
		return kflate.NewWriter(w, kflate.DefaultCompression)
	})
}

// deflateWith compresses v with the writer newWriter makes.
func deflateWith(t testing.TB, v []byte, newWriter func(io.Writer) (io.WriteCloser, error)) []byte {
	var buf bytes.Buffer
	w, err := newWriter(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write(v); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestCompressedFormsOldAndNew (codec.go): a value of every size and
// kind (text, JSON, random bytes) compresses to the zstd form and reads
// back byte for byte, whatever the prefix; the DEFLATE forms of older
// stores (compress/flate before 2026-12-06, klauspost's flate after) read
// as before; and main's code, given the new form, fails to read it rather
// than reading something else (compress/flate rejects it at its first
// byte).
func TestCompressedFormsOldAndNew(t *testing.T) {
	rng := rand.New(rand.NewPCG(24, 25))
	vals := payloads(rng)
	for _, n := range []int{100, 5000, 16 << 10, 70000, 300000, 2 << 20} {
		vals[fmt.Sprintf("record%d", n)] = record(rng, n)
	}
	for name, v := range vals {
		z := CompressAlways(nil, v)
		if len(z) == 0 || z[0] != zstdForm {
			t.Fatalf("%s: not in the zstd form: % x", name, z[:min(len(z), 8)])
		}
		if got, err := Decompress(z); err != nil || !bytes.Equal(got, v) {
			t.Errorf("%s: the zstd form reads as %d bytes of %d (%v)", name, len(got), len(v), err)
		}
		if got, err := stdInflate(z); err == nil {
			t.Errorf("%s: compress/flate reads the zstd form (as %d bytes)", name, len(got))
		}
		for codec, old := range map[string][]byte{"compress/flate": mainDeflate(t, v), "klauspost flate": klauspostDeflate(t, v)} {
			if got, err := Decompress(old); err != nil || !bytes.Equal(got, v) {
				t.Errorf("%s: %s's form reads as %d bytes of %d (%v)", name, codec, len(got), len(v), err)
			}
		}
		if p := CompressAlways([]byte{prefix}, v); !bytes.Equal(p[1:], z) || p[0] != prefix {
			t.Errorf("%s: the prefix changes the compressed bytes", name)
		}
	}
	for _, bad := range [][]byte{[]byte("not deflate at all"), {zstdForm}, {zstdForm, 1, 2, 3, 4, 5, 6, 7},
		append([]byte{zstdForm}, bytes.Repeat([]byte("zstd? no"), 20)...)} {
		if _, err := Decompress(bad); err == nil {
			t.Errorf("garbage % x inflates", bad[:min(len(bad), 8)])
		}
	}
}

// TestZstdFormNeverADeflateStream (codec.go): the first byte of the
// zstd form, and every byte whose first three bits make a DEFLATE block
// of the reserved type 3, starts no DEFLATE stream either reader accepts,
// whatever follows: a value of an older store is never read as zstd.
func TestZstdFormNeverADeflateStream(t *testing.T) {
	if zstdForm>>1&3 != 3 {
		t.Fatalf("zstdForm %#x is not a reserved DEFLATE block type", zstdForm)
	}
	rng := rand.New(rand.NewPCG(7, 12))
	tested := 0
	for b := range 256 {
		if b>>1&3 != 3 {
			continue
		}
		for range 50 {
			z := make([]byte, 1+rng.IntN(200))
			for i := range z {
				z[i] = byte(rng.Uint32())
			}
			z[0] = byte(b)
			if _, err := stdInflate(z); err == nil {
				t.Fatalf("compress/flate reads a stream starting %#x", b)
			}
			r := kflate.NewReader(bytes.NewReader(z))
			if _, err := io.ReadAll(r); err == nil {
				t.Fatalf("klauspost flate reads a stream starting %#x", b)
			}
			tested++
		}
	}
	if tested != 64*50 {
		t.Fatalf("%d streams tested", tested)
	}
}

// dictionarySums pins every dictionary shipped (codec.go): a value
// compressed with one must decode forever, so none may change.
var dictionarySums = map[int]string{
	1: "b8136a41ae71b95b37bd2a1616b6bb363070eb23049f7f5e11bea299d699e8a8",
	2: "1f7f3f68a7ca3696c81f270ff671b67b09045e57640e30987c62b9712a7a40ff",
	3: "d6f478d8dc288c8324aa55d8e4e6a149f9ab4e38d802c6ee6c70ba28f8143f4d",
}

// frameOfDict1 is a value in the zstd form as the store wrote it on
// 2026-12-07 with dictionary 1 (frameOfDict1Text, compressed): it must
// read forever, whatever the encoder writes today.
const frameOfDict1 = "ff2101d80d020054014620667475726e2033375430303a30303a3030317d0e00a0846b0d388a3883f43538b30db76b009a269f357178c0cac00df3e018731be08d78020337870c04"

const frameOfDict1Text = "From: \"PBEM Referee\" <referee@example.test>\r\nSubject: [Fromage fromage] Your move: turn 3\r\n\r\n" +
	"##- Please write your reply above this line -##\r\n{\"at\":\"2026-12-07T00:00:00Z\",\"kind\":\"move\",\"seat\":1,\"vis\":{\"public\":true}}"

// TestDictionariesNeverChange (codec.go): the dictionaries shipped are
// the ones the store's values were compressed with, byte for byte; a
// frame written with dictionary 1 reads; new values name the current
// dictionary.
func TestDictionariesNeverChange(t *testing.T) {
	shipped := map[int][]byte{1: zdict1, 2: zdict2, 3: zdict3}
	for id, want := range dictionarySums {
		if got := fmt.Sprintf("%x", sha256.Sum256(shipped[id])); got != want {
			t.Errorf("dictionary %d changed: sha256 %s, want %s: the values it compressed no longer read", id, got, want)
		}
	}
	if len(shipped) != len(dictionarySums) {
		t.Errorf("%d dictionaries shipped, %d pinned", len(shipped), len(dictionarySums))
	}
	// Every file of zdict is a dictionary the store embeds, as it is
	// (<id>.txt), or what dictionary id adds to id-1 (<id>-extra.txt):
	// the files rebuild every dictionary pinned, and no file is a second
	// copy of another's bytes.
	files, err := filepath.Glob("zdict/*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no dictionary files in zdict (%v)", err)
	}
	built := map[int][]byte{}
	extra := map[int][]byte{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var id int
		switch name := filepath.Base(f); {
		case strings.HasSuffix(name, "-extra.txt"):
			if _, err := fmt.Sscanf(name, "%d-extra.txt", &id); err != nil {
				t.Errorf("%s: not named <id>-extra.txt", f)
				continue
			}
			extra[id] = b
		default:
			if _, err := fmt.Sscanf(name, "%d.txt", &id); err != nil || name != fmt.Sprintf("%d.txt", id) {
				t.Errorf("%s: not named <id>.txt or <id>-extra.txt", f)
				continue
			}
			built[id] = b
		}
	}
	for id := 1; id <= len(dictionarySums); id++ {
		if b, ok := extra[id]; ok {
			if _, whole := built[id]; whole {
				t.Errorf("dictionary %d shipped twice: %d.txt and %d-extra.txt", id, id, id)
			}
			built[id] = append(append([]byte(nil), built[id-1]...), b...)
		} else if prev := built[id-1]; id > 1 && bytes.HasPrefix(built[id], prev) {
			t.Errorf("%d.txt repeats dictionary %d whole: ship what it adds as %d-extra.txt", id, id-1, id)
		}
		if !bytes.Equal(built[id], shipped[id]) {
			t.Errorf("zdict's files make dictionary %d of %d bytes, the store embeds %d (a new one: embed it in codec.go, pin it here)", id, len(built[id]), len(shipped[id]))
		}
	}
	if len(built) != len(shipped) {
		t.Errorf("zdict's files make %d dictionaries, %d shipped", len(built), len(shipped))
	}
	z, err := hex.DecodeString(frameOfDict1)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := Decompress(z); err != nil || string(got) != frameOfDict1Text {
		t.Errorf("a frame of dictionary 1 reads as %q (%v)", got, err)
	}
	fresh := CompressAlways(nil, []byte(frameOfDict1Text))
	h := append(zstdMagic[:], fresh[1:]...)
	var fh zstd.Header
	if err := fh.Decode(h); err != nil || fh.DictionaryID != zstdDict {
		t.Errorf("a new frame names dictionary %d, want %d (%v)", fh.DictionaryID, zstdDict, err)
	}
	if len(fresh) >= len(frameOfDict1Text)*3/4 {
		t.Errorf("%d bytes of %d: the dictionary is not used", len(fresh), len(frameOfDict1Text))
	}
}

// TestCompressAllocatesTheValueOnly (codec.go): with the shared
// encoder and decoder warm, compressing a mail-sized value allocates its
// compressed bytes, and decompressing it its bytes, and little else (one
// allocation each; a few more under the race detector, whose sync.Pool
// drops at random): no per-call coder state (a megabyte each
// for DEFLATE's writers: the GC cost).
func TestCompressAllocatesTheValueOnly(t *testing.T) {
	rng := rand.New(rand.NewPCG(36, 25))
	v := record(rng, 36000)
	z := CompressAlways(nil, v)
	Decompress(z)
	var m0, m1 runtime.MemStats
	for name, fn := range map[string]func(){
		"compress":   func() { CompressAlways([]byte{prefix}, v) },
		"decompress": func() { Decompress(z) },
	} {
		runtime.ReadMemStats(&m0)
		allocs := testing.AllocsPerRun(50, fn)
		runtime.ReadMemStats(&m1)
		perCall := (m1.TotalAlloc - m0.TotalAlloc) / 51
		if (allocs > 1 && !raceEnabled) || perCall > uint64(len(v))*3/2 {
			t.Errorf("%s: %.0f allocations, %d bytes a call of a %d-byte value", name, allocs, perCall, len(v))
		}
		// The compressed value is allocated at its size (encode), not
		// at half the value's (issue 24): a size class's rounding more.
		if name == "compress" && !raceEnabled && perCall > uint64(len(z))*9/8+64 {
			t.Errorf("compress: %d bytes a call for a value of %d compressed", perCall, len(z))
		}
	}
}

// TestCodecServesEveryBubble: the shared zstd encoder and decoder keep
// their coders in channels; made at their first use, inside a synctest
// bubble (the dispatch and smtpout tests run the outbox in bubbles), they
// belonged to that bubble and the next bubble's first compression was a
// fatal error. Each of several bubbles compresses and reads back.
func TestCodecServesEveryBubble(t *testing.T) {
	v := bytes.Repeat([]byte("Brew Crafters b5: your move, P2. "), 40)
	for i := range 3 {
		synctest.Test(t, func(t *testing.T) {
			z := CompressAlways(nil, v)
			if len(z) == 0 || z[0] != 0xFF {
				t.Fatalf("bubble %d: not the zstd form: % x", i, z[:min(len(z), 4)])
			}
			got, err := Decompress(z)
			if err != nil || !bytes.Equal(got, v) {
				t.Fatalf("bubble %d: read back %d bytes, %v", i, len(got), err)
			}
		})
	}
}

// TestReplyLineOfEveryLanguageInTheDictionary (codec.go, dictionary
// 2): a mail that starts with the reply line of its reader's language
// (templates/referee/*/replyline.tmpl; the French one as its
// quoted-printable body writes it) compresses into 20 bytes fewer at
// least than with dictionary 1, which knew the English line only (36 on
// average in Italian and Dutch, 49 in French); an English one into at
// most 12 more (3 on average: the fastest encoder's table of the
// dictionary is not the same). Variation: the four languages, mails of
// generated bodies.
func TestReplyLineOfEveryLanguageInTheDictionary(t *testing.T) {
	old := newZstdEncoder(1, zdict1)
	rng := rand.New(rand.NewPCG(2, 12))
	lines := map[string]string{
		"en": "##- Please write your reply above this line -##",
		"it": "##- Scrivi la tua risposta sopra questa riga -##",
		"nl": "##- Schrijf je antwoord boven deze regel -##",
		"fr": "##- =C3=89crivez votre r=C3=A9ponse au-dessus de cette ligne -##",
	}
	for _, lang := range []string{"en", "it", "nl", "fr"} {
		line := lines[lang]
		for range 20 {
			mail := []byte("Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n" +
				line + "\r\n" + string(moveText(rng, 100+rng.IntN(400))))
			now, before := len(CompressAlways(nil, mail)), len(old.EncodeAll(mail, nil))+1-len(zstdMagic)
			if lang == "en" && now > before+12 || lang != "en" && now > before-20 {
				t.Errorf("%s: %d bytes with dictionary 2, %d with 1", lang, now, before)
			}
		}
	}
}

// TestDictionaryThreeKeepsEveryLanguageSmaller_Issue24 (codec.go,
// dictionary 3: trained on an English bench's values): the golden mails
// of every language compress with it into no more bytes than with
// dictionary 2, and a frame of dictionary 2 still reads.
func TestDictionaryThreeKeepsEveryLanguageSmaller_Issue24(t *testing.T) {
	two := newZstdEncoder(2, zdict2)
	for _, lang := range []string{"en", "it", "fr", "nl"} {
		files, err := filepath.Glob("../../referee/testdata/golden/*." + lang + ".txt")
		if err != nil || len(files) < 10 {
			t.Fatalf("%s: %d golden mails (%v)", lang, len(files), err)
		}
		now, before := 0, 0
		for _, f := range files {
			v, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			z2 := two.EncodeAll(v, nil)
			now, before = now+len(CompressAlways(nil, v)), before+len(z2)+1-len(zstdMagic)
			if got, err := Decompress(append([]byte{zstdForm}, z2[len(zstdMagic):]...)); err != nil || !bytes.Equal(got, v) {
				t.Fatalf("%s: a frame of dictionary 2 does not read back (%v)", f, err)
			}
		}
		if now > before {
			t.Errorf("%s: %d bytes with dictionary 3, %d with 2", lang, now, before)
		}
	}
}
