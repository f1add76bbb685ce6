package mailfmt

import (
	"fmt"
	"maps"
	"mime/quotedprintable"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pbem-referee/referee/mailfmt/mailmsg"
)

// benchSamples are typical inbound messages of the corpus.
var benchSamples = []string{
	"001-gmail-web-en-top",                    // multipart/alternative, top-posted
	"006-outlook-desktop-en-original-message", // Outlook plain text with header block
	"011-outlook-web-html-only",               // base64 HTML only
	"015-iphone-mail-en",                      // quoted-printable, iPhone
	"021-thunderbird-it-interleaved",          // flowed, interleaved
	"079-dsn-postfix-user-unknown",            // delivery status notification
	"311-gmx-de-gesendet-von",                 // GMX, date-first header block (issue 20)
	"319-proton-en-bottom",                    // Proton, separator over a '>' quote, bottom-posted
	"333-outlook-com-en-business",             // Outlook.com, business signature without "-- "
	"334-new-outlook-en-html-bold",            // new Outlook, HTML only, bold header block
}

func BenchmarkParseCommands(b *testing.B) {
	for _, name := range benchSamples {
		raw, err := os.ReadFile(filepath.Join("testdata", "corpus", name+".eml"))
		if err != nil {
			b.Fatal(err)
		}
		b.Run(name, func(b *testing.B) {
			benchParse(b, raw, func(m *mailmsg.Message) {
				Classify(m, corpusSelf)
				mailmsg.FindTag(m, corpusReferee)
				Commands(m)
			})
		})
	}
}

// benchParse parses raw and reads the message with read, b.N times.
func benchParse(b *testing.B, raw []byte, read func(m *mailmsg.Message)) {
	b.ReportAllocs()
	b.SetBytes(int64(len(raw)))
	for b.Loop() {
		m, err := mailmsg.Parse(raw, mailmsg.Options{})
		if err != nil {
			b.Fatal(err)
		}
		read(m)
	}
}

// BenchmarkCorpus reports the cost of parse + classify + commands per
// message over the whole corpus (ns/op is per message; issue 20 target:
// under 200 µs and 40 KiB per typical reply).
func BenchmarkCorpus(b *testing.B) {
	files, err := filepath.Glob(filepath.Join("testdata", "corpus", "*.eml"))
	if err != nil || len(files) == 0 {
		b.Fatal("no corpus", err)
	}
	raws := make([][]byte, len(files))
	for i, f := range files {
		if raws[i], err = os.ReadFile(f); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		raw := raws[i%len(raws)]
		i++
		m, err := mailmsg.Parse(raw, corpusOptions)
		if err != nil {
			continue
		}
		if Classify(m, corpusSelf).Class == Normal {
			Commands(m)
		}
	}
}

// BenchmarkCommandsHostile measures the reading of hostile bodies that
// exercise the attribution, header-block, quote-prefix and sign-off rules on
// every line (issue 10): the cost must stay linear in the size.
func BenchmarkCommandsHostile(b *testing.B) {
	kw := NewKeywords([]string{"PASS"}, nil)
	cases := []struct{ name, body string }{
		{"attribution-starts", strings.Repeat("On Tue, May 12, 2026 at 10:14 AM Referee <referee@example.test\n", 3000)},
		{"header-fields", strings.Repeat("From: a\nDate: b\n", 3000)},
		{"dated-colon-lines", strings.Repeat("12/05/2026 10:14 x@y:\n", 3000)},
		{"pipes", strings.Repeat("| a\n", 6000)},
		{"names", strings.Repeat("Anna Rossi\n", 3000)},
		{"dashes", strings.Repeat("----------\n", 3000)},
		{"long-line", strings.Repeat("a@b 10:14 ", 10000) + ":"},
		{"dashdash-prose", strings.Repeat("--\nfoo bar\n", 3000)},
		{"rules-and-paragraphs", strings.Repeat("=====\nAnna Rossi\n\nsee you soon\n", 1500)},
		{"business-marks", strings.Repeat("Tel. +49 30 1234567\nok\n", 3000)},
		{"label-lines", strings.Repeat("Label: x@y 10:14\n", 3000)},
		{"commands-above-attributions", strings.Repeat("PASS\nOn Tue, May 12, 2026 at 10:14 AM Referee <\nreferee@example.test> wrote:\n> x\n", 1000)},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(c.body)))
			for b.Loop() {
				kw.ExtractCommands(c.body, mailmsg.Address{Name: "Anna Rossi"})
			}
		})
	}
}

// BenchmarkReplyQuotingASummary (issue 25): a player's answer as the
// bench's players write it: one command line above the referee's whole
// mail quoted (a summary of ~16 KB, quoted-printable, with accented
// names and '=' in it), parsed and its commands read with a keyword set.
func BenchmarkReplyQuotingASummary(b *testing.B) {
	var sum strings.Builder
	for i := range 300 {
		fmt.Fprintf(&sum, "Round %d: Zoë Müller places a worker on MH%d = %d points, Łukasz has %d barrels\n", i, i%9, i*3, i%7)
	}
	var quoted strings.Builder
	quoted.WriteString("On Mon, 7 Dec 2026 at 06:00, Referee <referee@example.test> wrote:\n")
	for _, l := range strings.Split(strings.TrimRight(sum.String(), "\n"), "\n") {
		quoted.WriteString("> " + l + "\n")
	}
	var body strings.Builder
	w := quotedprintable.NewWriter(&body)
	if _, err := w.Write([]byte(strings.ReplaceAll("PASS\n\n"+quoted.String(), "\n", "\r\n"))); err != nil {
		b.Fatal(err)
	}
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
	raw := []byte("From: Anna <anna@example.test>\r\nTo: referee+g42.1.k7x9@example.test\r\nSubject: Re: your turn\r\n" +
		"Message-ID: <a1@example.test>\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n" +
		"Content-Transfer-Encoding: quoted-printable\r\n\r\n" + body.String())
	keywords := map[string]bool{"PASS": true, "PLACE": true, "B": true, "BUY": true, "LIST": true}
	kw := NewKeywords(slices.Collect(maps.Keys(keywords)), nil)
	benchParse(b, raw, func(m *mailmsg.Message) {
		if text, _ := kw.MailCommands(m); text != "PASS" {
			b.Fatalf("read %q", text)
		}
	})
}
