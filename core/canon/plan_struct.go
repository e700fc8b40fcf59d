package canon

import (
	"cmp"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unsafe"
)

// A fieldPlan is one member a struct type writes: its name (already
// written as `,"name":`), the path of field indexes that reaches it through
// embedded structs, when it is left out, and the plan of its type. When no
// pointer is on the path, offset is where the field is in the struct, and a
// field of a plain kind is read there when the struct is addressable.
type fieldPlan struct {
	prefix    string
	index     []int
	inPlace   bool // kind is not otherKind and offset is known
	offset    uintptr
	omitEmpty bool
	omitZero  bool
	omit      bool // omitEmpty || omitZero
	kind      fieldKind
	typ       reflect.Type
	plan      planFunc
}

// newStructPlan makes the plan of struct type t: the fields encoding/json
// writes, by its rules (json tag names, "-", omitempty, omitzero, embedded
// structs and the Go rules for which of two same-named fields is seen), in
// canonical member order, worked out once for the type.
func newStructPlan(t reflect.Type) planFunc {
	fields, ok := jsonFields(t)
	if !ok {
		return giveUp
	}
	names := make([]string, len(fields))
	for i, f := range fields {
		names[i] = f.name
	}
	plan := make([]fieldPlan, len(fields))
	for i, at := range sortedNames(names) {
		f := fields[at]
		offset, direct := fieldOffset(t, f.index)
		plan[i] = fieldPlan{
			prefix:    "," + string(appendString(nil, f.name)) + ":",
			index:     f.index,
			inPlace:   direct && kindOf(f.typ) != otherKind,
			offset:    offset,
			omitEmpty: f.omitEmpty,
			omitZero:  f.omitZero,
			omit:      f.omitEmpty || f.omitZero,
			kind:      kindOf(f.typ),
			typ:       f.typ,
			plan:      planOf(f.typ),
		}
	}
	return func(w *walker, b []byte, v reflect.Value) ([]byte, bool) {
		if !w.enter() {
			return b, false
		}
		// An addressable struct's fields are read in place: v.Field
		// costs more than the rest of writing a short field.
		var base unsafe.Pointer
		if v.CanAddr() {
			base = unsafe.Pointer(v.UnsafeAddr())
		}
		b = append(b, '{')
		first := true
		for i := range plan {
			f := &plan[i]
			var fv reflect.Value
			ok := true
			switch {
			case base != nil && f.inPlace:
				p := unsafe.Add(base, f.offset)
				switch omit := f.omit; f.kind {
				case plainString:
					s := *(*string)(p)
					if omit && s == "" {
						continue
					}
					b = f.appendName(b, first)
					first = false
					b = appendLossyString(b, s)
					continue
				case plainInt64:
					n := *(*int64)(p)
					if omit && n == 0 {
						continue
					}
					b = f.appendName(b, first)
					first = false
					if b, ok = appendInt(b, n); !ok {
						return b, false
					}
					continue
				case plainBool:
					x := *(*bool)(p)
					if omit && !x {
						continue
					}
					b = f.appendName(b, first)
					first = false
					b = appendBool(b, x)
					continue
				case plainStringPtr:
					x := *(**string)(p)
					if omit && x == nil {
						continue
					}
					b = f.appendName(b, first)
					first = false
					if x == nil {
						b = append(b, "null"...)
					} else {
						b = appendLossyString(b, *x)
					}
					continue
				case plainInt64Ptr:
					x := *(**int64)(p)
					if omit && x == nil {
						continue
					}
					b = f.appendName(b, first)
					first = false
					if x == nil {
						b = append(b, "null"...)
					} else if b, ok = appendInt(b, *x); !ok {
						return b, false
					}
					continue
				case plainStrings:
					x := *(*[]string)(p)
					if omit && len(x) == 0 && (f.omitEmpty || x == nil) {
						continue
					}
					b = f.appendName(b, first)
					first = false
					b = appendStrings(b, x)
					continue
				}
			case len(f.index) == 1:
				fv = v.Field(f.index[0])
			default:
				fv, ok = fieldOf(v, f.index)
			}
			if !ok || (f.omitEmpty && isEmptyValue(fv)) || (f.omitZero && fv.IsZero()) {
				continue
			}
			b = f.appendName(b, first)
			first = false
			if b, ok = f.plan(w, b, fv); !ok {
				return b, false
			}
		}
		w.leave()
		return append(b, '}'), true
	}
}

// appendName appends the member name of f, after a comma unless it is the
// object's first member.
func (f *fieldPlan) appendName(b []byte, first bool) []byte {
	if first {
		return append(b, f.prefix[1:]...)
	}
	return append(b, f.prefix...)
}

// fieldOffset returns the offset in a t of the field index reaches, and
// false when a pointer is on the way.
func fieldOffset(t reflect.Type, index []int) (uintptr, bool) {
	var offset uintptr
	for _, i := range index {
		if t.Kind() != reflect.Struct {
			return 0, false
		}
		sf := t.Field(i)
		offset += sf.Offset
		t = sf.Type
	}
	return offset, true
}

// A fieldKind names the kinds of field a struct plan writes itself rather
// than through the field type's plan.
type fieldKind uint8

const (
	otherKind fieldKind = iota
	plainString
	plainInt64
	plainBool
	plainStringPtr // a pointer to a plainString
	plainInt64Ptr  // a pointer to a plainInt64
	plainStrings   // a slice of plainString
)

// kindOf returns the fieldKind of values of t.
func kindOf(t reflect.Type) fieldKind {
	switch k := t.Kind(); {
	case k == reflect.Pointer && !hasMarshaler(t):
		switch kindOf(t.Elem()) {
		case plainString:
			return plainStringPtr
		case plainInt64:
			return plainInt64Ptr
		}
		return otherKind
	case k == reflect.Slice && !hasMarshaler(t):
		if kindOf(t.Elem()) == plainString {
			return plainStrings
		}
		return otherKind
	}
	if hasMarshaler(t) {
		return otherKind
	}
	switch t.Kind() {
	case reflect.String:
		if t != numberType {
			return plainString
		}
	case reflect.Int64:
		return plainInt64
	case reflect.Int:
		if strconv.IntSize == 64 {
			return plainInt64
		}
	case reflect.Bool:
		return plainBool
	}
	return otherKind
}

// hasMarshaler reports whether encoding/json may write values of t
// through a MarshalJSON or MarshalText method.
func hasMarshaler(t reflect.Type) bool {
	p := reflect.PointerTo(t)
	return t.Implements(marshalerType) || p.Implements(marshalerType) ||
		t.Implements(textMarshalerType) || p.Implements(textMarshalerType)
}

// appendStrings appends a JSON array of the strings x, or null for nil.
func appendStrings(b []byte, x []string) []byte {
	if x == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, s := range x {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendLossyString(b, s)
	}
	return append(b, ']')
}

// fieldOf follows index from struct v, and reports false when a nil
// embedded pointer is on the way (encoding/json then leaves the field out).
func fieldOf(v reflect.Value, index []int) (reflect.Value, bool) {
	for _, i := range index {
		if v.Kind() == reflect.Pointer {
			if v.IsNil() {
				return v, false
			}
			v = v.Elem()
		}
		v = v.Field(i)
	}
	return v, true
}

// isEmptyValue is encoding/json's test for omitempty.
func isEmptyValue(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool,
		reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64,
		reflect.Interface, reflect.Pointer:
		return v.IsZero()
	}
	return false
}

// jsonField is a field encoding/json writes.
type jsonField struct {
	name      string
	tagged    bool // the name came from a json tag
	index     []int
	typ       reflect.Type
	omitEmpty bool
	omitZero  bool
}

// jsonFields lists the fields encoding/json writes for struct type t, in
// index order, by its rules: a breadth-first walk through embedded
// structs, then for each name the one dominant field (the shallowest; among
// equally shallow ones the only tagged one; none if still tied). It reports
// false for what the walker leaves to encoding/json: the "string" option
// and omitzero on a type with an IsZero method.
func jsonFields(t reflect.Type) ([]jsonField, bool) {
	type queued struct {
		typ   reflect.Type
		index []int
	}
	var current []queued
	next := []queued{{typ: t}}
	var count, nextCount map[reflect.Type]int
	visited := map[reflect.Type]bool{}
	var fields []jsonField
	for len(next) > 0 {
		current, next = next, current[:0]
		count, nextCount = nextCount, map[reflect.Type]int{}
		for _, q := range current {
			if visited[q.typ] {
				continue
			}
			visited[q.typ] = true
			for i := range q.typ.NumField() {
				sf := q.typ.Field(i)
				if sf.Anonymous {
					et := sf.Type
					if et.Kind() == reflect.Pointer {
						et = et.Elem()
					}
					if !sf.IsExported() && et.Kind() != reflect.Struct {
						continue
					}
				} else if !sf.IsExported() {
					continue
				}
				tag := sf.Tag.Get("json")
				if tag == "-" {
					continue
				}
				name, opts, _ := strings.Cut(tag, ",")
				if !isValidTag(name) {
					name = ""
				}
				index := append(slices.Clip(q.index), i)
				ft := sf.Type
				if ft.Name() == "" && ft.Kind() == reflect.Pointer {
					ft = ft.Elem()
				}
				if hasOption(opts, "string") {
					return nil, false
				}
				if name != "" || !sf.Anonymous || ft.Kind() != reflect.Struct {
					if !sf.IsExported() {
						// encoding/json reaches it as a read-only value
						return nil, false
					}
					f := jsonField{
						name:      name,
						tagged:    name != "",
						index:     index,
						typ:       sf.Type,
						omitEmpty: hasOption(opts, "omitempty"),
						omitZero:  hasOption(opts, "omitzero"),
					}
					if f.name == "" {
						f.name = sf.Name
					}
					if f.omitZero && hasIsZero(sf.Type) {
						return nil, false
					}
					fields = append(fields, f)
					if count[q.typ] > 1 {
						// Two embeddings of one type at this depth: a
						// second copy makes its fields annihilate.
						fields = append(fields, f)
					}
					continue
				}
				nextCount[ft]++
				if nextCount[ft] == 1 {
					next = append(next, queued{typ: ft, index: index})
				}
			}
		}
	}
	slices.SortFunc(fields, func(a, b jsonField) int {
		if c := strings.Compare(a.name, b.name); c != 0 {
			return c
		}
		if c := cmp.Compare(len(a.index), len(b.index)); c != 0 {
			return c
		}
		if a.tagged != b.tagged {
			if a.tagged {
				return -1
			}
			return 1
		}
		return slices.Compare(a.index, b.index)
	})
	out := fields[:0]
	for i := 0; i < len(fields); {
		j := i + 1
		for j < len(fields) && fields[j].name == fields[i].name {
			j++
		}
		if j-i == 1 || len(fields[i].index) != len(fields[i+1].index) || fields[i].tagged != fields[i+1].tagged {
			out = append(out, fields[i])
		}
		i = j
	}
	slices.SortFunc(out, func(a, b jsonField) int { return slices.Compare(a.index, b.index) })
	return out, true
}

// hasIsZero reports whether encoding/json's omitzero would call an IsZero
// method of t.
func hasIsZero(t reflect.Type) bool {
	return t.Implements(isZeroerType) || reflect.PointerTo(t).Implements(isZeroerType)
}

// hasOption reports whether the comma-separated tag options opts name
// option.
func hasOption(opts, option string) bool {
	for opts != "" {
		var o string
		o, opts, _ = strings.Cut(opts, ",")
		if o == option {
			return true
		}
	}
	return false
}

// isValidTag is encoding/json's test of a json tag name: otherwise the Go
// field name is used.
func isValidTag(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		switch {
		case strings.ContainsRune("!#$%&()*+-./:;<=>?@[]^_{|}~ ", c):
		case !unicode.IsLetter(c) && !unicode.IsDigit(c):
			return false
		}
	}
	return true
}
