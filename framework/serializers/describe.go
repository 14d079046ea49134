package serializers

import (
	"reflect"
	"strings"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/internal/structs"
)

// Description describes the serializer (framework.Describer's
// SerializerOf): the same value every time.
func (s *Serializer[T]) Description() *framework.SerializerDescription { return s.description }

// describe builds the description of the serializer's fields.
func (s *Serializer[T]) describe() *framework.SerializerDescription {
	out := make([]framework.FieldDescription, len(s.fields))
	for i, f := range s.fields {
		out[i] = f.description()
	}
	return &framework.SerializerDescription{Model: reflect.TypeFor[T]().Name(), Fields: out}
}

// description describes the field, and a list's or dictionary's child.
func (f *field) description() framework.FieldDescription {
	d := framework.FieldDescription{
		Name: f.name, Label: f.labelText(), HelpText: f.helpText, Type: f.typeText(), Format: f.format, Link: f.link,
		ReadOnly: f.readOnly, WriteOnly: f.writeOnly, Required: f.required,
		AllowBlank: f.allowBlank, AllowNull: f.allowNull,
		MaxLength: f.shownMaxLength(), MinLength: f.minLength,
		DecimalPlaces: max(f.decimalPlaces, 0), TextArea: f.textarea,
		Related: f.rel != nil && !f.readOnly, Many: f.many,
		IntegerKey: f.rel != nil && !f.readOnly && f.rel.kind == relPK && f.rel.integerKey(),
		Initial:    f.more.initialJSON,
	}
	for _, v := range f.validators {
		if v.Pattern != "" {
			// DRF's map_field_validators: the last RegexValidator's, with
			// Python's \Z spelled \z.
			d.Pattern = strings.ReplaceAll(v.Pattern, `\Z`, `\z`)
		}
	}
	for _, c := range f.choices {
		d.Choices = append(d.Choices, framework.Choice{Value: c.text, Label: c.label})
	}
	if f.maxDigits >= 0 && f.decimalPlaces >= 0 {
		d.MaxWholeDigits = f.maxDigits - f.decimalPlaces
	}
	if f.maxValue != nil && !f.maxValue.duration {
		d.MaxValue = string(f.maxValue.json())
	}
	if f.minValue != nil && !f.minValue.duration {
		d.MinValue = string(f.minValue.json())
	}
	if f.container != nil && f.kind != kindMultiple {
		child := f.container.child.description()
		d.Child = &child
		if d.MaxLength < 0 && f.container.size > 0 {
			// An ArrayField's size, as DRF's schema reads the model
			// field's ArrayMaxLengthValidator (max_length's comes last
			// and wins).
			d.MaxLength = f.container.size
		}
	}
	return d
}

// typeText is the field's type name in OPTIONS metadata.
func (f *field) typeText() string {
	if f.typeName != "" {
		return f.typeName
	}
	switch {
	case f.kind == kindIP:
		return "string"
	case f.kind != "":
		return f.kind
	case f.container != nil && f.container.isMap:
		// DRF 3.14's SimpleMetadata calls a DictField a nested object.
		return "nested object"
	case f.container != nil:
		return "list"
	}
	if f.sf != nil {
		if t, ok := formatTypes[f.format]; ok {
			return t
		}
		if f.sf.Kind == structs.Custom {
			return "field"
		}
		if t, ok := typeNames[f.sf.Kind]; ok {
			return t
		}
	}
	return "field"
}
