package tell

import (
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/pbem-referee/referee/templates"
)

// menuLines keeps the menu lines whose template reads nothing but the
// option, the decision's kind, the language and the game
// (templates.Tmpl.OptionOnly, checked on the template's parse tree at
// load): such a line reads the same in every mail that offers the option,
// and a game offers the same options again and again (Dice Brewing's
// placements: issue 25, the menu lines were a third of a move's
// rendering). The key is the game, the language, the template, the
// decision's kind and the option (command, group and params); an option
// whose params are not all strings, numbers and booleans is rendered
// every time. A Renderer serves every unit of work at once: the lines are
// behind a lock, and at most maxMenuLines are kept (all dropped when
// full).
type menuLines struct {
	mu sync.Mutex
	m  map[string]string
	// hits counts the lines found kept (for the tests).
	hits int
}

const maxMenuLines = 1 << 14

// render is the menu line of od through t, kept or rendered (and kept
// when t allows); every renders it afresh.
func (l *menuLines) render(t *templates.Tmpl, kc templates.Ctx, rd Reader, od templates.OptionData, every bool) (string, error) {
	if every || !t.OptionOnly() || !scalarParams(od.Option.Params) {
		return t.Render(kc.With(od))
	}
	key := lineKey(rd, t.Name(), od)
	l.mu.Lock()
	s, ok := l.m[key]
	if ok {
		l.hits++
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
	l.m[key] = s
	l.mu.Unlock()
	return s, nil
}

// lineKey is the key of a menu line: every input an OptionOnly template
// may read, each string with its length in front.
func lineKey(rd Reader, name string, od templates.OptionData) string {
	var b strings.Builder
	o := od.Option
	field := func(f string) {
		b.WriteString(strconv.Itoa(len(f)))
		b.WriteByte(':')
		b.WriteString(f)
	}
	for _, f := range [...]string{rd.Game, rd.Lang, name, od.Decision.Kind, o.Cmd, o.Group} {
		field(f)
	}
	keys := make([]string, 0, len(o.Params))
	for k := range o.Params {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		field(k)
		switch v := o.Params[k].(type) {
		case nil:
			field("n")
		case string:
			field("s" + v)
		case bool:
			field("b" + strconv.FormatBool(v))
		case int:
			field("i" + strconv.Itoa(v))
		case int64:
			field("l" + strconv.FormatInt(v, 10))
		case float64:
			field("f" + strconv.FormatFloat(v, 'g', -1, 64))
		}
	}
	return b.String()
}
