package templates

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"text/template"
	"unicode/utf8"
)

// Width is the width mails are laid out for.
const Width = 80

var funcs = template.FuncMap{
	"upper":     strings.ToUpper,
	"lower":     strings.ToLower,
	"title":     titleWord,
	"join":      join,
	"fields":    strings.Fields,
	"hasPrefix": strings.HasPrefix,
	"lastChar": func(s string) string {
		if s == "" {
			return ""
		}
		r, _ := utf8.DecodeLastRuneInString(s)
		return string(r)
	},
	"repeat":  strings.Repeat,
	"pad":     pad,
	"lpad":    lpad,
	"wrap":    wrap,
	"fold":    fold,
	"indent":  indent,
	"add":     func(a, b int) int { return a + b },
	"sub":     func(a, b int) int { return a - b },
	"mul":     func(a, b int) int { return a * b },
	"seq":     seq,
	"dict":    dict,
	"pick":    pick,
	"who":     who,
	"whoall":  whoAll,
	"val":     val,
	"list":    func(v ...any) []any { return v },
	"default": func(def, v any) any { return orDefault(def, v) },
	"has":     has,
	"str":     sprint,
	"num":     num,
	"int":     toInt,
	"len":     length,
	"contains": func(list any, v any) bool {
		rv := reflect.ValueOf(list)
		if rv.Kind() != reflect.Slice {
			return false
		}
		for i := 0; i < rv.Len(); i++ {
			if fmt.Sprint(rv.Index(i).Interface()) == fmt.Sprint(v) {
				return true
			}
		}
		return false
	},
}

func titleWord(s string) string {
	if s == "" {
		return s
	}
	r, n := utf8.DecodeRuneInString(s)
	return strings.ToUpper(string(r)) + s[n:]
}

// sprint is fmt.Sprint of one value, without fmt for the strings and ints
// that most template arguments are (the same text: a named type, which may
// have a String method, goes through fmt).
func sprint(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case int:
		return strconv.Itoa(x)
	}
	return fmt.Sprint(v)
}

// join joins the elements of any slice with sep.
func join(sep string, list any) string {
	if l, ok := list.([]string); ok {
		return strings.Join(l, sep)
	}
	rv := reflect.ValueOf(list)
	if rv.Kind() != reflect.Slice && rv.Kind() != reflect.Array {
		return fmt.Sprint(list)
	}
	parts := make([]string, rv.Len())
	for i := range parts {
		parts[i] = sprint(rv.Index(i).Interface())
	}
	return strings.Join(parts, sep)
}

// pad right-pads s with spaces to n runes.
func pad(n int, v any) string {
	s := sprint(v)
	if k := utf8.RuneCountInString(s); k < n {
		return s + strings.Repeat(" ", n-k)
	}
	return s
}

// lpad left-pads s with spaces to n runes.
func lpad(n int, v any) string {
	s := sprint(v)
	if k := utf8.RuneCountInString(s); k < n {
		return strings.Repeat(" ", n-k) + s
	}
	return s
}

// wrap folds text at word boundaries to lines of at most width runes;
// continuation lines start with prefix. The paragraphs and words are
// walked in place, never gathered in slices (issue 25: wrap's slices were
// 5% of a mail's allocations in the tell stage).
func wrap(width int, prefix string, text string) string {
	var b strings.Builder
	b.Grow(len(text))
	first := true
	for para := range strings.SplitSeq(text, "\n") {
		if !first {
			b.WriteByte('\n')
		}
		first = false
		col, i := 0, -1
		for w := range strings.FieldsSeq(para) {
			i++
			n := utf8.RuneCountInString(w)
			if i > 0 && col+1+n > width {
				b.WriteByte('\n')
				b.WriteString(prefix)
				col = utf8.RuneCountInString(prefix)
			} else if i > 0 {
				b.WriteByte(' ')
				col++
			}
			b.WriteString(w)
			col += n
		}
	}
	return b.String()
}

// fold wraps only the lines of text longer than width, keeping every line's
// indentation (continuation lines are indented two more spaces).
func fold(width int, text string) string {
	if fits(width, text) {
		return text // the common case: nothing to fold, nothing to copy
	}
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		if utf8.RuneCountInString(l) <= width {
			continue
		}
		ind := l[:len(l)-len(strings.TrimLeft(l, " "))]
		var b strings.Builder
		b.WriteString(ind)
		col := len(ind)
		for k, w := range strings.Fields(l) {
			n := utf8.RuneCountInString(w)
			if k > 0 && col+1+n > width {
				b.WriteString("\n" + ind + "  ")
				col = len(ind) + 2
			} else if k > 0 {
				b.WriteByte(' ')
				col++
			}
			b.WriteString(w)
			col += n
		}
		lines[i] = b.String()
	}
	return strings.Join(lines, "\n")
}

// fits reports whether no line of text is longer than width runes.
func fits(width int, text string) bool {
	for text != "" {
		line := text
		if i := strings.IndexByte(text, '\n'); i >= 0 {
			line, text = text[:i], text[i+1:]
		} else {
			text = ""
		}
		if len(line) > width && utf8.RuneCountInString(line) > width {
			return false
		}
	}
	return true
}

// Fits reports whether every line of text is within Width columns (see
// fits): the one rule of width Fold applies.
func Fits(text string) bool { return fits(Width, text) }

// Fold wraps the lines of text longer than Width (see fold): the
// referee's safety net for game text laid out by templates.
func Fold(text string) string { return fold(Width, text) }

// indent prefixes every line of text.
func indent(prefix, text string) string {
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		if l != "" {
			lines[i] = prefix + l
		}
	}
	return strings.Join(lines, "\n")
}

func seq(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}

// pick is m's value of each of keys, in order ("" for a key m lacks):
// a list of names to give a kept template as data instead of the whole
// map or view (issue 25: Brew Crafters' bc.names).
func pick(m map[string]string, keys []string) []string {
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = m[k]
	}
	return out
}

// who is Ctx.Who over a list of names, for a template given values, not
// the Ctx (kept.go): names[s] when s is a seat of it, else other;
// {{who .N .Seat "?"}} is Ctx.Name.
func who(names []string, s int, other string) string {
	if s >= 0 && s < len(names) {
		return names[s]
	}
	return other
}

// whoAll is who of every seat of a list, in a new list (Ctx.WhoAll).
func whoAll(names []string, seats []int, other string) []string {
	out := make([]string, len(seats))
	for i, s := range seats {
		out[i] = who(names, s, other)
	}
	return out
}

// val is the value a pointer points to, so that a template hands on a
// part of a view held by a pointer as a value, which is kept (kept.go:
// Fromage's View.You); any other argument comes back as it is.
func val(p any) any {
	if v := reflect.ValueOf(p); v.Kind() == reflect.Pointer && !v.IsNil() {
		return v.Elem().Interface()
	}
	return p
}

func dict(kv ...any) (map[string]any, error) {
	if len(kv)%2 != 0 {
		return nil, fmt.Errorf("dict: odd number of arguments")
	}
	m := make(map[string]any, len(kv)/2)
	for i := 0; i < len(kv); i += 2 {
		k, ok := kv[i].(string)
		if !ok {
			return nil, fmt.Errorf("dict: key %v is not a string", kv[i])
		}
		m[k] = kv[i+1]
	}
	return m, nil
}

func orDefault(def, v any) any {
	if v == nil {
		return def
	}
	rv := reflect.ValueOf(v)
	if rv.IsZero() {
		return def
	}
	return v
}

// has reports whether map m has key k (maps from JSON-friendly params).
func has(m any, k string) bool {
	rv := reflect.ValueOf(m)
	if rv.Kind() != reflect.Map {
		return false
	}
	return rv.MapIndex(reflect.ValueOf(k)).IsValid()
}

func toInt(v any) int {
	switch x := v.(type) {
	case int:
		return x
	case int64:
		return int(x)
	case float64:
		return int(x)
	case uint64:
		return int(x)
	}
	return 0
}

func length(v any) int {
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Slice, reflect.Array, reflect.Map, reflect.String:
		return rv.Len()
	}
	return 0
}
