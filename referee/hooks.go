package referee

import (
	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/referee/hooks"
	"github.com/pbem-referee/referee/referee/organise"
	"github.com/pbem-referee/referee/store"
)

// The webhooks' contract (the HOOK syntax, what each hook wants, the
// payload) is package referee/hooks'; the core draws each hook's id and
// secret, renders the lines and queues the calls in the transaction of the
// change. The names below keep the core's API.
type (
	// Hook is an organiser's webhook on a game (hooks.Hook).
	Hook = hooks.Hook
	// HookPayload is the JSON body of a generic hook call (hooks.Payload).
	HookPayload = hooks.Payload
)

// HookKinds are the event kinds a hook may ask for (hooks.Kinds).
var HookKinds = hooks.Kinds

// Meta keys of a hooks queue item (hooks.MetaHookID...).
const (
	MetaHookID     = hooks.MetaHookID
	MetaHookSecret = hooks.MetaHookSecret
	MetaHookFormat = hooks.MetaHookFormat
)

// hookCommand handles the organiser commands HOOK and UNHOOK (hooks.Add,
// hooks.Remove; the id and secret drawn from the referee's random source;
// answers and refusals in the organiser's language: org.done.HOOK,
// org.error.<code>):
//
//	HOOK <game> <url> [generic|discord] [moves,turn,end,org,chat]
//	UNHOOK <game> <hook id>
func (gw *gameWork) hookCommand(kw string, args []string) (string, error) {
	if kw == "UNHOOK" {
		hs, h, err := hooks.Remove(gw.g.Hooks, args)
		if err != nil {
			return "", organise.Refusal(err)
		}
		gw.g.Hooks = hs
		return gw.w.orgText("org.done.UNHOOK", "hook", h.ID), nil
	}
	hs, h, err := hooks.Add(gw.g.Hooks, args, func() (string, error) { return gw.w.r.secret("") })
	if err != nil {
		return "", organise.Refusal(err)
	}
	gw.g.Hooks = hs
	return gw.w.orgText("org.done.HOOK", "hook", h.ID, "format", h.Format, "secret", h.Secret), nil
}

// queueHooks queues one call per hook for this transaction's public
// changes (their lines: tell.Renderer.Hooks).
func (gw teller) queueHooks(steps []engine.Step) error {
	if len(gw.g.Hooks) == 0 && len(gw.w.r.opt.DefaultHooks) == 0 {
		return nil
	}
	hl, err := gw.w.r.render.Hooks(gw.g.Reader(-1), steps, gw.notes)
	if err != nil {
		return err
	}
	c := hooks.Change{Base: HookPayload{Game: gw.g.ID, Title: gw.eg.Info().Title, Token: gw.token(), Status: gw.g.Status, Players: gw.g.HoldingNames()},
		Events: hl.Events, MoveLines: hl.Moves, OrgLines: hl.Org, ChatLines: hl.Chat, Stepped: len(steps) > 0}
	if gw.tb != nil && gw.g.Status == StatusRunning {
		c.Waiting = gw.waitingNames()
	}
	if gw.ended && gw.tb != nil {
		c.Result = gw.tb.State.Result()
	}
	calls, nonce, err := hooks.Calls(gw.g.ID, append(append([]Hook(nil), gw.g.Hooks...), gw.w.r.opt.DefaultHooks...), c, gw.g.Nonce)
	if err != nil {
		return err
	}
	gw.g.Nonce = nonce
	for _, call := range calls {
		if _, err := gw.w.tx.Enqueue(HooksQueue, store.Item{Key: call.ID, Game: gw.g.ID, Kind: "hook", To: call.URL, Payload: call.Body,
			Meta: call.Meta, Created: gw.w.now}); err != nil {
			return err
		}
		gw.w.hooked++
	}
	return nil
}
