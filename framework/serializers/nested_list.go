package serializers

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/go-drf/drf/framework/compat"
	"github.com/go-drf/drf/framework/exceptions"
	"github.com/go-drf/drf/internal/structs"
)

// nestedList is a writable nested serializer of many=True (NestedList),
// its element type known to the closures made where it is.
type nestedList struct {
	name string
	// typ is the field's type, []E.
	typ reflect.Type
	// decode validates raw into the []E at p, adding its errors under
	// name to errs; an error is one of no field (a database's).
	decode func(p structs.Addr, raw any, partial bool, c *Context, errs *exceptions.ValidationErrors) error
	// appendJSON writes the []E at p.
	appendJSON func(b []byte, p structs.Addr, c *Context) ([]byte, error)
	// children is the item serializer's OPTIONS description at a level;
	// minLength and maxLength the list's bounds, 0 for none.
	children             func(level compat.Level) json.RawMessage
	minLength, maxLength int
}

// NestedList makes the field name, of type []E, a writable nested
// serializer of many=True: DRF's ItemSerializer(many=True) declared as a
// field, given the list ListOptions give (allow_empty=False is NotEmpty,
// max_length and min_length, a validate()). Its input is validated by s
// as ValidateList validates a list (each item partial in a partial
// update), its errors under the field's name in ValidateList's shapes
// ({"items": [{}, {"name": ["This field is required."]}]} at the 3.14
// level, {"items": {"1": {...}}} at 3.18); null is "This field may not be
// null."; in HTML input the list is "items[0]name", as parse_html_list
// reads it. Its items are rendered by s. Saving them is the caller's, as
// DRF's create() and update() are the user's for writable nested fields
// (ModelSerializer's refuse them): a generic view's PerformCreate and
// PerformUpdate get them in the validated item. The field's own options
// (required, read_only, write_only, label) are its drf tag's.
func NestedList[E any](name string, s *Serializer[E], opts ListOptions[E]) Option {
	nl := &nestedList{name: name, typ: reflect.TypeFor[[]E](), children: s.FieldInfoAt,
		minLength: opts.MinLength, maxLength: opts.MaxLength}
	nl.decode = func(p structs.Addr, raw any, partial bool, c *Context, errs *exceptions.ValidationErrors) error {
		if raw == nil {
			errs.Add(name, msgNull)
			return nil
		}
		items, err := s.validateList(raw, opts, partial, nil, c)
		if err == nil {
			*structs.At[[]E](p) = items
			return nil
		}
		var api *exceptions.APIException
		if !errors.As(err, &api) || api.Code != exceptions.CodeInvalid {
			return err
		}
		switch d := api.Detail.(type) {
		case exceptions.ValidationErrors:
			*errs = append(*errs, exceptions.FieldError{Field: name, Items: d})
		case []any:
			*errs = append(*errs, exceptions.FieldError{Field: name, List: d})
		default:
			return err
		}
		return nil
	}
	nl.appendJSON = func(b []byte, p structs.Addr, c *Context) ([]byte, error) {
		items := *structs.At[[]E](p)
		ptrs := make([]*E, len(items))
		for i := range items {
			ptrs[i] = &items[i]
		}
		out, err := s.Many(ptrs, c)
		if err != nil {
			return nil, err
		}
		return append(b, out...), nil
	}
	return optionFunc(func(o *options) { o.nestedLists = append(o.nestedLists, nl) })
}

// field is the field of sf, the struct field the NestedList names.
func (nl *nestedList) field(sf *structs.Field) (*field, error) {
	if sf.Type != nl.typ {
		return nil, fmt.Errorf("NestedList(%q) needs a field of type %s, not %s", nl.name, nl.typ, sf.Type)
	}
	f := &field{sf: sf, name: nl.name, trim: true, maxLength: -1, minLength: -1, maxDigits: -1, decimalPlaces: -1,
		allowEmpty: true, list: nl, typeName: "field"}
	for _, opt := range splitTag(sf.Tag.Get("drf")) {
		switch key, _, _ := strings.Cut(strings.TrimSpace(opt), "="); key {
		case "", "required", "read_only", "write_only", "label":
		default:
			return nil, fmt.Errorf("NestedList(%q): drf tag option %q: the list's options are NestedList's ListOptions", nl.name, opt)
		}
		if err := f.applyOption(opt); err != nil {
			return nil, err
		}
	}
	return f, nil
}

// appendInfo writes what SimpleMetadata adds for f, the field of nl: the
// list's bounds, then its "child", the item serializer as a nested object
// with the list's required, read_only and label (DRF's many_init passes
// them on to the child).
func (nl *nestedList) appendInfo(b []byte, f *field, level compat.Level) []byte {
	if nl.minLength > 0 {
		b = strconv.AppendInt(append(b, `,"min_length":`...), int64(nl.minLength), 10)
	}
	if nl.maxLength > 0 {
		b = strconv.AppendInt(append(b, `,"max_length":`...), int64(nl.maxLength), 10)
	}
	b = strconv.AppendBool(append(b, `,"child":{"type":"nested object","required":`...), f.required)
	b = strconv.AppendBool(append(b, `,"read_only":`...), f.readOnly)
	if f.label != "" {
		b = appendString(append(b, `,"label":`...), f.label)
	}
	b = append(append(b, `,"children":`...), nl.children(level)...)
	return append(b, '}')
}

// nestedListOf is the NestedList of o that names sf, nil for none.
func (o *options) nestedListOf(sf *structs.Field) *nestedList {
	for _, nl := range o.nestedLists {
		if nl.name == sf.JSON {
			return nl
		}
	}
	return nil
}

// formNestedList is the list of a NestedList in HTML input m, as DRF's
// parse_html_list reads it with the field's prefix ("items[0]name");
// none is no value.
func (f *field) formNestedList(m map[string]any) (any, bool) {
	sub := map[string]any{}
	for k, v := range m {
		if rest, ok := strings.CutPrefix(k, f.name); ok && strings.HasPrefix(rest, "[") {
			sub[rest] = v
		}
	}
	if len(sub) == 0 {
		return nil, false
	}
	return formList(sub), true
}

// WritableNested is DRF's raise_errors_on_nested_writes for method,
// "create" or "update": the refusal, naming the field and in DRF's words,
// of a writable NestedList or dotted-source field, which ModelSerializer's
// default create() and update() do not save; nil for none. A generic view
// without PerformCreate or PerformUpdate refuses it at setup.
func (s *Serializer[T]) WritableNested(method string) error {
	for _, f := range s.fields {
		var what string
		switch {
		case f.list != nil && !f.readOnly:
			what = "a NestedList"
		case f.writableDotted():
			what = "a writable dotted source"
		default:
			continue
		}
		err := &writableError{dotted: f.list == nil, method: method}
		return fmt.Errorf("%q is %s: %w", f.name, what, ofSerializer(err, reflect.TypeFor[T]()))
	}
	return nil
}
