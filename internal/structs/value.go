package structs

import (
	"bytes"
	"cmp"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/go-drf/drf/framework/query"
	"github.com/go-drf/drf/framework/store"
)

// Value is a field's value of any kind, without boxing.
type Value struct {
	Kind Kind
	Null bool
	S    string
	B    bool
	I    int64
	U    uint64
	F    float64
	T    time.Time
}

// ErrInvalidValue is the error of a text that does not convert to a
// field's kind (Django's "Field 'id' expected a number but got 'abc'").
// It is query.ErrInvalidValue, which filters and paginators test for.
var ErrInvalidValue = query.ErrInvalidValue

// Compare orders a and b of the same kind the way SQLite does: NULL first.
// Custom values compare as their Valuer's values.
func Compare(a, b Value) int {
	switch {
	case a.Null || b.Null:
		return cmp.Compare(boolInt(!a.Null), boolInt(!b.Null))
	}
	switch a.Kind {
	case String, Bytes:
		return strings.Compare(a.S, b.S)
	case Bool:
		return cmp.Compare(boolInt(a.B), boolInt(b.B))
	case Int, Duration:
		return cmp.Compare(a.I, b.I)
	case Uint:
		return cmp.Compare(a.U, b.U)
	case Float:
		return cmp.Compare(a.F, b.F)
	case Time:
		return a.T.Compare(b.T)
	}
	return 0
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Text returns v as Django prints it with str(): "2024-01-05 00:00:00+00:00"
// for times (in UTC), "True"/"False", "None" for NULL, Python's repr of
// floats, "3 days, 2:00:00" for durations; bytes are base64, as Django's
// BinaryField.value_to_string writes them. Parse reads it back.
func (v Value) Text() string {
	if v.Null {
		return "None"
	}
	switch v.Kind {
	case String:
		return v.S
	case Bool:
		if v.B {
			return "True"
		}
		return "False"
	case Int:
		return strconv.FormatInt(v.I, 10)
	case Uint:
		return strconv.FormatUint(v.U, 10)
	case Float:
		return string(AppendPythonFloat(nil, v.F))
	case Time:
		t := v.T.UTC()
		s := t.Format(time.DateTime)
		if us := t.Nanosecond() / 1000; us != 0 {
			s += fmt.Sprintf(".%06d", us)
		}
		return s + "+00:00"
	case Duration:
		return durationText(time.Duration(v.I))
	case Bytes:
		return encodeBinary(v.S)
	}
	return ""
}

// AppendPythonFloat appends f as Python's repr() writes it: "1.0", "0.1",
// "1e+16", "1.5e-05", "inf", "nan".
func AppendPythonFloat(b []byte, f float64) []byte {
	switch {
	case math.IsNaN(f):
		return append(b, "nan"...)
	case math.IsInf(f, 1):
		return append(b, "inf"...)
	case math.IsInf(f, -1):
		return append(b, "-inf"...)
	}
	var buf [32]byte
	e := strconv.AppendFloat(buf[:0], f, 'e', -1, 64)
	mant, expText, _ := strings.Cut(string(e), "e")
	exp, _ := strconv.Atoi(expText)
	if exp < -4 || exp >= 16 {
		b = append(b, mant...)
		b = append(b, 'e')
		if exp < 0 {
			b = append(b, '-')
			exp = -exp
		} else {
			b = append(b, '+')
		}
		if exp < 10 {
			b = append(b, '0')
		}
		return strconv.AppendInt(b, int64(exp), 10)
	}
	start := len(b)
	b = strconv.AppendFloat(b, f, 'f', -1, 64)
	if bytes.IndexByte(b[start:], '.') >= 0 {
		return b
	}
	return append(b, ".0"...)
}

// Parse converts text (as it comes in a URL or a cursor, Text's output)
// to a value of the field's kind, the way Django's fields read lookups.
// It fails with ErrInvalidValue.
func (f *Field) Parse(text string) (Value, error) {
	v := Value{Kind: f.Kind}
	var err error
	switch f.Kind {
	case String:
		v.S = text
	case Bool:
		switch text {
		case "t", "True", "true", "1":
			v.B = true
		case "f", "False", "false", "0":
		default:
			err = ErrInvalidValue
		}
	case Int:
		v.I, err = strconv.ParseInt(strings.TrimSpace(text), 10, f.Bits)
	case Uint:
		v.U, err = strconv.ParseUint(strings.TrimSpace(text), 10, f.Bits)
	case Float:
		v.F, err = strconv.ParseFloat(strings.TrimSpace(text), 64)
	case Time:
		v.T, err = ParseDateTime(text)
	case Duration:
		var d time.Duration
		d, err = ParseDuration(text)
		v.I = int64(d)
	case Bytes:
		var b []byte
		b, err = DecodeBinary(text)
		v.S = string(b)
	case Custom:
		v, err = f.parseCustom(text)
	default:
		err = ErrInvalidValue
	}
	if err != nil {
		return Value{}, fmt.Errorf("%w: field %q: %q", ErrInvalidValue, f.Column, text)
	}
	return v, nil
}

// ParseDateTime reads a datetime as Django's parse_datetime does:
// "YYYY-MM-DD[T ]HH:MM[:SS[.ffffff]][Z|±HH[:MM]]", naive times being UTC.
// The result is in UTC.
func ParseDateTime(s string) (time.Time, error) {
	p := parser{s: s, ok: true}
	year := p.digits(4, 4)
	p.lit('-')
	month := p.digits(1, 2)
	p.lit('-')
	day := p.digits(1, 2)
	if !p.ok || p.i >= len(s) || (s[p.i] != 'T' && s[p.i] != ' ') {
		return time.Time{}, badDateTime(s)
	}
	p.i++
	hour := p.digits(1, 2)
	p.lit(':')
	minute := p.digits(1, 2)
	second, nanos := 0, 0
	if p.ok && p.peek(':') {
		p.i++
		second = p.digits(1, 2)
		if p.ok && (p.peek('.') || p.peek(',')) {
			p.i++
			start := p.i
			p.digits(1, 12)
			n := min(p.i-start, 6)
			us, _ := strconv.Atoi(s[start : start+n])
			for range 6 - n {
				us *= 10
			}
			nanos = us * 1000
		}
	}
	for p.ok && p.i < len(s) && (s[p.i] == ' ' || s[p.i] == '\t') {
		p.i++
	}
	loc := time.UTC
	if p.ok && p.i < len(s) {
		switch c := s[p.i]; c {
		case 'Z':
			p.i++
		case '+', '-':
			p.i++
			hh := p.digits(2, 2)
			mm := 0
			if p.ok && p.i < len(s) {
				if p.peek(':') {
					p.i++
				}
				mm = p.digits(2, 2)
			}
			off := hh*3600 + mm*60
			if c == '-' {
				off = -off
			}
			if off != 0 {
				loc = time.FixedZone("", off)
			}
		default:
			p.ok = false
		}
	}
	if !p.ok || p.i != len(s) || month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59 {
		return time.Time{}, badDateTime(s)
	}
	t := time.Date(year, time.Month(month), day, hour, minute, second, nanos, loc)
	if t.Day() != day {
		return time.Time{}, badDateTime(s)
	}
	return t.UTC(), nil
}

// badDateTime is ParseDateTime's error for s.
func badDateTime(s string) error { return fmt.Errorf("%w: datetime %q", ErrInvalidValue, s) }

type parser struct {
	s  string
	i  int
	ok bool
}

func (p *parser) peek(c byte) bool { return p.i < len(p.s) && p.s[p.i] == c }

func (p *parser) lit(c byte) {
	if !p.ok {
		return
	}
	if p.peek(c) {
		p.i++
		return
	}
	p.ok = false
}

// digits reads between lo and hi digits.
func (p *parser) digits(lo, hi int) int {
	if !p.ok {
		return 0
	}
	n, v := 0, 0
	for n < hi && p.i < len(p.s) && p.s[p.i] >= '0' && p.s[p.i] <= '9' {
		v = v*10 + int(p.s[p.i]-'0')
		p.i++
		n++
	}
	if n < lo {
		p.ok = false
	}
	return v
}

// Bind returns v as an SQL argument; times are text in Django's storage
// format so that they compare with stored values as text, durations
// Django's SQLite bigint of microseconds (PostgreSQL takes
// PostgresInterval's text instead), bytes a []byte (a BLOB or bytea).
func (v Value) Bind() any {
	if v.Null {
		return nil
	}
	switch v.Kind {
	case String:
		return v.S
	case Bool:
		return v.B
	case Int:
		return v.I
	case Uint:
		if v.U > math.MaxInt64 {
			return strconv.FormatUint(v.U, 10)
		}
		return int64(v.U)
	case Float:
		return v.F
	case Time:
		return store.FormatTime(v.T)
	case Duration:
		return v.I / int64(time.Microsecond)
	case Bytes:
		return []byte(v.S)
	}
	return nil
}

// FromDB converts a value read from the database (int64, float64, bool,
// []byte, string, time.Time or nil) to the field's kind (a duration from
// Django's SQLite microseconds or PostgreSQL's interval text); a Custom field's
// value is scanned into a new value of its type and given as its
// Valuer's.
func (f *Field) FromDB(src any) (Value, error) {
	v := Value{Kind: f.Kind}
	if src == nil {
		if !f.Nullable {
			return v, fmt.Errorf("structs: column %q is NULL but field %s is not a pointer", f.Column, f.Name)
		}
		v.Null = true
		return v, nil
	}
	if f.custom != nil {
		p := f.custom.fresh()
		if err := f.custom.scan(p, src); err != nil {
			return Value{}, fmt.Errorf("structs: column %q: %w", f.Column, err)
		}
		return f.custom.valueAt(p)
	}
	if b, ok := src.([]byte); ok {
		src = string(b)
	}
	var err error
	switch f.Kind {
	case Bytes:
		if s, ok := src.(string); ok {
			v.S = s
		} else {
			err = ErrInvalidValue
		}
	case Duration:
		var d time.Duration
		d, err = durationFromDB(src)
		v.I = int64(d)
	case String:
		switch x := src.(type) {
		case string:
			v.S = x
		case int64:
			v.S = strconv.FormatInt(x, 10)
		case float64:
			v.S = string(AppendPythonFloat(nil, x))
		case time.Time:
			v.S = store.FormatTime(x)
		default:
			err = ErrInvalidValue
		}
	case Bool:
		switch x := src.(type) {
		case bool:
			v.B = x
		case int64:
			v.B = x != 0
		default:
			err = ErrInvalidValue
		}
	case Int, Uint:
		var i int64
		switch x := src.(type) {
		case int64:
			i = x
		case bool:
			i = int64(boolInt(x))
		case float64:
			i = int64(x)
		case string:
			i, err = strconv.ParseInt(x, 10, 64)
		default:
			err = ErrInvalidValue
		}
		v.I, v.U = i, uint64(i)
	case Float:
		switch x := src.(type) {
		case float64:
			v.F = x
		case int64:
			v.F = float64(x)
		case string:
			v.F, err = strconv.ParseFloat(x, 64)
		default:
			err = ErrInvalidValue
		}
	case Time:
		switch x := src.(type) {
		case time.Time:
			v.T = x.UTC()
		case string:
			v.T, err = ParseDateTime(x)
		default:
			err = ErrInvalidValue
		}
	default:
		err = ErrInvalidValue
	}
	if err != nil {
		return Value{}, fmt.Errorf("structs: column %q: cannot read %T %v into %s", f.Column, src, src, f.Type)
	}
	return v, nil
}
