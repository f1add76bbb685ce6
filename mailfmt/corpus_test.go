package mailfmt

import (
	"errors"
	"flag"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/pbem-referee/referee/mailfmt/mailmsg"
)

var update = flag.Bool("update", false, "rewrite testdata/corpus/*.want from the current behaviour (only after checking the diff)")

// The corpus is read as the referee of example.test would read it.
var (
	corpusReferee = mailmsg.Address{Name: "Referee", Addr: "referee@example.test"}
	corpusSelf    = []string{"referee@example.test"}
	corpusOptions = mailmsg.Options{MaxBytes: 64 << 10}
)

func corpusFiles(t testing.TB) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "corpus", "*.eml"))
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// summarize renders what the package makes of one raw message, in the
// format of the .want files: "key: value" lines, then "---" and the
// commands (for Normal mail only).
func summarize(raw []byte) string {
	var b strings.Builder
	m, err := mailmsg.Parse(raw, corpusOptions)
	if err != nil {
		switch {
		case errors.Is(err, mailmsg.ErrTooLarge):
			b.WriteString("error: too-large\n")
		case errors.Is(err, mailmsg.ErrMalformed):
			b.WriteString("error: malformed\n")
		default:
			fmt.Fprintf(&b, "error: %v\n", err)
		}
		if m != nil {
			fmt.Fprintf(&b, "from: %s\n", m.From.Addr)
		}
		return b.String()
	}
	c := Classify(m, corpusSelf)
	fmt.Fprintf(&b, "class: %s\n", c.Class)
	fmt.Fprintf(&b, "from: %s\n", m.From.Addr)
	if m.MessageIDDigest {
		b.WriteString("msgid: digest\n")
	}
	if m.FromHTML {
		b.WriteString("html: yes\n")
	}
	tr := mailmsg.FindTag(m, corpusReferee)
	if tr.Tag.Kind != mailmsg.TagNone {
		t := tr.Tag
		opt := func(ok bool, s string) string {
			if !ok {
				return "-"
			}
			return s
		}
		if t.Kind == mailmsg.TagBounce {
			fmt.Fprintf(&b, "tag: bounce id=%s\n", t.ID)
		} else {
			fmt.Fprintf(&b, "tag: %s game=%s seat=%s secret=%s token=%s\n", t.Kind,
				opt(t.Game != "", t.Game), opt(t.Seat != mailmsg.NoSeat, strconv.Itoa(t.Seat)),
				opt(t.Secret != "", t.Secret), opt(t.Token != mailmsg.NoToken, strconv.FormatInt(t.Token, 10)))
		}
		src := func(s mailmsg.TagSource) string { return opt(s != mailmsg.SourceNone, string(s)) }
		fmt.Fprintf(&b, "tag-from: kind=%s secret=%s seat=%s token=%s\n", src(tr.KindFrom), src(tr.SecretFrom), src(tr.SeatFrom), src(tr.TokenFrom))
		if tr.Conflict {
			b.WriteString("conflict: yes\n")
		}
	}
	switch c.Class {
	case AutoReply:
		fmt.Fprintf(&b, "oof: %s\n", map[bool]string{true: "yes", false: "no"}[c.OutOfOffice])
		if !c.Return.IsZero() {
			fmt.Fprintf(&b, "return: %s\n", c.Return)
		}
	case Bounce:
		if bi := c.Bounce; bi != nil {
			kind, perm := "classic", "temporary"
			if bi.DSN {
				kind = "dsn"
			}
			if bi.Permanent {
				perm = "permanent"
			}
			fmt.Fprintf(&b, "bounce: %s %s\n", kind, perm)
			for _, r := range bi.Recipients {
				fmt.Fprintf(&b, "rcpt: %s %s %s\n", r.Addr, r.Action, r.Status)
			}
			if bi.OriginalMessageID != "" {
				fmt.Fprintf(&b, "original: %s\n", bi.OriginalMessageID)
			}
			if bi.VERP.Kind != mailmsg.TagNone {
				fmt.Fprintf(&b, "verp: %s\n", bi.VERP)
			}
		}
	}
	if c.Class != Normal {
		return b.String()
	}
	text, info := corpusKeywords.MailCommands(m)
	var flags []string
	for _, f := range []struct {
		on   bool
		name string
	}{
		{info.Markers, "markers"}, {info.Unclosed, "unclosed"}, {info.Outside > 0, "outside"},
		{info.Quote, "quote"}, {info.Interleaved, "interleaved"}, {info.Forwarded, "forwarded"},
		{info.Signature, "signature"}, {len(info.SignOff) > 0, "signoff"}, {len(info.Greeting) > 0, "greeting"},
	} {
		if f.on {
			flags = append(flags, f.name)
		}
	}
	fmt.Fprintf(&b, "info: %s\n", strings.Join(flags, " "))
	// What the referee ignores and lists: greetings, prose, sign-offs.
	text, prose := corpusKeywords.SplitProse(text)
	text = tidy(strings.Split(text, "\n"))
	for _, l := range append(append(append([]string(nil), info.Greeting...), prose...), info.SignOff...) {
		fmt.Fprintf(&b, "ignored: %s\n", l)
	}
	b.WriteString("---\n")
	if text != "" {
		b.WriteString(text)
		b.WriteString("\n")
	}
	return b.String()
}

// corpusKeywords know the command keywords of the games and the referee,
// and their aliases in every language (read from ../templates), as the
// referee does.
var corpusKeywords = func() *Keywords {
	kw := map[string]bool{}
	for _, w := range strings.Fields(`HELP STATUS RULE LOG CLEAR RESIGN SAY VACATION NOTIFY LANG OBSERVE FORMAT JOIN DECLINE LIST YES UNDO
		REGISTER NEXT OR END STORE AUTOSTORE TOKENS PLACE PICK REROLL PASS PLAY DONE BREW GATHER MAKE MILK BUILD BARN TAKE TRADE
		NOTRADE COMPLETE KEEP`) {
		kw[w] = true
	}
	files, _ := filepath.Glob(filepath.Join("..", "templates", "*", "*", "aliases.txt"))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		for _, l := range strings.Split(string(b), "\n") {
			if a, _, ok := strings.Cut(l, "="); ok && !strings.HasPrefix(strings.TrimSpace(l), "#") {
				kw[strings.ToUpper(strings.TrimSpace(a))] = true
			}
		}
	}
	return NewKeywords(slices.Collect(maps.Keys(kw)), nil)
}()

func TestCorpus(t *testing.T) {
	files := corpusFiles(t)
	if len(files) < 400 {
		t.Errorf("the corpus has %d messages; at least 400 are required (issues 10, 20)", len(files))
	}
	pass := 0
	defer func() {
		t.Logf("corpus pass rate: %d/%d (%.1f%%)", pass, len(files), 100*float64(pass)/float64(max(1, len(files))))
		if pass != len(files) {
			t.Errorf("corpus pass rate below 100%%: %d/%d", pass, len(files))
		}
	}()
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".eml")
		t.Run(name, func(t *testing.T) {
			raw, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			got := summarize(raw)
			wantFile := strings.TrimSuffix(f, ".eml") + ".want"
			if *update {
				if err := os.WriteFile(wantFile, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				pass++
				return
			}
			want, err := os.ReadFile(wantFile)
			if err != nil {
				t.Fatalf("missing %s (run go test -run TestCorpus -update after checking the output): %v", wantFile, err)
			}
			if got != string(want) {
				t.Errorf("%s:\n--- got\n%s--- want\n%s", name, got, want)
				return
			}
			pass++
		})
	}
}

// TestCorpusInvariants checks, for every sample, what must hold whatever the
// expected output says: no quoted line and no line of the quoted referee
// mail in the commands, and a deterministic result.
func TestCorpusInvariants(t *testing.T) {
	for _, f := range corpusFiles(t) {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		m, err := mailmsg.Parse(raw, corpusOptions)
		if err != nil {
			continue
		}
		text, _ := Commands(m)
		for _, l := range strings.Split(text, "\n") {
			if strings.HasPrefix(strings.TrimSpace(l), ">") {
				t.Errorf("%s: quoted line in commands: %q", f, l)
			}
			if refereeMarkerLine(l) {
				t.Errorf("%s: text of the referee's mail in commands: %q", f, l)
			}
		}
		if again, _ := Commands(m); again != text {
			t.Errorf("%s: Commands is not deterministic", f)
		}
	}
}

// refereeMarkerLine reports lines that only the referee's mails in the
// corpus contain (see the quoted prompts in testdata/corpus).
func refereeMarkerLine(l string) bool {
	for _, s := range []string{"Your options:", "Le tue opzioni:", "Vos options :", "Je opties:", "Deine Optionen:", "reply STATUS", "rispondi STATUS", "répondez STATUS", "antwoord STATUS", "antworte STATUS", "##-"} {
		if strings.Contains(l, s) {
			return true
		}
	}
	return false
}
