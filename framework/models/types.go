package models

import (
	"database/sql/driver"
	"encoding/json"
	"fmt"
	"time"

	"github.com/go-drf/drf/internal/structs"
)

// Date is a calendar date without a time or a time zone: Django's
// DateField, Python's datetime.date. Django stores it in SQLite as text
// ("2024-01-31") and in PostgreSQL as a date; DRF renders it as
// "2024-01-31" and reads it as Django's parse_date does.
type Date struct {
	Year  int
	Month time.Month
	Day   int
}

// DateOf returns the date of t in t's location.
func DateOf(t time.Time) Date {
	y, m, d := t.Date()
	return Date{Year: y, Month: m, Day: d}
}

// ParseDate reads "YYYY-MM-DD" as Django's parse_date and DRF's DateField
// do (the month and day may have one digit); an error names the text.
func ParseDate(s string) (Date, error) {
	y, m, d, err := structs.ParseDate(s)
	if err != nil {
		return Date{}, err
	}
	return Date{Year: y, Month: m, Day: d}, nil
}

// Time returns midnight at the start of the date in loc.
func (d Date) Time(loc *time.Location) time.Time {
	return time.Date(d.Year, d.Month, d.Day, 0, 0, 0, 0, loc)
}

// IsZero reports the zero Date, which is no date (Python's dates begin
// on 0001-01-01).
func (d Date) IsZero() bool { return d == Date{} }

// Compare returns -1, 0 or +1 as d is before, equal to or after e.
func (d Date) Compare(e Date) int {
	return d.Time(time.UTC).Compare(e.Time(time.UTC))
}

// String is the date as ISO 8601 writes it: "2024-01-31".
func (d Date) String() string { return fmt.Sprintf("%04d-%02d-%02d", d.Year, int(d.Month), d.Day) }

// MarshalText is String's text.
func (d Date) MarshalText() ([]byte, error) { return []byte(d.String()), nil }

// UnmarshalText reads text as ParseDate does.
func (d *Date) UnmarshalText(text []byte) error {
	v, err := ParseDate(string(text))
	if err != nil {
		return err
	}
	*d = v
	return nil
}

// MarshalJSON is the date as DRF's DateField renders it: "2024-01-31".
func (d Date) MarshalJSON() ([]byte, error) { return json.Marshal(d.String()) }

// UnmarshalJSON reads a JSON string as ParseDate does; another JSON value
// is an error, as DRF's DateField refuses it.
func (d *Date) UnmarshalJSON(js []byte) error {
	var s string
	if err := json.Unmarshal(js, &s); err != nil {
		return fmt.Errorf("%w: date %s", structs.ErrInvalidValue, js)
	}
	return d.UnmarshalText([]byte(s))
}

// Value is the date as Django stores it in SQLite, "2024-01-31", which
// PostgreSQL reads into a date column too.
func (d Date) Value() (driver.Value, error) { return d.String(), nil }

// Scan reads a date column: SQLite's text, PostgreSQL's date (a
// time.Time, whose date it takes).
func (d *Date) Scan(src any) error {
	switch x := src.(type) {
	case time.Time:
		*d = DateOf(x)
		return nil
	case string:
		return d.UnmarshalText([]byte(x))
	case []byte:
		return d.UnmarshalText(x)
	}
	return fmt.Errorf("models: cannot read %T into a Date", src)
}

// TimeOfDay is a wall-clock time without a date or a time zone, to the
// microsecond: Django's TimeField, Python's datetime.time. Django stores
// it in SQLite as text ("13:45:00", "13:45:00.123456") and in PostgreSQL
// as a time; DRF renders it as Python's isoformat() and reads it as
// Django's parse_time does.
type TimeOfDay struct {
	Hour, Minute, Second, Microsecond int
}

// TimeOfDayOf returns the time of day of t in t's location, to the
// microsecond.
func TimeOfDayOf(t time.Time) TimeOfDay {
	return TimeOfDay{Hour: t.Hour(), Minute: t.Minute(), Second: t.Second(), Microsecond: t.Nanosecond() / 1000}
}

// ParseTimeOfDay reads "hh:mm[:ss[.uuuuuu]]" as Django's parse_time and
// DRF's TimeField do: the hour and minute may have one digit, digits of a
// fraction beyond the sixth are dropped, and what follows a valid time
// ("Z", "+01:00") is ignored.
func ParseTimeOfDay(s string) (TimeOfDay, error) {
	h, m, sec, us, err := structs.ParseTime(s)
	if err != nil {
		return TimeOfDay{}, err
	}
	return TimeOfDay{Hour: h, Minute: m, Second: sec, Microsecond: us}, nil
}

// On returns the time of day on date d in loc.
func (t TimeOfDay) On(d Date, loc *time.Location) time.Time {
	return time.Date(d.Year, d.Month, d.Day, t.Hour, t.Minute, t.Second, t.Microsecond*1000, loc)
}

// Compare returns -1, 0 or +1 as t is before, equal to or after u.
func (t TimeOfDay) Compare(u TimeOfDay) int {
	return t.On(Date{2000, 1, 1}, time.UTC).Compare(u.On(Date{2000, 1, 1}, time.UTC))
}

// String is the time as Python's time.isoformat() writes it: "13:45:00",
// or "13:45:00.120000" when it has microseconds.
func (t TimeOfDay) String() string {
	return structs.FormatTimeOfDay(t.Hour, t.Minute, t.Second, t.Microsecond)
}

// MarshalText is String's text.
func (t TimeOfDay) MarshalText() ([]byte, error) { return []byte(t.String()), nil }

// UnmarshalText reads text as ParseTimeOfDay does.
func (t *TimeOfDay) UnmarshalText(text []byte) error {
	v, err := ParseTimeOfDay(string(text))
	if err != nil {
		return err
	}
	*t = v
	return nil
}

// MarshalJSON is the time as DRF's TimeField renders it: "13:45:00".
func (t TimeOfDay) MarshalJSON() ([]byte, error) { return json.Marshal(t.String()) }

// UnmarshalJSON reads a JSON string as ParseTimeOfDay does; another JSON
// value is an error, as DRF's TimeField refuses it.
func (t *TimeOfDay) UnmarshalJSON(js []byte) error {
	var s string
	if err := json.Unmarshal(js, &s); err != nil {
		return fmt.Errorf("%w: time %s", structs.ErrInvalidValue, js)
	}
	return t.UnmarshalText([]byte(s))
}

// Value is the time as Django stores it in SQLite, "13:45:00[.123456]",
// which PostgreSQL reads into a time column too.
func (t TimeOfDay) Value() (driver.Value, error) { return t.String(), nil }

// Scan reads a time column: SQLite's text or PostgreSQL's
// ("13:45:00.123456"), or a time.Time's time of day.
func (t *TimeOfDay) Scan(src any) error {
	switch x := src.(type) {
	case time.Time:
		*t = TimeOfDayOf(x)
		return nil
	case string:
		return t.UnmarshalText([]byte(x))
	case []byte:
		return t.UnmarshalText(x)
	}
	return fmt.Errorf("models: cannot read %T into a TimeOfDay", src)
}
