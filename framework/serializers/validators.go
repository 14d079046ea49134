package serializers

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/go-drf/drf/framework/compat"
	"github.com/go-drf/drf/framework/exceptions"
	"github.com/go-drf/drf/framework/models"
	"github.com/go-drf/drf/framework/query"
	"github.com/go-drf/drf/framework/store"
	"github.com/go-drf/drf/internal/structs"
)

// msgUnique is DRF's UniqueValidator message.
const msgUnique = "This field must be unique."

// UniqueValidator is DRF's UniqueValidator(queryset, message, lookup) on
// one field, declared as DRF's field validators=[...] or
// extra_kwargs: no other item may hold the field's value. It replaces
// the check a model field's unique (or a UniqueConstraint of the field
// alone) derives, and works on any field of a column, unique in the
// model or not. The queryset is the view's, as for the model's checks
// (Context.Exists), or Queryset.
type UniqueValidator struct {
	// Field is the serializer's field, by its JSON name.
	Field string
	// Message replaces "This field must be unique.".
	Message string
	// Lookup compares the value with the stored ones, as Django's
	// field__lookup: "" is query.Exact; query.IExact ignores case.
	// Exact, IExact, Contains, IContains, GT, GTE, LT and LTE are taken.
	Lookup query.Lookup
	// Queryset is DRF's queryset= of another model's rows, as
	// queryset.Into(users, nil) gives it: the value must be in none of
	// them, compared with their field named as the field's column, or as
	// the last name of its dotted source (source=user.username compares
	// username, as DRF's source_attrs[-1]); on an update, the row keyed
	// as the item is left out (DRF's exclude(pk=instance.pk)). nil is the
	// view's queryset. A writable dotted source's check needs one.
	Queryset query.Query

	// column is Queryset's field compared, and key the item's primary
	// key when Queryset has a field of its column (nil: none is left
	// out), set by New.
	column string
	key    *models.Field
}

func (u UniqueValidator) apply(o *options) { o.uniques = append(o.uniques, u) }

// uniqueLookups are the lookups a UniqueValidator takes: those that
// compare with one value.
var uniqueLookups = []query.Lookup{"", query.Exact, query.IExact, query.Contains, query.IContains,
	query.GT, query.GTE, query.LT, query.LTE}

// bindUniques applies the UniqueValidators to their fields.
func (s *Serializer[T]) bindUniques(uniques []UniqueValidator) error {
	for _, u := range uniques {
		f := s.byName[u.Field]
		switch {
		case f != nil && u.Queryset != nil && (ofColumn(f) || f.writableDotted()):
			u.column = f.sf.Column
			if f.sf.Column == "" {
				src := f.source()
				u.column = src[strings.LastIndexByte(src, '.')+1:]
			}
			if !slices.Contains(u.Queryset.Fields(), u.column) {
				return fmt.Errorf("UniqueValidator(%q): its Queryset has no field %q", u.Field, u.column)
			}
			if s.model != nil && slices.Contains(u.Queryset.Fields(), s.model.PrimaryKey.Column) {
				u.key = s.model.PrimaryKey
			}
		case f != nil && f.writableDotted():
			return fmt.Errorf("UniqueValidator(%q): a dotted source is unique in another model's rows: give its Queryset", u.Field)
		case f == nil || !ofColumn(f):
			return fmt.Errorf("UniqueValidator names %q, which is no field of a column", u.Field)
		}
		if !slices.Contains(uniqueLookups, u.Lookup) {
			return fmt.Errorf("UniqueValidator(%q): lookup %q compares with more than one value, or is none of Django's", u.Field, u.Lookup)
		}
		f.uniqueBy = &u
		f.unique, f.unique315 = true, false
	}
	return nil
}

// takenIn is the check of a UniqueValidator's own Queryset: whether a
// row holds text in its field, by its lookup, but the row keyed as
// stored, the item an update changes (nil on a create). A value the
// column's type refuses (query.ErrInvalidValue, or PostgreSQL's
// DataError: an integer out of the column's range) is in no row, as
// DRF's qs_exists answers.
func (u *UniqueValidator) takenIn(text string, stored structs.Addr, c *Context) (bool, error) {
	ctx := context.Background()
	if c != nil && c.Request != nil {
		ctx = c.Request.Context()
	}
	q := u.Queryset.Where(u.column, cmp.Or(u.Lookup, query.Exact), text)
	n, err := q.Count(ctx)
	if errors.Is(err, query.ErrInvalidValue) || store.IsDataError(err) {
		return false, nil
	}
	if err != nil || n == 0 || stored.IsNil() || u.key == nil {
		return n > 0, err
	}
	self, err := q.Where(u.key.Column, query.Exact, u.key.Struct.Get(stored).Text()).Count(ctx)
	return n > self, err
}

// uniqueColumn is the column (and lookup, "COLUMN__iexact") a unique
// check of f asks Context.Exists for.
func (f *field) uniqueColumn(column string) string {
	if f.uniqueBy == nil || f.uniqueBy.Lookup == "" || f.uniqueBy.Lookup == query.Exact {
		return column
	}
	return column + "__" + string(f.uniqueBy.Lookup)
}

// ofColumn reports a field of one column of T's (not computed, nested,
// a group, a list of keys nor a dotted source).
func ofColumn(f *field) bool {
	return f.sf != nil && f.sf.Column != "" && f.compute == nil && f.nested == nil && f.group == nil && !f.many && f.container == nil
}

// Validator is one of the serializer's validators of the whole item:
// UniqueTogetherValidator, UniqueForDateValidator,
// UniqueForMonthValidator or UniqueForYearValidator. Checks of your own
// are ValidateObject's.
type Validator interface {
	validator() metaValidator
}

// Validators replaces the validators a model serializer derives from its
// model's unique_together, UniqueConstraints of several fields (or with
// a condition), unique_for_date, unique_for_month and unique_for_year
// with vs, run in their order, as DRF's Meta.validators: with none, the
// serializer checks none of them. The fields of the model's sets are no
// longer required for them (DRF's get_uniqueness_extra_kwargs is not
// applied); each validator requires its own fields instead, as DRF's
// do. A duplicate the database refuses on writing is still the 400 of
// the model's set. New refuses a validator naming no field of a column.
//
//	serializers.Validators(serializers.UniqueTogetherValidator{Fields: []string{"race_name", "position"}})
func Validators(vs ...Validator) Option {
	return optionFunc(func(o *options) {
		o.metaValidators = append(o.metaValidators, vs...)
		if o.metaValidators == nil {
			o.metaValidators = []Validator{}
		}
	})
}

// UniqueTogetherValidator is DRF's UniqueTogetherValidator(queryset,
// fields, message): no two items may hold the same values of Fields. On
// a create each of Fields must be in the input, or have a default
// (a read-only field's default counts, as DRF's read-only defaults do),
// else it is "This field is required."; on an update the others keep
// the item's values. A null value is not checked; DRF 3.18 does not look
// when an update leaves the values as they were. A duplicate is the
// non-field error "The fields race_name, position must make a unique
// set.". The queryset is the view's (Context.ExistsTogether).
type UniqueTogetherValidator struct {
	// Fields are the serializer's fields, by their JSON names.
	Fields []string
	// Message replaces "The fields {field_names} must make a unique
	// set.", "{field_names}" being Fields joined with ", ".
	Message string
}

func (u UniqueTogetherValidator) validator() metaValidator {
	return metaValidator{names: u.Fields, message: u.Message}
}

// UniqueForDateValidator is DRF's UniqueForDateValidator(queryset,
// field, date_field, message): no two items may hold the same value of
// Field with a DateField of the same day. Both fields must be in the
// input, or have a default, on every write (a partial update
// included), else they are "This field is required."; a duplicate is
// Field's error, "This field must be unique for the "published"
// date.". The queryset is the view's (Context.DatesOf).
type UniqueForDateValidator struct {
	// Field and DateField are the serializer's fields, by their JSON
	// names; DateField holds a date or a date-time.
	Field, DateField string
	// Message replaces DRF's, "{date_field}" being DateField.
	Message string
}

func (u UniqueForDateValidator) validator() metaValidator {
	return metaValidator{names: []string{u.Field, u.DateField}, message: u.Message, period: "date"}
}

// UniqueForMonthValidator is UniqueForDateValidator for the month (of
// any year, as DRF filters date__month): "This field must be unique for
// the "published" month.".
type UniqueForMonthValidator struct {
	// Field and DateField are the serializer's fields, by their JSON
	// names; DateField holds a date or a date-time.
	Field, DateField string
	// Message replaces DRF's, "{date_field}" being DateField.
	Message string
}

func (u UniqueForMonthValidator) validator() metaValidator {
	return metaValidator{names: []string{u.Field, u.DateField}, message: u.Message, period: "month"}
}

// UniqueForYearValidator is UniqueForDateValidator for the year: "This
// field must be unique for the "published" year.".
type UniqueForYearValidator struct {
	// Field and DateField are the serializer's fields, by their JSON
	// names; DateField holds a date or a date-time.
	Field, DateField string
	// Message replaces DRF's, "{date_field}" being DateField.
	Message string
}

func (u UniqueForYearValidator) validator() metaValidator {
	return metaValidator{names: []string{u.Field, u.DateField}, message: u.Message, period: "year"}
}

// metaValidator is a bound Validator: a unique-together set, or (period
// set) a UniqueFor validator of fields[0] and the date fields[1].
type metaValidator struct {
	names   []string
	fields  []metaField
	message string
	period  string
}

// metaField is a field a Validator names: the serializer's, or a
// HiddenField's; named tells that its name is its source (DRF's attrs
// keys are sources, which some checks compare with the names).
type metaField struct {
	*field
	hidden, named bool
}

// bindValidators binds the Validators option: the model's derived sets
// become the database's alone (UniqueViolation still answers them), and
// the given ones are checked, their sets first for UniqueViolation.
func (s *Serializer[T]) bindValidators(vs []Validator) error {
	if !s.explicit {
		return nil
	}
	var sets []uniqueSet
	for _, v := range vs {
		if v == nil {
			return fmt.Errorf("Validators: a nil validator")
		}
		m := v.validator()
		if len(m.names) == 0 {
			return fmt.Errorf("Validators: %T names no fields", v)
		}
		for _, name := range m.names {
			f := s.metaField(name)
			if f.field == nil {
				return fmt.Errorf("Validators: %T names %q, which is no field of a column", v, name)
			}
			m.fields = append(m.fields, f)
		}
		if m.period != "" {
			if df := m.fields[1]; df.sf.Kind != structs.Time && df.format != "date" {
				return fmt.Errorf("Validators: %T's DateField %q holds no date", v, m.names[1])
			}
		} else {
			set := uniqueSet{message: m.message, unchecked: true}
			for _, f := range m.fields {
				set.fields = append(set.fields, f.field)
			}
			sets = append(sets, set)
		}
		s.metaValidators = append(s.metaValidators, m)
	}
	for i := range s.together {
		s.together[i].unchecked = true
	}
	s.together = append(sets, s.together...)
	return nil
}

// metaField is the field a Validator names: the serializer's field of a
// column, or the field a HiddenField fills (by its JSON name or its
// column); a nil field for none.
func (s *Serializer[T]) metaField(name string) metaField {
	if f := s.byName[name]; f != nil {
		if !ofColumn(f) {
			return metaField{}
		}
		return metaField{field: f, named: s.sourceOf(f) == name}
	}
	for _, h := range s.hidden {
		if h.sf.JSON == name || h.sf.Column == name {
			return metaField{field: &field{name: name, sf: h.sf}, hidden: true, named: s.sourceOf(&field{sf: h.sf}) == name}
		}
	}
	return metaField{}
}

// sourceOf is the DRF source of f: its model field's name, else its
// column.
func (s *Serializer[T]) sourceOf(f *field) string {
	if s.model != nil {
		for _, mf := range s.model.Fields {
			if mf.Column == f.sf.Column {
				return mf.Name
			}
		}
	}
	return f.sf.Column
}

// inAttrs reports whether DRF's attrs hold f on this write: a value in
// m, or, but for a partial update, a default (the drf tag's, a
// read-only field's included, or a HiddenField's).
func (f metaField) inAttrs(m map[string]any, partial, form bool, level compat.Level) bool {
	switch {
	case f.hidden:
		return !partial
	case f.readOnly:
		return !partial && f.def != nil
	}
	present := false
	if form {
		_, present = f.formValue(m, partial, level)
	} else {
		_, present = m[f.name]
	}
	return present || !partial && f.def != nil
}

// value is f's value for the check: a read-only field's default (but
// on a partial update), else the new value in base.
func (f metaField) value(base structs.Addr, partial bool) structs.Value {
	if f.readOnly && !f.hidden && f.def != nil && !partial {
		return *f.def
	}
	return f.sf.Get(base)
}

// checkValidators runs the Validators on the new values in base, stored
// being the item an update changes, in order, as DRF's run_validators:
// a missing field or a UniqueFor duplicate is the only error (DRF's
// dict error, raised at once), the sets' duplicates are non-field
// errors.
func (s *Serializer[T]) checkValidators(m map[string]any, base, stored structs.Addr, partial, create, form bool, level compat.Level, c *Context) (exceptions.ValidationErrors, error) {
	var errs exceptions.ValidationErrors
	for _, v := range s.metaValidators {
		var missing exceptions.ValidationErrors
		for _, f := range v.fields {
			// UniqueFor's attrs are keyed by source, looked up by name.
			in := f.inAttrs(m, partial, form, level) && (v.period == "" || f.named)
			if !in && (create || v.period != "") {
				missing.Add(f.name, msgRequired)
			}
		}
		if len(missing) > 0 {
			return missing, nil
		}
		if v.period != "" {
			dup, err := v.heldFor(base, partial, c)
			if err != nil || dup != nil {
				return dup, err
			}
			continue
		}
		taken, err := v.heldTogether(m, base, stored, partial, create, form, level, c)
		if err != nil {
			return nil, err
		}
		if taken {
			errs.Add(exceptions.NonFieldErrors, uniqueSet{fields: fieldsOf(v.fields), message: v.message}.text())
		}
	}
	return errs, nil
}

func fieldsOf(fs []metaField) []*field {
	out := make([]*field, len(fs))
	for i, f := range fs {
		out[i] = f.field
	}
	return out
}

// heldTogether reports whether another item holds the set's values, as
// DRF's UniqueTogetherValidator looks: not for a null value (at DRF
// 3.14, of a field named as its source: another is looked up as null),
// and at DRF 3.18 not when an update leaves the values in the input as
// they were.
func (v metaValidator) heldTogether(m map[string]any, base, stored structs.Addr, partial, create, form bool, level compat.Level, c *Context) (bool, error) {
	if c == nil || c.ExistsTogether == nil {
		return false, nil
	}
	cols, vals := make([]string, len(v.fields)), make([]string, len(v.fields))
	changed := create || level == compat.DRF314
	for i, f := range v.fields {
		val := f.value(base, partial)
		if val.Null && (level != compat.DRF314 || f.named) {
			return false, nil
		}
		cols[i], vals[i] = f.sf.Column, val.Text()
		if val.Null {
			cols[i], vals[i] = f.sf.Column+"__isnull", "True"
		}
		if !changed && f.inAttrs(m, partial, form, level) {
			was := f.sf.Get(stored)
			changed = was.Null != val.Null || was.Text() != val.Text()
		}
	}
	if !changed {
		return false, nil
	}
	return c.ExistsTogether(cols, vals)
}

// heldFor is a UniqueFor validator's check: the field's error when
// another item holds its value with a date of the same period (none
// for a null value or date, which DRF fails on).
func (v metaValidator) heldFor(base structs.Addr, partial bool, c *Context) (exceptions.ValidationErrors, error) {
	if c == nil || c.DatesOf == nil {
		return nil, nil
	}
	f, df := v.fields[0], v.fields[1]
	val := f.value(base, partial)
	date, ok := dateOf(df.sf, base)
	if val.Null || !ok {
		return nil, nil
	}
	held, err := heldInPeriod(c, f.sf.Column, val, df.sf.Column, v.period, date)
	if err != nil || !held {
		return nil, err
	}
	var errs exceptions.ValidationErrors
	msg := cmp.Or(v.message, `This field must be unique for the "{date_field}" `+v.period+".")
	errs.Add(f.name, strings.ReplaceAll(msg, "{date_field}", df.name))
	return errs, nil
}
