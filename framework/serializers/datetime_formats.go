package serializers

import (
	"fmt"
	"strings"
	"time"

	"github.com/go-drf/drf/framework/compat"
	fmts "github.com/go-drf/drf/internal/formats"
	"github.com/go-drf/drf/internal/structs"
)

// DRF's DateTimeField, DateField and TimeField messages of their format
// options.
const (
	msgDatetimeFormats = "Datetime has wrong format. Use one of these formats instead: %s."
	msgDateFormats     = "Date has wrong format. Use one of these formats instead: %s."
	msgTimeFormats     = "Time has wrong format. Use one of these formats instead: %s."
	msgMakeAware       = "Invalid datetime for the timezone \"%s\"."
)

// dateTime is a date, time or datetime field's own format options (the
// drf tag's format, input_formats and default_timezone); nil ones are the
// settings' (formats.Compiled).
type dateTime struct {
	output *fmts.Output
	inputs *fmts.Inputs
	// tz is default_timezone, of a time.Time field alone.
	tz *time.Location
}

// formatsOf are the field formats of the view of c's request,
// fmts.Default outside a view.
func formatsOf(c *Context) *fmts.Compiled {
	if c == nil || c.Request == nil {
		return fmts.Default
	}
	return c.Request.Formats()
}

// temporal reports a date or a time field (framework/models' Date and
// TimeOfDay, or a type of format "date" or "time").
func (f *field) temporal() bool { return f.format == "date" || f.format == "time" }

// bindDateTime sets a date, time or time.Time field's format,
// input_formats (split on "|") or, of a time.Time, default_timezone.
func (f *field) bindDateTime(key, val string) error {
	isTime := f.sf.Kind == structs.Time
	if !isTime && (key == "default_timezone" || !f.temporal()) {
		return fmt.Errorf("%s needs a time.Time field", key)
	}
	if f.dt == nil {
		f.dt = &dateTime{}
	}
	switch key {
	case "format":
		o, err := fmts.ParseOutput(val)
		f.dt.output = &o
		return err
	case "input_formats":
		read := fmts.DateTimeInputs
		switch f.format {
		case "date":
			read = fmts.DateInputs
		case "time":
			read = fmts.TimeInputs
		}
		in, err := read(strings.Split(val, "|"))
		f.dt.inputs = &in
		return err
	}
	tz, err := time.LoadLocation(val)
	if err != nil {
		return fmt.Errorf("default_timezone %q: %w", val, err)
	}
	f.dt.tz = tz
	return nil
}

// formats are the field's output and input formats: its own, else the
// settings' of its type.
func (f *field) formats(fc *fmts.Compiled) (fmts.Output, fmts.Inputs) {
	k := fc.DateTime
	switch f.format {
	case "date":
		k = fc.Date
	case "time":
		k = fc.Time
	}
	if f.dt != nil && f.dt.output != nil {
		k.Output = *f.dt.output
	}
	if f.dt != nil && f.dt.inputs != nil {
		k.Inputs = *f.dt.inputs
	}
	return k.Output, k.Inputs
}

// zone is a datetime field's time zone: its default_timezone, else
// TIME_ZONE with USE_TZ; nil without USE_TZ (naive datetimes).
func (f *field) zone(fc *fmts.Compiled) *time.Location {
	if f.dt != nil && f.dt.tz != nil {
		return f.dt.tz
	}
	return fc.Location
}

// toDateTime is DRF's DateTimeField.to_internal_value: the first of the
// input formats that reads s, the time made aware in, or moved to, the
// field's time zone; without one (USE_TZ off), moved to UTC and kept as
// its wall clock.
func (f *field) toDateTime(raw any, level compat.Level, fc *fmts.Compiled) (time.Time, string) {
	_, inputs := f.formats(fc)
	invalid := msgDatetime
	if inputs.IsSet() {
		invalid = fmt.Sprintf(msgDatetimeFormats, inputs.Humanized())
	}
	s, ok := raw.(string)
	if !ok {
		return time.Time{}, invalid
	}
	tz := f.zone(fc)
	for _, in := range inputs.List() {
		var t time.Time
		var naive bool
		if in.ISO() {
			var err error
			if t, err = structs.ParseDateTime(s); err != nil {
				continue
			}
			if msg := checkDateTime(s, t); msg != "" {
				if msg == msgDatetime {
					continue
				}
				return time.Time{}, msg
			}
			naive = isNaive(s)
		} else {
			wall, offset, aware, ok := in.Strptime(s)
			if !ok {
				continue
			}
			t, naive = wall.Add(-time.Duration(offset)*time.Second), !aware
		}
		switch {
		case tz == nil || tz == time.UTC:
			return t.UTC(), ""
		case !naive:
			return t.In(tz), ""
		}
		if t, ok = makeAware(t, tz, level); !ok {
			return time.Time{}, fmt.Sprintf(msgMakeAware, tz)
		}
		return t, ""
	}
	return time.Time{}, invalid
}

// isNaive reports an ISO 8601 datetime without an offset or Z.
func isNaive(s string) bool {
	i := strings.IndexAny(s, "Tt ")
	return i >= 0 && !strings.ContainsAny(s[i:], "+-Zz")
}

// makeAware is Django's make_aware of a naive time (its wall clock held
// as UTC) in tz: DRF 3.14's pytz refuses a wall time that does not exist
// (a DST gap) and one that exists twice (a DST overlap); DRF 3.18's
// zoneinfo takes both at the offset before the change (fold=0): the
// first of the two, and the gap's as its offset before it.
func makeAware(wall time.Time, tz *time.Location, level compat.Level) (time.Time, bool) {
	var found []time.Time
	_, before := wall.Add(-24 * time.Hour).In(tz).Zone()
	_, after := wall.Add(24 * time.Hour).In(tz).Zone()
	for _, off := range []int{before, after} {
		t := wall.Add(-time.Duration(off) * time.Second).In(tz)
		if _, o := t.Zone(); o == off && (len(found) == 0 || !found[0].Equal(t)) {
			found = append(found, t)
		}
	}
	switch {
	case len(found) == 1:
		return found[0], true
	case level == compat.DRF314:
		return time.Time{}, false
	}
	return wall.Add(-time.Duration(before) * time.Second).In(tz), true
}

// appendDateTime writes t as DRF's DateTimeField.to_representation with
// the field's formats: in its time zone (or, without one, as UTC's wall
// clock with no offset), as ISO 8601 or a strftime pattern; format None
// writes the time as it is, as DRF's JSON encoder writes a datetime.
// Without USE_TZ a time in UTC, as the store reads them, is a naive
// datetime: its wall clock, which a field's default_timezone makes aware.
func (f *field) appendDateTime(b []byte, t time.Time, fc *fmts.Compiled, level compat.Level) []byte {
	out, _ := f.formats(fc)
	tz := f.zone(fc)
	naive := fc.Location == nil && t.Location() == time.UTC
	switch {
	case out.None():
	case tz == nil:
		t, naive = t.UTC(), true
	case naive:
		aware, ok := makeAware(t, tz, level)
		if !ok {
			aware = t.In(tz)
		}
		t, naive = aware, false
	default:
		t = t.In(tz)
	}
	if out.ISO() || out.None() {
		if _, off := t.Zone(); off == 0 && !naive {
			return appendTime(b, t)
		}
		layout := "2006-01-02T15:04:05"
		if t.Nanosecond()/1000 != 0 {
			layout += ".000000"
		}
		if !naive {
			layout += "Z07:00"
		}
		return appendString(b, t.Format(layout))
	}
	return appendString(b, out.Strftime(t, naive))
}

// toTemporalText is DRF's DateField and TimeField to_internal_value with
// input formats other than ISO 8601 alone: the date or time the first of
// them reads, as ISO 8601 text ("2001-01-31", "13:45:00"), or DRF's
// message naming the formats.
func (f *field) toTemporalText(raw any, inputs fmts.Inputs) (string, string) {
	msg, isDate := msgTimeFormats, f.format == "date"
	if isDate {
		msg = msgDateFormats
	}
	invalid := fmt.Sprintf(msg, inputs.Humanized())
	s, ok := raw.(string)
	if !ok {
		return "", invalid
	}
	for _, in := range inputs.List() {
		var t time.Time
		if in.ISO() {
			if isDate {
				y, m, d, err := structs.ParseDate(s)
				if err != nil {
					continue
				}
				t = time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
			} else {
				h, m, sec, us, err := structs.ParseTime(s)
				if err != nil {
					continue
				}
				t = time.Date(1900, 1, 1, h, m, sec, us*1000, time.UTC)
			}
		} else if t, _, _, ok = in.Strptime(s); !ok {
			continue
		}
		if isDate {
			return t.Format("2006-01-02"), ""
		}
		return structs.FormatTimeOfDay(t.Hour(), t.Minute(), t.Second(), t.Nanosecond()/1000), ""
	}
	return "", invalid
}

// temporalOutput is a date or time field's value written by its strftime
// pattern; false when its format is ISO 8601 or None (its type's own
// text, isoformat()) or its text is no date or time.
func (f *field) temporalOutput(text string, out fmts.Output) (string, bool) {
	if out.ISO() || out.None() {
		return "", false
	}
	var t time.Time
	if f.format == "date" {
		y, m, d, err := structs.ParseDate(text)
		if err != nil {
			return "", false
		}
		t = time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
	} else {
		h, m, sec, us, err := structs.ParseTime(text)
		if err != nil {
			return "", false
		}
		t = time.Date(1900, 1, 1, h, m, sec, us*1000, time.UTC)
	}
	return out.Strftime(t, true), true
}
