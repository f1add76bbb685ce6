package organise

import (
	"strings"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/mailfmt"
	"github.com/pbem-referee/referee/referee/tell"
	"github.com/pbem-referee/referee/templates"
)

// Templates are the door's Words over the referee's templates, through
// the renderer the core renders every word with (the tell stage's): the
// core's Host embeds them. A zero Templates knows the languages only.
type Templates struct {
	R *tell.Renderer
	// Read reads a line of an organiser's mail as the reply reader does
	// with the organiser's words (reading.Vocab.Line over TableWords and
	// Scope); nil: a line is a keyword's only when it starts with one.
	Read func(line string) mailfmt.AnswerLine
}

// reader is who the door's words are for: the organiser, in lang.
func reader(lang string) tell.Reader { return tell.Reader{Game: "referee", Lang: lang, Seat: -1} }

func (w Templates) Text(lang, name string, data any) (string, error) {
	return w.R.T.Render("referee", lang, name, w.R.Ctx(reader(lang), data))
}

func (w Templates) Alias(scope, lang, word string) string { return w.R.T.Alias(scope, lang, word) }

func (w Templates) Word(scope, lang, kw string) string { return w.R.T.Word(scope, lang, kw) }

func (w Templates) ArgLanguage(scope, word string) (string, string) {
	return w.R.T.ArgLanguage(scope, word)
}

func (w Templates) ReadLine(line string) mailfmt.AnswerLine {
	if w.Read == nil {
		return mailfmt.AnswerLine{Raw: strings.TrimSpace(line), Kind: mailfmt.AnswerCommand, Text: strings.TrimSpace(line)}
	}
	return w.Read(line)
}

// tableWords are the keywords of the table, the reply reader's own words
// (their aliases in every language are the templates').
var tableWords = map[string]bool{}

// TableWords are the keywords of the table: with the organiser's scope
// (Scope), the words of the reply reader of an organiser's mail
// (Templates.Read: reading's reply reader; it adds their aliases in every
// language, the referee's, and the chat words of every language).
func TableWords() map[string]bool { return tableWords }

func (Templates) Languages() []string { return templates.Languages }

func (w Templates) RuleText(lang string, err error) (string, bool) {
	e, ok := engine.AsRuleError(err)
	if !ok {
		return "", false
	}
	s, rerr := w.R.Error(reader(lang), e)
	return s, rerr == nil
}

// Mail is the frame of a mail to an organiser in lang (English when lang
// is none of the templates'): its subject ("subject.org") and its body
// ("mail.org") around the result lines, already in lang (Script).
func (w Templates) Mail(lang string, results []string) (subject, body string, err error) {
	if !templates.IsLanguage(lang) {
		lang = "en"
	}
	if body, err = w.Text(lang, "mail.org", map[string]any{"results": results}); err != nil {
		return "", "", err
	}
	subject, err = w.Text(lang, "subject.org", map[string]any{"game": "", "title": ""})
	return subject, body, err
}
