package organise

import (
	"errors"
	"fmt"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/referee/deadline"
	"github.com/pbem-referee/referee/referee/hooks"
)

// Error is an organiser's command refused: a code and its parameters, no
// prose. Its words are the template "org.error.<Code>" of
// templates/referee/<lang>/orgerrors.tmpl, in the language of the
// organiser's mail.
type Error struct {
	Code   string
	Params map[string]any
}

// Error names the code and its parameters (for logs and for the API's
// callers; an organiser reads the template's words).
func (e *Error) Error() string { return engine.CodeText("organise: ", e.Code, e.Params) }

// fail is the error of code with its parameters (key, value, ...).
func fail(code string, kv ...any) *Error {
	return &Error{Code: code, Params: engine.Params(kv...)}
}

// Fail is a refusal of the core's to an organiser's command (HOOK,
// PUBLISH, ...): a code and its parameters (key, value, ...), worded by
// the door from the template "org.error.<code>" (issue 22).
func Fail(code string, kv ...any) *Error { return fail(code, kv...) }

// Refusal is err as the organiser reads it: a deadline policy's or a
// hook's refusal (a code and its parameters) becomes the door's *Error
// with the same code and parameters; any other error comes back
// unchanged (a failure of the core's, not the organiser's mistake).
func Refusal(err error) error {
	var de *deadline.Error
	if errors.As(err, &de) {
		return &Error{Code: de.Code, Params: de.Params}
	}
	var he *hooks.Error
	if errors.As(err, &he) {
		return &Error{Code: he.Code, Params: he.Params}
	}
	return err
}

// doorError reports whether err is the door's own refusal (made before
// anything changed), not a failure of the core's.
func doorError(err error) bool {
	var e *Error
	return errors.As(err, &e)
}

// Codes are the codes of the door's errors, each the template
// "org.error.<code>" in every language (the core's
// TestOrganiserAnswersEveryLanguage_Issue22).
var Codes = []string{
	"unknown", "no_game", "not_yours", "seat_missing", "no_seat", "status", "no_deadline",
	"token", "past", "not_started", "erratum_not_started", "already", "started", "players",
	"option_long", "lang_zone", "only_after_new", "invitees", "game_id", "exists", "in_game",
	"full", "no_kind", "hours", "too_many_lines",
}

// text renders an answer of the door (a template of the referee's scope)
// in the call's language.
func (c *Call) text(name string, kv ...any) string {
	s, err := c.h.Text(c.lang, name, engine.Params(kv...))
	if err != nil {
		return fmt.Sprintf("(%s: %v)", name, err)
	}
	return s
}

// errLine is the answer line of a command that failed: "KW: " and the
// words of the error: the template of an *Error, a usage error in the
// language's words (from the command's row), a game's refusal in its
// words (an unknown option of NEW), or the text of an error of the
// core's (a usage error among them in the language's words too).
func (c *Call) errLine(kw string, err error) string {
	var e *Error
	if !errors.As(err, &e) {
		if s, ok := c.h.RuleText(c.lang, err); ok {
			return kw + ": " + s
		}
		return Local(c.h, c.lang, kw+": "+err.Error())
	}
	if e.Code == "usage" {
		syntax, _ := e.Params["syntax"].(string)
		return localUsage(c.h, c.lang, kw+": ", syntax, "")
	}
	s, rerr := c.h.Text(c.lang, "org.error."+e.Code, e.Params)
	if rerr != nil {
		return kw + ": " + err.Error()
	}
	return kw + ": " + s
}
