package serializers

import (
	"fmt"
	"slices"
	"strings"

	"github.com/go-drf/drf/framework/compat"
	"github.com/go-drf/drf/framework/exceptions"
	"github.com/go-drf/drf/internal/structs"
)

// Group nests fields of T under one name, in the output and in the
// input: DRF's nested serializer of source='*', which is given the whole
// item, and whose validated data is merged into the item's. With
//
//	serializers.Group{Name: "address", Fields: []string{"street", "city"}}
//
// an item's street and city are written as {"address": {"street": ...,
// "city": ...}} and read from the same object, each field with its own
// options; errors are reported under the group, as DRF nests them:
// {"address": {"city": ["This field is required."]}}. A form's keys are
// "address.street" and "address.city". The group takes the place of its
// first field; Fields (DRF's Meta.fields) names the group, not its
// fields.
type Group struct {
	// Name is the group's name in the output and the input.
	Name string
	// Fields are the JSON names of T's fields the group holds: plain
	// values, not relations, files or Computed fields.
	Fields []string
	// Optional makes the group optional on writes (DRF's
	// required=False); it is required by default, as a DRF serializer.
	Optional bool
}

func (g Group) apply(o *options) { o.groups = append(o.groups, g) }

// group replaces the fields of each of o.groups in order by the group's
// field, at the place of its first.
func (s *Serializer[T]) group(all map[string]*field, order []*field, o *options) ([]*field, error) {
	for _, g := range o.groups {
		if g.Name == "" || len(g.Fields) == 0 {
			return nil, fmt.Errorf("a Group needs a name and fields")
		}
		if _, taken := all[g.Name]; taken {
			return nil, fmt.Errorf("Group %q: field %q is defined twice", g.Name, g.Name)
		}
		gf := &field{name: g.Name, required: !g.Optional, typeName: "nested object",
			maxLength: -1, minLength: -1, maxDigits: -1, decimalPlaces: -1}
		at := -1
		for _, name := range g.Fields {
			f, ok := all[name]
			i := slices.Index(order, f)
			switch {
			case !ok || i < 0:
				return nil, fmt.Errorf("Group %q: no field %q (or it is in another group)", g.Name, name)
			case f.sf == nil || f.rel != nil || f.nested != nil || f.file != nil || s.isHidden(f):
				return nil, fmt.Errorf("Group %q: field %q is no plain value of the struct", g.Name, name)
			}
			if err := f.bind(); err != nil {
				return nil, err
			}
			gf.group = append(gf.group, f)
			delete(all, name)
			if at < 0 || i < at {
				at = i
			}
		}
		order[at] = gf
		order = slices.DeleteFunc(order, func(f *field) bool { return slices.Contains(gf.group, f) })
		all[g.Name] = gf
	}
	return order, nil
}

// isHidden reports the field of a HiddenField's struct field.
func (s *Serializer[T]) isHidden(f *field) bool {
	return f.sf != nil && slices.ContainsFunc(s.hidden, func(h *hiddenField) bool { return h.sf == f.sf })
}

// formGroup is DRF's Serializer.get_value of HTML input:
// parse_html_dict of the keys "name.*", missing when there are none.
func (f *field) formGroup(m map[string]any) (any, bool) {
	prefix := f.name + "."
	var sub map[string]any
	for k, v := range m {
		if rest, ok := strings.CutPrefix(k, prefix); ok {
			if sub == nil {
				sub = map[string]any{}
			}
			sub[rest] = v
		}
	}
	return sub, sub != nil
}

// validateGroup reads a group's object into base, as DRF's nested
// serializer of source='*' validates it: null is refused, anything but
// an object is the nested serializer's non-field error, and its fields'
// errors are nested under the group.
func (s *Serializer[T]) validateGroup(f *field, base, stored structs.Addr, raw any, partial, form bool, level compat.Level, c *Context, errs *exceptions.ValidationErrors) error {
	m, ok := raw.(map[string]any)
	switch {
	case raw == nil:
		errs.Add(f.name, msgNull)
		return nil
	case !ok:
		errs.AddItem(f.name, exceptions.NonFieldErrors, fmt.Sprintf(msgNotDict, pythonType(raw)))
		return nil
	}
	var sub exceptions.ValidationErrors
	if err := s.validateFields(f.group, m, base, stored, partial, form, level, c, &sub); err != nil {
		return err
	}
	if len(sub) > 0 {
		*errs = append(*errs, exceptions.FieldError{Field: f.name, Items: sub})
	}
	return nil
}
