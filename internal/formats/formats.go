// Package formats holds DRF's settings of the fields' formats
// (DATETIME_FORMAT, DATE_INPUT_FORMATS, COERCE_DECIMAL_TO_STRING, ...) and
// Django's of time zones (USE_TZ, TIME_ZONE), and their strftime and
// strptime patterns as Python reads and writes them. Registration compiles
// a view's Settings once; its requests carry the result to the
// serializers, whose per-field options win over it, as in DRF.
package formats

import (
	"fmt"
	"strings"
	"time"
)

// ISO8601 is DRF's ISO_8601: a format of Django's parse_datetime,
// parse_date and parse_time on input, of isoformat() on output.
const ISO8601 = "iso-8601"

// None is the output format None: the field gives its value as it is,
// which the JSON renderer writes as isoformat() (for a datetime, as
// stored, whatever its time zone setting).
const None = "None"

// Settings are DRF's settings of the date, time and decimal fields and
// Django's time zone settings. The zero value is DRF's defaults with
// USE_TZ = True and TIME_ZONE = "UTC".
type Settings struct {
	// DateTimeFormat: DATETIME_FORMAT, a strftime pattern, ISO8601 or
	// None; "" gives ISO8601.
	DateTimeFormat string
	// DateTimeInputFormats: DATETIME_INPUT_FORMATS, tried in order;
	// empty gives [ISO8601].
	DateTimeInputFormats []string
	// DateFormat and DateInputFormats: DATE_FORMAT and
	// DATE_INPUT_FORMATS, as DateTimeFormat and DateTimeInputFormats.
	DateFormat       string
	DateInputFormats []string
	// TimeFormat and TimeInputFormats: TIME_FORMAT and
	// TIME_INPUT_FORMATS, as DateTimeFormat and DateTimeInputFormats.
	TimeFormat       string
	TimeInputFormats []string
	// DisableCoerceDecimalToString is COERCE_DECIMAL_TO_STRING = False:
	// decimals are written as JSON numbers, not strings.
	DisableCoerceDecimalToString bool
	// DurationFormat: DURATION_FORMAT (DRF 3.15 and later), the output
	// of the duration fields: "django" (Django's duration_string, "3
	// 08:32:01"), ISO8601 ("P3DT08H32M01S") or None (the timedelta as
	// DRF's JSON encoder writes it, its seconds: "86400.0"); "" gives
	// "django".
	DurationFormat string
	// CoerceBigIntToString is COERCE_BIGINT_TO_STRING (DRF 3.16 and
	// later): the int64 fields (BigIntegerField) are written as strings.
	CoerceBigIntToString bool
	// DisableUseTZ is Django's USE_TZ = False: datetimes are naive, an
	// input with an offset is moved to UTC and its offset dropped, and
	// outputs carry no offset.
	DisableUseTZ bool
	// TimeZone: Django's TIME_ZONE, an IANA zone name, with USE_TZ the
	// zone a naive input is made aware in and outputs are written in; ""
	// gives "UTC".
	TimeZone string
}

// Kind is one field type's compiled formats: its output format and its
// input formats.
type Kind struct {
	Output Output
	Inputs Inputs
}

// Compiled are Settings checked and compiled, once.
type Compiled struct {
	DateTime, Date, Time Kind
	// CoerceDecimalToString is COERCE_DECIMAL_TO_STRING.
	CoerceDecimalToString bool
	// DurationFormat is DURATION_FORMAT, in lower case ("django",
	// ISO8601) or None; "" for "django".
	DurationFormat string
	// CoerceBigIntToString is COERCE_BIGINT_TO_STRING.
	CoerceBigIntToString bool
	// Location is the zone of TIME_ZONE with USE_TZ, nil without USE_TZ
	// (naive datetimes).
	Location *time.Location
}

// Default are DRF's and Django's defaults, compiled: what a serializer
// used outside a view reads and writes.
var Default = &Compiled{CoerceDecimalToString: true, Location: time.UTC}

// The humanized ISO 8601 formats of DRF's messages, by field type.
const (
	dateTimeISO = "YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z]"
	dateISO     = "YYYY-MM-DD"
	timeISO     = "hh:mm[:ss[.uuuuuu]]"
)

// Compile checks s and compiles its patterns; the error names the
// setting. The zero Settings compile to Default.
func Compile(s Settings) (*Compiled, error) {
	if s.DateTimeFormat == "" && s.DateFormat == "" && s.TimeFormat == "" && s.DateTimeInputFormats == nil &&
		s.DateInputFormats == nil && s.TimeInputFormats == nil && !s.DisableCoerceDecimalToString && !s.DisableUseTZ && s.TimeZone == "" &&
		s.DurationFormat == "" && !s.CoerceBigIntToString {
		return Default, nil
	}
	c := &Compiled{CoerceDecimalToString: !s.DisableCoerceDecimalToString, CoerceBigIntToString: s.CoerceBigIntToString}
	switch d := strings.ToLower(s.DurationFormat); {
	case s.DurationFormat == None || d == ISO8601:
		c.DurationFormat = s.DurationFormat
		if d == ISO8601 {
			c.DurationFormat = d
		}
	case d != "" && d != "django":
		return nil, fmt.Errorf("DURATION_FORMAT: Unknown duration format provided, got '%s' while expecting 'django', 'iso-8601' or `None`.", s.DurationFormat)
	}
	for _, k := range []struct {
		kind              *Kind
		name, iso, output string
		inputs            []string
	}{
		{&c.DateTime, "DATETIME", dateTimeISO, s.DateTimeFormat, s.DateTimeInputFormats},
		{&c.Date, "DATE", dateISO, s.DateFormat, s.DateInputFormats},
		{&c.Time, "TIME", timeISO, s.TimeFormat, s.TimeInputFormats},
	} {
		var err error
		if k.kind.Output, err = ParseOutput(k.output); err != nil {
			return nil, fmt.Errorf("%s_FORMAT: %w", k.name, err)
		}
		if len(k.inputs) > 0 {
			if k.kind.Inputs, err = parseInputs(k.inputs, k.iso); err != nil {
				return nil, fmt.Errorf("%s_INPUT_FORMATS: %w", k.name, err)
			}
		}
	}
	if !s.DisableUseTZ {
		c.Location = time.UTC
		if s.TimeZone != "" {
			loc, err := time.LoadLocation(s.TimeZone)
			if err != nil {
				return nil, fmt.Errorf("TIME_ZONE %q: %w", s.TimeZone, err)
			}
			if loc.String() != "UTC" {
				c.Location = loc
			}
		}
	}
	return c, nil
}

// DateTimeInputs reads a DateTimeField's input_formats, with DRF's
// wording of ISO 8601 for its type in its message.
func DateTimeInputs(formats []string) (Inputs, error) { return parseInputs(formats, dateTimeISO) }

// DateInputs reads a DateField's input_formats.
func DateInputs(formats []string) (Inputs, error) { return parseInputs(formats, dateISO) }

// TimeInputs reads a TimeField's input_formats.
func TimeInputs(formats []string) (Inputs, error) { return parseInputs(formats, timeISO) }
