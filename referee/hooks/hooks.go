// Package hooks is the contract of the referee's outgoing webhooks: what an
// organiser attaches to a game (Hook, parsed from the HOOK command's
// arguments by Parse), which public changes each hook wants (Wants), and
// the body of one call (Payload, built by Build) with the queue item's meta
// keys, as the core queues it and referee/edge/hookout delivers it.
//
// It owns the HOOK syntax, the event kinds, the payload's shape and the
// choice of what a hook's call carries (Build; Calls: a change's calls,
// their ids from the game's nonce, their bodies and queue meta), and the
// commands HOOK and UNHOOK on a game's hooks (Add: a hook's id and secret
// made of the draws it is given; Remove). It must not render a word (the
// core hands it the lines, rendered in English by the templates), queue or
// deliver a call (the core queues it in the transaction of the change,
// referee/hooks.go; edge/hookout delivers it), draw randomness itself (the
// core's random source does, handed to Add) or see anything but public
// events: it is given what an observer sees. A HOOK line that does not
// read is an *Error, a code and its parameters (the core words it in the
// organiser's language).
package hooks

import (
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strings"

	"github.com/pbem-referee/referee/engine"
)

// Hook is an outgoing webhook an organiser attached to a game (organiser
// command HOOK). After every change, the referee queues one call per hook
// with the public events the hook asked for, in the same transaction as the
// change; a worker (referee/edge/hookout) delivers them with an HMAC
// signature, retrying from the durable "hooks" queue. Payloads only ever
// carry public information: events as an observer sees them.
type Hook struct {
	ID  string `json:"id"`
	URL string `json:"url"`
	// Secret signs the payloads (HMAC-SHA256).
	Secret string `json:"secret"`
	// Format is "generic" (JSON with the events) or "discord" (a Discord
	// webhook message with the lines as text).
	Format string `json:"format"`
	// Events are the kinds the hook wants: "moves" (game events), "turn"
	// (who the game waits for), "end" (the result), "org" (organiser
	// actions), "chat" (SAY to all). Empty means all.
	Events []string `json:"events,omitempty"`
}

// Kinds are the event kinds a hook may ask for.
var Kinds = []string{"moves", "turn", "end", "org", "chat"}

// Payload is the JSON body of a generic hook call.
type Payload struct {
	// ID is unique per call and stable across retries (receivers
	// de-duplicate on it).
	ID    string `json:"id"`
	Game  string `json:"game"`
	Title string `json:"title"`
	// Token is the game's state token after the change.
	Token   int      `json:"token"`
	Status  string   `json:"status"`
	Players []string `json:"players"`
	// Events are the public engine events of the change; Lines the same
	// rendered in English, with the referee's own announcements.
	Events  []engine.Event `json:"events,omitempty"`
	Lines   []string       `json:"lines,omitempty"`
	Waiting []string       `json:"waiting,omitempty"`
	Result  *engine.Result `json:"result,omitempty"`
}

// Meta keys of a hooks queue item.
const (
	MetaHookID     = "hook"
	MetaHookSecret = "secret"
	MetaHookFormat = "format"
)

// Error is a HOOK line that does not read: a code (usage, hook_url,
// hook_event) and its parameters, no prose; the core words it for the
// organiser (org.error.<Code>, in the organiser's language: issue 22).
type Error struct {
	Code   string
	Params map[string]any
}

// Error names the code and its parameters (for logs).
func (e *Error) Error() string { return fmt.Sprintf("hooks: %s %v", e.Code, e.Params) }

func fail(code string, kv ...any) *Error {
	return &Error{Code: code, Params: engine.Params(kv...)}
}

// Parse reads the arguments of "HOOK <game> <url> [generic|discord]
// [moves,turn,end,org,chat]" (after the game) into a hook without its id
// and secret, which the core draws.
func Parse(args []string) (Hook, error) {
	if len(args) < 1 {
		return Hook{}, fail("usage", "syntax", "HOOK <game> <https url> [generic|discord] [moves,turn,end,org,chat]")
	}
	u, err := url.Parse(args[0])
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return Hook{}, fail("hook_url", "value", args[0])
	}
	h := Hook{URL: u.String(), Format: "generic"}
	for _, a := range args[1:] {
		switch strings.ToLower(a) {
		case "generic", "discord":
			h.Format = strings.ToLower(a)
		default:
			for _, k := range strings.Split(strings.ToLower(a), ",") {
				if !slices.Contains(Kinds, k) {
					return Hook{}, fail("hook_event", "value", k, "want", strings.Join(Kinds, ","))
				}
				h.Events = append(h.Events, k)
			}
		}
	}
	return h, nil
}

// Wants reports whether the hook asked for events of a kind.
func (h Hook) Wants(kind string) bool { return len(h.Events) == 0 || slices.Contains(h.Events, kind) }

// Change is what one change of a game shows the public, for Build: its
// events and their lines, the organiser's and the chat's lines, who the
// game waits for (when it runs), the result (when it ended), and whether
// any step was applied.
type Change struct {
	Base                Payload // game, title, token, status, players
	Events              []engine.Event
	MoveLines           []string
	OrgLines, ChatLines []string
	Waiting             []string
	Result              *engine.Result
	Stepped             bool
}

// Build returns the call of a hook for a change, or false when the change
// holds nothing the hook asked for (a call is never empty; who the game
// waits for alone is sent only after a step).
func Build(h Hook, c Change) (Payload, bool) {
	p := c.Base
	if h.Wants("moves") {
		p.Events, p.Lines = c.Events, append(p.Lines, c.MoveLines...)
	}
	if h.Wants("org") {
		p.Lines = append(p.Lines, c.OrgLines...)
	}
	if h.Wants("chat") {
		p.Lines = append(p.Lines, c.ChatLines...)
	}
	if h.Wants("turn") {
		p.Waiting = c.Waiting
	}
	if h.Wants("end") {
		p.Result = c.Result
	}
	empty := len(p.Events) == 0 && len(p.Lines) == 0 && p.Result == nil && (len(p.Waiting) == 0 || !c.Stepped)
	return p, !empty
}

// Add is HOOK: the hooks with one more, read from the line's arguments
// (Parse). The hook's public id is the first 6 characters of one draw of
// the core's random source (draw: 16 base32 characters, 80 bits), its
// secret two further draws (32 characters: 160 random bits, drawn apart
// from the id: issue 11, item 9, it was the id's bits twice). hs is not
// changed.
func Add(hs []Hook, args []string, draw func() (string, error)) ([]Hook, Hook, error) {
	h, err := Parse(args)
	if err != nil {
		return hs, Hook{}, err
	}
	id, err := draw()
	if err != nil {
		return hs, Hook{}, err
	}
	h.ID = id[:min(6, len(id))]
	for range 2 {
		part, err := draw()
		if err != nil {
			return hs, Hook{}, err
		}
		h.Secret += part
	}
	return append(hs[:len(hs):len(hs)], h), h, nil
}

// Remove is "UNHOOK <hook id>" (after the game): the hooks without the one
// of that id, and that hook; usage when args is not one id, no_hook when
// no hook has it. hs is not changed.
func Remove(hs []Hook, args []string) ([]Hook, Hook, error) {
	if len(args) != 1 {
		return hs, Hook{}, fail("usage", "syntax", "UNHOOK <game> <hook id>")
	}
	for i, h := range hs {
		if h.ID == args[0] {
			return append(hs[:i:i], hs[i+1:]...), h, nil
		}
	}
	return hs, Hook{}, fail("no_hook", "hook", args[0])
}

// Call is one call of a hook for a change, as the core queues it: its id
// (the payload's, the queue item's key), the hook's URL, the JSON body and
// the queue item's meta (MetaHookID, MetaHookSecret, MetaHookFormat).
type Call struct {
	ID, URL string
	Body    []byte
	Meta    map[string]string
}

// Calls are the calls of a change of game, one for each hook (in order)
// that wants something of it (Build). Each takes the game's next nonce:
// its id is "<game>-<hook id>-<nonce>", unique per call and stable
// across retries. It returns the game's nonce after them.
func Calls(game string, hs []Hook, c Change, nonce int) ([]Call, int, error) {
	var out []Call
	for _, h := range hs {
		p, ok := Build(h, c)
		if !ok {
			continue
		}
		nonce++
		p.ID = fmt.Sprintf("%s-%s-%d", game, h.ID, nonce)
		body, err := json.Marshal(p)
		if err != nil {
			return nil, nonce, err
		}
		out = append(out, Call{ID: p.ID, URL: h.URL, Body: body,
			Meta: map[string]string{MetaHookID: h.ID, MetaHookSecret: h.Secret, MetaHookFormat: h.Format}})
	}
	return out, nonce, nil
}
