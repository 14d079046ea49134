package serializers

import (
	"errors"
	"fmt"
	"time"

	"github.com/go-drf/drf/internal/structs"
)

// DRF's messages of its DateField, TimeField and DurationField, and
// Django's of a BinaryField's max_length.
const (
	msgDate          = "Date has wrong format. Use one of these formats instead: YYYY-MM-DD."
	msgTime          = "Time has wrong format. Use one of these formats instead: hh:mm[:ss[.uuuuuu]]."
	msgDuration      = "Duration has wrong format. Use one of these formats instead: [DD] [HH:[MM:]]ss[.uuuuuu]."
	msgBinaryTooLong = "Ensure this value has at most %d characters (it has %d)."
)

// The bounds of a time.Duration field (structs.MaxDuration and
// MinDuration) as DRF words a DurationField's max_value and min_value:
// Python's str() of the timedelta.
const (
	maxDurationText = "106751 days, 23:47:16.854775"
	minDurationText = "-106752 days, 0:12:43.145225"
)

// toDuration is DRF's DurationField: Django's parse_duration of str() of
// the value, so a JSON number is seconds (5, 1.5) and a boolean refused.
// A duration Python's timedelta holds (±999,999,999 days) but a
// time.Duration does not (±106,751 days) is refused as DRF refuses one
// beyond a DurationField's max_value or min_value set to the type's range.
func toDuration(raw any) (structs.Value, []string) {
	v := structs.Value{Kind: structs.Duration}
	s, ok := pythonStr(raw)
	if !ok {
		return v, []string{msgDuration}
	}
	d, err := structs.ParseDuration(s)
	switch {
	case err == nil:
		v.I = int64(d)
		return v, nil
	case errors.Is(err, structs.ErrDurationOverflow):
		return v, []string{msgDurationOverflow}
	case errors.Is(err, structs.ErrDurationAboveMax):
		return v, []string{fmt.Sprintf(msgMaxValue, maxDurationText)}
	case errors.Is(err, structs.ErrDurationBelowMin):
		return v, []string{fmt.Sprintf(msgMinValue, minDurationText)}
	}
	return v, []string{msgDuration}
}

// durationBound is a DurationField's max_value or min_value, given in
// DRF's input format ("3 00:00:00"): worded in messages and OPTIONS as
// Python's str() of the timedelta ("3 days, 0:00:00").
func durationBound(text string) (*bound, error) {
	d, err := structs.ParseDuration(text)
	if err != nil {
		return nil, fmt.Errorf("bound %q is not a duration", text)
	}
	return &bound{text: pythonTimedelta(d), d: d, duration: true}, nil
}

// durationBounds checks a valid duration against the field's max_value,
// then its min_value, as DRF's DurationField does.
func (f *field) durationBounds(v structs.Value) []string {
	d := time.Duration(v.I)
	switch {
	case f.maxValue != nil && d > f.maxValue.d:
		return []string{fmt.Sprintf(msgMaxValue, f.maxValue.text)}
	case f.minValue != nil && d < f.minValue.d:
		return []string{fmt.Sprintf(msgMinValue, f.minValue.text)}
	}
	return nil
}

// pythonTimedelta is Python's str() of a timedelta of d: "1 day,
// 0:00:00", "-1 day, 23:59:59.500000".
func pythonTimedelta(d time.Duration) string {
	const day = 86400 * 1000000
	us := int64(d / time.Microsecond)
	days, rem := us/day, us%day
	if rem < 0 {
		days, rem = days-1, rem+day
	}
	s := fmt.Sprintf("%d:%02d:%02d", rem/3600000000, rem/60000000%60, rem/1000000%60)
	if frac := rem % 1000000; frac != 0 {
		s += fmt.Sprintf(".%06d", frac)
	}
	if days != 0 {
		unit := "days"
		if days == 1 || days == -1 {
			unit = "day"
		}
		s = fmt.Sprintf("%d %s, %s", days, unit, s)
	}
	return s
}

// appendDuration writes d as DRF's DurationField renders it: Django's
// duration_string ("3 02:00:00").
func appendDuration(b []byte, d int64) []byte {
	return appendString(b, structs.FormatDuration(time.Duration(d)))
}

// toBinary is DRF's ModelField over a Django BinaryField: a string is
// base64 (BinaryField.to_python), its bytes at most max_length (Django's
// MaxLengthValidator). Text that is not base64 and a value that is not a
// string, which DRF lets through to an error of its own (a 500), are
// "Invalid value.".
func (f *field) toBinary(raw any) (structs.Value, []string) {
	v := structs.Value{Kind: structs.Bytes}
	s, ok := raw.(string)
	if !ok {
		return v, []string{msgInvalid}
	}
	b, err := structs.DecodeBinary(s)
	if err != nil {
		return v, []string{msgInvalid}
	}
	if f.maxLength >= 0 && len(b) > f.maxLength {
		return v, []string{fmt.Sprintf(msgBinaryTooLong, f.maxLength, len(b))}
	}
	v.S = string(b)
	return v, nil
}

// shownMaxLength is the max_length that OPTIONS and the schema show: none
// for a binary field, whose DRF ModelField checks it but does not carry
// it.
func (f *field) shownMaxLength() int {
	if f.sf != nil && f.sf.Kind == structs.Bytes {
		return -1
	}
	return f.maxLength
}

// appendBinary writes bytes as DRF's ModelField renders a BinaryField:
// base64 text (BinaryField.value_to_string).
func appendBinary(b []byte, v structs.Value) []byte {
	return appendString(b, v.Text())
}
