package templates

import (
	"slices"
	"testing"
	"text/template/parse"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/brewcrafters"
)

// TestBrewCraftersNamesGetValues_Issue25: the summary's names of Brew
// Crafters (bc.named, a dozen a summary, bc.names, a dozen lists a
// summary, bc.space, one a Market space, bc.line and bc.research, one a
// player, bc.score and bc.portions) get values as data, never the View (V) or the Ctx (C): their
// calls are kept by their data (kept.go), in every language. Checked on
// the parse trees as loaded (every {{template}} call a kept call).
func TestBrewCraftersNamesGetValues_Issue25(t *testing.T) {
	s, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, lang := range s.Languages() {
		set := s.byKey[dir{"brewcrafters", lang}]
		if set == nil {
			t.Fatalf("%s: no brewcrafters templates", lang)
		}
		calls := 0
		var walk func(n parse.Node)
		walk = func(n parse.Node) {
			switch n := n.(type) {
			case *parse.ListNode:
				if n != nil {
					for _, c := range n.Nodes {
						walk(c)
					}
				}
			case *parse.IfNode:
				walk(n.Pipe)
				walk(n.List)
				walk(n.ElseList)
			case *parse.RangeNode:
				walk(n.Pipe)
				walk(n.List)
				walk(n.ElseList)
			case *parse.WithNode:
				walk(n.Pipe)
				walk(n.List)
				walk(n.ElseList)
			case *parse.ActionNode:
				walk(n.Pipe)
			case *parse.TemplateNode:
				if bcValueData[n.Name] {
					t.Errorf("%s: a {{template %q}} call not kept", lang, n.Name)
				}
			case *parse.PipeNode:
				if n == nil {
					return
				}
				for _, c := range n.Cmds {
					for _, a := range c.Args {
						walk(a)
					}
					fn, ok1 := c.Args[0].(*parse.IdentifierNode)
					if !ok1 || (fn.Ident != "tmpl" && fn.Ident != keptTemplateFunc) || len(c.Args) != 3 {
						continue
					}
					name, ok2 := c.Args[1].(*parse.StringNode)
					if !ok2 || !bcValueData[name.Text] {
						continue
					}
					calls++
					keys := dictKeys(c.Args[2])
					if keys == nil || slices.Contains(keys, "V") || slices.Contains(keys, "C") {
						t.Errorf("%s: %s: its data is not a dict of values: %v", lang, c, keys)
					}
				}
			}
		}
		for _, d := range set.Templates() {
			if d.Tree != nil {
				walk(d.Tree.Root)
			}
		}
		if calls < 29 {
			t.Errorf("%s: %d calls of the value-data templates found: the test checks nothing", lang, calls)
		}
	}
	for _, data := range []any{
		map[string]any{"K": "worker", "X": "W3", "N": "HEAD_BREWER"},
		map[string]any{"Kws": []string{"MALT", "HOPS"}, "H": "HOPS", "S": 1, "O": "Bea", "N": "free"},
		map[string]any{"K": "recipe", "L": []string{"R1", "R2"}, "N": []string{"Pale Ale", ""}},
		map[string]any{"L": []string{"R1", "-", "", "R2", ""}, "N": []string{"Pale Ale", "", "", "Stout", ""}, "I": []string{}},
		map[string]any{"R": [4]int{1, 0, 2, 3}, "O": "B2", "P": "MASH_TUN", "B": "", "Q": ""},
		map[string]any{"S": 7, "P": []engine.ScorePart{{Name: "rep", Points: 7}}},
		map[string]any{"L": []brewcrafters.PortionView{{ID: "M", Owner: 1}}, "O": []string{"ann", "bob"}, "T": "Collaboration:", "N": "free"},
	} {
		if _, _, ok := keptDataKey(nil, data); !ok {
			t.Errorf("%v: not keyed", data)
		}
	}
}

// bcValueData are the Brew Crafters templates whose data is values.
var bcValueData = map[string]bool{"bc.named": true, "bc.names": true, "bc.space": true, "bc.line": true, "bc.research": true,
	"bc.score": true, "bc.portions": true}

// dictKeys is the keys of a (dict "k" v ...) pipeline, nil when n is not
// one.
func dictKeys(n parse.Node) []string {
	p, ok := n.(*parse.PipeNode)
	if !ok || len(p.Cmds) != 1 {
		return nil
	}
	c := p.Cmds[0]
	if len(c.Args) == 1 {
		return dictKeys(c.Args[0]) // a kept call's (pipeline)
	}
	if fn, ok := c.Args[0].(*parse.IdentifierNode); !ok || fn.Ident != "dict" {
		return nil
	}
	keys := []string{}
	for i := 1; i < len(c.Args); i += 2 {
		k, ok := c.Args[i].(*parse.StringNode)
		if !ok {
			return nil
		}
		keys = append(keys, k.Text)
	}
	return keys
}
