package engine

import (
	"errors"
	"fmt"
	"sort"
	"strings"
)

// RuleError is a typed rejection of a command or move. It carries a stable
// Code, the id of the rule that was broken (Rule, for example "DB-5.4.3"; empty
// for pure syntax errors) and parameters for the template that explains it to
// the player. It never carries prose.
type RuleError struct {
	Code   string         `json:"code"`
	Rule   string         `json:"rule,omitempty"`
	Params map[string]any `json:"params,omitempty"`
}

// Error returns a compact, stable, machine-oriented description, for logs and
// tests; players read the rendered template instead.
func (e *RuleError) Error() string {
	head := ""
	if e.Rule != "" {
		head = e.Rule + " "
	}
	return CodeText(head, e.Code, e.Params)
}

// CodeText is a coded error as logs and tests read it: head, the code, and
// its parameters in key order (" k=v"). Every coded error of the project
// (RuleError, the desk's, the tournament's and the organiser's door's)
// writes itself with it: data, never prose.
func CodeText(head, code string, params map[string]any) string {
	var b strings.Builder
	b.WriteString(head)
	b.WriteString(code)
	keys := make([]string, 0, len(params))
	for k := range params {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(&b, " %s=%v", k, params[k])
	}
	return b.String()
}

// Params makes a coded error's parameters from key, value pairs.
func Params(kv ...any) map[string]any {
	m := make(map[string]any, len(kv)/2)
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i].(string)] = kv[i+1]
	}
	return m
}

// Reject builds a *RuleError. Params are given as alternating key, value pairs.
func Reject(rule, code string, kv ...any) *RuleError {
	e := &RuleError{Code: code, Rule: rule}
	if len(kv) > 0 {
		e.Params = make(map[string]any, len(kv)/2)
		for i := 0; i+1 < len(kv); i += 2 {
			k, _ := kv[i].(string)
			e.Params[k] = kv[i+1]
		}
	}
	return e
}

// AsRuleError reports whether err is (or wraps) a *RuleError and returns it.
func AsRuleError(err error) (*RuleError, bool) {
	var re *RuleError
	if errors.As(err, &re) {
		return re, true
	}
	return nil, false
}

// Codes shared by every game. Games add their own codes; templates explain
// each code per game and language, falling back to these generic ones.
const (
	// CodeSyntax: the line could not be parsed. Params: "line", and usually
	// "expected" (a usage pattern) or "token" (the offending word).
	CodeSyntax = "syntax"
	// CodeUnknownCommand: the first word is not a command of this game.
	// Params: "word".
	CodeUnknownCommand = "unknown_command"
	// CodeNotYourTurn: the seat has no pending decision that this move could
	// answer. Params: "waiting_for" (seats).
	CodeNotYourTurn = "not_your_turn"
	// CodeWrongDecision: the seat is asked something else now. Params:
	// "kind" (the pending decision kind).
	CodeWrongDecision = "wrong_decision"
	// CodeGameOver: the game has ended.
	CodeGameOver = "game_over"
	// CodeNoOption: a numbered reply names no option of the last prompt.
	// Params: "n", "count".
	CodeNoOption = "no_option"
	// CodeStaleOption: a numbered reply answers an older prompt whose option
	// of that number is not the current one (or is no longer known).
	// Params: "n", "old" (the command the number meant then, "" when
	// unknown), "new" (the command it means now, "" when none).
	CodeStaleOption = "stale_option"
	// CodeCopiedOption: a numbered reply that also copies a menu line ("2)
	// PLACE HP1 SEED") whose command is not the one option n means: the
	// number and the text disagree, so neither is played (issue 20).
	// Params: "n", "copied" (the copied command), "option" (option n's).
	CodeCopiedOption = "copied_option"
	// CodeNoPass: ELSE PASS was used where the decision has no pass move.
	CodeNoPass = "no_pass"
	// CodeSlotClosed: a queued order names a phase or turn that is over.
	// Params: "slot".
	CodeSlotClosed = "slot_closed"
	// CodeBadScript: a scripted random outcome is invalid. Params: "kind",
	// "value".
	CodeBadScript = "bad_script"
	// CodeNotSeated: the seat number is out of range.
	CodeNotSeated = "not_seated"
)

// ErrUnknownGame is returned by Lookup for an unregistered name.
var ErrUnknownGame = errors.New("unknown game")
