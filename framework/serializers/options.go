package serializers

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/go-drf/drf/framework/exceptions"
	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/internal/structs"
)

// Invalid is the error a field validator (ValidateField) or an object
// validator (ValidateObject) returns to refuse the input with messages,
// as DRF's validators raise serializers.ValidationError: a field
// validator's messages are the field's, an object validator's the
// non-field errors. Any other error is the server's (500).
func Invalid(messages ...string) error { return &InvalidError{Messages: messages} }

// InvalidError is the error of Invalid.
type InvalidError struct {
	// Messages are the messages of the refusal.
	Messages []string
}

// Error returns the messages, joined.
func (e *InvalidError) Error() string { return strings.Join(e.Messages, " ") }

// checkOption is a ValidateField option, bound at setup.
type checkOption struct {
	field string
	bind  func(t reflect.Type, sf *structs.Field) (func(base structs.Addr, c *Context) error, error)
}

// ValidateField adds a check of one field's new value (DRF's
// validate_<field>), run after the field's own validation when the input
// holds the field: fn gets the value and returns the value to keep, or
// Invalid(...) for the field's messages. field is the field's JSON name;
// V must be its Go type (checked at setup).
func ValidateField[V any](field string, fn func(value V, c *Context) (V, error)) Option {
	return optionFunc(func(o *options) {
		o.checks = append(o.checks, checkOption{field: field, bind: func(t reflect.Type, sf *structs.Field) (func(structs.Addr, *Context) error, error) {
			off, err := offsetOf(t, sf, reflect.TypeFor[V]())
			if err != nil {
				return nil, err
			}
			return func(base structs.Addr, c *Context) error {
				p := structs.At[V](base.Add(off))
				v, err := fn(*p, c)
				if err == nil {
					*p = v
				}
				return err
			}, nil
		}})
	})
}

// hiddenOption is a HiddenField option, bound at setup.
type hiddenOption struct {
	name string
	bind func(desc *structs.Struct) (*hiddenField, error)
}

func (h hiddenOption) apply(o *options) { o.hidden = append(o.hidden, h) }

// hiddenField sets a struct field from its default on every write but a
// partial one.
type hiddenField struct {
	sf  *structs.Field
	set func(base structs.Addr, c *Context) error
	// createOnly is CreateOnlyDefault's: set on a create alone.
	createOnly bool
}

// HiddenField sets a struct field that the client never sends from def,
// on a create and a full update (not a partial one), as DRF's
// HiddenField(default=...): the field is neither read from the input nor
// written in the output, OPTIONS or forms. name is the struct field's
// `db` name, JSON name or Go name; V must be its Go type (checked at
// setup). With CurrentUserDefault, the item gets the request's user:
//
//	serializers.HiddenField("owner_id", serializers.CurrentUserDefault)
func HiddenField[V any](name string, def func(c *Context) (V, error)) Option {
	return hiddenOption{name: name, bind: func(desc *structs.Struct) (*hiddenField, error) {
		var sf *structs.Field
		for _, f := range desc.Fields {
			if f.Column == name || f.JSON == name || f.Name == name {
				sf = f
				break
			}
		}
		if sf == nil {
			return nil, fmt.Errorf("%s has no field %q", desc.Type, name)
		}
		off, err := offsetOf(desc.Type, sf, reflect.TypeFor[V]())
		if err != nil {
			return nil, err
		}
		return &hiddenField{sf: sf, set: func(base structs.Addr, c *Context) error {
			v, err := def(c)
			if err == nil {
				*structs.At[V](base.Add(off)) = v
			}
			return err
		}}, nil
	}}
}

// CreateOnlyHiddenField is HiddenField with DRF's CreateOnlyDefault: the
// field is set from def on a create (ValidateNew) alone, and an update
// leaves it as it is, as DRF's HiddenField(default=CreateOnlyDefault(...))
// leaves it out of an update's validated data.
func CreateOnlyHiddenField[V any](name string, def func(c *Context) (V, error)) Option {
	h := HiddenField(name, def).(hiddenOption)
	bind := h.bind
	h.bind = func(desc *structs.Struct) (*hiddenField, error) {
		hf, err := bind(desc)
		if hf != nil {
			hf.createOnly = true
		}
		return hf, err
	}
	return h
}

// CurrentUserDefault is the default of DRF's CurrentUserDefault for a
// HiddenField of the user's key: the primary key of the request's user
// (a request.Identified, as contrib/auth's User). An anonymous request
// is refused as not authenticated; a context without a request is an
// error.
func CurrentUserDefault(c *Context) (int64, error) {
	if c == nil || c.Request == nil {
		return 0, errors.New("serializers: CurrentUserDefault needs the request in the serializer context")
	}
	u, ok := c.Request.User().(request.Identified)
	if !ok || !c.Request.User().IsAuthenticated() {
		return 0, exceptions.NotAuthenticated()
	}
	return u.PK(), nil
}

// offsetOf is the offset of sf in the struct type st (through embedded
// structs); sf's Go type must be t.
func offsetOf(st reflect.Type, sf *structs.Field, t reflect.Type) (uintptr, error) {
	if sf.Type != t {
		return 0, fmt.Errorf("field %s is %v, not %v", sf.Name, sf.Type, t)
	}
	f, ok := st.FieldByName(sf.Name)
	if !ok {
		return 0, fmt.Errorf("field %s is ambiguous in %v", sf.Name, st)
	}
	var off uintptr
	for i := range f.Index {
		off += st.FieldByIndex(f.Index[:i+1]).Offset
	}
	return off, nil
}

// Key names one extra value of a serializer's context (DRF's
// context={...}), of type V. Make one per value, at package level, and
// set it in the view (generics' ContextValues hook, or a Context's Values
// built with With).
type Key[V any] struct{ name string }

// NewKey returns a new key; name is for messages.
func NewKey[V any](name string) *Key[V] { return &Key[V]{name: name} }

// With returns parent with the key set to v.
func (k *Key[V]) With(parent context.Context, v V) context.Context {
	return context.WithValue(parent, k, v)
}

// Get returns the key's value in c: in c.Values, else in the request's
// context; false when it is not set.
func (k *Key[V]) Get(c *Context) (V, bool) {
	var zero V
	if c == nil {
		return zero, false
	}
	ctx := c.Values
	if ctx == nil && c.Request != nil {
		ctx = c.Request.Context()
	}
	if ctx == nil {
		return zero, false
	}
	v, ok := ctx.Value(k).(V)
	return v, ok
}

// String returns the key's name.
func (k *Key[V]) String() string { return k.name }
