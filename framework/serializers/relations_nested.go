package serializers

import (
	"cmp"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/go-drf/drf/framework/compat"
	"github.com/go-drf/drf/framework/models"
	"github.com/go-drf/drf/internal/structs"
)

// nested is a read-only nested serializer of related rows (DRF's
// OwnerSerializer(read_only=True), or with many=True of a reverse
// relation or a many-to-many field): a struct field whose JSON name (or
// drf source) names a foreign key of the model, or a slice of structs
// tagged model:"reverse=TABLE.COLUMN" or model:"many_to_many=TABLE",
// which the data source fills with one query per relation per page
// (queryset's nested fetches). The related struct holds columns, dotted
// sources through its own foreign keys and nested structs of them, which
// that query joins in (DRF's depth, or a nested serializer's own nested
// ones).
type nested struct {
	// fields are the related struct's fields, as its own serializer's.
	fields []*field
	// many is a slice of structs; size is an element's size.
	many bool
	size uintptr
	// fk is the foreign key of a nested one: null when it is.
	fk *structs.Field
	// via is the foreign key a nested many is read through (DRF's
	// source='bar.foos'), nil for none; when it is null the list is
	// orEmpty's [] (DRF's default=[]) or else nullVia, as DRF's
	// get_attribute() fails on None.
	via     *structs.Field
	orEmpty bool
	nullVia error
}

// writableError refuses a writable nested or dotted-source field, as
// DRF's ModelSerializer.create() and update() assert
// (raise_errors_on_nested_writes); method is "create" or "update", ""
// giving "create".
type writableError struct {
	dotted     bool
	method     string
	serializer string
}

func (e *writableError) Error() string {
	what, set := "nested", "nested serializer"
	if e.dotted {
		what, set = "dotted-source", "dotted-source serializer"
	}
	method := cmp.Or(e.method, "create")
	return fmt.Sprintf("The `.%s()` method does not support writable %s fields by default.\n"+
		"Write an explicit `.%s()` method for serializer `%s`, or set `read_only=True` on %s fields.", method, what, method, e.serializer, set)
}

// ofSerializer names the serializer of type t in a writableError.
func ofSerializer(err error, t reflect.Type) error {
	if w, ok := errors.AsType[*writableError](err); ok {
		w.serializer = fmt.Sprintf("Serializer[%s]", t)
	}
	return err
}

// bindNested makes a nested serializer of a struct or slice-of-structs
// field of a model; it reports false for any other field (a struct of
// no model that names no foreign key is an unsupported type).
func (f *field) bindNested(md *modelInfo) (bool, error) {
	t := f.sf.Type
	many := t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Struct
	if f.sf.Column != "" || (t.Kind() != reflect.Struct && !many) || f.sf.Kind != structs.Unsupported {
		return false, nil
	}
	if f.required || f.writeOnly {
		return true, &writableError{}
	}
	n := &nested{many: many}
	if many {
		if md == nil || reverseOf(md.desc, f.sf) == nil && manyToManyOf(md, f.sf) == nil {
			return true, fmt.Errorf("a nested list of %v needs model:\"reverse=TABLE.COLUMN\" or model:\"many_to_many=TABLE\"", t.Elem())
		}
		if m := manyToManyOf(md, f.sf); m != nil {
			f.helpText = m.HelpText
		}
		if r := reverseOf(md.desc, f.sf); r != nil {
			via, err := r.Via(md.desc)
			if err != nil {
				return true, err
			}
			if via != nil {
				n.via = via.Struct
				n.nullVia = fmt.Errorf("serializers: field %s: its source %s passes the null foreign key %s "+
					"(DRF's get_attribute() fails on None): give it default=[]", f.name, f.source(), via.Name)
			}
		}
		t = t.Elem()
		n.size = t.Size()
	} else {
		rel := f.name
		if src, ok := tagValue(f.sf.Tag.Get("drf"), "source"); ok {
			rel = src
		}
		var via *models.Field
		if md != nil {
			via = md.desc.Field(rel)
		}
		if via == nil || via.Related == nil {
			if _, err := models.Describe(t); err != nil {
				return false, nil // no model: an unsupported type
			}
			return true, fmt.Errorf("a nested %v needs a foreign key of the model named %q (its JSON name or drf source)", t, rel)
		}
		n.fk = via.Struct
	}
	fields, err := nestedFields(t)
	if err != nil {
		return true, err
	}
	n.fields = fields
	f.nested, f.readOnly, f.required, f.container = n, true, false, nil
	f.typeName = "nested object"
	if many {
		// DRF's SimpleMetadata has no type of a ListSerializer.
		f.typeName = "field"
	}
	return true, nil
}

// nestedFields are the fields of a nested serializer of t: its columns,
// its dotted sources through its foreign keys, and nested structs of
// them, which the data source joins into its query. Any other field
// would render empty, and is refused.
func nestedFields(t reflect.Type) ([]*field, error) {
	desc, err := structs.Describe(t)
	if err != nil {
		return nil, err
	}
	var inner *modelInfo
	if d, err := models.Describe(t); err == nil {
		inner = &modelInfo{desc: d}
	}
	var fields []*field
	for _, sf := range desc.Fields {
		if sf.NoJSON {
			continue
		}
		child, err := structField(sf, inner, nil)
		if err != nil {
			return nil, fmt.Errorf("%v.%s: %w", t, sf.Name, err)
		}
		joined := inner != nil && slices.ContainsFunc(inner.desc.Joins, func(j *models.Join) bool { return j.Field.Name == sf.Name })
		switch {
		case child.nested != nil && child.nested.many:
			return nil, fmt.Errorf("%v.%s: a nested serializer's own nested list is not read (one query per relation per page): "+
				"nest it in the outer serializer", t, sf.Name)
		case child.nested != nil || joined && child.rel == nil:
		case sf.Column == "" || child.compute != nil || child.container == nil && child.sf.Supported() != nil:
			return nil, fmt.Errorf("%v.%s: a nested serializer holds columns, dotted sources through a foreign key "+
				"(source=user.username) and nested rows of its foreign keys; this field would render empty", t, sf.Name)
		}
		child.key = append(appendString(nil, child.name), ':')
		fields = append(fields, child)
	}
	return fields, nil
}

// reverseOf is the model's reverse accessor of sf, nil when none.
func reverseOf(d *models.Description, sf *structs.Field) *models.Reverse {
	for _, r := range d.Reverses {
		if r.Field.Name == sf.Name {
			return r
		}
	}
	return nil
}

// tagValue returns the value of key=value in a comma-separated tag.
func tagValue(tag, key string) (string, bool) {
	for opt := range strings.SplitSeq(tag, ",") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(opt), key+"="); ok {
			return v, true
		}
	}
	return "", false
}

// appendNested writes the nested object (null when its foreign key is),
// or the list of them.
func (n *nested) appendNested(b []byte, sf *structs.Field, obj structs.Addr, c *Context) ([]byte, error) {
	if !n.many {
		if n.fk.IsNull(obj) {
			return append(b, "null"...), nil
		}
		return appendFields(b, n.fields, sf.Addr(obj), c)
	}
	if n.via != nil && n.via.IsNull(obj) {
		if n.orEmpty {
			return append(b, "[]"...), nil
		}
		return nil, n.nullVia
	}
	s := structs.At[structs.SliceHeader](sf.Addr(obj))
	b = append(b, '[')
	for i := range s.Len {
		if i > 0 {
			b = append(b, ',')
		}
		var err error
		if b, err = appendFields(b, n.fields, s.Data.Index(i, n.size), c); err != nil {
			return nil, err
		}
	}
	return append(b, ']'), nil
}

// appendNestedInfo writes what SimpleMetadata adds for a nested
// serializer: its fields' "children", or for many=True the "child" (a
// read-only nested object without a label) holding them.
func (n *nested) appendNestedInfo(b []byte, level compat.Level) []byte {
	if n.many {
		b = append(b, `,"child":{"type":"nested object","required":false,"read_only":true`...)
	}
	b = append(b, `,"children":`...)
	b = append(b, fieldInfo(n.fields, level)...)
	if n.many {
		b = append(b, '}')
	}
	return b
}
