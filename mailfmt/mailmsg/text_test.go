package mailmsg

import (
	"io"
	"math/rand/v2"
	"mime/quotedprintable"
	"regexp"
	"strings"
	"testing"
)

func TestNormalizeText(t *testing.T) {
	tests := []struct{ in, want string }{
		{"a\r\nb\rc\n", "a\nb\nc\n"},
		{"\u201cbid\u201d \u2018x\u2019 \u201eq\u201c", `"bid" 'x' "q"`},
		{"a\u00a0b\u202fc\u2009d\u3000e", "a b c d e"},
		{"PLA\u200dCE\ufeff\u00ad", "PLACE"},                                             // joiner, BOM, soft hyphen vanish
		{"P\u200bL\u200cACE", "P\ufffdL\ufffdACE"},                                       // hiding characters show (issue 11)
		{"PA\u202eSS\u202c \u2066x\u2069 B3\u200b", "PA\ufffdSS\ufffd \ufffdx\ufffd B3"}, // bidi controls mark the word they touch; a zero-width space at an edge vanishes
		{"\u202ePASS \u200fok\u200e", "\ufffdPASS ok"},                                   // issue 23: <U+202E>PASS shows as SSAP; RTL marks at edges vanish
		{"e\u0301", "\u00e9"},                                                            // NFC
		{"x\x00y\x07z\u0085w", "xyz\nw"},                                                 // controls removed, NEL is a line break
		{"2026\u20132027 \u2014 ok", "2026-2027 - ok"},
		{"1+1=2\nSAY a=b\n", "1+1=2\nSAY a=b\n"}, // equals signs that are not debris
		{"PLACE=20\nPASS=20\n", "PLACE\nPASS\n"}, // trailing =20 only
		{"I=E2=80=99m in, let=E2=80=99s go ar=\nound\n", "I'm in, let's go around\n"},
		{"caf=C3=A9 =3D na=C3=AFve", "café = naïve"},
		// An organiser's NEW line is not quoted-printable (seen as
		// "deadlineHh" before: "=48" is no encoder's output).
		{"NEW dicebrewing id=g42 players=3 deadline=48h,place=24h rounds=10\n", "NEW dicebrewing id=g42 players=3 deadline=48h,place=24h rounds=10\n"},
		{"POLICY g42 24h place=12h at=20:00 misses=3 remind=50%+4h\n", "POLICY g42 24h place=12h at=20:00 misses=3 remind=50%+4h\n"},
	}
	for _, tt := range tests {
		if got := normalizeText(tt.in); got != tt.want {
			t.Errorf("normalizeText(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestToUTF8(t *testing.T) {
	tests := []struct {
		in, label, want string
		warn            bool
	}{
		{"gr\xfcn", "iso-8859-1", "grün", false},
		{"\x93q\x94 5\x80", "ISO-8859-1", "\u201cq\u201d 5€", false}, // read as Windows-1252
		{"\x93q\x94 5\x80", "windows-1252", "\u201cq\u201d 5€", false},
		{"5\xa4", "iso-8859-15", "5€", false},
		{"gr\xfcn", "", "grün", false},      // undeclared 8-bit: Windows-1252
		{"gr\xfcn", "utf-8", "grün", false}, // mislabelled
		{"città \xff", "utf-8", "città \ufffd", false},
		{"plain", "us-ascii", "plain", false},
		{"plain", "x-no-such-charset", "plain", true},
		{"\xf0\xd2\xc9\xd7\xc5\xd4", "koi8-r", "Привет", false},
	}
	for _, tt := range tests {
		got, warning := toUTF8([]byte(tt.in), tt.label)
		if got != tt.want || (warning != "") != tt.warn {
			t.Errorf("toUTF8(%q, %q) = %q, %q; want %q (warning %v)", tt.in, tt.label, got, warning, tt.want, tt.warn)
		}
	}
}

func TestUnflow(t *testing.T) {
	tests := []struct {
		in    string
		delsp bool
		want  string
	}{
		{"a long \nline\nnext", false, "a long line\nnext"},
		{"word\u0020\nbreak", true, "wordbreak"},
		{"two  \nwords", true, "two words"},
		{"> quoted \n> line\nmine", false, "> quoted line\nmine"},
		{"> a \nb", false, "> a \nb"}, // depth change ends the paragraph
		{" >stuffed", false, ">stuffed"},
		{"-- \nsig", false, "-- \nsig"},
	}
	for _, tt := range tests {
		if got := unflow(tt.in, tt.delsp); got != tt.want {
			t.Errorf("unflow(%q, %v) = %q, want %q", tt.in, tt.delsp, got, tt.want)
		}
	}
}

func TestHTMLToText(t *testing.T) {
	tests := []struct{ in, want string }{
		{"<div>PLACE MH1 SEED</div><div>PASS</div>", "PLACE MH1 SEED\nPASS\n"},
		{"a<br>b<br/><br>c", "a\nb\n\nc\n"},
		{"<p>one</p><p>two</p>", "one\ntwo\n"},
		{"<ul><li>STORE Y5 G4</li><li>MAKE B14</li></ul>", "STORE Y5 G4\nMAKE B14\n"},
		{"<ol><li>first</li></ol>", "first\n"},
		{"x &amp; y &lt;3 &nbsp;z &eacute;", "x & y <3 \u00a0z é\n"},
		{"<blockquote>q1<br>q2<blockquote>deep</blockquote></blockquote>mine", "> q1\n> q2\n> > deep\nmine\n"},
		{"<head><title>t</title><style>p{}</style></head><body><script>alert(1)</script>ok</body>", "ok\n"},
		{"<pre>  keep\n    this</pre>", "  keep\n    this\n"},
		{"a<hr>b", "a\n________________________________\nb\n"},
		{"<table><tr><td>a</td><td>b</td></tr><tr><td>c</td></tr></table>", "a b\nc\n"},
		{"cmd<div class=\"gmail_signature\">Anna</div>", "cmd\n-- \nAnna\n"},
		{"  lots   of\n\n spaces  ", "lots of spaces\n"},
		{"<!-- comment -->x<!--[if mso]>y<![endif]-->", "x\n"},
		{"unclosed <b>bold", "unclosed bold\n"},
		{"", "\n"},
	}
	for _, tt := range tests {
		if got := HTMLToText(tt.in); got != tt.want {
			t.Errorf("HTMLToText(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	deep := strings.Repeat("<blockquote>", 50) + "x" + strings.Repeat("</blockquote>", 50)
	if got := HTMLToText(deep); got != strings.Repeat("> ", maxQuoteDepth)+"x\n" {
		t.Errorf("deep blockquotes = %q", got)
	}
}

// TestMapBodyCopiesOnlyWhatChanges_Issue25: mapBody returns a body that
// needs nothing as it is (bodyKept, issue 25: no copy of every body) and
// otherwise what writing every character gives (mapBodyAll), for
// generated texts of plain letters, white space, control characters and
// DEL, C1 controls, quotes, dashes and spaces it maps, characters that
// hide or reorder text, other invisible format characters, U+FFFD,
// accented letters, emoji and bytes that are not UTF-8.
func TestMapBodyCopiesOnlyWhatChanges_Issue25(t *testing.T) {
	pieces := []string{"a", "PASS", " ", "\n", "\t", "\r", "\x00", "\x1f", "\x7f", "\u0085", "\u009f", "\u2019", "\u201c",
		"\u2013", "\u00a0", "\u3000", "\u00ad", "\u200b", "\u200d", "\u202e", "\u2066", "\ufeff", "\u061c", "\U000e0001",
		"\u2028", "\ufffd", "é", "Zoë", "李", "😀", "\xff", "\xc3", "\xe2\x80", "=", "-", "'"}
	r := rand.New(rand.NewPCG(25, 3))
	kept, total := 0, 0
	for range 100000 {
		var b strings.Builder
		for range 1 + r.IntN(12) {
			if r.IntN(3) == 0 {
				b.WriteString(pieces[r.IntN(len(pieces))])
			} else {
				b.WriteString(pieces[r.IntN(2)]) // mostly plain text
			}
		}
		s := b.String()
		total++
		if bodyKept(s) {
			kept++
		}
		if got, want := mapBody(s), mapBodyAll(s); got != want {
			t.Fatalf("mapBody(%q) = %q, every character written %q", s, got, want)
		}
	}
	if kept == 0 || kept == total {
		t.Fatalf("%d of %d texts kept: the generation tests nothing", kept, total)
	}
}

// TestQPSignsAsTheRegexps_Issue25: qpSigns (one pass over the bytes)
// counts the escapes and soft line breaks the regular expressions it
// replaced find, up to 16 each, and fixQPDebris gives the text it gave
// with them, for generated texts of escapes ("=3D", "=C3=A9", "=48",
// "=20", "=09", lower-case hex), "=" at the end of lines and of the text
// after letters, spaces, tabs, CR, FF, "=" and bytes past ASCII, runs of
// "=" and plain text.
func TestQPSignsAsTheRegexps_Issue25(t *testing.T) {
	hexRe := regexp.MustCompile(`=(?:3D|[89A-F][0-9A-F])`)
	softRe := regexp.MustCompile(`(?m)[^=\s]=$`)
	before := func(s string) string {
		if !strings.Contains(s, "=") {
			return s
		}
		hex, soft := len(hexRe.FindAllStringIndex(s, 16)), len(softRe.FindAllStringIndex(s, 16))
		if (soft >= 1 && hex >= 1) || hex >= 3 || soft >= 2 {
			out, err := io.ReadAll(quotedprintable.NewReader(strings.NewReader(s)))
			if err == nil {
				return fallbackUTF8(out)
			}
		}
		return qpTrailingRe.ReplaceAllString(s, "")
	}
	pieces := []string{"=", "=\n", "\n", "3D", "=3D", "=C3=A9", "=48", "=20", "=09", "=c3", "=8", "=9F", "=FG", "a", "é",
		" ", "\t", "\r", "\f", "\xff", "\x80", "==", "deadline=48h", "PASS"}
	many := []string{"a=\n", "=C3=A9", "=3D", "=20\n", "x"}
	r := rand.New(rand.NewPCG(25, 4))
	signs := 0
	for i := range 100000 {
		var b strings.Builder
		n, from := 1+r.IntN(10), pieces
		if i%100 == 0 {
			n, from = 60, many // past 16 of each
		}
		for range n {
			b.WriteString(from[r.IntN(len(from))])
		}
		s := b.String()
		hex, soft := qpSigns(s)
		wantHex, wantSoft := len(hexRe.FindAllStringIndex(s, 16)), len(softRe.FindAllStringIndex(s, 16))
		if hex != wantHex || soft != wantSoft {
			t.Fatalf("qpSigns(%q) = %d, %d; the regexps %d, %d", s, hex, soft, wantHex, wantSoft)
		}
		if hex > 0 && soft > 0 {
			signs++
		}
		if got, want := fixQPDebris(s), before(s); got != want {
			t.Fatalf("fixQPDebris(%q) = %q, before %q", s, got, want)
		}
	}
	if signs == 0 {
		t.Fatal("no text with both signs: the generation tests nothing")
	}
}
