package referee

import (
	"io/fs"
	"os"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/mailfmt/mailmsg"
	"github.com/pbem-referee/referee/templates"
)

// stubLanguage builds a templates tree with a fifth language, lang, made
// from the English files the way templates/README.md says a language is
// added (templates/ only): every <scope>/en file copied to <scope>/<lang>,
// the text of the templates marked ("the" is "ze", "this" is "zis": the
// reply line's words, replyline.tmpl, are the stub's too), every keyword given a
// first alias of the language ("Z" and the keyword: ZPLACE, ZHELP), and
// the language added to languages.txt.
func stubLanguage(t *testing.T, lang string) fs.FS {
	t.Helper()
	src := os.DirFS("../templates")
	out := fstest.MapFS{}
	keywords := func(scope string) []string {
		var kws []string
		if eg, err := engine.Lookup(scope); err == nil {
			kws = append(kws, eg.Info().Commands...)
		}
		// The common keywords: those the Italian aliases name.
		if b, err := fs.ReadFile(src, scope+"/it/aliases.txt"); err == nil {
			for _, l := range strings.Split(string(b), "\n") {
				if _, kw, ok := strings.Cut(l, "="); ok && !strings.HasPrefix(l, "#") {
					kws = append(kws, strings.TrimSpace(strings.Split(kw, "#")[0]))
				}
			}
		}
		return kws
	}
	action := regexp.MustCompile(`(?s)\{\{.*?\}\}`)
	the := regexp.MustCompile(`\b([Tt]he|this)\b`)
	mark := func(text string) string {
		return the.ReplaceAllStringFunc(text, func(w string) string { return map[string]string{"the": "ze", "The": "Ze", "this": "zis"}[w] })
	}
	err := fs.WalkDir(src, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasSuffix(p, ".go") || strings.HasSuffix(p, ".md") {
			return err
		}
		b, err := fs.ReadFile(src, p)
		if err != nil {
			return err
		}
		out[p] = &fstest.MapFile{Data: b}
		parts := strings.Split(p, "/")
		if len(parts) != 3 || parts[1] != "en" {
			return nil
		}
		scope, name := parts[0], parts[2]
		stub := string(b)
		switch {
		case strings.HasSuffix(name, ".tmpl"):
			// Only the words: the text between actions.
			var sb strings.Builder
			last := 0
			for _, loc := range action.FindAllStringIndex(stub, -1) {
				sb.WriteString(mark(stub[last:loc[0]]))
				sb.WriteString(stub[loc[0]:loc[1]])
				last = loc[1]
			}
			sb.WriteString(mark(stub[last:]))
			stub = sb.String()
		case name == "aliases.txt":
			var first strings.Builder
			seen := map[string]bool{}
			for _, kw := range keywords(scope) {
				if kw != "" && !seen[kw] && !strings.ContainsAny(kw, " ?") {
					seen[kw] = true
					first.WriteString("Z" + kw + " = " + kw + "\n")
				}
			}
			stub = first.String() + stub
		}
		out[scope+"/"+lang+"/"+name] = &fstest.MapFile{Data: []byte(stub)}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, scope := range []string{"common", "referee"} {
		if _, ok := out[scope+"/"+lang+"/aliases.txt"]; !ok {
			t.Fatalf("no %s aliases", scope)
		}
	}
	out["languages.txt"].Data = append(out["languages.txt"].Data, []byte(lang+"\n")...)
	return out
}

// Issue 25: a fifth language is added by templates/ alone. A stub language
// built from the English files (stubLanguage) carries a whole game of
// Dice Brewing by mail: both players read it and answer in its words (ZJOIN,
// ZPLACE ..., ZSTATUS), every answer is taken, and its words (the marker
// "ze", its keywords) are in the mails; English readers are untouched.
func TestStubLanguageEndToEnd(t *testing.T) {
	set, err := templates.LoadFS(stubLanguage(t, "xx"))
	if err != nil {
		t.Fatal(err)
	}
	restore := templates.Install(set)
	defer restore()
	if !templates.IsLanguage("xx") || len(templates.Languages) != 5 {
		t.Fatalf("Languages = %v", templates.Languages)
	}
	// The reply line is the stub's, through the composer of every mail.
	if l := templates.ReplyLine("xx"); l != "##- Please write your reply above zis line -##" {
		t.Errorf("the stub's reply line is %q", l)
	}
	raw, err := Composer(mailmsg.Address{Addr: "referee@example.test"})(&Outgoing{Seat: -1, To: ann, Subject: "x",
		MessageID: "<rf.x5.x.1.n@example.test>", Date: time.Date(2026, 12, 7, 0, 0, 0, 0, time.UTC), Body: "x", Lang: "xx"})
	if err != nil || !strings.Contains(string(raw), "\r\n\r\n##- Please write your reply above zis line -##\r\n") {
		t.Errorf("a stub-language mail does not start with its reply line (%v):\n%s", err, raw)
	}
	h := newHarness(t)
	h.org("NEW dicebrewing id=x5 deadline=48h seed=stub5\nPLAYER ann@example.test Ann xx\nPLAYER bob@example.test Bob xx")
	first := h.mailTo(h.mails(), ann).Body
	h.send("x5", ann, "ZJOIN", -1)
	h.send("x5", bob, "ZJOIN", -1)
	start := ""
	for _, m := range h.mails() {
		if m.To == ann {
			start += m.Body
		}
	}
	if !strings.Contains(first+start, " ze ") {
		t.Errorf("the first mails lack the stub's words:\n%s\n%s", first, start)
	}
	h.send("x5", ann, "ZSTATUS ZFULL", -1)
	if body := h.mailTo(h.mails(), ann).Body; !strings.Contains(body, " ze ") {
		t.Errorf("ZSTATUS: %s", body)
	}
	marked, keywords := 0, 0
	stubKeyword := regexp.MustCompile(`\bZ(PLACE|STORE|NOBUY|BUY|END|PASS)\b`)
	bg := h.newBotGame("x5", 1, 5, 5)
	bg.Moves = 1000
	bg.Answer = func(tn *botTurn) string {
		rd := Reader{Game: "dicebrewing", Lang: "xx", Seat: tn.D.Seat, Seats: []string{"Ann", "Bob"}}
		line := h.r.render.ctx(rd, nil).KwLine(tn.Line)
		if !strings.HasPrefix(line, "Z") {
			t.Fatalf("%q has no keyword of the stub language: %q", tn.Line, line)
		}
		return line
	}
	bg.Mails = func(ms []*Outgoing) {
		for _, m := range ms {
			if strings.Contains(m.Body, " ze ") {
				marked++
			}
			if stubKeyword.MatchString(m.Body) {
				keywords++
			}
		}
	}
	moves := bg.play()
	if st := h.game("x5").Status; st == StatusRunning {
		t.Fatalf("the game did not end in %d moves", moves)
	}
	if marked < moves/4 || keywords < moves/4 {
		t.Errorf("of %d moves, only %d mails carry the stub language's words, %d its keywords", moves, marked, keywords)
	}
	t.Logf("%d moves: %d mails with the stub's words, %d with its keywords", moves, marked, keywords)
	// An English reader is untouched by the fifth language.
	h.org("NEW dicebrewing id=e5 seed=stub5\nPLAYER carl@example.test Carl en\nPLAYER dora@example.test Dora en")
	if body := h.mailTo(h.mails(), "carl@example.test").Body; strings.Contains(body, " ze ") || strings.Contains(body, "ZPLACE") {
		t.Errorf("English reader sees the stub language:\n%s", body)
	}
}
