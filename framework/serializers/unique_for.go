package serializers

import (
	"time"

	"github.com/go-drf/drf/framework/compat"
	"github.com/go-drf/drf/framework/exceptions"
	"github.com/go-drf/drf/framework/models"
	"github.com/go-drf/drf/internal/structs"
)

// uniqueFor is one of DRF's UniqueForDateValidator,
// UniqueForMonthValidator and UniqueForYearValidator, which a
// ModelSerializer derives from a model field's unique_for_date,
// unique_for_month and unique_for_year.
type uniqueFor struct {
	// unique is the model field whose value is unique for the period,
	// field the serializer's field of it.
	unique *models.Field
	field  *field
	// date is the model's DateField or DateTimeField, dateField the
	// serializer's field of it (nil when the serializer has none).
	date      *models.Field
	dateField *field
	// period is DRF's message's word for it: "date", "month" or "year".
	period string
}

// bindUniqueFor reads the unique_for_date, unique_for_month and
// unique_for_year of the model's fields the serializer holds (read-only
// ones too), as DRF's get_unique_for_date_validators; the date field
// becomes required as DRF's get_uniqueness_extra_kwargs makes it (unless
// it has a default; at DRF 3.18 alone when it may be null, whose default
// is None then). The Validators option replaces them.
func (s *Serializer[T]) bindUniqueFor(d *models.Description) {
	if s.explicit {
		// Validators replaces them.
		return
	}
	for _, mf := range d.Fields {
		f := s.fieldOf(mf)
		if f == nil {
			continue
		}
		for _, opt := range [...]struct{ date, period string }{{mf.UniqueForDate, "date"}, {mf.UniqueForMonth, "month"}, {mf.UniqueForYear, "year"}} {
			if opt.date == "" {
				continue
			}
			date := d.Field(opt.date)
			df := s.fieldOf(date)
			if df != nil && !df.readOnly && !date.HasDefault {
				requireUnique(date, df, true)
			}
			s.uniqueFor = append(s.uniqueFor, uniqueFor{unique: mf, field: f, date: date, dateField: df, period: opt.period})
		}
	}
}

// checkUniqueFor runs the UniqueFor validators on the new values in
// base, after the unique-together ones, as DRF runs them: a field of the
// two that DRF's attrs lack (neither in data nor given by a default; a
// partial update has only what data holds) is required, and a value
// another item holds with a date of the same day (month of any year,
// year) is the field's error, "This field must be unique for the
// "published" date.". Either error is the only one, as DRF's dict error
// is. A null value or date is not checked (DRF fails on a null
// date, a 500).
func (s *Serializer[T]) checkUniqueFor(m map[string]any, base structs.Addr, partial, create, form bool, level compat.Level, c *Context) (exceptions.ValidationErrors, error) {
	for _, u := range s.uniqueFor {
		var missing exceptions.ValidationErrors
		if !s.given(u.unique, u.field, false, m, partial, create, form, level) {
			missing.Add(u.field.name, msgRequired)
		}
		if !s.given(u.date, u.dateField, true, m, partial, create, form, level) {
			missing.Add(u.date.Name, msgRequired)
		}
		if len(missing) > 0 {
			return missing, nil
		}
		if c == nil || c.DatesOf == nil {
			continue
		}
		v := u.field.sf.Get(base)
		date, ok := dateIn(u.date, base, create)
		if v.Null || !ok {
			continue
		}
		held, err := heldInPeriod(c, u.field.sf.Column, v, u.date.Column, u.period, date)
		if err != nil {
			return nil, err
		}
		if held {
			var errs exceptions.ValidationErrors
			errs.Add(u.field.name, `This field must be unique for the "`+u.date.Name+`" `+u.period+".")
			return errs, nil
		}
	}
	return nil, nil
}

// heldInPeriod reports whether an item other than the one being
// validated holds v in column with a date in dateColumn of date's
// period (c's DatesOf).
func heldInPeriod(c *Context, column string, v structs.Value, dateColumn, period string, date models.Date) (bool, error) {
	dates, err := c.DatesOf(column, v.Text(), dateColumn)
	if err != nil {
		return false, err
	}
	for _, text := range dates {
		if other, ok := dateOfText(text); ok && samePeriod(period, date, other) {
			return true, nil
		}
	}
	return false, nil
}

// given reports whether DRF's attrs hold the model field mf, f being the
// serializer's field of it (nil for none) and date telling the date
// field of a UniqueFor: a value in m; but for a partial update, a
// default: auto_now's now, auto_now_add's on a create, a writable
// field's model default or (DRF 3.18) None for a nullable date field,
// the value of a HiddenField, or the default of a date field that is
// read-only or that the serializer lacks (DRF's read-only default, or
// HiddenField).
func (s *Serializer[T]) given(mf *models.Field, f *field, date bool, m map[string]any, partial, create, form bool, level compat.Level) bool {
	present := false
	if f != nil && !f.readOnly {
		if form {
			_, present = f.formValue(m, partial, level)
		} else {
			_, present = m[f.name]
		}
	}
	switch {
	case present:
		return true
	case partial:
		return false
	case mf.AutoNow:
		return true
	case mf.AutoNowAdd:
		return create
	case f != nil && !f.readOnly:
		return mf.HasDefault || f.required314 && level != compat.DRF314
	case s.hiddenOf(mf) != nil:
		return true
	}
	return date && mf.HasDefault
}

// dateIn is the date of the model field mf's value in base (a time's in
// UTC), today's for an auto_now field (or auto_now_add, on a create),
// whose value the write sets; false for null.
func dateIn(mf *models.Field, base structs.Addr, create bool) (models.Date, bool) {
	if mf.AutoNow || mf.AutoNowAdd && create {
		return models.DateOf(time.Now().UTC()), true
	}
	return dateOf(mf.Struct, base)
}

// dateOf is the date of the struct field sf's value in base (a time's
// in UTC); false for null.
func dateOf(sf *structs.Field, base structs.Addr) (models.Date, bool) {
	v := sf.Get(base)
	if sf.Kind == structs.Custom {
		var err error
		if v, err = sf.Valuer(base); err != nil {
			return models.Date{}, false
		}
	}
	switch {
	case v.Null:
		return models.Date{}, false
	case v.Kind == structs.Time:
		return models.DateOf(v.T.UTC()), true
	case v.Kind == structs.String:
		return dateOfText(v.S)
	}
	return models.Date{}, false
}

// dateOfText reads a date ("2000-01-01") or a time ("2000-01-01
// 10:00:00+00:00", a Position's text) as the date, in UTC for a time.
func dateOfText(s string) (models.Date, bool) {
	if d, err := models.ParseDate(s); err == nil {
		return d, true
	}
	t, err := structs.ParseDateTime(s)
	if err != nil {
		return models.Date{}, false
	}
	return models.DateOf(t.UTC()), true
}

// samePeriod reports whether a and b share the period's filter of DRF's
// validator: the day, month and year; the month alone (of any year, as
// UniqueForMonthValidator filters date__month); the year.
func samePeriod(period string, a, b models.Date) bool {
	switch period {
	case "month":
		return a.Month == b.Month
	case "year":
		return a.Year == b.Year
	}
	return a == b
}
