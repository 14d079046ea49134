package serializers

import (
	"encoding/json"
	"strconv"
	"strings"
	"unicode"

	"github.com/go-drf/drf/framework/compat"
	"github.com/go-drf/drf/internal/structs"
)

// FieldInfo describes the fields for an OPTIONS answer, as DRF 3.18's
// SimpleMetadata does in "actions": per field its type, whether it is
// required and read-only, its label, its help text, its bounds and a
// decimal's precision. It is built at setup.
func (s *Serializer[T]) FieldInfo() json.RawMessage { return s.info }

// FieldInfoAt is FieldInfo as the release level describes the fields
// (the request's Compatibility): DRF 3.14 lists no decimal's
// max_digits and decimal_places, types a DurationField "field", and
// drops the choices of a model field that is not editable (a
// CharField's "string", not "choice"). Both are built at setup.
func (s *Serializer[T]) FieldInfoAt(level compat.Level) json.RawMessage {
	if level == compat.DRF314 {
		return s.info314
	}
	return s.info
}

var typeNames = map[structs.Kind]string{
	structs.String: "string",
	structs.Bool:   "boolean",
	structs.Int:    "integer",
	structs.Uint:   "integer",
	structs.Float:  "float",
	structs.Time:   "datetime",
	// DRF 3.18's; 3.14's SimpleMetadata had no DurationField ("field").
	structs.Duration: "duration",
	structs.Bytes:    "field", // DRF's ModelField
}

// formatTypes are the OPTIONS types of the formats, as DRF's
// SimpleMetadata names a UUIDField, a DecimalField, a JSONField (a field
// of no listed class), a DateField and a TimeField; a Custom field of no
// format is "field" (DRF's ModelField).
var formatTypes = map[string]string{
	"uuid":    "string",
	"decimal": "decimal",
	"json":    "field",
	"date":    "date",
	"time":    "time",
}

// formats are the values of the format option.
var formats = map[string]bool{"uuid": true, "decimal": true, "json": true}

// fieldInfo is the fields' descriptions as level's SimpleMetadata
// writes them (FieldInfoAt).
func fieldInfo(fields []*field, level compat.Level) json.RawMessage {
	b := []byte{'{'}
	for i, f := range fields {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, f.key...)
		b = f.appendInfo(b, false, level)
	}
	return append(b, '}')
}

// appendInfo writes the field's SimpleMetadata get_field_info at level:
// a list's or a dictionary's child has neither label nor read_only of
// its own to tell (its required is DRF's default, true), unless a model
// field gave it a label (an ArrayField's base field's).
func (f *field) appendInfo(b []byte, child bool, level compat.Level) []byte {
	b = append(b, `{"type":`...)
	b = appendString(b, f.typeAt(level))
	b = append(b, `,"required":`...)
	b = strconv.AppendBool(b, f.required || child)
	b = append(b, `,"read_only":`...)
	b = strconv.AppendBool(b, f.readOnly)
	if !child || f.label != "" {
		b = append(b, `,"label":`...)
		b = appendString(b, f.labelText())
	}
	if f.helpText != "" {
		b = appendString(append(b, `,"help_text":`...), f.helpText)
	}
	if f.minLength >= 0 {
		b = strconv.AppendInt(append(b, `,"min_length":`...), int64(f.minLength), 10)
	}
	if f.shownMaxLength() >= 0 {
		b = strconv.AppendInt(append(b, `,"max_length":`...), int64(f.maxLength), 10)
	}
	if f.minValue != nil {
		b = append(append(b, `,"min_value":`...), f.minValue.json()...)
	}
	if f.maxValue != nil {
		b = append(append(b, `,"max_value":`...), f.maxValue.json()...)
	}
	// DRF 3.15 and later list a DecimalField's precision.
	precision := f.format == "decimal" && f.choices == nil && level != compat.DRF314
	if precision && f.maxDigits >= 0 {
		b = strconv.AppendInt(append(b, `,"max_digits":`...), int64(f.maxDigits), 10)
	}
	if precision && f.decimalPlaces >= 0 {
		b = strconv.AppendInt(append(b, `,"decimal_places":`...), int64(f.decimalPlaces), 10)
	}
	if f.nested != nil {
		b = f.nested.appendNestedInfo(b, level)
	}
	if f.list != nil {
		b = f.list.appendInfo(b, f, level)
	}
	if f.group != nil {
		b = append(append(b, `,"children":`...), fieldInfo(f.group, level)...)
	}
	if f.container != nil && f.kind != kindMultiple {
		b = f.container.child.appendInfo(append(b, `,"child":`...), true, level)
	}
	if f.choices != nil && !f.readOnly {
		b = append(b, `,"choices":[`...)
		for i, c := range f.choices {
			if i > 0 {
				b = append(b, ',')
			}
			if b = append(b, `{"value":`...); f.sf != nil && f.sf.Kind == structs.Custom {
				b = appendDecimalFloat(b, c.text)
			} else {
				b = appendString(b, c.text)
			}
			b = appendString(append(b, `,"display_name":`...), c.label)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	return append(b, '}')
}

// typeAt is the field's type name in level's OPTIONS metadata: DRF
// 3.14's SimpleMetadata has no DurationField ("field"), and its
// ModelSerializer no choices of a field that is not editable.
func (f *field) typeAt(level compat.Level) string {
	switch {
	case level != compat.DRF314:
	case f.choices315:
		plain := *f
		plain.kind, plain.choices315 = "", false
		return plain.typeAt(level)
	case f.kind == "" && f.typeName == "" && f.container == nil && f.sf != nil && f.sf.Kind == structs.Duration:
		return "field"
	}
	return f.typeText()
}

// labelText is the label tag, else DRF's label of a model field: "ID" for
// id, else the name with spaces for underscores and a capital first letter.
func (f *field) labelText() string {
	if f.label != "" {
		return f.label
	}
	if f.name == "id" {
		return "ID"
	}
	r := []rune(strings.ReplaceAll(f.name, "_", " "))
	if len(r) > 0 {
		r[0] = unicode.ToUpper(r[0])
	}
	return string(r)
}

// json is the bound as a JSON number, as DRF prints the value it was
// given; a duration's is its text, as DRF's encoder writes a timedelta.
func (b *bound) json() []byte {
	switch {
	case b.duration:
		return appendString(nil, b.text)
	case b.i != nil:
		return []byte(b.i.String())
	case b.r != nil && !strings.ContainsAny(b.text, ".eE"):
		// A decimal's bound written as an integer, as DRF keeps an int.
		return []byte(b.r.RatString())
	case b.r != nil:
		return appendDecimalFloat(nil, b.text)
	}
	return structs.AppendPythonFloat(nil, b.f)
}
