package tell

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/templates"
)

// TestJSONPartWordsThePrompt_Issue25 (issue 25: every word in the
// reader's language, no internal code shown): the JSON part of FORMAT
// json mails of random games of the four games, in every language: the
// prompt's fields stay the engine's (its decision kind, each option's
// canonical command), and beside them prompt_lines word the question
// and its options as the mail's body shows them, each numbered option on
// the line numbered for it, no template key nor Go text in it, each line
// within 80 columns (so the part's 7bit lines, which break only between
// tokens, stay short).
func TestJSONPartWordsThePrompt_Issue25(t *testing.T) {
	set, err := templates.Load()
	if err != nil {
		t.Fatal(err)
	}
	te := &Teller{Render: &Renderer{T: set}, Domain: "example.test", ReceiptWindow: time.Minute}
	steps := 12
	if raceEnabled {
		steps = 4
	}
	prompts := 0
	playedMailsAs(t, allGames, templates.Languages, []string{"every"}, []string{"json"}, []int{2, 3}, 7, steps, func(in *Input) (*Told, error) {
		told, err := te.Mails(in)
		for _, m := range told.Mails {
			if m.JSON == nil {
				continue
			}
			var part struct {
				Text   *string
				Prompt *engine.Prompt `json:"prompt"`
				Lines  []string       `json:"prompt_lines"`
			}
			if err := json.Unmarshal(m.JSON, &part); err != nil {
				t.Fatal(err)
			}
			if part.Prompt == nil {
				if part.Lines != nil {
					t.Errorf("%s: prompt_lines without a prompt", in.Game.Game)
				}
				continue
			}
			prompts++
			for _, l := range part.Lines {
				if utf8.RuneCountInString(l) > 80 {
					t.Errorf("%s (%s): a prompt line of %d columns: %q", in.Game.Game, m.Lang, utf8.RuneCountInString(l), l)
				}
			}
			joined := strings.Join(part.Lines, "\n")
			part.Text = &joined
			if part.Text == nil || *part.Text == "" || !strings.Contains(m.Body, *part.Text) {
				t.Fatalf("%s (%s): prompt_lines %v are not the body's prompt:\n%s", in.Game.Game, m.Lang, part.Text, m.Body)
			}
			for _, bad := range []string{"map[", "<nil>", "%!", "{{", "<no value>"} {
				if strings.Contains(*part.Text, bad) {
					t.Errorf("%s (%s): prompt_lines have %q:\n%s", in.Game.Game, m.Lang, bad, *part.Text)
				}
			}
			if part.Prompt.Numbered {
				for i := range part.Prompt.Options {
					if !strings.Contains(*part.Text, strings.TrimSpace(optionLine(i+1, ""))) {
						t.Errorf("%s (%s): option %d is not in prompt_lines:\n%s", in.Game.Game, m.Lang, i+1, *part.Text)
					}
				}
			}
		}
		return told, err
	})
	if prompts < len(allGames)*len(templates.Languages) {
		t.Fatalf("%d prompts in JSON parts: the test checks nothing it is for", prompts)
	}
}
