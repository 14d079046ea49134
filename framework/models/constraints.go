package models

import (
	"fmt"
	"slices"
	"strings"
)

// Constraint is one of Meta.Constraints: Django's UniqueConstraint when
// it has Fields (partial with a Condition), else its CheckConstraint.
type Constraint struct {
	// Name is the constraint's name, which Django requires.
	Name string
	// Fields are a UniqueConstraint's fields, by name.
	Fields []string
	// Condition limits a UniqueConstraint to the rows it matches
	// (Django's condition=Q(...)): a partial unique index.
	Condition Q
	// Check is a CheckConstraint's condition (Django's check=Q(...)).
	Check Q
	// NullsNotDistinct is a UniqueConstraint's nulls_distinct=False
	// (Django 5.0 and later): rows whose values are null count as
	// equal, where by default they never collide. PostgreSQL 15 and
	// later enforce it (NULLS NOT DISTINCT); Django creates no such
	// constraint on SQLite, which only the serializers' check enforces.
	NullsNotDistinct bool
	// ViolationErrorMessage is a UniqueConstraint's
	// violation_error_message (Django 4.1 and later), "%(name)s" its
	// name: for one of several fields, the message DRF 3.15 and later
	// report in place of "The fields ... must make a unique set.",
	// "{field_names}" the serializer's fields. Empty is Django's default.
	ViolationErrorMessage string
}

// Unique reports a UniqueConstraint.
func (c Constraint) Unique() bool { return len(c.Fields) > 0 }

// Q is Django's Q(**kwargs): lookups on fields, all of which must hold,
// each "field" or "field__lookup" (exact, gt, gte, lt, lte, isnull) with
// the value as the field's text ("0", "draft", "true"). Django sorts
// them by key, and so does this.
type Q map[string]string

// Lookups are the lookups Q knows, and their SQL operators.
var lookups = map[string]string{"exact": "=", "gt": ">", "gte": ">=", "lt": "<", "lte": "<=", "isnull": ""}

// Lookup is one term of a Q: a field, a lookup and a value.
type Lookup struct {
	// Field is the field's name.
	Field string
	// Lookup is exact, gt, gte, lt, lte or isnull.
	Lookup string
	// Value is the value as the field's text.
	Value string
}

// Lookups are q's terms in Django's order: by key.
func (q Q) Lookups() []Lookup {
	keys := make([]string, 0, len(q))
	for k := range q {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	out := make([]Lookup, len(keys))
	for i, k := range keys {
		field, lookup, ok := strings.Cut(k, "__")
		if !ok {
			lookup = "exact"
		}
		out[i] = Lookup{Field: field, Lookup: lookup, Value: q[k]}
	}
	return out
}

// Operator is the lookup's SQL comparison ("" for isnull).
func (l Lookup) Operator() string { return lookups[l.Lookup] }

// checkConstraints holds Meta.Constraints to Django's rules: a name,
// unique among them, and either fields that exist or a check, lookups
// Q knows on fields that exist. A field named by its column ("owner_id")
// is named by its Django name ("owner") from then on.
func (d *Description) checkConstraints() error {
	names := map[string]bool{}
	out := make([]Constraint, len(d.Meta.Constraints))
	for i, c := range d.Meta.Constraints {
		if c.Name == "" {
			return fmt.Errorf("Meta.Constraints: a constraint needs a Name")
		}
		if names[c.Name] {
			return fmt.Errorf("Meta.Constraints names %q twice", c.Name)
		}
		names[c.Name] = true
		if c.Unique() == (len(c.Check) > 0) || !c.Unique() && (len(c.Condition) > 0 || c.NullsNotDistinct) {
			return fmt.Errorf("Meta.Constraints[%q]: a UniqueConstraint has Fields (and a Condition), a CheckConstraint a Check", c.Name)
		}
		fields := make([]string, len(c.Fields))
		for j, name := range c.Fields {
			f := d.Field(name)
			if f == nil {
				return fmt.Errorf("Meta.Constraints[%q] names %q, which is no field", c.Name, name)
			}
			fields[j] = f.Name
		}
		condition, err := d.checkQ(c.Name, c.Condition)
		if err != nil {
			return err
		}
		check, err := d.checkQ(c.Name, c.Check)
		if err != nil {
			return err
		}
		out[i] = Constraint{Name: c.Name, Fields: fields, Condition: condition, Check: check, NullsNotDistinct: c.NullsNotDistinct,
			ViolationErrorMessage: c.ViolationErrorMessage}
	}
	d.Meta.Constraints = out
	return nil
}

// checkQ is q with its fields by their Django names, or the error of a
// field or lookup it names that does not exist.
func (d *Description) checkQ(name string, q Q) (Q, error) {
	if q == nil {
		return nil, nil
	}
	out := make(Q, len(q))
	for _, l := range q.Lookups() {
		f := d.Field(l.Field)
		if f == nil {
			return nil, fmt.Errorf("Meta.Constraints[%q] names %q, which is no field", name, l.Field)
		}
		if _, ok := lookups[l.Lookup]; !ok {
			return nil, fmt.Errorf("Meta.Constraints[%q]: unknown lookup %q (exact, gt, gte, lt, lte, isnull)", name, l.Lookup)
		}
		key := f.Name
		if l.Lookup != "exact" {
			key += "__" + l.Lookup
		}
		out[key] = l.Value
	}
	return out, nil
}
