package referee

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strings"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/store"
)

// Hook is an outgoing webhook an organiser attached to a game (organiser
// command HOOK). After every change, the referee queues one call per hook
// with the public events the hook asked for, in the same transaction as the
// change; a worker (referee/edge/hookout) delivers them with an HMAC signature,
// retrying from the durable "hooks" queue. Payloads only ever carry public
// information: events as an observer sees them.
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

// HookKinds are the event kinds a hook may ask for.
var HookKinds = []string{"moves", "turn", "end", "org", "chat"}

// HookPayload is the JSON body of a generic hook call.
type HookPayload struct {
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

// hookCommand handles the organiser commands HOOK and UNHOOK:
//
//	HOOK <game> <url> [generic|discord] [moves,turn,end,org,chat]
//	UNHOOK <game> <hook id>
func (gw *gameWork) hookCommand(kw string, args []string) (string, error) {
	if kw == "UNHOOK" {
		if len(args) != 1 {
			return "", fmt.Errorf("usage: UNHOOK <game> <hook id>")
		}
		for i, h := range gw.g.Hooks {
			if h.ID == args[0] {
				gw.g.Hooks = append(gw.g.Hooks[:i:i], gw.g.Hooks[i+1:]...)
				return "hook " + h.ID + " removed", nil
			}
		}
		return "", fmt.Errorf("no hook %q", args[0])
	}
	if len(args) < 1 {
		return "", fmt.Errorf("usage: HOOK <game> <https url> [generic|discord] [moves,turn,end,org,chat]")
	}
	u, err := url.Parse(args[0])
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return "", fmt.Errorf("%q is not an http(s) URL", args[0])
	}
	h := Hook{URL: u.String(), Format: "generic"}
	for _, a := range args[1:] {
		switch strings.ToLower(a) {
		case "generic", "discord":
			h.Format = strings.ToLower(a)
		default:
			for _, k := range strings.Split(strings.ToLower(a), ",") {
				if !containsStr(HookKinds, k) {
					return "", fmt.Errorf("unknown hook event %q (want %s)", k, strings.Join(HookKinds, ","))
				}
				h.Events = append(h.Events, k)
			}
		}
	}
	// The public id and the secret are drawn independently; the secret
	// is 160 random bits (issue 11, item 9: it was the id's 80 bits twice).
	id, err := gw.w.r.secret()
	if err != nil {
		return "", err
	}
	h.ID = id[:6]
	for i := 0; i < 2; i++ {
		part, err := gw.w.r.secret()
		if err != nil {
			return "", err
		}
		h.Secret += part // 32 characters
	}
	gw.g.Hooks = append(gw.g.Hooks, h)
	return fmt.Sprintf("hook %s added (%s); verify the X-Referee-Signature header with the secret %s", h.ID, h.Format, h.Secret), nil
}

func (h Hook) wants(kind string) bool { return len(h.Events) == 0 || containsStr(h.Events, kind) }

// queueHooks queues one call per hook for this transaction's public
// changes.
func (gw teller) queueHooks(steps []engine.Step) error {
	if len(gw.g.Hooks) == 0 && len(gw.w.r.opt.DefaultHooks) == 0 {
		return nil
	}
	rd := Reader{Game: gw.g.Game, Lang: "en", Seat: -1, Seats: gw.g.names()}
	var events []engine.Event
	var moveLines []string
	for _, s := range steps {
		for _, ev := range s.Events {
			e, ok := ev.For(-1)
			if !ok {
				continue
			}
			events = append(events, e)
			line, _, err := gw.w.r.render.Event(rd, ev)
			if err != nil {
				return err
			}
			moveLines = append(moveLines, line)
		}
	}
	var orgLines, chatLines []string
	for _, n := range gw.notes {
		if n.Seats != nil && n.Name != "say" {
			continue // private announcements never leave
		}
		text, err := gw.w.r.render.T.Render("referee", "en", "note."+n.Name, gw.w.r.render.ctx(rd, n.Data))
		if err != nil {
			return err
		}
		switch {
		case n.Name == "say":
			if all, _ := n.Data["all"].(bool); all { // only what was said to everybody
				chatLines = append(chatLines, text)
			}
		default:
			orgLines = append(orgLines, text)
		}
	}
	hooks := append(append([]Hook(nil), gw.g.Hooks...), gw.w.r.opt.DefaultHooks...)
	for _, h := range hooks {
		p := HookPayload{Game: gw.g.ID, Title: gw.eg.Info().Title, Token: gw.token(), Status: gw.g.Status, Players: gw.g.names()}
		if h.wants("moves") {
			p.Events, p.Lines = events, append(p.Lines, moveLines...)
		}
		if h.wants("org") {
			p.Lines = append(p.Lines, orgLines...)
		}
		if h.wants("chat") {
			p.Lines = append(p.Lines, chatLines...)
		}
		if h.wants("turn") && gw.tb != nil && gw.g.Status == StatusRunning {
			p.Waiting = gw.waitingNames()
		}
		if h.wants("end") && gw.ended {
			p.Result = gw.tb.State.Result()
		}
		if len(p.Events) == 0 && len(p.Lines) == 0 && p.Result == nil && (len(p.Waiting) == 0 || len(steps) == 0) {
			continue
		}
		gw.g.Nonce++
		p.ID = fmt.Sprintf("%s-%s-%d", gw.g.ID, h.ID, gw.g.Nonce)
		body, err := json.Marshal(p)
		if err != nil {
			return err
		}
		if _, err := gw.w.tx.Enqueue(HooksQueue, store.Item{Key: p.ID, Game: gw.g.ID, Kind: "hook", To: h.URL, Payload: body,
			Meta: map[string]string{MetaHookID: h.ID, MetaHookSecret: h.Secret, MetaHookFormat: h.Format}, Created: gw.w.now}); err != nil {
			return err
		}
		gw.w.hooked++
	}
	return nil
}
