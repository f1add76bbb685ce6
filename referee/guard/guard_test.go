package guard_test

import (
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/referee/guard"
)

var info = func(kw string) bool { return kw == "STATUS" || kw == "HELP" }
var known = func(kw string) bool { return info(kw) || kw == "PLACE" || kw == "PASS" }

// Rule (issues 11 and 23, the caps): an informational command repeated in
// a mail is answered once, beyond MaxInfo distinct ones the rest are not
// answered, beyond MaxOrders other orders none is read; a mail with a
// known keyword, a number, a hidden character or a shouted word "looks like
// a command". Generated: counts of orders around the caps x repeats x
// distinct informational commands x the first line's form.
func TestCapsApply(t *testing.T) {
	caps := guard.Caps{MaxInfo: 3, MaxOrders: 5}
	firsts := map[string]bool{"PLACE 1": true, "2": true, "CLA\uFFFDM 3": true, "CLAIMM 3": true, "hello there": false, "Ok": false}
	for first, looks := range firsts {
		for orders := 0; orders <= 7; orders++ {
			for distinct := 0; distinct <= 5; distinct++ {
				for repeat := 0; repeat <= 2; repeat++ {
					var lines []string
					lines = append(lines, first)
					for i := 0; i < orders; i++ {
						lines = append(lines, fmt.Sprintf("PASS %d", i))
					}
					for i := 0; i < distinct; i++ {
						for r := 0; r <= repeat; r++ {
							lines = append(lines, fmt.Sprintf("HELP topic%d", i))
						}
					}
					c := caps.Apply(engine.ParseScript(strings.Join(lines, "\n")), known, info)
					name := fmt.Sprintf("%q+%d orders+%d info x%d", first, orders, distinct, repeat+1)
					other := orders + 1 // the first line is an order too
					wantTooMany := 0
					if other > caps.MaxOrders {
						wantTooMany = other
					}
					wantInfo := min(distinct, caps.MaxInfo)
					wantOrders := wantInfo
					if wantTooMany == 0 {
						wantOrders += other
					}
					if c.TooMany != wantTooMany || len(c.Orders) != wantOrders || c.Dropped != max(0, distinct-caps.MaxInfo)*(repeat+1) {
						t.Errorf("%s: kept %d (want %d), too many %d (want %d), dropped %d", name, len(c.Orders), wantOrders, c.TooMany, wantTooMany, c.Dropped)
					}
					if wantRep := min(distinct, caps.MaxInfo) * repeat; c.Repeated != wantRep {
						t.Errorf("%s: repeated %d, want %d", name, c.Repeated, wantRep)
					}
					if c.Any != (looks || orders > 0 || distinct > 0) {
						t.Errorf("%s: looks like a command %v", name, c.Any)
					}
					notes := c.Note(func(name string, data map[string]any) string { return name })
					if want := b2i(c.Repeated > 0) + b2i(c.Dropped > 0) + b2i(c.TooMany > 0); len(notes) != want {
						t.Errorf("%s: notes %v, want %d", name, notes, want)
					}
				}
			}
		}
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Rule (issue 11, items 3 and 4): the digest ignores case and spacing; a
// stale resend is the same text answering an older, remembered state; the
// LoopRepeats-th identical body of a day is counted as such, a new day
// starts again, and the memory of both stays bounded.
func TestResendsAndLoops(t *testing.T) {
	forms := []string{"PLACE MH1 SEED", "place mh1 seed", "  Place\tMH1   seed\n", "PLACE MH1\nSEED"}
	for _, f := range forms {
		if guard.Digest(f) != guard.Digest(forms[0]) {
			t.Errorf("%q digests apart from %q", f, forms[0])
		}
	}
	if guard.Digest("PLACE MH2 SEED") == guard.Digest(forms[0]) {
		t.Error("two commands share a digest")
	}
	var recent []guard.RecentInput
	for tok := 0; tok < 3*guard.MaxRecent; tok++ {
		recent = guard.Remember(recent, tok, guard.Digest(fmt.Sprint("GO ", tok)))
		if len(recent) > guard.MaxRecent {
			t.Fatalf("%d inputs remembered", len(recent))
		}
		for back := 0; back < guard.MaxRecent; back++ {
			old := tok - back
			if old < 0 {
				break
			}
			d := guard.Digest(fmt.Sprint("go  ", old))
			if got := guard.StaleResend(recent, old, d, tok+1); !got {
				t.Errorf("input %d resent at state %d: not stale", old, tok+1)
			}
			if guard.StaleResend(recent, old, d, old) {
				t.Errorf("input %d at its own state taken for stale", old)
			}
		}
	}
	now := time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC)
	var counts []guard.BodyCount
	var since time.Time
	for day := 0; day < 3; day++ {
		for i := 1; i <= guard.LoopRepeats+2; i++ {
			var n int
			counts, since, n = guard.CountBody(counts, since, "same", now.Add(time.Duration(day*25+i)*time.Hour/10))
			if n != i {
				t.Errorf("day %d: the body's %dth coming counted %d", day, i, n)
			}
			counts, since, _ = guard.CountBody(counts, since, fmt.Sprint("other", i), now.Add(time.Duration(day*25+i)*time.Hour/10))
		}
		now = now.Add(25 * time.Hour)
	}
	for i := 0; i < 3*guard.MaxBodies; i++ {
		counts, since, _ = guard.CountBody(counts, since, fmt.Sprint("b", i), now)
	}
	if len(counts) > guard.MaxBodies {
		t.Errorf("%d bodies counted", len(counts))
	}
}

// Rule (issue 11, item 1): what is logged and sent is clipped within its
// bound, on a character (or line) boundary, with the note that says so.
// Generated: ASCII and multi-byte texts x sizes around the bounds.
func TestClip(t *testing.T) {
	for _, unit := range []string{"a", "é", "€", "𝄞", "line\n", "ligne é\n"} {
		for _, n := range []int{0, 1, guard.MaxLoggedInput/len(unit) - 1, guard.MaxLoggedInput / len(unit), guard.MaxLoggedInput/len(unit) + 1, 3 * guard.MaxLoggedInput} {
			text := strings.Repeat(unit, n)
			got := guard.ClipInput(text)
			if !utf8.ValidString(got) || len(got) > guard.MaxLoggedInput+6 || (len(text) <= guard.MaxLoggedInput) != (got == text) {
				t.Errorf("ClipInput(%d x %q): %d bytes, valid %v", n, unit, len(got), utf8.ValidString(got))
			}
			for _, limit := range []int{0, 40, 100, 1000} {
				b := guard.ClipBody(text, limit, "(cut)")
				if limit > 0 && len(text) > limit && (len(b) > limit || !strings.HasSuffix(b, "(cut)\n") || !utf8.ValidString(b)) {
					t.Errorf("ClipBody(%d x %q, %d): %d bytes %q", n, unit, limit, len(b), b[max(0, len(b)-20):])
				}
				if (limit == 0 || len(text) <= limit) && b != text {
					t.Errorf("ClipBody(%d x %q, %d) changed a body within bounds", n, unit, limit)
				}
			}
		}
	}
	if !guard.Disguised([]string{"hello", "PL\uFFFDCE 1"}) || guard.Disguised([]string{"hello \uFFFD"}) {
		t.Error("Disguised")
	}
	for line, want := range map[string]bool{"CLAIMM 3": true, "OK": true, "A b": false, "Hello": false, "42": false, "": false} {
		if guard.Shouted(line) != want {
			t.Errorf("Shouted(%q) = %v", line, !want)
		}
	}
}

// Rule (issue 23, a bounce's reason quoted to an organiser): a remote
// server's text reaches a reader without control or format characters
// (a bidi override cannot reorder the organiser's mail), in at most
// QuoteLines non-blank lines of at most QuoteWidth runes. Generated:
// line lengths around the width x the characters slipped in x how many
// lines.
func TestQuote(t *testing.T) {
	slips := []string{"", "\x1b", "\x07", "\u202e", "\u200d", "\t", "\r", "\x00", "\u2066"}
	for _, n := range []int{0, 1, 4, 5, 9} {
		for _, width := range []int{1, 71, 72, 73, 200} {
			for _, slip := range slips {
				var lines []string
				for i := 0; i < n; i++ {
					word := strings.Repeat(string(rune('a'+i)), width)
					lines = append(lines, slip+word[:width/2]+slip+word[width/2:], "  ", "")
				}
				got := guard.Quote(strings.Join(lines, "\n"))
				if want := min(n, guard.QuoteLines); len(got) != want {
					t.Fatalf("%d lines of %d with %q: %d quoted, want %d: %q", n, width, slip, len(got), want, got)
				}
				for i, l := range got {
					r := []rune(l)
					if len(r) > guard.QuoteWidth {
						t.Errorf("line %d is %d runes", i, len(r))
					}
					for _, c := range r {
						if unicode.IsControl(c) || unicode.Is(unicode.Cf, c) {
							t.Errorf("line %d keeps %U", i, c)
						}
					}
					clipped := width > guard.QuoteWidth && slip != "\t" || width >= guard.QuoteWidth && slip == "\t"
					if clipped != strings.HasSuffix(l, "…") {
						t.Errorf("width %d with %q: line %q (clipped: %v)", width, slip, l, clipped)
					}
					if !strings.HasPrefix(strings.TrimSpace(l), string(rune('a'+i))) {
						t.Errorf("line %d is %q: lines out of order", i, l)
					}
				}
			}
		}
	}
}
