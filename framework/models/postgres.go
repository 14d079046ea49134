package models

import (
	"cmp"
	"fmt"
	"reflect"
	"slices"

	"github.com/go-drf/drf/internal/structs"
)

// The fields of django.contrib.postgres, which a PostgreSQL database
// alone holds:
//
//   - ArrayField is a slice of a scalar ([]string, []int64, ...), a
//     column of PostgreSQL's array of its base field's type
//     ("tags" varchar(40)[]); the tag's max_length and field=KIND are its
//     base field's (Django's base_field=CharField(max_length=40)), a
//     slice of pointers ([]*string) has a base field of null=True, and
//     size=N is Django's size (varchar(40)[3]);
//   - HStoreField is a map[string]*string, a column of the hstore
//     extension's type, a value nil for NULL.
//
// A pointer to either (*[]string) is null=True. default=TEXT is the
// column's text, default={} for Django's default=list.

// baseKinds are the kinds an ArrayField's elements may be declared of,
// by the element's Go type; the first is the one a slice of that type
// has unless field=KIND names another.
var baseKinds = map[reflect.Kind][]Kind{
	reflect.String:  {TextField, CharField, EmailField, URLField, SlugField},
	reflect.Bool:    {BooleanField},
	reflect.Int:     {IntegerField},
	reflect.Int32:   {IntegerField},
	reflect.Int64:   {BigIntegerField},
	reflect.Float64: {FloatField},
}

// postgresField makes f, of the slice or map type of sf, an ArrayField
// (its base field of the element type and of kind, when declared) or an
// HStoreField.
func (f *Field) postgresField(sf *structs.Field, kind Kind) error {
	t := sf.Type
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() == reflect.Map {
		if kind != "" && kind != HStoreField || f.MaxLength != 0 || f.Size != 0 {
			return fmt.Errorf("a map[string]*string is an HStoreField, which has no field=, max_length or size")
		}
		f.Kind = HStoreField
		return nil
	}
	et := t.Elem()
	base := &Field{Name: f.Name, Column: f.Column, MaxLength: f.MaxLength, Editable: true}
	if et.Kind() == reflect.Pointer {
		et, base.Null = et.Elem(), true
	}
	kinds := baseKinds[et.Kind()]
	switch {
	case kind == ArrayField:
		kind = ""
	case kind != "" && !slices.Contains(kinds, kind):
		return fmt.Errorf("an ArrayField of %v cannot have a base field of %s", et, kind)
	}
	if kind == "" && f.MaxLength > 0 {
		kind = CharField
	}
	base.Kind = cmp.Or(kind, kinds[0])
	if err := base.defaultLength(); err != nil {
		return err
	}
	if base.Kind == SlugField {
		base.DBIndex = true
	}
	f.Kind, f.Base, f.MaxLength = ArrayField, base, 0
	return nil
}

// postgresOnly is the first of the model's fields that only PostgreSQL
// holds (an ArrayField or an HStoreField), nil when there is none: a
// source or migrations of the model on SQLite refuse it.
func (d *Description) postgresOnly() *Field {
	for _, f := range d.Fields {
		if f.Kind == ArrayField || f.Kind == HStoreField {
			return f
		}
	}
	return nil
}

// PostgresOnlyError is the error of a model of a field only PostgreSQL
// holds on another database, naming the model and the field; nil for a
// model without one.
func (d *Description) PostgresOnlyError(vendor string) error {
	f := d.postgresOnly()
	if f == nil {
		return nil
	}
	return fmt.Errorf("models: %s.%s is an %s, which only PostgreSQL holds (django.contrib.postgres), not %s",
		d.Meta.Name, f.Name, f.Kind, vendor)
}
