package tell

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/mailfmt/mailmsg"
	"github.com/pbem-referee/referee/templates"
)

// TestJSONPartWordsTheOptions_Issue25 (issue 25: every word in the
// reader's language, no internal code shown; the body's prompt not
// repeated): the JSON part of FORMAT json mails of random games of the
// four games, in every language: the prompt's fields stay the engine's
// (its decision kind, each option's canonical command), and beside them
// option_names word each numbered option as the mail's body shows it (on
// the menu line numbered for it, the number left out, one space between
// words), one name an option, no template key nor Go text in it, none
// empty; there are none
// for a prompt without numbered options, and the part has no copy of the
// body's prompt. Each composed mail's JSON part goes in 7bit lines (a
// string longer than a line's 998 octets would send it in base64, as a
// whole prompt in one string did).
func TestJSONPartWordsTheOptions_Issue25(t *testing.T) {
	set, err := templates.Load()
	if err != nil {
		t.Fatal(err)
	}
	te := &Teller{Render: &Renderer{T: set}, Domain: "example.test", ReceiptWindow: time.Minute}
	compose := Composer(mailmsg.Address{Name: "Referee", Addr: "referee@example.test"})
	steps := 12
	if raceEnabled {
		steps = 4
	}
	flat := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	prompts, numbered := 0, 0
	playedMailsAs(t, allGames, templates.Languages, []string{"every"}, []string{"json"}, []int{2, 3}, 7, steps, func(in *Input) (*Told, error) {
		told, err := te.Mails(in)
		for _, m := range told.Mails {
			if m.JSON == nil {
				continue
			}
			cm := *m
			cm.Tag = mailmsg.Tag{} // the part is what is checked
			if cm.Date.IsZero() {
				cm.Date = time.Date(2026, 12, 7, 3, 0, 0, 0, time.UTC)
			}
			raw, err := compose(&cm)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Contains(raw, []byte("Content-Type: application/json")) || bytes.Contains(raw, []byte("Content-Transfer-Encoding: base64")) {
				t.Errorf("%s (%s): the JSON part is not in 7bit lines:\n%s", in.Game.Game, m.Lang, raw)
			}
			var part struct {
				Prompt *engine.Prompt `json:"prompt"`
				Names  []string       `json:"option_names"`
				Lines  any            `json:"prompt_lines"`
			}
			if err := json.Unmarshal(m.JSON, &part); err != nil {
				t.Fatal(err)
			}
			if part.Lines != nil {
				t.Errorf("%s (%s): the body's prompt copied in prompt_lines", in.Game.Game, m.Lang)
			}
			if part.Prompt == nil || !part.Prompt.Numbered {
				if part.Names != nil {
					t.Errorf("%s (%s): option_names without numbered options: %q", in.Game.Game, m.Lang, part.Names)
				}
				if part.Prompt != nil {
					prompts++
				}
				continue
			}
			prompts++
			numbered++
			if len(part.Names) != len(part.Prompt.Options) {
				t.Fatalf("%s (%s): %d option_names for %d options", in.Game.Game, m.Lang, len(part.Names), len(part.Prompt.Options))
			}
			body := flat(m.Body)
			for i, name := range part.Names {
				if name == "" || name != flat(name) {
					t.Errorf("%s (%s): option %d is named %q", in.Game.Game, m.Lang, i+1, name)
				}
				if !utf8.ValidString(name) || !strings.Contains(body, flat(optionLine(i+1, name))) {
					t.Errorf("%s (%s): option %d named %q is not on its menu line:\n%s", in.Game.Game, m.Lang, i+1, name, m.Body)
				}
				for _, bad := range []string{"map[", "<nil>", "%!", "{{", "<no value>"} {
					if strings.Contains(name, bad) {
						t.Errorf("%s (%s): option %d named %q has %q", in.Game.Game, m.Lang, i+1, name, bad)
					}
				}
			}
		}
		return told, err
	})
	if numbered < len(allGames)*len(templates.Languages) {
		t.Fatalf("%d prompts in JSON parts, %d numbered: the test checks little of what it is for", prompts, numbered)
	}
	t.Logf("%d prompts in JSON parts, %d numbered", prompts, numbered)
}
