package serializers

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/go-drf/drf/framework/compat"
)

// DRF's messages of the edge cases of its fields (DRF 3.18's; see
// testdata/drf_field_edges.py for where DRF 3.14 differs).
const (
	msgSurrogate        = "Surrogate characters are not allowed: U+%X."
	msgDatetimeOverflow = "Datetime value out of range."
	msgDurationOverflow = "The number of days must be between -999999999 and 999999999."
	msgFloatOverflow    = "Integer value too large to convert to float"
	msgListMaxLength    = "Ensure this field has no more than %d elements."
	msgListMinLength    = "Ensure this field has at least %d elements."
)

// levelOf is the compatibility level of the request in c (the view's
// Settings.Compatibility), the current one without a request.
func levelOf(c *Context) compat.Level {
	if c == nil || c.Request == nil {
		return compat.Current
	}
	return c.Request.Compatibility()
}

// listedCase reports whether s is in a case DRF 3.14's BooleanField lists
// its spellings in: lower-case, upper-case or capitalized ("true",
// "TRUE", "True"; not "tRuE").
func listedCase(s string) bool {
	if s == strings.ToLower(s) || s == strings.ToUpper(s) {
		return true
	}
	return len(s) > 1 && s[:1] == strings.ToUpper(s[:1]) && s[1:] == strings.ToLower(s[1:])
}

// surrogateIn is the first surrogate code point (U+D800 to U+DFFF) of s,
// held as its three-byte WTF-8 sequence (a lone "\ud800" of JSON kept as
// Python's str keeps it), or -1: DRF's ProhibitSurrogateCharactersValidator.
func surrogateIn(s string) rune {
	for i := 0; i+2 < len(s); i++ {
		if s[i] == 0xED && s[i+1] >= 0xA0 && s[i+1] <= 0xBF && s[i+2] >= 0x80 && s[i+2] <= 0xBF {
			return rune(0xD000 | rune(s[i+1]&0x3F)<<6 | rune(s[i+2]&0x3F))
		}
	}
	return -1
}

// checkDateTime is what DRF refuses of a datetime structs.ParseDateTime
// read from s: a time-zone offset of 24 hours or more (Python's timezone
// refuses it: the format message), a year 0 (the format message), and a
// time whose UTC value is outside years 1 to 9999 ("Datetime value out of
// range.", DRF's enforce_timezone).
func checkDateTime(s string, t time.Time) string {
	if strings.HasPrefix(s, "0000") || offsetMinutes(s) >= 24*60 {
		return msgDatetime
	}
	if t.Year() < 1 || t.Year() > 9999 {
		return msgDatetimeOverflow
	}
	return ""
}

// offsetMinutes is the size of the "+HH:MM", "-HHMM" or "+HH" offset that
// ends a datetime's text, 0 without one.
func offsetMinutes(s string) int {
	i := strings.IndexAny(s, "T ")
	if i < 0 {
		return 0
	}
	j := strings.LastIndexAny(s[i:], "+-")
	if j < 0 {
		return 0
	}
	tz := strings.ReplaceAll(s[i+j+1:], ":", "")
	if len(tz) < 2 {
		return 0
	}
	hh, err := strconv.Atoi(tz[:2])
	if err != nil {
		return 0
	}
	mm := 0
	if len(tz) >= 4 {
		mm, _ = strconv.Atoi(tz[2:4])
	}
	return hh*60 + mm
}

// listLength is DRF's ListField min_length and max_length validators,
// run once the items are valid.
func (f *field) listLength(n int) []string {
	var msgs []string
	if f.maxLength >= 0 && n > f.maxLength {
		msgs = append(msgs, fmt.Sprintf(msgListMaxLength, f.maxLength))
	}
	if f.minLength >= 0 && n < f.minLength {
		msgs = append(msgs, fmt.Sprintf(msgListMinLength, f.minLength))
	}
	return msgs
}

// blankNullDecimal is DRF's DecimalField.validate_empty_values: with
// allow_null, any value whose text is blank ("", "  ") is null, in JSON
// as in a form.
func (f *field) blankNullDecimal(raw any) bool {
	s, ok := raw.(string)
	return ok && f.allowNull && (f.format == "decimal" || f.maxDigits >= 0 || f.decimalPlaces >= 0) &&
		strings.TrimSpace(s) == ""
}
