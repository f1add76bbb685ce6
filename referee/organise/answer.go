package organise

import (
	"errors"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/referee/deadline"
	"github.com/pbem-referee/referee/referee/failure"
	"github.com/pbem-referee/referee/referee/hooks"
	"github.com/pbem-referee/referee/referee/seating"
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

// Words are e in the door's words in lang: the template
// "org.error.<Code>" of tx (the door's Host, or Templates for a command
// line that words a refusal the same way).
func (e *Error) Words(tx interface {
	Text(lang, name string, data any) (string, error)
}, lang string) (string, error) {
	return tx.Text(lang, e.template(), e.Params)
}

// template is the name of e's template.
func (e *Error) template() string { return "org.error." + e.Code }

// fail is the error of code with its parameters (key, value, ...).
func fail(code string, kv ...any) *Error {
	return &Error{Code: code, Params: engine.Params(kv...)}
}

// Fail is a refusal of the core's to an organiser's command (HOOK,
// PUBLISH, ...): a code and its parameters (key, value, ...), worded by
// the door from the template "org.error.<code>" (issue 22).
func Fail(code string, kv ...any) *Error { return fail(code, kv...) }

// Refusal is err as the organiser reads it: a deadline policy's, a
// hook's or the seating's refusal (a code and its parameters) becomes the
// door's *Error with the same code and parameters; any other error comes
// back unchanged (a failure of the core's, not the organiser's mistake).
func Refusal(err error) error {
	var se *seating.Error
	if errors.As(err, &se) {
		return &Error{Code: se.Code, Params: se.Params}
	}
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

// Codes are the codes of the errors the door words, each the template
// "org.error.<code>" in every language (the core's
// TestOrganiserAnswersEveryLanguage_Issue22): its own, those Refusal makes
// its own (the seating's are seating.Codes; the hooks', the deadline
// policies') and the core's (Fail). A code written in any of their
// sources and in no table fails TestEveryRefusalInWords_Issue24.
var Codes = []string{
	"unknown", "no_game", "not_yours", "seat_missing", "no_seat", "status", "no_deadline",
	"token", "past", "not_started", "erratum_not_started", "already", "started", "players",
	"option_long", "lang_zone", "only_after_new", "invitees", "game_id", "exists", "in_game",
	"full", "no_kind", "hours", "too_many_lines", "bad_address", "bad_ruleset", "internal",
	"hook_url", "hook_event", "no_hook", "policy_at", "policy_remind", "policy_misses", "policy_vacation",
	"policy_duration", "policy_day", "tournament_game",
}

// text renders an answer of the door (a template of the referee's scope)
// in the call's language. A template that fails to render is a failure
// of the referee's: its error goes to the log, the organiser reads
// org.error.internal (never the error's text).
func (c *Call) text(name string, kv ...any) string {
	s, err := c.h.Text(c.lang, name, engine.Params(kv...))
	if err != nil {
		return c.internal(name, err)
	}
	return s
}

// errLine is the answer line of a command that failed: "KW: " and the
// words of the error, never its own text (issue 24): the template of an
// *Error (a deadline policy's, a hook's and the seating's refusals made
// one by Refusal), a usage error in the language's words (from the
// command's row), a data file the game refuses (org.error.bad_ruleset:
// why, and where, in words), another refusal of a game's in its words (an
// unknown option of NEW); any other error is a failure of the core's:
// its text goes to the log and the organiser reads org.error.internal,
// its class (package failure: passing, or permanent).
func (c *Call) errLine(kw string, err error) string {
	err = Refusal(err)
	var e *Error
	if !errors.As(err, &e) {
		if re, ok := engine.AsRuleError(err); ok && re.Code == "bad_ruleset" {
			c.h.Desk().Warn("organiser: a data file refused", "command", kw, "err", err)
			return kw + ": " + c.text("org.error.bad_ruleset", "why", re.Params["why"], "line", re.Params["line"],
				"keys", re.Params["keys"], "game", re.Params["for"])
		}
		if s, ok := c.h.RuleText(c.lang, err); ok {
			return kw + ": " + s
		}
		if c.h.IsUndo(err) {
			return kw + ":" // the unit of work runs again: this answer is not sent
		}
		return kw + ": " + c.internal(kw, err)
	}
	if e.Code == "usage" {
		syntax, _ := e.Params["syntax"].(string)
		return localUsage(c.h, c.lang, kw+": ", syntax, "")
	}
	s, rerr := e.Words(c.h, c.lang)
	if rerr != nil {
		return kw + ": " + c.internal(e.template(), rerr)
	}
	return kw + ": " + s
}

// internal logs a failure of the core's (what failed: what) and words it
// for the organiser: org.error.internal with its class, "permanent" or
// "transient" (org.error.cause).
func (c *Call) internal(what string, err error) string {
	c.h.Desk().Warn("organiser: a failure of the core's, told the organiser in words", "what", what, "err", err)
	class := "transient"
	if failure.IsPermanent(err) {
		class = "permanent"
	}
	s, rerr := c.h.Text(c.lang, "org.error.internal", map[string]any{"cause": class})
	if rerr != nil {
		return "-" // the referee's own words fail: the log says why
	}
	return s
}
