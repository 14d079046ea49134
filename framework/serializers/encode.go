package serializers

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"time"
	"unicode/utf8"

	fmts "github.com/go-drf/drf/internal/formats"
	"github.com/go-drf/drf/internal/structs"
)

// Data returns obj's representation: a JSON object of the readable fields
// in order (DRF's serializer.data).
func (s *Serializer[T]) Data(obj *T, c *Context) (json.RawMessage, error) {
	b := make([]byte, 0, s.sizeHint(1))
	b, err := appendFields(b, s.fields, structs.AddrOf(obj), c)
	if err != nil {
		return nil, err
	}
	s.learn(len(b), 1)
	return b, nil
}

// Many returns the representation of items (a data source's page) as a
// JSON array (DRF's many=True); nil items are an error.
func (s *Serializer[T]) Many(items []*T, c *Context) (json.RawMessage, error) {
	b := make([]byte, 0, s.sizeHint(len(items)))
	b = append(b, '[')
	for i, obj := range items {
		if obj == nil {
			return nil, fmt.Errorf("serializers: item %d is nil", i)
		}
		if i > 0 {
			b = append(b, ',')
		}
		var err error
		if b, err = appendFields(b, s.fields, structs.AddrOf(obj), c); err != nil {
			return nil, err
		}
	}
	b = append(b, ']')
	s.learn(len(b), len(items))
	return b, nil
}

func (s *Serializer[T]) sizeHint(n int) int {
	avg := s.avgSize.Load()
	if avg == 0 {
		avg = 64
	}
	return int(avg)*n + 2
}

func (s *Serializer[T]) learn(size, n int) {
	if n > 0 {
		s.avgSize.Store(int64(size/n + 1))
	}
}

// appendFields writes the object of fields at obj: an item, or a nested
// serializer's.
func appendFields(b []byte, fields []*field, obj structs.Addr, c *Context) ([]byte, error) {
	b = append(b, '{')
	first := true
	for _, f := range fields {
		if f.writeOnly {
			continue
		}
		if !first {
			b = append(b, ',')
		}
		first = false
		b = append(b, f.key...)
		var err error
		if b, err = f.appendValue(b, obj, c); err != nil {
			return nil, err
		}
	}
	return append(b, '}'), nil
}

// errNonFinite is DRF's strict JSON refusing NaN and infinities.
var errNonFinite = errors.New("serializers: out of range float values are not JSON compliant")

func (f *field) appendValue(b []byte, obj structs.Addr, c *Context) ([]byte, error) {
	if f.nested != nil {
		return f.nested.appendNested(b, f.sf, obj, c)
	}
	if f.group != nil {
		return appendFields(b, f.group, obj, c)
	}
	if f.compute != nil {
		v, err := f.compute(obj, c)
		if err != nil {
			return nil, err
		}
		if str, ok := v.(string); ok {
			return appendString(b, str), nil
		}
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(v); err != nil {
			return nil, fmt.Errorf("serializers: field %q: %w", f.name, err)
		}
		return append(b, bytes.TrimSuffix(buf.Bytes(), []byte("\n"))...), nil
	}
	if f.container != nil {
		return f.appendContainer(b, obj)
	}
	if f.list != nil {
		return f.list.appendJSON(b, f.sf.Addr(obj), c)
	}
	if f.more.render {
		return f.appendOption(b, obj, c)
	}
	// Strings, times and 64-bit integers, most of an item, are read in
	// place; other kinds through the field's Value.
	switch k := f.sf.Kind; {
	case k == structs.String || k == structs.Time || k == structs.Int && f.sf.Bits == 64:
		p := f.sf.Addr(obj)
		switch {
		case p.IsNil():
			return append(b, "null"...), nil
		case k == structs.String:
			return appendString(b, *structs.At[string](p)), nil
		case k == structs.Int:
			return strconv.AppendInt(b, *structs.At[int64](p), 10), nil
		}
		if fc := formatsOf(c); f.dt != nil || fc != fmts.Default {
			return f.appendDateTime(b, *structs.At[time.Time](p), fc, levelOf(c)), nil
		}
		return appendTime(b, *structs.At[time.Time](p)), nil
	}
	if f.file != nil {
		return f.appendFile(b, obj, c)
	}
	if f.sf.Kind == structs.Custom {
		return f.appendCustom(b, obj, c)
	}
	return appendScalar(b, f.sf.Get(obj))
}

// appendCustom writes a Custom value through its json.Marshaler (its
// output compacted), else its encoding.TextMarshaler as a string, else
// as its Valuer's value.
func (f *field) appendCustom(b []byte, obj structs.Addr, c *Context) ([]byte, error) {
	if f.sf.IsNull(obj) {
		return append(b, "null"...), nil
	}
	number := f.decimalNumber
	if !f.coerceSet && f.format == "decimal" {
		number = !formatsOf(c).CoerceDecimalToString
	}
	number = number && !f.localize // localize=True is coerce_to_string=True
	if f.decimalPlaces >= 0 || number || f.normalize || f.localize {
		if text, ok := f.decimalOutput(obj, levelOf(c)); ok {
			switch {
			case f.localize:
				return appendString(b, numberOf(c).Localize(text)), nil
			case f.kind == kindChoice || number:
				return appendDecimalFloat(b, text), nil
			}
			return appendString(b, text), nil
		}
	}
	if f.temporal() {
		if out, _ := f.formats(formatsOf(c)); !out.ISO() && !out.None() {
			if text, ok := f.customText(obj); ok {
				if s, ok := f.temporalOutput(text, out); ok {
					return appendString(b, s), nil
				}
			}
		}
	}
	jm, tm := f.sf.Marshalers(obj)
	switch {
	case jm != nil:
		js, err := jm.MarshalJSON()
		if err != nil {
			return nil, fmt.Errorf("serializers: field %q: %w", f.name, err)
		}
		buf := bytes.NewBuffer(b)
		if err := json.Compact(buf, js); err != nil {
			return nil, fmt.Errorf("serializers: field %q: %w", f.name, err)
		}
		return buf.Bytes(), nil
	case tm != nil:
		text, err := tm.MarshalText()
		if err != nil {
			return nil, fmt.Errorf("serializers: field %q: %w", f.name, err)
		}
		return appendString(b, string(text)), nil
	}
	v, err := f.sf.Valuer(obj)
	if err != nil {
		return nil, fmt.Errorf("serializers: field %q: %w", f.name, err)
	}
	switch {
	case v.Null:
		return append(b, "null"...), nil
	case v.Kind == structs.String:
		return appendString(b, v.S), nil
	case v.Kind == structs.Bool:
		return strconv.AppendBool(b, v.B), nil
	case v.Kind == structs.Int:
		return strconv.AppendInt(b, v.I, 10), nil
	case v.Kind == structs.Float:
		if math.IsNaN(v.F) || math.IsInf(v.F, 0) {
			return nil, errNonFinite
		}
		return structs.AppendPythonFloat(b, v.F), nil
	}
	return appendTime(b, v.T), nil
}

// appendTime writes t as DRF does: ISO 8601 in UTC with "Z", microseconds
// only when not zero ("2024-01-01T01:00:00Z", "...T01:00:00.123456Z").
func appendTime(b []byte, t time.Time) []byte {
	t = t.UTC()
	b = append(b, '"')
	if year, month, day := t.Date(); year >= 0 && year <= 9999 {
		// The digits written out: AppendFormat interprets its layout on
		// every call, five times the work for a page of five items.
		hour, minute, sec := t.Clock()
		b = append(b, byte('0'+year/1000), byte('0'+year/100%10), byte('0'+year/10%10), byte('0'+year%10), '-',
			byte('0'+month/10), byte('0'+month%10), '-', byte('0'+day/10), byte('0'+day%10), 'T',
			byte('0'+hour/10), byte('0'+hour%10), ':', byte('0'+minute/10), byte('0'+minute%10), ':',
			byte('0'+sec/10), byte('0'+sec%10))
	} else {
		b = t.AppendFormat(b, "2006-01-02T15:04:05")
	}
	if us := t.Nanosecond() / 1000; us != 0 {
		b = append(b, '.')
		for d := 100000; d > 0; d /= 10 {
			b = append(b, byte('0'+us/d%10))
		}
	}
	return append(b, 'Z', '"')
}

const hex = "0123456789abcdef"

// jsonPlain marks the bytes a JSON string holds as they are: printable
// ASCII but the quote and the backslash.
var jsonPlain = func() (t [256]bool) {
	for c := 0x20; c < 0x7f; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// appendString writes s as a JSON string the way encoding/json does
// without HTML escaping: invalid UTF-8 becomes U+FFFD, and U+2028 and
// U+2029 are escaped (as DRF's renderer does).
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	i := 0
	for i < len(s) && jsonPlain[s[i]] {
		i++
	}
	if i == len(s) {
		return append(append(b, s...), '"')
	}
	start := 0
	for i < len(s) {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// appendScalar writes a scalar Value as JSON: a field's, or an item of a
// list or dictionary field.
func appendScalar(b []byte, v structs.Value) ([]byte, error) {
	if v.Null {
		return append(b, "null"...), nil
	}
	switch v.Kind {
	case structs.String:
		return appendString(b, v.S), nil
	case structs.Bool:
		return strconv.AppendBool(b, v.B), nil
	case structs.Int:
		return strconv.AppendInt(b, v.I, 10), nil
	case structs.Uint:
		return strconv.AppendUint(b, v.U, 10), nil
	case structs.Float:
		if math.IsNaN(v.F) || math.IsInf(v.F, 0) {
			return nil, errNonFinite
		}
		return structs.AppendPythonFloat(b, v.F), nil
	case structs.Time:
		return appendTime(b, v.T), nil
	case structs.Duration:
		return appendDuration(b, v.I), nil
	case structs.Bytes:
		return appendBinary(b, v), nil
	}
	return append(b, "null"...), nil
}
