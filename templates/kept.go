package templates

import (
	"bytes"
	"math"
	"reflect"
	"slices"
	"strconv"
	"sync"
	"text/template"
)

// keptCalls are the texts of the templates rendered by the function tmpl
// whose data is a value (issue 25: Brewcrafters' card facts and names,
// rendered by tmpl a dozen times per summary, were most of its mails'
// rendering). A template run by tmpl reads nothing but its data and the
// template functions (its dot and $ are the data; the functions read the
// Set, which does not change after load), so its text is a function of
// the template and the data: it is kept, keyed by the template and the
// data by value, when the data is a string, a boolean, an integer or a
// float (NaN never), a struct of such fields (engine.Fact) or a map from
// strings to such values (a dict, every key and value with its type in
// the key). Any other data (a view, a list, a Ctx, a pointer) is rendered
// every time. A Set serves every renderer at once: the texts are behind
// a lock, and at most maxKeptCalls are kept (all dropped when full).
type keptCalls struct {
	mu sync.Mutex
	m  map[keptKey]string
	// off renders every call afresh (the tests' reference).
	off bool
	// hits counts the texts found kept (for the tests).
	hits int
}

const maxKeptCalls = 1 << 14

type keptKey struct {
	t    *template.Template
	data any
}

// dictKey is the key of a dict's data (a type of its own: a dict never
// shares a key with a string).
type dictKey string

// render is tmpl's text of d with data, kept or rendered (and kept when
// the data is a value).
func (k *keptCalls) render(d *template.Template, data any) (string, error) {
	key, ok := keptDataKey(data)
	if !ok || k.off {
		return runTmpl(d, data)
	}
	kk := keptKey{t: d, data: key}
	k.mu.Lock()
	s, found := k.m[kk]
	if found {
		k.hits++
	}
	k.mu.Unlock()
	if found {
		return s, nil
	}
	s, err := runTmpl(d, data)
	if err != nil {
		return "", err
	}
	k.mu.Lock()
	if k.m == nil || len(k.m) >= maxKeptCalls {
		k.m = map[keptKey]string{}
	}
	k.m[kk] = s
	k.mu.Unlock()
	return s, nil
}

// runTmpl executes d into a pooled buffer (tmpl's text is not tidied).
func runTmpl(d *template.Template, data any) (string, error) {
	b := renderBufs.Get().(*bytes.Buffer)
	defer putRenderBuf(b)
	b.Reset()
	err := d.Execute(b, data)
	return b.String(), err
}

// keptDataKey is data as a map key, by value, and whether it can be one.
func keptDataKey(data any) (any, bool) {
	switch v := data.(type) {
	case string, bool, int, int64:
		return v, true
	case float64:
		return v, !math.IsNaN(v)
	case map[string]any:
		return dictDataKey(v)
	}
	if data == nil {
		return nil, false
	}
	t := reflect.TypeOf(data)
	if t.Kind() != reflect.Struct {
		return nil, false
	}
	if plain, ok := plainStructs.Load(t); ok {
		return data, plain.(bool)
	}
	plain := plainStruct(t)
	plainStructs.Store(t, plain)
	return data, plain
}

// plainStructs caches plainStruct by type.
var plainStructs sync.Map

// plainStruct reports whether every field of struct type t is a string, a
// boolean or an integer (so that a value of t is a map key by value and
// reads the same wherever it is equal).
func plainStruct(t reflect.Type) bool {
	for i := range t.NumField() {
		switch t.Field(i).Type.Kind() {
		case reflect.String, reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
			reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		default:
			return false
		}
	}
	return true
}

// dictDataKey is a dict's key: its keys sorted, each with its value and
// the value's type; ok is false when a value is not a string, a boolean,
// an integer, a float (not NaN) or nil.
func dictDataKey(m map[string]any) (any, bool) {
	var small [8]string
	keys := small[:0]
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var buf [128]byte
	b := buf[:0]
	field := func(f string) {
		b = strconv.AppendInt(b, int64(len(f)), 10)
		b = append(b, ':')
		b = append(b, f...)
	}
	for _, k := range keys {
		field(k)
		switch v := m[k].(type) {
		case nil:
			b = append(b, 'n')
		case string:
			b = append(b, 's')
			field(v)
		case bool:
			b = strconv.AppendBool(append(b, 'b'), v)
			b = append(b, ';')
		case int:
			b = append(strconv.AppendInt(append(b, 'i'), int64(v), 10), ';')
		case int64:
			b = append(strconv.AppendInt(append(b, 'l'), v, 10), ';')
		case float64:
			if math.IsNaN(v) {
				return nil, false
			}
			b = append(strconv.AppendFloat(append(b, 'f'), v, 'g', -1, 64), ';')
		default:
			return nil, false
		}
	}
	return dictKey(b), true
}
