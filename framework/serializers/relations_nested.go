package serializers

import (
	"fmt"
	"reflect"
	"strings"
	"unsafe"

	"github.com/go-drf/drf/framework/models"
	"github.com/go-drf/drf/internal/structs"
)

// nested is a read-only nested serializer of related rows (DRF's
// OwnerSerializer(read_only=True), or with many=True of a reverse
// relation): a struct field whose JSON name (or drf source) names a
// foreign key of the model, or a slice of structs tagged
// model:"reverse=TABLE.COLUMN", which the data source fills with one
// query per relation per page (queryset's nested fetches).
type nested struct {
	// fields are the related struct's fields, as its own serializer's.
	fields []*field
	// many is a slice of structs; size is an element's size.
	many bool
	size uintptr
	// fk is the foreign key of a nested one: null when it is.
	fk *structs.Field
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
	n := &nested{many: many}
	if many {
		if md == nil || !isReverse(md.desc, f.sf) {
			return true, fmt.Errorf("a nested list of %v needs model:\"reverse=TABLE.COLUMN\"", t.Elem())
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
	desc, err := structs.Describe(t)
	if err != nil {
		return true, err
	}
	var inner *modelInfo
	if d, err := models.Describe(t); err == nil {
		inner = &modelInfo{desc: d}
	}
	for _, sf := range desc.Fields {
		if sf.NoJSON {
			continue
		}
		child, err := structField(sf, inner, nil)
		if err != nil {
			return true, fmt.Errorf("%v.%s: %w", t, sf.Name, err)
		}
		if child.nested != nil || child.compute != nil || child.container == nil && child.sf.Supported() != nil {
			return true, fmt.Errorf("%v.%s: a nested serializer holds columns only", t, sf.Name)
		}
		child.key = append(appendString(nil, child.name), ':')
		n.fields = append(n.fields, child)
	}
	f.nested, f.readOnly, f.required, f.container = n, true, false, nil
	f.typeName = "nested object"
	if many {
		// DRF's SimpleMetadata has no type of a ListSerializer.
		f.typeName = "field"
	}
	return true, nil
}

// isReverse reports a reverse accessor of the model.
func isReverse(d *models.Description, sf *structs.Field) bool {
	for _, r := range d.Reverses {
		if r.Field.Name == sf.Name {
			return true
		}
	}
	return false
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
func (n *nested) appendNested(b []byte, sf *structs.Field, obj unsafe.Pointer, c *Context) ([]byte, error) {
	if !n.many {
		if n.fk.IsNull(obj) {
			return append(b, "null"...), nil
		}
		return appendFields(b, n.fields, sf.Addr(obj), c)
	}
	s := (*structs.SliceHeader)(sf.Addr(obj))
	b = append(b, '[')
	for i := range s.Len {
		if i > 0 {
			b = append(b, ',')
		}
		var err error
		if b, err = appendFields(b, n.fields, unsafe.Add(s.Data, uintptr(i)*n.size), c); err != nil {
			return nil, err
		}
	}
	return append(b, ']'), nil
}

// appendNestedInfo writes what SimpleMetadata adds for a nested
// serializer: its fields' "children", or for many=True the "child" (a
// read-only nested object without a label) holding them.
func (n *nested) appendNestedInfo(b []byte) []byte {
	if n.many {
		b = append(b, `,"child":{"type":"nested object","required":false,"read_only":true`...)
	}
	b = append(b, `,"children":`...)
	b = append(b, fieldInfo(n.fields)...)
	if n.many {
		b = append(b, '}')
	}
	return b
}
