package templates

import (
	"bytes"
	"hash/maphash"
	"math"
	"reflect"
	"strconv"
	"sync"
	"sync/atomic"
	"text/template"
	"text/template/parse"
)

// keptCalls are the texts of the templates rendered by the function tmpl
// (and by every {{template}} call, which load rewrites into a kept call:
// keptTemplate, below) whose data is a value (issue 25: Brewcrafters' card
// facts and names, rendered by tmpl a dozen times per summary, were most
// of its mails' rendering; the summaries' sub-templates were half of the
// tell stage). A template run so reads nothing but its data and the
// template functions (its dot and $ are the data; the functions read the
// Set, which does not change after load: TestFuncsReadOnlyTheirArguments),
// so its text is a function of the template and the data: it is kept,
// keyed by the template and the data by value (keptDataKey), when the data
// is made only of strings, booleans, integers, floats (NaN never), lists,
// maps with string keys and structs of such values, of types without
// methods (a method may read what the key does not hold). Any other data
// (a pointer, a function, a Ctx, a value of a type with methods) is
// rendered every time. A Set serves every renderer at once: the texts are
// in shards, each behind its own lock (a render locks one shard, not the
// whole), and at most maxKeptCalls are kept (a shard is emptied when full).
type keptCalls struct {
	shards [keptShards]keptShard
	// off renders every call afresh (the tests' reference).
	off bool
	// hits counts the texts found kept (for the tests).
	hits atomic.Int64
}

type keptShard struct {
	mu sync.Mutex
	m  map[keptKey]string
	_  [40]byte // a shard's lock on its own cache line
}

const (
	maxKeptCalls = 1 << 15
	keptShards   = 16
)

type keptKey struct {
	t *template.Template
	// data is the data itself when it is its own key (a string, a
	// boolean, a number, a struct of those); enc its encoding else
	// (keptDataKey).
	data any
	enc  string
}

// keptSeed seeds the hash that picks a key's shard.
var keptSeed = maphash.MakeSeed()

// render is tmpl's text of d with data, kept or rendered (and kept when
// the data is a value). A text found kept costs no allocation for its
// key (issue 25: the key was made a string, on the heap, at every call):
// the encoding is written into a pooled buffer, and looked up as it is.
func (k *keptCalls) render(d *template.Template, data any) (string, error) {
	if k.off {
		return runTmpl(d, data)
	}
	bp := keyBufs.Get().(*[]byte)
	defer keyBufs.Put(bp)
	key, enc, ok := keptDataKey((*bp)[:0], data)
	if enc != nil && cap(enc) <= maxKeyBuf {
		*bp = enc[:0]
	}
	if !ok {
		return runTmpl(d, data)
	}
	var h uint64
	if enc != nil {
		h = maphash.Bytes(keptSeed, enc)
	} else {
		h = maphash.Comparable(keptSeed, keptKey{t: d, data: key})
	}
	sh := &k.shards[h%keptShards]
	sh.mu.Lock()
	s, found := sh.m[keptKey{t: d, data: key, enc: string(enc)}]
	sh.mu.Unlock()
	if found {
		k.hits.Add(1)
		return s, nil
	}
	s, err := runTmpl(d, data)
	if err != nil {
		return "", err
	}
	sh.mu.Lock()
	if sh.m == nil || len(sh.m) >= maxKeptCalls/keptShards {
		sh.m = map[keptKey]string{}
	}
	sh.m[keptKey{t: d, data: key, enc: string(enc)}] = s
	sh.mu.Unlock()
	return s, nil
}

// keyBufs are the buffers keys are encoded into; one grown past
// maxKeyBuf is dropped.
var keyBufs = sync.Pool{New: func() any { b := make([]byte, 0, 512); return &b }}

const maxKeyBuf = 16 << 10

// size is the number of texts kept.
func (k *keptCalls) size() int {
	n := 0
	for i := range k.shards {
		sh := &k.shards[i]
		sh.mu.Lock()
		n += len(sh.m)
		sh.mu.Unlock()
	}
	return n
}

// runTmpl executes d into a pooled buffer (tmpl's text is not tidied).
func runTmpl(d *template.Template, data any) (string, error) {
	b := renderBufs.Get().(*bytes.Buffer)
	defer putRenderBuf(b)
	b.Reset()
	err := d.Execute(b, data)
	return b.String(), err
}

// keptDataKey is data as a map key, by value, and whether it can be one:
// a string, a boolean or a number is its own key (key), as is a struct of
// strings, booleans and integers; other data is encoded (enc, appended to
// buf) by dictDataKey or by appendValue (viewkey.go: each part with its
// type) when its type is keyable. The two encodings start apart: 'd'
// there, a length here.
func keptDataKey(buf []byte, data any) (key any, enc []byte, ok bool) {
	switch v := data.(type) {
	case string, bool, int, int64:
		return v, nil, true
	case float64:
		return v, nil, !math.IsNaN(v)
	case nil:
		return nil, nil, false
	}
	if m, ok := data.(map[string]any); ok {
		// A dict (the usual data of a call) of strings, booleans and
		// numbers, encoded without reflection.
		if b, ok := dictDataKey(buf, m); ok {
			return nil, b, true
		}
		// Else refused without encoding anything when a value is not
		// keyable (a view, a Ctx).
		for _, x := range m {
			if x != nil && !keyableType(reflect.TypeOf(x)) {
				return nil, nil, false
			}
		}
	}
	v := reflect.ValueOf(data)
	if !keyableType(v.Type()) {
		return nil, nil, false
	}
	if flatStruct(v.Type()) {
		// A struct of strings, booleans and integers (engine.Fact) is
		// its own key, by value.
		return data, nil, true
	}
	b, ok := appendValue(buf, v)
	if !ok {
		return nil, nil, false
	}
	return nil, b, true
}

// flats caches flatStruct by type.
var flats sync.Map

// flatStruct reports whether t is a struct whose fields are all strings,
// booleans and integers (a key by value as it is: == compares every
// field).
func flatStruct(t reflect.Type) bool {
	if t.Kind() != reflect.Struct {
		return false
	}
	if ok, found := flats.Load(t); found {
		return ok.(bool)
	}
	ok := true
	for i := range t.NumField() {
		switch t.Field(i).Type.Kind() {
		case reflect.String, reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
			reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		default:
			ok = false
		}
	}
	flats.Store(t, ok)
	return ok
}

// keyable caches keyableType by type.
var keyable sync.Map

// keyableType reports whether a value of type t may be a key: t and every
// type it holds has no method and is a string, a boolean, a number (not
// complex), a list or array, a map with string keys, a struct or an
// interface of such types (a value in an interface is checked by value).
func keyableType(t reflect.Type) bool {
	if ok, found := keyable.Load(t); found {
		return ok.(bool)
	}
	ok := keyableTypeIn(t, map[reflect.Type]bool{})
	keyable.Store(t, ok)
	return ok
}

func keyableTypeIn(t reflect.Type, seen map[reflect.Type]bool) bool {
	if seen[t] {
		return true // a recursive type: its other parts decide
	}
	seen[t] = true
	if t.Kind() != reflect.Interface && (t.NumMethod() > 0 || reflect.PointerTo(t).NumMethod() > 0) {
		return false
	}
	switch t.Kind() {
	case reflect.String, reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64:
		return true
	case reflect.Interface:
		return t.NumMethod() == 0
	case reflect.Slice, reflect.Array:
		return keyableTypeIn(t.Elem(), seen)
	case reflect.Map:
		return t.Key().Kind() == reflect.String && keyableTypeIn(t.Key(), seen) && keyableTypeIn(t.Elem(), seen)
	case reflect.Struct:
		for i := range t.NumField() {
			if !keyableTypeIn(t.Field(i).Type, seen) {
				return false
			}
		}
		return true
	}
	return false
}

// keptTemplateFunc names the function a {{template}} call is rewritten
// into (keepTemplateCalls): a name no template writes.
const keptTemplateFunc = "keptTemplate_"

// keepTemplateCalls rewrites every {{template "name" pipeline}} of s's
// templates into {{keptTemplate_ "name" (pipeline)}}: the same template,
// found by the same name in the same set of definitions (the function of
// each set looks it up as {{template}} does), run with the same data, its
// text written at the same place; kept by its data when the data is a
// value (keptCalls). A call without data, or whose pipeline declares a
// variable, stays as it is. It runs once, at load, after the checks that
// read the parse trees (reads.go), before anything executes.
func (s *Set) keepTemplateCalls() {
	s.eachTree(func(tr *parse.Tree) { keepCalls(tr, tr.Root) })
}

func keepCalls(tr *parse.Tree, n parse.Node) {
	switch n := n.(type) {
	case *parse.ListNode:
		if n == nil {
			return
		}
		for i, c := range n.Nodes {
			if tn, ok := c.(*parse.TemplateNode); ok && tn.Pipe != nil && len(tn.Pipe.Decl) == 0 {
				n.Nodes[i] = keptCall(tr, tn)
				continue
			}
			keepCalls(tr, c)
		}
	case *parse.IfNode:
		keepCalls(tr, n.List)
		keepCalls(tr, n.ElseList)
	case *parse.RangeNode:
		keepCalls(tr, n.List)
		keepCalls(tr, n.ElseList)
	case *parse.WithNode:
		keepCalls(tr, n.List)
		keepCalls(tr, n.ElseList)
	}
}

// keptCall is the action {{keptTemplate_ "name" (pipeline)}} of tn.
func keptCall(tr *parse.Tree, tn *parse.TemplateNode) *parse.ActionNode {
	fn := parse.NewIdentifier(keptTemplateFunc).SetTree(tr).SetPos(tn.Pos)
	name := &parse.StringNode{NodeType: parse.NodeString, Pos: tn.Pos, Quoted: strconv.Quote(tn.Name), Text: tn.Name}
	cmd := &parse.CommandNode{NodeType: parse.NodeCommand, Pos: tn.Pos, Args: []parse.Node{fn, name, tn.Pipe}}
	pipe := &parse.PipeNode{NodeType: parse.NodePipe, Pos: tn.Pos, Line: tn.Line, Cmds: []*parse.CommandNode{cmd}}
	return &parse.ActionNode{NodeType: parse.NodeAction, Pos: tn.Pos, Line: tn.Line, Pipe: pipe}
}

// dictDataKey appends a dict's key to buf: its keys sorted, each with
// its value and the value's type; ok is false when a value is not a
// string, a boolean, an integer, a float (not NaN) or nil (appendValue
// encodes such a dict; the two encodings start apart: 'd' here, a length
// there).
func dictDataKey(buf []byte, m map[string]any) ([]byte, bool) {
	var small [8]string
	keys := sortedKeys(small[:0], m)
	b := append(buf, 'd')
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
				return b, false
			}
			b = append(strconv.AppendFloat(append(b, 'f'), v, 'g', -1, 64), ';')
		default:
			return b, false
		}
	}
	return b, true
}
