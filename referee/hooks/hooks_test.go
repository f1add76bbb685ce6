package hooks_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/referee/hooks"
)

// Rule (issue 11 and the HOOK command): a hook is an http(s) URL, a format
// and the kinds it wants, in any case and order; anything else is refused
// with the reason. Generated: URLs x formats x kind lists.
func TestParse(t *testing.T) {
	urls := map[string]bool{"https://h.example/x": true, "http://127.0.0.1:9/h": true, "ftp://h.example/": false, "https://": false, "not a url": false}
	formats := map[string]string{"": "generic", "generic": "generic", "DISCORD": "discord", "Discord": "discord"}
	kinds := map[string][]string{"": nil, "moves": {"moves"}, "TURN,end": {"turn", "end"}, "org,chat,moves": {"org", "chat", "moves"}, "moves,bogus": nil}
	for u, okURL := range urls {
		for f, wantF := range formats {
			for k, wantK := range kinds {
				args := []string{u}
				for _, a := range []string{f, k} {
					if a != "" {
						args = append(args, a)
					}
				}
				h, err := hooks.Parse(args)
				bad := !okURL || strings.Contains(k, "bogus")
				if bad != (err != nil) {
					t.Errorf("Parse(%q): %v", args, err)
					continue
				}
				if bad {
					continue
				}
				if h.Format != wantF || fmt.Sprint(h.Events) != fmt.Sprint(wantK) || h.ID != "" || h.Secret != "" {
					t.Errorf("Parse(%q) = %+v", args, h)
				}
			}
		}
	}
	if _, err := hooks.Parse(nil); err == nil || !strings.Contains(err.Error(), "usage") {
		t.Errorf("no arguments: %v", err)
	}
}

// Rule: a hook's call carries exactly the kinds it asked for (all when it
// named none), and a change that holds none of them makes no call; who
// the game waits for alone is a call only after a step. Generated: every
// subset of kinds x changes with and without each part.
func TestBuild(t *testing.T) {
	res := &engine.Result{}
	for mask := 0; mask < 1<<len(hooks.Kinds); mask++ {
		var want []string
		for i, k := range hooks.Kinds {
			if mask&(1<<i) != 0 {
				want = append(want, k)
			}
		}
		h := hooks.Hook{ID: "h1", Events: want}
		for parts := 0; parts < 1<<6; parts++ {
			c := hooks.Change{Base: hooks.Payload{Game: "g1", Token: 7}, Stepped: parts&32 != 0}
			if parts&1 != 0 {
				c.Events, c.MoveLines = []engine.Event{{}}, []string{"Ann places"}
			}
			if parts&2 != 0 {
				c.OrgLines = []string{"the organiser paused"}
			}
			if parts&4 != 0 {
				c.ChatLines = []string{"Ann: hello"}
			}
			if parts&8 != 0 {
				c.Waiting = []string{"Bob"}
			}
			if parts&16 != 0 {
				c.Result = res
			}
			p, ok := hooks.Build(h, c)
			carries := map[string]bool{
				"moves": len(p.Events) > 0 || strings.Contains(strings.Join(p.Lines, "|"), "places"),
				"org":   strings.Contains(strings.Join(p.Lines, "|"), "organiser"),
				"chat":  strings.Contains(strings.Join(p.Lines, "|"), "hello"),
				"turn":  len(p.Waiting) > 0,
				"end":   p.Result != nil,
			}
			has := map[string]bool{"moves": parts&1 != 0, "org": parts&2 != 0, "chat": parts&4 != 0, "turn": parts&8 != 0, "end": parts&16 != 0}
			any := false
			for _, k := range hooks.Kinds {
				if carries[k] != (has[k] && h.Wants(k)) {
					t.Errorf("hook %v, change %06b: carries %s %v", want, parts, k, carries[k])
				}
				if has[k] && h.Wants(k) && (k != "turn" || c.Stepped) {
					any = true
				}
			}
			if ok != any {
				t.Errorf("hook %v, change %06b: call %v, want %v", want, parts, ok, any)
			}
			if ok && (p.Game != "g1" || p.Token != 7) {
				t.Errorf("the call lost the game: %+v", p)
			}
		}
	}
}

// Rule (HOOK, issue 11 item 9): a hook's id is 6 characters of one draw
// and its secret two other draws (never the id's bits again); Add and
// Remove never change the caller's slice; UNHOOK names exactly one hook
// id, and an unknown one is refused (no_hook). Generated: lists of 0..4
// hooks x every position removed x argument counts.
func TestAddRemove(t *testing.T) {
	for n := 0; n <= 4; n++ {
		draws := 0
		draw := func() (string, error) {
			draws++
			return fmt.Sprintf("d%05dx%09d", draws, n), nil
		}
		var hs []hooks.Hook
		for i := 0; i < n; i++ {
			before := append([]hooks.Hook(nil), hs...)
			next, h, err := hooks.Add(hs, []string{fmt.Sprintf("https://h%d.example.test/x", i), "discord", "moves"}, draw)
			if err != nil {
				t.Fatal(err)
			}
			if len(hs) != len(before) || len(next) != len(hs)+1 || next[len(next)-1].ID != h.ID {
				t.Fatalf("Add changed the caller's hooks or did not append: %v -> %v", before, next)
			}
			if len(h.ID) != 6 || len(h.Secret) != 32 || strings.Contains(h.Secret, h.ID) || h.Format != "discord" {
				t.Errorf("hook %d: id %q secret %q format %q", i, h.ID, h.Secret, h.Format)
			}
			hs = next
		}
		if draws != 3*n {
			t.Errorf("%d hooks drew %d times, want 3 a hook", n, draws)
		}
		for i := range hs {
			rest, h, err := hooks.Remove(hs, []string{hs[i].ID})
			if err != nil || h.ID != hs[i].ID || len(rest) != n-1 {
				t.Fatalf("remove %d of %d: %v %v %v", i, n, rest, h, err)
			}
			for _, r := range rest {
				if r.ID == hs[i].ID {
					t.Errorf("remove %d: still there", i)
				}
			}
			if hs[i].ID != h.ID {
				t.Errorf("Remove changed the caller's hooks")
			}
		}
		for _, args := range [][]string{nil, {"a", "b"}, {"nosuch"}} {
			_, _, err := hooks.Remove(hs, args)
			var e *hooks.Error
			want := "usage"
			if len(args) == 1 {
				want = "no_hook"
			}
			if !errors.As(err, &e) || e.Code != want {
				t.Errorf("UNHOOK %v: %v, want %s", args, err, want)
			}
		}
	}
	fail := errors.New("no randomness")
	if _, _, err := hooks.Add(nil, []string{"https://x.example.test"}, func() (string, error) { return "", fail }); !errors.Is(err, fail) {
		t.Errorf("a failed draw: %v", err)
	}
	if _, _, err := hooks.Add(nil, []string{"ftp://x"}, func() (string, error) { return "abcdefabcdefabcd", nil }); err == nil {
		t.Errorf("a bad url was added")
	}
}

// Rule (the hooks queue): a change makes one call per hook that wants
// something of it, in the hooks' order; each takes the game's next nonce
// (id "<game>-<hook>-<nonce>", unique, the payload's own id), carries the
// hook's URL, secret and format for the worker, and a hook that wants
// nothing of the change takes no nonce. Generated: every subset of kinds
// for three hooks x a change of moves only or of chat only.
func TestCalls(t *testing.T) {
	for mask := 0; mask < 1<<len(hooks.Kinds); mask++ {
		var kinds []string
		for i, k := range hooks.Kinds {
			if mask&(1<<i) != 0 {
				kinds = append(kinds, k)
			}
		}
		hs := []hooks.Hook{{ID: "a1", URL: "https://a.test", Secret: "sa", Format: "generic", Events: kinds},
			{ID: "b2", URL: "https://b.test", Secret: "sb", Format: "discord", Events: []string{"chat"}},
			{ID: "c3", URL: "https://c.test", Secret: "sc", Format: "generic", Events: []string{"moves"}}}
		for _, c := range []hooks.Change{
			{Base: hooks.Payload{Game: "g1"}, Events: []engine.Event{{}}, MoveLines: []string{"Ann places"}, Stepped: true},
			{Base: hooks.Payload{Game: "g1"}, ChatLines: []string{"Ann: hi"}},
		} {
			var wanted []hooks.Hook
			for _, h := range hs {
				if _, ok := hooks.Build(h, c); ok {
					wanted = append(wanted, h)
				}
			}
			calls, nonce, err := hooks.Calls("g1", hs, c, 40)
			if err != nil {
				t.Fatal(err)
			}
			if len(calls) != len(wanted) || nonce != 40+len(wanted) {
				t.Fatalf("kinds %v: %d calls, nonce %d; want %d calls", kinds, len(calls), nonce, len(wanted))
			}
			for i, call := range calls {
				h := wanted[i]
				if want := fmt.Sprintf("g1-%s-%d", h.ID, 41+i); call.ID != want {
					t.Errorf("call %d: id %s, want %s", i, call.ID, want)
				}
				var p hooks.Payload
				if err := json.Unmarshal(call.Body, &p); err != nil || p.ID != call.ID || p.Game != "g1" {
					t.Errorf("call %d: body %s (%v)", i, call.Body, err)
				}
				if call.URL != h.URL || call.Meta[hooks.MetaHookID] != h.ID || call.Meta[hooks.MetaHookSecret] != h.Secret ||
					call.Meta[hooks.MetaHookFormat] != h.Format {
					t.Errorf("call %d: %s %v for hook %+v", i, call.URL, call.Meta, h)
				}
			}
		}
	}
}
