package serializers

import (
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/go-drf/drf/framework/compat"
	"github.com/go-drf/drf/framework/exceptions"
	"github.com/go-drf/drf/framework/request"
	fmts "github.com/go-drf/drf/internal/formats"
	"github.com/go-drf/drf/internal/structs"
)

// container is the value of a ListField (a slice) or a DictField (a map
// with string keys) of one scalar kind, read and written through typed
// code chosen at setup.
type container struct {
	isMap bool
	// elem is the element's kind, as a field of its own.
	elem *structs.Field
	// child validates each element (DRF's child=): the element's field
	// with the child.* options of the drf tag.
	child *field
	codec containerCodec
	// formKey matches a list's indexed keys in HTML input, "tags[0]".
	formKey *regexp.Regexp
}

// containerCodec writes and stores the slice or map at p.
type containerCodec interface {
	appendJSON(b []byte, p structs.Addr) ([]byte, error)
	// set stores vals (under keys, for a map) at p.
	set(p structs.Addr, keys []string, vals []structs.Value)
	// isNil reports a nil slice or map at p; setNil stores one.
	isNil(p structs.Addr) bool
	setNil(p structs.Addr)
}

// elemCodec converts an element type to and from a Value.
type elemCodec[E any] struct {
	get func(E) structs.Value
	put func(structs.Value) E
}

type sliceCodec[E any] struct{ elemCodec[E] }

func (c sliceCodec[E]) appendJSON(b []byte, p structs.Addr) ([]byte, error) {
	b = append(b, '[')
	for i, e := range *structs.At[[]E](p) {
		if i > 0 {
			b = append(b, ',')
		}
		var err error
		if b, err = appendScalar(b, c.get(e)); err != nil {
			return nil, err
		}
	}
	return append(b, ']'), nil
}

func (c sliceCodec[E]) set(p structs.Addr, _ []string, vals []structs.Value) {
	s := make([]E, len(vals))
	for i, v := range vals {
		s[i] = c.put(v)
	}
	*structs.At[[]E](p) = s
}

func (sliceCodec[E]) isNil(p structs.Addr) bool { return *structs.At[[]E](p) == nil }
func (sliceCodec[E]) setNil(p structs.Addr)     { *structs.At[[]E](p) = nil }

type mapCodec[E any] struct{ elemCodec[E] }

func (mapCodec[E]) isNil(p structs.Addr) bool { return *structs.At[map[string]E](p) == nil }
func (mapCodec[E]) setNil(p structs.Addr)     { *structs.At[map[string]E](p) = nil }

func (c mapCodec[E]) appendJSON(b []byte, p structs.Addr) ([]byte, error) {
	m := *structs.At[map[string]E](p)
	b = append(b, '{')
	for i, k := range slices.Sorted(mapKeys(m)) {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(appendString(b, k), ':')
		var err error
		if b, err = appendScalar(b, c.get(m[k])); err != nil {
			return nil, err
		}
	}
	return append(b, '}'), nil
}

func (c mapCodec[E]) set(p structs.Addr, keys []string, vals []structs.Value) {
	m := make(map[string]E, len(vals))
	for i, v := range vals {
		m[keys[i]] = c.put(v)
	}
	*structs.At[map[string]E](p) = m
}

func mapKeys[E any](m map[string]E) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

func sortedKeys(m map[string]any) []string { return slices.Sorted(mapKeys(m)) }

// elemCodecs are the element types a list or dictionary may hold.
var elemCodecs = map[reflect.Type]func(isMap bool) (containerCodec, structs.Kind, int){
	reflect.TypeFor[string]():  codecFor(structs.String, 0, func(v structs.Value) string { return v.S }, func(e string) structs.Value { return structs.Value{Kind: structs.String, S: e} }),
	reflect.TypeFor[bool]():    codecFor(structs.Bool, 0, func(v structs.Value) bool { return v.B }, func(e bool) structs.Value { return structs.Value{Kind: structs.Bool, B: e} }),
	reflect.TypeFor[int]():     codecFor(structs.Int, strconv.IntSize, func(v structs.Value) int { return int(v.I) }, func(e int) structs.Value { return structs.Value{Kind: structs.Int, I: int64(e)} }),
	reflect.TypeFor[int32]():   codecFor(structs.Int, 32, func(v structs.Value) int32 { return int32(v.I) }, func(e int32) structs.Value { return structs.Value{Kind: structs.Int, I: int64(e)} }),
	reflect.TypeFor[int64]():   codecFor(structs.Int, 64, func(v structs.Value) int64 { return v.I }, func(e int64) structs.Value { return structs.Value{Kind: structs.Int, I: e} }),
	reflect.TypeFor[float64](): codecFor(structs.Float, 64, func(v structs.Value) float64 { return v.F }, func(e float64) structs.Value { return structs.Value{Kind: structs.Float, F: e} }),
}

func codecFor[E any](kind structs.Kind, bits int, put func(structs.Value) E, get func(E) structs.Value) func(bool) (containerCodec, structs.Kind, int) {
	ec := elemCodec[E]{get: get, put: put}
	return func(isMap bool) (containerCodec, structs.Kind, int) {
		if isMap {
			return mapCodec[E]{ec}, kind, bits
		}
		return sliceCodec[E]{ec}, kind, bits
	}
}

// containerOf is the container of a slice or string-keyed map field of a
// scalar element type, nil for another field.
func containerOf(sf *structs.Field) *container {
	t := sf.Type
	isMap := t.Kind() == reflect.Map && t.Key().Kind() == reflect.String
	if t.Kind() != reflect.Slice && !isMap {
		return nil
	}
	mk, ok := elemCodecs[t.Elem()]
	if !ok {
		return nil
	}
	codec, kind, bits := mk(isMap)
	elem := &structs.Field{Name: sf.Name, Kind: kind, Bits: bits, Type: t.Elem()}
	return &container{isMap: isMap, elem: elem, codec: codec,
		child: &field{sf: elem, trim: true, maxLength: -1, minLength: -1, maxDigits: -1, decimalPlaces: -1}}
}

// decodeContainer validates a list or dictionary (DRF's ListField,
// DictField and MultipleChoiceField) and stores it at base; it adds the
// errors, each item's under its index or key, to errs.
func (f *field) decodeContainer(base structs.Addr, raw any, level compat.Level, fc *fmts.Compiled, errs *exceptions.ValidationErrors) {
	c := f.container
	if raw == nil {
		if !f.allowNull {
			errs.Add(f.name, msgNull)
			return
		}
		c.codec.setNil(f.sf.Addr(base))
		return
	}
	var keys []string
	var items []any
	switch x := raw.(type) {
	case []any:
		if c.isMap {
			errs.Add(f.name, fmt.Sprintf(msgNotADict, pythonType(raw)))
			return
		}
		items = x
	case map[string]any:
		switch {
		case f.kind == kindMultiple:
			// Python iterates a dict's keys.
			for _, k := range sortedKeys(x) {
				items = append(items, k)
			}
		case !c.isMap:
			errs.Add(f.name, fmt.Sprintf(msgNotAList, "dict"))
			return
		default:
			keys = sortedKeys(x)
			for _, k := range keys {
				items = append(items, x[k])
			}
		}
	default:
		msg := msgNotAList
		if c.isMap {
			msg = msgNotADict
		}
		errs.Add(f.name, fmt.Sprintf(msg, pythonType(raw)))
		return
	}
	if !f.allowEmpty && len(items) == 0 {
		switch {
		case f.kind == kindMultiple:
			errs.Add(f.name, msgEmptyChoices)
		case c.isMap:
			errs.Add(f.name, msgEmptyDict)
		default:
			errs.Add(f.name, msgEmptyList)
		}
		return
	}
	vals := make([]structs.Value, 0, len(items))
	if f.kind == kindMultiple {
		// A set of choices: the first invalid one is the error.
		seen := map[string]bool{}
		for _, it := range items {
			v, msgs := f.toChoice(it)
			if len(msgs) > 0 {
				errs.Add(f.name, msgs[0])
				return
			}
			if !seen[v.S] {
				seen[v.S] = true
				vals = append(vals, v)
			}
		}
		c.codec.set(f.sf.Addr(base), nil, vals)
		return
	}
	failed := false
	for i, it := range items {
		key := strconv.Itoa(i)
		if c.isMap {
			key = keys[i]
		}
		v, msgs := c.child.toInternal(it, level, fc)
		for _, m := range msgs {
			errs.AddItem(f.name, key, m)
			failed = true
		}
		vals = append(vals, v)
	}
	if failed {
		return
	}
	if !c.isMap {
		if msgs := f.listLength(len(vals)); len(msgs) > 0 {
			for _, m := range msgs {
				errs.Add(f.name, m)
			}
			return
		}
	}
	c.codec.set(f.sf.Addr(base), keys, vals)
}

// appendContainer writes a list or dictionary field: a nil one is null
// when the field allows null, else empty.
func (f *field) appendContainer(b []byte, obj structs.Addr) ([]byte, error) {
	p := f.sf.Addr(obj)
	if f.allowNull && f.container.codec.isNil(p) {
		return append(b, "null"...), nil
	}
	if sa, ok := f.container.codec.(setAppender); ok && f.kind == kindMultiple {
		return sa.appendSet(b, p)
	}
	return f.container.codec.appendJSON(b, p)
}

// formContainer is DRF's get_value of a list, a multiple choice or a
// dictionary in HTML input: the field's own values (QueryDict.getlist), else
// the indexed keys "tags[0]", "tags[1]" (a dictionary: "scores.a"); a
// multiple choice absent from a full form is an empty list. DRF 3.14 read
// a dictionary of a form as {} whatever its keys (parse_html_dict parsed
// twice, the second time without the prefix).
func (f *field) formContainer(m map[string]any, partial bool, level compat.Level) (any, bool) {
	if v, ok := m[f.name]; ok && !f.container.isMap {
		if l, many := v.(request.FormList); many {
			out := make([]any, len(l))
			for i, s := range l {
				out[i] = s
			}
			return out, true
		}
		return []any{v}, true
	}
	if f.container.isMap {
		out := map[string]any{}
		if level == compat.DRF314 {
			return out, true
		}
		for k, v := range m {
			if key, ok := strings.CutPrefix(k, f.name+"."); ok {
				out[key] = request.FormValue(v)
			}
		}
		if len(out) == 0 {
			// DRF 3.18: the name alone ("scores=") is an empty
			// dictionary, clearing the field.
			if _, ok := m[f.name]; ok {
				return out, true
			}
			return nil, false
		}
		return out, true
	}
	type indexed struct {
		i int
		v any
	}
	var found []indexed
	for k, v := range m {
		if sub := f.container.formKey.FindStringSubmatch(k); sub != nil {
			i, err := strconv.Atoi(sub[1])
			if err == nil {
				found = append(found, indexed{i, request.FormValue(v)})
			}
		}
	}
	if len(found) == 0 {
		if f.kind == kindMultiple && !partial {
			return []any{}, true
		}
		return nil, false
	}
	slices.SortFunc(found, func(a, b indexed) int { return a.i - b.i })
	out := make([]any, len(found))
	for i, x := range found {
		out[i] = x.v
	}
	return out, true
}
