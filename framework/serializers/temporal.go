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
