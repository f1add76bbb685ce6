package templates

import (
	"reflect"
	"slices"
	"strconv"
	"sync"
)

// AppendViewKey appends to dst what an OptionKeyed template reads of the
// view: for each field F of viewByCmd, the value of {{index .Data.View.F
// cmd}}, encoded so that two different values never give the same bytes
// (each with its type, lengths in front). ok is false when the key cannot
// be told from the value alone, and the caller must render: the view is
// not a struct or a pointer to one, F is not an exported field of it or
// is also a method, the field is not a map with string keys, or the
// value holds a pointer, a function, a channel (what a pointer points to
// may change under the same bytes) or a struct with methods (a method may
// read what the key does not hold); a struct is keyed by its exported
// fields, the only ones a template reads.
func AppendViewKey(dst []byte, view any, viewByCmd []string, cmd string) (_ []byte, ok bool) {
	return appendViewKey(dst, view, viewByCmd, cmd, nil, "")
}

// AppendReadsKey appends to dst what a Keyed template reads of the view
// (r: its fields by the option's command and by its group), as
// AppendViewKey does; the command and the group themselves are the
// caller's to key.
func AppendReadsKey(dst []byte, view any, r Reads, cmd, group string) (_ []byte, ok bool) {
	return appendViewKey(dst, view, r.ByCmd, cmd, r.ByGroup, group)
}

func appendViewKey(dst []byte, view any, byCmd []string, cmd string, byGroup []string, group string) (_ []byte, ok bool) {
	if len(byCmd) == 0 && len(byGroup) == 0 {
		return dst, true
	}
	v := reflect.ValueOf(view)
	if !v.IsValid() {
		return dst, false
	}
	t := v.Type()
	if v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return dst, false
		}
		v = v.Elem()
	}
	if v.Kind() != reflect.Struct {
		return dst, false
	}
	dst = appendField(dst, t.String())
	if dst, ok = appendFields(dst, v, byCmd, cmd); !ok || len(byGroup) == 0 {
		return dst, ok
	}
	dst = append(dst, '/')
	return appendFields(dst, v, byGroup, group)
}

// appendFields appends, for each field F of fields, F and the value of
// v.F[key] (v a struct).
func appendFields(dst []byte, v reflect.Value, fields []string, key string) (_ []byte, ok bool) {
	for _, f := range fields {
		index, found := fieldOf(v.Type(), f)
		if !found {
			return dst, false
		}
		fv, err := v.FieldByIndexErr(index)
		if err != nil {
			return dst, false
		}
		if fv.Kind() == reflect.Interface {
			fv = fv.Elem()
		}
		if fv.Kind() != reflect.Map || fv.Type().Key() != reflect.TypeFor[string]() {
			return dst, false
		}
		dst = appendField(dst, f)
		e := fv.MapIndex(reflect.ValueOf(key))
		if !e.IsValid() {
			dst = append(dst, 'm')
			continue
		}
		dst = append(dst, 'p')
		if dst, ok = appendValue(dst, e); !ok {
			return dst, false
		}
	}
	return dst, true
}

// fieldOf is the index of the exported field f of the struct type t, not
// found when t has no such field or has a method of that name (text/template
// calls a method of that name before it reads a field: such a view is
// not read here). Looked up once per type and name (a menu keys a line
// per option).
func fieldOf(t reflect.Type, f string) ([]int, bool) {
	k := typeField{t, f}
	if r, ok := fieldIndex.Load(k); ok {
		return r.([]int), r.([]int) != nil
	}
	var index []int
	_, m1 := t.MethodByName(f)
	_, m2 := reflect.PointerTo(t).MethodByName(f)
	if sf, found := t.FieldByName(f); found && sf.IsExported() && !m1 && !m2 {
		index = sf.Index
	}
	fieldIndex.Store(k, index)
	return index, index != nil
}

type typeField struct {
	t reflect.Type
	f string
}

// fieldIndex holds fieldOf's answers ([]int, nil when not found).
var fieldIndex sync.Map

// appendField appends s with its length in front.
func appendField(dst []byte, s string) []byte {
	dst = strconv.AppendInt(dst, int64(len(s)), 10)
	dst = append(dst, ':')
	return append(dst, s...)
}

// appendValue appends v with its type: strings, numbers, booleans, and
// slices, arrays, maps with string keys, structs without methods (their
// exported fields) and interfaces of those (a value in an interface of a
// keyableType: no method, no pointer).
func appendValue(dst []byte, v reflect.Value) ([]byte, bool) {
	return appendTyped(appendField(dst, v.Type().String()), v)
}

// appendTyped appends v, whose type the bytes before it already tell (its
// container's type, or the type appendValue wrote): the type of a part is
// written only where it is not told, in an interface (issue 25: a board's
// key wrote "int" before every number of it). Two values of one type
// never give the same bytes: a string and a list carry their length, a
// number ends with ';', a struct's fields come in their type's order, a
// nil list or map is 'N'.
func appendTyped(dst []byte, v reflect.Value) ([]byte, bool) {
	switch v.Kind() {
	case reflect.Interface:
		if v.IsNil() {
			return append(dst, 'n'), true
		}
		if !keyableType(v.Elem().Type()) {
			// A value of a type with methods (a String method may read
			// what the key does not hold), or holding a pointer.
			return dst, false
		}
		return appendValue(dst, v.Elem())
	case reflect.String:
		return appendField(dst, v.String()), true
	case reflect.Bool:
		return strconv.AppendBool(dst, v.Bool()), true
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return append(strconv.AppendInt(dst, v.Int(), 10), ';'), true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return append(strconv.AppendUint(dst, v.Uint(), 10), ';'), true
	case reflect.Float32, reflect.Float64:
		return append(strconv.AppendFloat(dst, v.Float(), 'g', -1, 64), ';'), true
	case reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Slice && v.IsNil() {
			return append(dst, 'N'), true
		}
		dst = append(strconv.AppendInt(dst, int64(v.Len()), 10), '[')
		for i := range v.Len() {
			var ok bool
			if dst, ok = appendTyped(dst, v.Index(i)); !ok {
				return dst, false
			}
		}
		return dst, true
	case reflect.Struct:
		t := v.Type()
		if t.NumMethod() > 0 || reflect.PointerTo(t).NumMethod() > 0 {
			return dst, false
		}
		dst = append(dst, '{')
		for i := range t.NumField() {
			if !t.Field(i).IsExported() {
				continue
			}
			var ok bool
			if dst, ok = appendTyped(dst, v.Field(i)); !ok {
				return dst, false
			}
		}
		return append(dst, '}'), true
	case reflect.Map:
		if v.Type().Key().Kind() != reflect.String {
			return dst, false
		}
		if v.IsNil() {
			return append(dst, 'N'), true
		}
		if v.CanInterface() {
			if m, ok := v.Interface().(map[string]any); ok {
				return appendDict(dst, m)
			}
		}
		keys := v.MapKeys()
		slices.SortFunc(keys, func(a, b reflect.Value) int {
			switch {
			case a.String() < b.String():
				return -1
			case a.String() > b.String():
				return 1
			}
			return 0
		})
		dst = append(strconv.AppendInt(dst, int64(len(keys)), 10), '{')
		for _, k := range keys {
			dst = appendField(dst, k.String())
			var ok bool
			if dst, ok = appendTyped(dst, v.MapIndex(k)); !ok {
				return dst, false
			}
		}
		return dst, true
	}
	return dst, false
}

// appendDict appends a map[string]any as appendTyped does, read without
// reflection (a dict, the usual data of a call: MapKeys copied every key
// and value to the heap).
func appendDict(dst []byte, m map[string]any) ([]byte, bool) {
	var small [8]string
	keys := sortedKeys(small[:0], m)
	dst = append(strconv.AppendInt(dst, int64(len(keys)), 10), '{')
	for _, k := range keys {
		dst = appendField(dst, k)
		x := m[k]
		if x == nil {
			dst = append(dst, 'n')
			continue
		}
		if !keyableType(reflect.TypeOf(x)) {
			return dst, false
		}
		var ok bool
		if dst, ok = appendValue(dst, reflect.ValueOf(x)); !ok {
			return dst, false
		}
	}
	return dst, true
}

// sortedKeys appends m's keys to keys, sorted (keys: the caller's
// array, on its stack when the dict is small).
func sortedKeys(keys []string, m map[string]any) []string {
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// AppendValueKey appends to dst the value x with its type, encoded as
// AppendViewKey encodes the view's values (two different values never
// give the same bytes; the encoding starts with its length, so that what
// follows it cannot be read as part of it); ok is false when x holds a
// pointer, a function, a channel, a value of a type with methods or a
// map whose keys are not strings (issue 25: Heaven & Ale's move options
// carry lists of tiles, prices and barrels in their params).
func AppendValueKey(dst []byte, x any) (_ []byte, ok bool) {
	v := reflect.ValueOf(x)
	if !v.IsValid() {
		return append(dst, 'n'), true
	}
	if !keyableType(v.Type()) {
		return dst, false
	}
	var buf [128]byte
	enc, ok := appendValue(buf[:0], v)
	if !ok {
		return dst, false
	}
	dst = strconv.AppendInt(dst, int64(len(enc)), 10)
	return append(append(dst, ':'), enc...), true
}
