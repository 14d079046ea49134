package structs

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unsafe"
)

// collection reads and writes a column of PostgreSQL's array or hstore
// type held in a Go slice or map: django.contrib.postgres' ArrayField
// and HStoreField. Both PostgreSQL drivers of the store read these types
// as their text, which is what a write binds too.
type collection interface {
	// text is the column's text of the slice or map at p.
	text(p unsafe.Pointer) string
	// parse sets the slice or map at p from a column's text.
	parse(p unsafe.Pointer, text string) error
	// setNil stores a nil slice or map at p.
	setNil(p unsafe.Pointer)
	// decode sets the slice or map at p from a JSON value.
	decode(p unsafe.Pointer, js []byte) error
}

// collections are the collections by Go type: a slice of a scalar the
// models have (string, bool, int, int32, int64, float64) or of a pointer
// to one (an element that may be NULL), and map[string]*string.
var collections = map[reflect.Type]collection{
	reflect.TypeFor[[]string]():           pgArray[string]{appendQuoted, parseString},
	reflect.TypeFor[[]*string]():          pgArray[*string]{nullable(appendQuoted), nullableParse(parseString)},
	reflect.TypeFor[[]bool]():             pgArray[bool]{appendBool, parseBool},
	reflect.TypeFor[[]*bool]():            pgArray[*bool]{nullable(appendBool), nullableParse(parseBool)},
	reflect.TypeFor[[]int]():              pgArray[int]{appendInt[int], parseInt[int]},
	reflect.TypeFor[[]*int]():             pgArray[*int]{nullable(appendInt[int]), nullableParse(parseInt[int])},
	reflect.TypeFor[[]int32]():            pgArray[int32]{appendInt[int32], parseInt[int32]},
	reflect.TypeFor[[]*int32]():           pgArray[*int32]{nullable(appendInt[int32]), nullableParse(parseInt[int32])},
	reflect.TypeFor[[]int64]():            pgArray[int64]{appendInt[int64], parseInt[int64]},
	reflect.TypeFor[[]*int64]():           pgArray[*int64]{nullable(appendInt[int64]), nullableParse(parseInt[int64])},
	reflect.TypeFor[[]float64]():          pgArray[float64]{appendFloat, parseFloat},
	reflect.TypeFor[[]*float64]():         pgArray[*float64]{nullable(appendFloat), nullableParse(parseFloat)},
	reflect.TypeFor[map[string]*string](): hstore{},
}

// IsCollection reports a slice or map type that a column of PostgreSQL's
// array (a slice) or hstore (map[string]*string) type is read into.
func IsCollection(t reflect.Type) bool {
	_, ok := collections[t]
	return ok
}

// collectionCodec is the codec of a Custom collection type, nil for
// another type.
func collectionCodec(t reflect.Type) *codec {
	if c, ok := collections[t]; ok {
		return &codec{typ: t, coll: c}
	}
	return nil
}

// errNull is the error of a NULL element.
var errNull = errors.New("NULL")

// pgArray is the collection of a []E column, a one-dimensional array.
type pgArray[E any] struct {
	// appendElem appends an element's text in the array's text (quoted
	// when it may need quotes, NULL for nil).
	appendElem func(b []byte, e E) []byte
	// parseElem reads an element's text; null reports an unquoted NULL.
	parseElem func(text string, null bool) (E, error)
}

func (a pgArray[E]) text(p unsafe.Pointer) string {
	s := *(*[]E)(p)
	b := make([]byte, 0, 2+8*len(s))
	b = append(b, '{')
	for i, e := range s {
		if i > 0 {
			b = append(b, ',')
		}
		b = a.appendElem(b, e)
	}
	return string(append(b, '}'))
}

func (a pgArray[E]) setNil(p unsafe.Pointer) { *(*[]E)(p) = nil }

func (a pgArray[E]) decode(p unsafe.Pointer, js []byte) error { return json.Unmarshal(js, (*[]E)(p)) }

// parse reads PostgreSQL's text of a one-dimensional array: an optional
// dimension ("[0:1]="), then "{...}" of elements separated by commas,
// each quoted ("a \"b\"") or not (1, NULL).
func (a pgArray[E]) parse(p unsafe.Pointer, text string) error {
	if strings.HasPrefix(text, "[") {
		_, text, _ = strings.Cut(text, "=")
	}
	body, ok := strings.CutPrefix(text, "{")
	if body, ok = strings.CutSuffix(body, "}"); !ok {
		return fmt.Errorf("%q is no array", text)
	}
	s := []E{}
	for rest := body; rest != ""; {
		var elem string
		var quoted bool
		var err error
		if elem, quoted, rest, err = nextToken(rest, ","); err != nil {
			return fmt.Errorf("array %q: %w", text, err)
		}
		if !quoted && strings.HasPrefix(elem, "{") {
			return fmt.Errorf("array %q has more than one dimension", text)
		}
		e, err := a.parseElem(elem, !quoted && strings.EqualFold(elem, "NULL"))
		if err != nil {
			return fmt.Errorf("array %q: element %q: %w", text, elem, err)
		}
		s = append(s, e)
		if rest, ok = strings.CutPrefix(rest, ","); !ok && rest != "" {
			return fmt.Errorf("array %q: %q after an element", text, rest)
		}
	}
	*(*[]E)(p) = s
	return nil
}

// nextToken reads one element of an array's or an hstore's text from s,
// up to one of stops or the end: a quoted one unescaped (quoted true),
// another trimmed of spaces; rest starts at what follows it.
func nextToken(s, stops string) (tok string, quoted bool, rest string, err error) {
	s = strings.TrimLeft(s, " ")
	if !strings.HasPrefix(s, `"`) {
		i := strings.IndexAny(s, stops)
		if i < 0 {
			i = len(s)
		}
		return strings.TrimSpace(s[:i]), false, s[i:], nil
	}
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		switch c := s[i]; c {
		case '\\':
			if i++; i < len(s) {
				b.WriteByte(s[i])
			}
		case '"':
			return b.String(), true, strings.TrimLeft(s[i+1:], " "), nil
		default:
			b.WriteByte(c)
		}
	}
	return "", false, "", errors.New("unterminated quotes")
}

// appendQuoted appends s quoted as an array's or an hstore's text
// quotes it: in double quotes, a double quote or a backslash escaped.
func appendQuoted(b []byte, s string) []byte {
	b = append(b, '"')
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == '"' || c == '\\' {
			b = append(b, '\\')
		}
		b = append(b, s[i])
	}
	return append(b, '"')
}

func parseString(text string, null bool) (string, error) {
	if null {
		return "", errNull
	}
	return text, nil
}

func appendBool(b []byte, v bool) []byte {
	if v {
		return append(b, 't')
	}
	return append(b, 'f')
}

func parseBool(text string, null bool) (bool, error) {
	switch {
	case null:
		return false, errNull
	case text == "t" || text == "true":
		return true, nil
	case text == "f" || text == "false":
		return false, nil
	}
	return false, errors.New("not a boolean")
}

func appendInt[I int | int32 | int64](b []byte, v I) []byte {
	return strconv.AppendInt(b, int64(v), 10)
}

func parseInt[I int | int32 | int64](text string, null bool) (I, error) {
	if null {
		return 0, errNull
	}
	n, err := strconv.ParseInt(text, 10, int(unsafe.Sizeof(I(0)))*8)
	return I(n), err
}

// appendFloat appends v as PostgreSQL reads a double precision:
// Infinity, -Infinity and NaN by those names.
func appendFloat(b []byte, v float64) []byte {
	switch {
	case math.IsInf(v, 1):
		return append(b, "Infinity"...)
	case math.IsInf(v, -1):
		return append(b, "-Infinity"...)
	}
	return strconv.AppendFloat(b, v, 'g', -1, 64)
}

func parseFloat(text string, null bool) (float64, error) {
	if null {
		return 0, errNull
	}
	return strconv.ParseFloat(text, 64)
}

// nullable is the appendElem of *S from S's: NULL for nil.
func nullable[S any](app func([]byte, S) []byte) func([]byte, *S) []byte {
	return func(b []byte, e *S) []byte {
		if e == nil {
			return append(b, "NULL"...)
		}
		return app(b, *e)
	}
}

// nullableParse is the parseElem of *S from S's: nil for NULL.
func nullableParse[S any](parse func(string, bool) (S, error)) func(string, bool) (*S, error) {
	return func(text string, null bool) (*S, error) {
		if null {
			return nil, nil
		}
		v, err := parse(text, false)
		if err != nil {
			return nil, err
		}
		return &v, nil
	}
}

// hstore is the collection of a map[string]*string column of
// PostgreSQL's hstore type: "key"=>"value", "key"=>NULL.
type hstore struct{}

func (hstore) text(p unsafe.Pointer) string {
	m := *(*map[string]*string)(p)
	b := make([]byte, 0, 16*len(m))
	for _, k := range sortedMapKeys(m) {
		if len(b) > 0 {
			b = append(b, ", "...)
		}
		b = append(appendQuoted(b, k), "=>"...)
		if v := m[k]; v != nil {
			b = appendQuoted(b, *v)
		} else {
			b = append(b, "NULL"...)
		}
	}
	return string(b)
}

func (hstore) setNil(p unsafe.Pointer) { *(*map[string]*string)(p) = nil }

func (hstore) decode(p unsafe.Pointer, js []byte) error {
	return json.Unmarshal(js, (*map[string]*string)(p))
}

// parse reads PostgreSQL's text of an hstore: pairs key=>value separated
// by commas, a value NULL when it is an unquoted NULL.
func (hstore) parse(p unsafe.Pointer, text string) error {
	m := map[string]*string{}
	for rest := strings.TrimSpace(text); rest != ""; {
		key, _, r, err := nextToken(rest, "=")
		if err != nil {
			return fmt.Errorf("hstore %q: %w", text, err)
		}
		r, ok := strings.CutPrefix(strings.TrimLeft(r, " "), "=>")
		if !ok || key == "" && r == "" {
			return fmt.Errorf("hstore %q: no => after %q", text, key)
		}
		val, quoted, r, err := nextToken(r, ",")
		if err != nil {
			return fmt.Errorf("hstore %q: %w", text, err)
		}
		if !quoted && strings.EqualFold(val, "NULL") {
			m[key] = nil
		} else {
			m[key] = &val
		}
		if rest, ok = strings.CutPrefix(strings.TrimLeft(r, " "), ","); !ok && r != "" {
			return fmt.Errorf("hstore %q: %q after a value", text, r)
		}
		rest = strings.TrimLeft(rest, " ")
	}
	*(*map[string]*string)(p) = m
	return nil
}

// sortedMapKeys are m's keys in order, so that a map's text is the same
// each time.
func sortedMapKeys(m map[string]*string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
