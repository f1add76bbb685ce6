package tell

import (
	"slices"
	"strconv"
	"sync"

	"github.com/pbem-referee/referee/templates"
)

// menuLines keeps the menu lines whose template reads nothing but the
// option, the decision's kind, the language, the game and the view's
// fields indexed by the option's command (templates.Tmpl.OptionKeyed,
// checked on the template's parse tree at load): such a line reads the
// same in every mail that offers the option with the same such values,
// and a game offers the same options again and again (Dice Brewing's
// placements: issue 25, the menu lines were a third of a move's
// rendering). The key is the game, the language, the template, the
// decision's kind, the option (group, params and, when the template
// reads it, command: templates.Reads.Cmd) and, for each field F the
// template indexes, the view's type and the value of View.F[command] or
// View.F[group] (templates.AppendReadsKey, by value: a value holding a
// pointer is never keyed; a menu group's heading is kept so, issue 25:
// Dice Brewing's read the view's Heads by group); an option whose params
// or view values cannot be keyed (templates.AppendValueKey: a pointer, a
// value with methods) is rendered every time. A Renderer serves every unit of work at once: the
// lines are behind a lock, and at most maxMenuLines are kept (all dropped
// when full).
type menuLines struct {
	mu sync.Mutex
	m  map[string]string
	// hits counts the lines found kept, and byName by template (for the
	// tests).
	hits   int
	byName map[string]int
}

const maxMenuLines = 1 << 14

// render is the menu line of od through t, kept or rendered (and kept
// when t allows); every renders it afresh.
func (l *menuLines) render(t *templates.Tmpl, kc templates.Ctx, rd Reader, od templates.OptionData, every bool) (string, error) {
	reads, keyed := t.Keyed()
	if every || !keyed {
		return t.Render(kc.With(od))
	}
	// The key is built in a buffer on the stack, and a string only
	// for a line kept anew (a menu keys a line per option).
	var buf [256]byte
	key, ok := appendLineKey(buf[:0], rd, t.Name(), od, reads)
	if !ok {
		return t.Render(kc.With(od))
	}
	if len(reads.ByCmd) > 0 || len(reads.ByGroup) > 0 {
		if key, ok = templates.AppendReadsKey(key, od.View, reads, od.Option.Cmd, od.Option.Group); !ok {
			return t.Render(kc.With(od))
		}
	}
	l.mu.Lock()
	s, ok := l.m[string(key)]
	if ok {
		l.hits++
		if l.byName == nil {
			l.byName = map[string]int{}
		}
		l.byName[t.Name()]++
	}
	l.mu.Unlock()
	if ok {
		return s, nil
	}
	s, err := t.Render(kc.With(od))
	if err != nil {
		return "", err
	}
	l.mu.Lock()
	if l.m == nil || len(l.m) >= maxMenuLines {
		l.m = map[string]string{}
	}
	l.m[string(key)] = s
	l.mu.Unlock()
	return s, nil
}

// appendLineKey appends the key of a menu line to b: every input an
// OptionOnly template may read, each string with its length in front;
// the option's command only when the template reads it
// (templates.Reads.Cmd); the params by name, each value with its type (a
// list or a map by templates.AppendValueKey: issue 25, Heaven & Ale's
// move options), only when the template reads them
// (templates.Reads.Params), and only those it reads when it reads them
// by name (templates.Reads.ParamKeys, a param it names and the option
// lacks marked so: Heaven & Ale's purchase headings, issue 25). ok is
// false when a param cannot be keyed.
func appendLineKey(b []byte, rd Reader, name string, od templates.OptionData, reads templates.Reads) (_ []byte, ok bool) {
	o := od.Option
	field := func(f string) {
		b = strconv.AppendInt(b, int64(len(f)), 10)
		b = append(b, ':')
		b = append(b, f...)
	}
	for _, f := range [...]string{rd.Game, rd.Lang, name, od.Decision.Kind, o.Group} {
		field(f)
	}
	if reads.Cmd {
		b = append(b, 'c')
		field(o.Cmd)
	}
	if !reads.Params {
		return append(b, 'p'), true
	}
	keys := reads.ParamKeys
	if keys == nil {
		var small [8]string
		keys = small[:0]
		for k := range o.Params {
			keys = append(keys, k)
		}
		slices.Sort(keys)
	} else {
		b = append(b, 'k')
	}
	for _, k := range keys {
		field(k)
		v, in := o.Params[k]
		if !in {
			b = append(b, 'm')
			continue
		}
		// The value with its type, the number ended by ';'.
		switch v := v.(type) {
		case nil:
			b = append(b, 'n')
		case string:
			b = append(b, 's')
			field(v)
		case bool:
			b = strconv.AppendBool(append(b, 'b'), v)
		case int:
			b = append(strconv.AppendInt(append(b, 'i'), int64(v), 10), ';')
		case int64:
			b = append(strconv.AppendInt(append(b, 'l'), v, 10), ';')
		case float64:
			b = append(strconv.AppendFloat(append(b, 'f'), v, 'g', -1, 64), ';')
		default:
			if b, ok = templates.AppendValueKey(append(b, 'v'), v); !ok {
				return b, false
			}
		}
	}
	return b, true
}
