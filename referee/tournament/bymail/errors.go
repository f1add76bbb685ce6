package bymail

// The director's failures, worded in their language (issue 24: the desk's
// errors were English fmt.Errorf texts in every language's answer).

import (
	"errors"
	"strings"
	"unicode/utf8"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/referee/failure"
	"github.com/pbem-referee/referee/referee/tournament"
)

// Error is a failure told to the director, as data: the template
// "err.<Key>" of the tournament scope and its values. It is worded once it
// reaches the organiser (desk.word: Org's answer, a note, an undone step's
// message), in the organiser's language; a value that is itself an error
// (an *Error, a *tournament.Fault) is worded with it. Error() without
// wording is the key and values, for logs and tests, no prose.
type Error struct {
	Key  string
	Data map[string]any
	// of is a sentinel errors.Is matches (errNoRound).
	of error
}

// fail makes an Error of key with its data as key, value pairs.
func fail(key string, kv ...any) *Error {
	return &Error{Key: key, Data: engine.Params(kv...)}
}

func (e *Error) Error() string { return engine.CodeText("tournament desk: ", e.Key, e.Data) }

func (e *Error) Is(target error) bool { return e.of != nil && target == e.of }

// worded is a failure worded in a language: its text is what the
// organiser reads.
type worded struct {
	text string
	of   error
}

func (w *worded) Error() string { return w.text }
func (w *worded) Unwrap() error { return w.of }

// usageError is a command's usage error, "usage: <syntax>" (perhaps
// with what was not understood): the organiser's door words it in the
// answer's language from the syntax (organise.Local), so word passes it
// as it is.
type usageError struct{ text string }

func (u *usageError) Error() string { return u.text }

// undoing is the error of Host.Undo as the desk returns it (desk.undo):
// it rolls the unit of work back to run it again, and the failure it
// carries is already worded; word passes it as it is.
type undoing struct{ err error }

func (u *undoing) Error() string { return u.err.Error() }
func (u *undoing) Unwrap() error { return u.err }

// undo is Host.Undo's error, marked as the desk's own (undoing).
func (d *desk) undo(key string, err error) error {
	return &undoing{d.h.Undo(key, err)}
}

// word words err in lang: an *Error as its template "err.<Key>", a
// *tournament.Fault as "err.t.<Code>" (with the values that are errors
// worded first), wrapped to fit an answer line of 80 columns after the
// command's keyword ("err.wrap"). A usage error and an undo pass as they
// are (the door words the one, the other carries its words); any other
// error is the core's failure (a store error, a game that could not
// open): its own words go to the log (Host.Warn) and the organiser reads
// "err.internal", its class in words (package failure: one that may pass
// by itself, or a permanent one), never the error's text.
func (d *desk) word(lang string, err error) error {
	if err == nil {
		return nil
	}
	var w *worded
	var u *usageError
	var un *undoing
	if errors.As(err, &w) || errors.As(err, &u) || errors.As(err, &un) {
		return err
	}
	text, _ := d.wordText(lang, err)
	return &worded{text: d.tourText(lang, "err.wrap", map[string]any{"text": text}), of: err}
}

// wordText is err worded in lang, on one line (ok false: not the desk's
// nor a Fault, but a failure of the core's, logged and worded by its
// class, or a usage error, as it is).
func (d *desk) wordText(lang string, err error) (string, bool) {
	var e *Error
	if errors.As(err, &e) {
		return d.tourText(lang, "err."+e.Key, d.wordData(lang, e.Data)), true
	}
	if f := tournament.AsFault(err); f != nil {
		return d.tourText(lang, "err.t."+f.Code, d.wordData(lang, f.Data)), true
	}
	var w *worded
	var u *usageError
	if errors.As(err, &w) || errors.As(err, &u) {
		return err.Error(), false
	}
	d.h.Warn("tournament desk: a failure of the core's, told the organiser in words", "err", err)
	return d.tourText(lang, "err.internal", map[string]any{"cause": causeClass(err)}), false
}

// causeClass is the class of a failure of the core's, as the templates
// word it (err.cause): "permanent" or "transient".
func causeClass(err error) string {
	if failure.IsPermanent(err) {
		return "permanent"
	}
	return "transient"
}

// wordData is data whose errors are worded in lang, on one line: a value
// worded already (an undone step's message, wrapped for its own answer)
// is joined again, so that the template around it wraps it once.
func (d *desk) wordData(lang string, data map[string]any) map[string]any {
	out := make(map[string]any, len(data))
	for k, v := range data {
		if err, ok := v.(error); ok {
			v, _ = d.wordText(lang, err)
		}
		if s, ok := v.(string); ok && strings.Contains(s, "\n") {
			v = strings.Join(strings.Fields(s), " ")
		}
		out[k] = v
	}
	return out
}

// playerFailed is a player's command that failed (issue 24: the error
// went back to the core as it was, and the player's mail failed until it
// was set aside): the unit of work is undone (Host.Undo under key, which
// PlayerCommand answers with when it runs again) and the player reads, in
// their language, that their command was not carried out and why
// (error.failed around the failure's words, wordText: a refusal of the
// desk's or of package tournament's by its template, a failure of the
// core's by its class, its own text to the log), within 80 columns. An
// undo already under way passes as it is.
func (d *desk) playerFailed(key, lang string, err error) error {
	var un *undoing
	if errors.As(err, &un) {
		return err
	}
	lang = readerLang(lang)
	why, _ := d.wordText(lang, err)
	text := fitLines(d.tourText(lang, "error.failed", map[string]any{"why": why}))
	return d.undo(key, &worded{text: text, of: err})
}

// noRound is the failure of a round that could not be drawn or opened
// (errNoRound): why is an error or an undone step's worded message.
func noRound(why any) error {
	e := fail("no_round", "error", why)
	e.of = errNoRound
	return e
}

// truncate cuts s to n bytes at most, on a rune boundary.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "..."
}
