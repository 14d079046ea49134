package serializers

import (
	"fmt"
	"math/big"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	fmts "github.com/go-drf/drf/internal/formats"
	"github.com/go-drf/drf/internal/structs"
)

// fieldOptions are the drf tag's options of DRF's scalar fields beyond
// their Go type's: SlugField(allow_unicode=True), IPAddressField(protocol=),
// UUIDField(format=), DurationField(format=), BigIntegerField
// (coerce_to_string=) and JSONField(binary=True).
type fieldOptions struct {
	// slugUnicode is a SlugField's allow_unicode.
	slugUnicode bool
	// uuidFormat is a UUIDField's format ("hex", "int", "urn"); "" for
	// "hex_verbose".
	uuidFormat string
	// duration is a DurationField's format ("django", "iso-8601" or
	// "None"); "" follows the DURATION_FORMAT setting.
	duration string
	// bigint marks a BigIntegerField (an int64 field); bigintString is
	// its coerce_to_string, nil to follow COERCE_BIGINT_TO_STRING.
	bigint       bool
	bigintString *bool
	// jsonBinary is a JSONField's binary=True.
	jsonBinary bool
	// filePath is a FilePathField's (filepath.go).
	filePath *filePath
	// initial is the initial= text, initialJSON its value as JSON
	// (initial.go); "" when unset.
	initial     *string
	initialJSON string
	// render reports a field appendOption writes.
	render bool
}

// fieldOption applies a drf tag option of fieldOptions; ok is false for
// another option.
func (f *field) fieldOption(key, val string, hasVal bool) (ok bool, err error) {
	if ok, err := f.filePathOption(key, val, hasVal); ok {
		return true, err
	}
	o := &f.more
	switch {
	case key == "allow_unicode":
		if f.sf.Kind != structs.String || f.container != nil || f.kind != "" && f.kind != kindSlug {
			return true, fmt.Errorf("allow_unicode needs a string field, a SlugField")
		}
		f.kind, o.slugUnicode = kindSlug, true
		if hasVal {
			o.slugUnicode, err = strconv.ParseBool(val)
		}
	case key == "protocol":
		p := strings.ToLower(val)
		if p != "both" && p != "ipv4" && p != "ipv6" {
			return true, fmt.Errorf(`The protocol '%s' is unknown. Supported: ['both', 'ipv4', 'ipv6']`, val)
		}
		if f.sf.Kind != structs.String || f.container != nil || f.kind != "" && f.kind != kindIP {
			return true, fmt.Errorf("protocol needs a string field, an IPAddressField")
		}
		f.kind, f.protocol, f.modelProtocol = kindIP, strings.TrimPrefix(p, "both"), false
	case key == "format" && f.format == "uuid" && !formats[val]:
		if !slices.Contains(uuidFormats, val) {
			return true, fmt.Errorf("Invalid format for uuid representation. Must be one of '%s'", strings.Join(uuidFormats, "', '"))
		}
		o.uuidFormat = strings.TrimPrefix(val, "hex_verbose")
		o.render = o.uuidFormat != ""
	case key == "format" && f.sf.Kind == structs.Duration && f.container == nil:
		if o.duration, err = durationFormat(val); err != nil {
			return true, err
		}
	case key == "coerce_to_string" && f.sf.Kind == structs.Int:
		if !o.bigint || f.container != nil {
			return true, fmt.Errorf("coerce_to_string needs an int64 field (a BigIntegerField) or a decimal field")
		}
		on, err := strconv.ParseBool(val)
		o.bigintString = &on
		return true, err
	case key == "initial":
		o.initial = &val
		if !hasVal {
			return true, fmt.Errorf("initial needs a value")
		}
	case key == "binary":
		if f.format != "json" || f.container != nil {
			return true, fmt.Errorf("binary needs a JSON field")
		}
		o.jsonBinary = true
		if hasVal {
			o.jsonBinary, err = strconv.ParseBool(val)
		}
		o.render = o.jsonBinary
	default:
		return false, nil
	}
	return true, nil
}

// checkFieldOptions binds the options of field_options.go that need the
// field's other options: a FilePathField's choices (which depend on
// required), then initial= (read as the field reads its input).
func (f *field) checkFieldOptions() error {
	if err := f.bindFilePath(); err != nil {
		return err
	}
	return f.bindInitial()
}

// bindFieldOptions marks the fields appendOption writes whatever their
// options: a DurationField, for DURATION_FORMAT, and a BigIntegerField
// (a field of Go type int64, a Django BigIntegerField, as DRF 3.18's
// ModelSerializer maps one), for COERCE_BIGINT_TO_STRING.
func (f *field) bindFieldOptions() {
	t := f.sf.Type
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	f.more.bigint = t.Kind() == reflect.Int64 && f.sf.Kind == structs.Int && f.container == nil
	f.more.render = f.more.bigint || f.sf.Kind == structs.Duration && f.container == nil
}

// durationFormat checks a DurationField's format, as DRF 3.18 does:
// "django", "iso-8601" (in any case) or None.
func durationFormat(val string) (string, error) {
	if val == fmts.None {
		return val, nil
	}
	if v := strings.ToLower(val); v == "django" || v == fmts.ISO8601 {
		return v, nil
	}
	return "", fmt.Errorf("Unknown duration format provided, got '%s' while expecting 'django', 'iso-8601' or `None`.", val)
}

// appendOption writes the value of a field that renders: DRF's
// to_representation under the field's option or its setting.
func (f *field) appendOption(b []byte, obj structs.Addr, c *Context) ([]byte, error) {
	if f.sf.IsNull(obj) {
		return append(b, "null"...), nil
	}
	switch {
	case f.more.bigint:
		n := *structs.At[int64](f.sf.Addr(obj))
		if coerce := f.more.bigintString; f.kind == "" && (coerce != nil && *coerce || coerce == nil && formatsOf(c).CoerceBigIntToString) {
			b = append(b, '"')
			return append(strconv.AppendInt(b, n, 10), '"'), nil
		}
		return strconv.AppendInt(b, n, 10), nil
	case f.sf.Kind == structs.Duration:
		format := f.more.duration
		if format == "" {
			format = formatsOf(c).DurationFormat
		}
		return appendDurationAs(b, *structs.At[time.Duration](f.sf.Addr(obj)), format), nil
	case f.more.uuidFormat != "":
		text, ok := f.customText(obj)
		if !ok {
			return nil, fmt.Errorf("serializers: field %q: no UUID", f.name)
		}
		return appendRaw(b, uuidText(text, f.more.uuidFormat), f.more.uuidFormat == "int"), nil
	}
	jm, _ := f.sf.Marshalers(obj)
	if jm == nil {
		return nil, fmt.Errorf("serializers: field %q: no JSON", f.name)
	}
	js, err := jm.MarshalJSON()
	if err != nil {
		return nil, fmt.Errorf("serializers: field %q: %w", f.name, err)
	}
	return appendString(b, pythonDumps(string(js))), nil
}

// appendRaw writes s as a JSON string, or as it is when raw.
func appendRaw(b []byte, s string, raw bool) []byte {
	if raw {
		return append(b, s...)
	}
	return appendString(b, s)
}

// appendDurationAs writes d in a DurationField's format: Django's
// duration_string ("django", ""), duration_iso_string ("iso-8601"), or,
// for None, the timedelta as DRF's JSON encoder writes one: the text of
// its total_seconds() ("86400.0").
func appendDurationAs(b []byte, d time.Duration, format string) []byte {
	switch format {
	case fmts.ISO8601:
		return appendString(b, durationISO(d))
	case fmts.None:
		us := int64(d / time.Microsecond)
		x, _ := new(big.Rat).SetFrac64(us, 1000000).Float64()
		return appendString(b, string(structs.AppendPythonFloat(nil, x)))
	}
	return appendDuration(b, int64(d))
}

// durationISO is Django's duration_iso_string: "P3DT08H32M01.000123S",
// a negative duration signed before the P.
func durationISO(d time.Duration) string {
	sign := ""
	us := int64(d / time.Microsecond)
	if us < 0 {
		sign, us = "-", -us
	}
	const day = 86400 * 1000000
	days, rem := us/day, us%day
	s := fmt.Sprintf("%sP%dDT%02dH%02dM%02d", sign, days, rem/3600000000, rem/60000000%60, rem/1000000%60)
	if frac := rem % 1000000; frac != 0 {
		s += fmt.Sprintf(".%06d", frac)
	}
	return s + "S"
}

// pythonDumps is Python's json.dumps of the value of the JSON text js,
// with its default separators (", " and ": ") and every character beyond
// ASCII escaped; js is valid JSON, as a JSON field holds.
func pythonDumps(js string) string {
	var b strings.Builder
	inString := false
	for i := 0; i < len(js); {
		c := js[i]
		switch {
		case inString && c == '\\':
			b.WriteString(js[i : i+2])
			i += 2
			continue
		case c == '"':
			inString = !inString
		case inString && c >= utf8.RuneSelf:
			r, size := utf8.DecodeRuneInString(js[i:])
			if r >= 0x10000 {
				r -= 0x10000
				fmt.Fprintf(&b, `\u%04x\u%04x`, 0xd800+(r>>10), 0xdc00+(r&0x3ff))
			} else {
				fmt.Fprintf(&b, `\u%04x`, r)
			}
			i += size
			continue
		case inString:
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
			continue
		case c == ',' || c == ':':
			b.WriteByte(c)
			b.WriteByte(' ')
			i++
			continue
		}
		b.WriteByte(c)
		i++
	}
	return b.String()
}

// slugUnicodeRE is Django's validate_unicode_slug: Python's \w of a str
// is a letter, a number or "_".
var slugUnicodeRE = regexp.MustCompile(`^[-\p{L}\p{N}_]+\z`)

// validSlug is Django's validate_slug, or validate_unicode_slug with
// allow_unicode.
func (f *field) validSlug(s string) bool {
	if f.more.slugUnicode {
		return slugUnicodeRE.MatchString(s)
	}
	return slugRE.MatchString(s)
}
