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
	"github.com/go-drf/drf/internal/rawjson"
	"github.com/go-drf/drf/internal/structs"
)

// container is the value of a ListField (a slice) or a DictField (a map
// with string keys). Its elements are scalars, pointers to scalars (a
// child of allow_null), lists or dictionaries of them (DRF's
// ListField(child=ListField(...))), or any JSON value (DRF's ListField
// and DictField without a child); each level is read and written through
// typed code chosen at setup.
type container struct {
	isMap bool
	// child validates each element (DRF's child=): a field at the
	// element's address, with the child.* options of the drf tag; an
	// element that is a list or a dictionary has a container of its own,
	// whose child takes the child.child.* options.
	child *field
	// elem is the child's element, as a field of its own (child.sf).
	elem *structs.Field
	// unvalidated marks elements of type any (DRF's _UnvalidatedField):
	// any JSON value, null included, kept as it is.
	unvalidated bool
	// size is an ArrayField's size, the most items the list holds
	// (Django's ArrayMaxLengthValidator); 0 for none.
	size  int
	codec containerCodec
	// formKey matches a list's indexed keys in HTML input, "tags[0]" or
	// "tags[0]name"; nil for a list inside a list.
	formKey *regexp.Regexp
}

// containerCodec makes and reads the slice or map of one element type.
type containerCodec interface {
	// fill makes a slice of n elements, or a map of them under keys, and
	// sets each at its address with set; when every set succeeds and
	// store holds, it stores the slice or map at p. It reports whether
	// every set succeeded.
	fill(p structs.Addr, keys []string, n int, store bool, set func(i int, elem structs.Addr) bool) bool
	// each calls fn with each element of the slice or map at p (a map's
	// in the order of its keys) and its key, "" in a slice.
	each(p structs.Addr, fn func(key string, elem structs.Addr) error) error
	// isNil reports a nil slice or map at p; setNil stores one.
	isNil(p structs.Addr) bool
	setNil(p structs.Addr)
}

type sliceCodec[E any] struct{}

func (sliceCodec[E]) fill(p structs.Addr, _ []string, n int, store bool, set func(int, structs.Addr) bool) bool {
	s := make([]E, n)
	ok := true
	for i := range s {
		ok = set(i, structs.AddrOf(&s[i])) && ok
	}
	if ok && store {
		*structs.At[[]E](p) = s
	}
	return ok
}

func (sliceCodec[E]) each(p structs.Addr, fn func(string, structs.Addr) error) error {
	s := *structs.At[[]E](p)
	for i := range s {
		if err := fn("", structs.AddrOf(&s[i])); err != nil {
			return err
		}
	}
	return nil
}

func (sliceCodec[E]) isNil(p structs.Addr) bool { return *structs.At[[]E](p) == nil }
func (sliceCodec[E]) setNil(p structs.Addr)     { *structs.At[[]E](p) = nil }

type mapCodec[E any] struct{}

func (mapCodec[E]) fill(p structs.Addr, keys []string, n int, store bool, set func(int, structs.Addr) bool) bool {
	m := make(map[string]E, n)
	ok := true
	for i := range n {
		var e E
		ok = set(i, structs.AddrOf(&e)) && ok
		m[keys[i]] = e
	}
	if ok && store {
		*structs.At[map[string]E](p) = m
	}
	return ok
}

func (mapCodec[E]) each(p structs.Addr, fn func(string, structs.Addr) error) error {
	m := *structs.At[map[string]E](p)
	for _, k := range slices.Sorted(mapKeys(m)) {
		e := m[k]
		if err := fn(k, structs.AddrOf(&e)); err != nil {
			return err
		}
	}
	return nil
}

func (mapCodec[E]) isNil(p structs.Addr) bool { return *structs.At[map[string]E](p) == nil }
func (mapCodec[E]) setNil(p structs.Addr)     { *structs.At[map[string]E](p) = nil }

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

// containerCodecs are the codecs of the element types a list or
// dictionary may hold, by element type: a scalar S, *S, a list or
// dictionary of S or *S, and any, []any and map[string]any.
var containerCodecs = func() map[reflect.Type]func(isMap bool) containerCodec {
	m := map[reflect.Type]func(bool) containerCodec{}
	addScalarElems[string](m)
	addScalarElems[bool](m)
	addScalarElems[int](m)
	addScalarElems[int32](m)
	addScalarElems[int64](m)
	addScalarElems[float64](m)
	addElem[any](m)
	addElem[[]any](m)
	addElem[map[string]any](m)
	return m
}()

func addElem[E any](m map[reflect.Type]func(bool) containerCodec) {
	m[reflect.TypeFor[E]()] = func(isMap bool) containerCodec {
		if isMap {
			return mapCodec[E]{}
		}
		return sliceCodec[E]{}
	}
}

func addScalarElems[S any](m map[reflect.Type]func(bool) containerCodec) {
	addElem[S](m)
	addElem[*S](m)
	addElem[[]S](m)
	addElem[[]*S](m)
	addElem[map[string]S](m)
	addElem[map[string]*S](m)
}

// scalarKinds are the kinds of the scalar elements, with their size.
var scalarKinds = map[reflect.Type]struct {
	kind structs.Kind
	bits int
}{
	reflect.TypeFor[string]():  {structs.String, 0},
	reflect.TypeFor[bool]():    {structs.Bool, 0},
	reflect.TypeFor[int]():     {structs.Int, strconv.IntSize},
	reflect.TypeFor[int32]():   {structs.Int, 32},
	reflect.TypeFor[int64]():   {structs.Int, 64},
	reflect.TypeFor[float64](): {structs.Float, 64},
}

// containerOf is the container of a slice or string-keyed map field of
// an element type containerCodecs holds, nil for another field.
func containerOf(sf *structs.Field) *container { return containerOfType(sf.Name, sf.Type) }

func containerOfType(name string, t reflect.Type) *container {
	isMap := t.Kind() == reflect.Map && t.Key().Kind() == reflect.String
	if t.Kind() != reflect.Slice && !isMap {
		return nil
	}
	et := t.Elem()
	mk, ok := containerCodecs[et]
	if !ok {
		return nil
	}
	elem := &structs.Field{Name: name, Type: et}
	c := &container{isMap: isMap, elem: elem, codec: mk(isMap),
		child: &field{sf: elem, trim: true, maxLength: -1, minLength: -1, maxDigits: -1, decimalPlaces: -1, allowEmpty: true}}
	st := et
	if st.Kind() == reflect.Pointer {
		st, elem.Nullable, c.child.allowNull = st.Elem(), true, true
	}
	switch k, scalar := scalarKinds[st]; {
	case scalar:
		elem.Kind, elem.Bits = k.kind, k.bits
	case et.Kind() == reflect.Interface:
		c.unvalidated, c.child.typeName = true, "field"
	default:
		c.child.container = containerOfType(name, et)
	}
	return c
}

// check refuses a child's options that cannot apply: allow_null on an
// element that cannot hold null (a pointer, a list or a dictionary can).
func (c *container) check() error {
	ch := c.child
	if ch.container != nil {
		return ch.container.check()
	}
	if ch.allowNull && !c.unvalidated && !c.elem.Nullable {
		return fmt.Errorf("child.allow_null needs elements that hold null, as []*%s does", c.elem.Type)
	}
	return nil
}

// decodeContainer validates a list or dictionary (DRF's ListField,
// DictField and MultipleChoiceField) and stores it at base; it adds the
// errors, each item's under its index or key, to errs.
func (f *field) decodeContainer(base structs.Addr, raw any, level compat.Level, fc *fmts.Compiled, errs *exceptions.ValidationErrors) {
	if f.kind == kindMultiple {
		f.decodeChoices(base, raw, errs)
		return
	}
	fe := f.decodeItems(f.sf.Addr(base), raw, level, fc)
	if fe.Items != nil {
		fe.Field = f.name
		*errs = append(*errs, fe)
		return
	}
	for _, m := range fe.Messages {
		errs.Add(f.name, m)
	}
}

// itemsOf reads raw as the list or dictionary of f: its items, and a
// dictionary's keys in order; or the message refusing it.
func (f *field) itemsOf(raw any) (keys []string, items []any, msg string) {
	c := f.container
	switch x := raw.(type) {
	case []any:
		if !c.isMap {
			return nil, x, ""
		}
	case map[string]any:
		if c.isMap {
			keys = sortedKeys(x)
			items = make([]any, len(keys))
			for i, k := range keys {
				items[i] = x[k]
			}
			return keys, items, ""
		}
	}
	if c.isMap {
		return nil, nil, fmt.Sprintf(msgNotADict, pythonType(raw))
	}
	return nil, nil, fmt.Sprintf(msgNotAList, pythonType(raw))
}

// decodeItems validates raw as the list or dictionary of f (a field, or a
// child that is one) and, when it is valid, stores it at p. It returns
// the errors: f's messages, or its items' by index or key (DRF's
// {"0": {"1": ["A valid integer is required."]}} of a list of lists).
func (f *field) decodeItems(p structs.Addr, raw any, level compat.Level, fc *fmts.Compiled) exceptions.FieldError {
	c := f.container
	if raw == nil {
		if !f.allowNull {
			return exceptions.FieldError{Messages: []string{msgNull}}
		}
		c.codec.setNil(p)
		return exceptions.FieldError{}
	}
	keys, items, msg := f.itemsOf(raw)
	switch {
	case msg != "":
		return exceptions.FieldError{Messages: []string{msg}}
	case !f.allowEmpty && len(items) == 0 && c.isMap:
		return exceptions.FieldError{Messages: []string{msgEmptyDict}}
	case !f.allowEmpty && len(items) == 0:
		return exceptions.FieldError{Messages: []string{msgEmptyList}}
	}
	// DRF's min_length and max_length are validators of a valid list.
	var lengths []string
	if !c.isMap {
		lengths = append(c.sizeCheck(len(items), level), f.listLength(len(items))...)
	}
	var itemErrs exceptions.ValidationErrors
	c.codec.fill(p, keys, len(items), len(lengths) == 0, func(i int, elem structs.Addr) bool {
		fe := c.decodeElem(elem, items[i], level, fc)
		if fe.Messages == nil && fe.Items == nil {
			return true
		}
		fe.Field = strconv.Itoa(i)
		if c.isMap {
			fe.Field = keys[i]
		}
		itemErrs = append(itemErrs, fe)
		return false
	})
	if itemErrs != nil {
		return exceptions.FieldError{Items: itemErrs}
	}
	return exceptions.FieldError{Messages: lengths}
}

// decodeElem validates raw, an element, into elem: the child's
// run_validation.
func (c *container) decodeElem(elem structs.Addr, raw any, level compat.Level, fc *fmts.Compiled) exceptions.FieldError {
	ch := c.child
	switch {
	case c.unvalidated:
		*structs.At[any](elem) = raw
		return exceptions.FieldError{}
	case ch.container != nil:
		return ch.decodeItems(elem, raw, level, fc)
	}
	v, msgs := ch.toInternal(raw, level, fc)
	if len(msgs) > 0 {
		return exceptions.FieldError{Messages: msgs}
	}
	ch.sf.Set(elem, v)
	return exceptions.FieldError{}
}

// decodeChoices validates a MultipleChoiceField's set of choices: the
// first invalid one is the error.
func (f *field) decodeChoices(base structs.Addr, raw any, errs *exceptions.ValidationErrors) {
	if raw == nil {
		if !f.allowNull {
			errs.Add(f.name, msgNull)
			return
		}
		f.container.codec.setNil(f.sf.Addr(base))
		return
	}
	items, ok := raw.([]any)
	if m, isDict := raw.(map[string]any); isDict {
		// Python iterates a dict's keys.
		for _, k := range sortedKeys(m) {
			items = append(items, k)
		}
		ok = true
	}
	switch {
	case !ok:
		errs.Add(f.name, fmt.Sprintf(msgNotAList, pythonType(raw)))
		return
	case !f.allowEmpty && len(items) == 0:
		errs.Add(f.name, msgEmptyChoices)
		return
	}
	vals := make([]structs.Value, 0, len(items))
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
	elem := f.container.elem
	f.container.codec.fill(f.sf.Addr(base), nil, len(vals), true, func(i int, p structs.Addr) bool {
		elem.Set(p, vals[i])
		return true
	})
}

// appendContainer writes a list or dictionary field.
func (f *field) appendContainer(b []byte, obj structs.Addr) ([]byte, error) {
	return f.appendItems(b, f.sf.Addr(obj))
}

// appendItems writes the list or dictionary of f at p: a nil one is null
// when f allows null, else empty; a multiple choice's values once each,
// in their order (DRF's MultipleChoiceField renders a set).
func (f *field) appendItems(b []byte, p structs.Addr) ([]byte, error) {
	c := f.container
	if f.allowNull && c.codec.isNil(p) {
		return append(b, "null"...), nil
	}
	var seen map[string]bool
	if f.kind == kindMultiple {
		seen = map[string]bool{}
	}
	open, end := byte('['), byte(']')
	if c.isMap {
		open, end = '{', '}'
	}
	b = append(b, open)
	first := true
	err := c.codec.each(p, func(key string, elem structs.Addr) error {
		mark := len(b)
		if !first {
			b = append(b, ',')
		}
		if c.isMap {
			b = append(appendString(b, key), ':')
		}
		start := len(b)
		var err error
		if b, err = c.appendElem(b, elem); err != nil {
			return err
		}
		if seen != nil {
			one := string(b[start:])
			if seen[one] {
				b = b[:mark]
				return nil
			}
			seen[one] = true
		}
		first = false
		return nil
	})
	if err != nil {
		return nil, err
	}
	return append(b, end), nil
}

// appendElem writes an element: DRF's child.to_representation, null for
// None.
func (c *container) appendElem(b []byte, elem structs.Addr) ([]byte, error) {
	switch {
	case c.unvalidated:
		return rawjson.Append(b, *structs.At[any](elem))
	case c.child.container != nil:
		return c.child.appendItems(b, elem)
	}
	return appendScalar(b, c.elem.Get(elem))
}

// formContainer is DRF's get_value of a list, a multiple choice or a
// dictionary in HTML input: the field's own values (QueryDict.getlist), else
// the indexed keys "tags[0]", "tags[1]" (an item of sub-keys, "rows[0][1]"
// or "rows[0]name", is a list or dictionary of its own, as
// parse_html_list reads it; a dictionary: "scores.a"); a multiple choice
// absent from a full form is an empty list. DRF 3.14 read a dictionary of
// a form as {} whatever its keys (parse_html_dict parsed twice, the second
// time without the prefix).
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
		i   int
		key string
		v   any
	}
	var found []indexed
	for k, v := range m {
		if sub := f.container.formKey.FindStringSubmatch(k); sub != nil {
			i, err := strconv.Atoi(sub[1])
			if err == nil {
				found = append(found, indexed{i, sub[2], request.FormValue(v)})
			}
		}
	}
	if len(found) == 0 {
		if f.kind == kindMultiple && !partial {
			return []any{}, true
		}
		return nil, false
	}
	// parse_html_list: "[i]" is the item, "[i]key" a key of the item i,
	// a MultiValueDict.
	slices.SortFunc(found, func(a, b indexed) int { return cmpIndexed(a.i, a.key, b.i, b.key) })
	var out []any
	last := -1
	for _, x := range found {
		if x.i != last {
			out = append(out, nil)
			last = x.i
		}
		n := len(out) - 1
		if x.key == "" {
			out[n] = x.v
			continue
		}
		item, ok := out[n].(map[string]any)
		if !ok {
			item = map[string]any{}
			out[n] = item
		}
		item[x.key] = x.v
	}
	for i := range out {
		out[i] = f.container.formItem(out[i], level)
	}
	return out, true
}

// cmpIndexed orders a form list's keys by index, then by key.
func cmpIndexed(i int, key string, j int, other string) int {
	if i != j {
		return i - j
	}
	return strings.Compare(key, other)
}

// formItem is an item of a list in HTML input as the child reads it: an
// item of sub-keys is, for a child list, the list parse_html_list reads
// of them ("[0]", "[1]"; none is an empty list) and, for a child
// dictionary, a dictionary of them (DRF 3.14's parse_html_dict keeps the
// keys ".a" alone, as "a").
func (c *container) formItem(v any, level compat.Level) any {
	m, ok := v.(map[string]any)
	ch := c.child
	if !ok || ch.container == nil {
		return v
	}
	if ch.container.isMap {
		if level != compat.DRF314 {
			return m
		}
		out := map[string]any{}
		for k, x := range m {
			if key, ok := strings.CutPrefix(k, "."); ok && key != "" {
				out[key] = x
			}
		}
		return out
	}
	list := formList(m)
	for i := range list {
		list[i] = ch.container.formItem(list[i], level)
	}
	return list
}

// applyOption applies one option of the drf tag to f or, for a
// child.* option, to its list's or dictionary's child ("child.max_length",
// "child.child.max_value" of a list of lists).
func (f *field) applyOption(opt string) error {
	opt = strings.TrimSpace(opt)
	key, val, hasVal := strings.Cut(opt, "=")
	target := f
	for k, isChild := strings.CutPrefix(key, "child."); isChild; k, isChild = strings.CutPrefix(key, "child.") {
		if target.container == nil {
			return fmt.Errorf("drf tag option %q needs a list or dictionary field", opt)
		}
		target, key = target.container.child, k
	}
	return target.tagOption(key, val, hasVal, opt)
}
