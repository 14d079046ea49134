package serializers

import "reflect"

// FieldDescription describes one field of a serializer: what an OpenAPI
// schema documents and what a browsable page's form is built from.
type FieldDescription struct {
	// Name is the field's JSON name; Label its label ("Title", "ID").
	Name, Label string
	// Type is the field's type as OPTIONS metadata names it: "string",
	// "boolean", "integer", "float", "datetime", or "field" for a value of
	// no fixed type.
	Type string
	// Link reports a hyperlinked identity: a read-only absolute URL.
	Link bool
	// ReadOnly, WriteOnly, Required, AllowBlank and AllowNull are the
	// field's options.
	ReadOnly, WriteOnly, Required, AllowBlank, AllowNull bool
	// MaxLength and MinLength bound a string's length; -1 when unset.
	MaxLength, MinLength int
	// MaxValue and MinValue bound a number, as JSON numbers; "" when unset.
	MaxValue, MinValue string
}

// Describer describes a serializer's fields; every Serializer is one,
// whatever its item type.
type Describer interface {
	// Describe lists the fields in output order.
	Describe() []FieldDescription
	// ModelName is the item type's name ("Book").
	ModelName() string
}

// Describe lists the fields in output order.
func (s *Serializer[T]) Describe() []FieldDescription {
	out := make([]FieldDescription, len(s.fields))
	for i, f := range s.fields {
		d := FieldDescription{
			Name: f.name, Label: f.labelText(), Type: f.typeText(), Link: f.link,
			ReadOnly: f.readOnly, WriteOnly: f.writeOnly, Required: f.required,
			AllowBlank: f.allowBlank, AllowNull: f.allowNull,
			MaxLength: f.maxLength, MinLength: f.minLength,
		}
		if f.maxValue != nil {
			d.MaxValue = string(f.maxValue.json())
		}
		if f.minValue != nil {
			d.MinValue = string(f.minValue.json())
		}
		out[i] = d
	}
	return out
}

// ModelName is the name of T ("Book").
func (s *Serializer[T]) ModelName() string { return reflect.TypeFor[T]().Name() }

// typeText is the field's type name in OPTIONS metadata.
func (f *field) typeText() string {
	if f.typeName != "" {
		return f.typeName
	}
	if f.sf != nil {
		if t, ok := typeNames[f.sf.Kind]; ok {
			return t
		}
	}
	return "field"
}
