package structs

import (
	"bytes"
	"database/sql"
	"database/sql/driver"
	"encoding"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"time"
	"unsafe"
)

var (
	scannerType     = reflect.TypeFor[sql.Scanner]()
	valuerType      = reflect.TypeFor[driver.Valuer]()
	jsonMarshaler   = reflect.TypeFor[json.Marshaler]()
	jsonUnmarshaler = reflect.TypeFor[json.Unmarshaler]()
	textMarshaler   = reflect.TypeFor[encoding.TextMarshaler]()
	textUnmarshaler = reflect.TypeFor[encoding.TextUnmarshaler]()
	rawMessageType  = reflect.TypeFor[json.RawMessage]()
)

// modelsPath is the package of the model layer's column types, whose
// formats are known by name here (it imports this package).
const modelsPath = "github.com/go-drf/drf/framework/models"

// modelsFormats are the formats of framework/models' types: Django's
// DateField and TimeField.
var modelsFormats = map[string]string{"Date": "date", "TimeOfDay": "time"}

// codec reads and writes the values of one Custom type T through its
// interfaces. Each interface is kept as a template holding a *T, made
// once at setup; a call puts the address of the value at hand in the
// template's data word, so that no reflection happens per value.
type codec struct {
	// format is the type's DRF field name: "uuid", "decimal", "json",
	// "date", "time" or "".
	format string
	// err says why a type that implements some of the interfaces cannot
	// be used.
	err error
	// typ is T, for the fresh values that a nullable pointer field, a
	// lookup and a decode need.
	typ reflect.Type
	// raw reports json.RawMessage, which is stored as its JSON text.
	raw bool
	// coll reads and writes a slice or map column of PostgreSQL's array
	// or hstore type (pgarray.go); nil for another type.
	coll    collection
	scanner sql.Scanner
	valuer  driver.Valuer
	jm      json.Marshaler
	tm      encoding.TextMarshaler
	ju      json.Unmarshaler
	tu      encoding.TextUnmarshaler
}

// eface is the layout of an interface value: a type (or method table)
// word and a data word, which for a pointer type is the pointer itself.
type eface struct {
	tab, data unsafe.Pointer
}

// at returns tmpl, an interface value holding a *T, holding p instead.
func at[I any](tmpl I, p unsafe.Pointer) I {
	x := tmpl
	(*eface)(unsafe.Pointer(&x)).data = p
	return x
}

// template returns the interface I of a new *T, or the zero I when *T
// does not implement it.
func template[I any](t reflect.Type) I {
	var zero I
	if !reflect.PointerTo(t).Implements(reflect.TypeFor[I]()) {
		return zero
	}
	return reflect.New(t).Interface().(I)
}

// codecOf returns the codec of t, nil when t is not a Custom type, or an
// error when t implements only half of database/sql's contract.
func codecOf(t reflect.Type) (*codec, error) {
	c := &codec{typ: t, raw: t == rawMessageType}
	p := reflect.PointerTo(t)
	scans, values := p.Implements(scannerType), p.Implements(valuerType)
	switch {
	case c.raw:
		c.format = "json"
		return c, nil
	case !scans && !values:
		return nil, nil
	case !scans:
		return nil, fmt.Errorf("type %s implements driver.Valuer but *%s does not implement sql.Scanner", t, t)
	case !values:
		return nil, fmt.Errorf("*%s implements sql.Scanner but %s does not implement driver.Valuer", t, t)
	}
	c.scanner, c.valuer = template[sql.Scanner](t), template[driver.Valuer](t)
	c.jm, c.tm = template[json.Marshaler](t), template[encoding.TextMarshaler](t)
	c.ju, c.tu = template[json.Unmarshaler](t), template[encoding.TextUnmarshaler](t)
	switch {
	case t.Kind() == reflect.Array && t.Len() == 16 && t.Elem().Kind() == reflect.Uint8:
		c.format = "uuid"
	case strings.Contains(t.Name(), "Decimal"):
		c.format = "decimal"
	case t.PkgPath() == modelsPath:
		c.format = modelsFormats[t.Name()]
	}
	return c, nil
}

// nullWrapper reports a struct like sql.NullString or sql.Null[T] of a
// scalar: its first field is the value, its second the bool Valid, and it
// is a sql.Scanner. It returns the value's field and the flag's offset.
func nullWrapper(t reflect.Type) (reflect.StructField, uintptr, bool) {
	if t.Kind() != reflect.Struct || t.NumField() != 2 || !reflect.PointerTo(t).Implements(scannerType) {
		return reflect.StructField{}, 0, false
	}
	v, ok := t.Field(0), t.Field(1)
	if ok.Name != "Valid" || ok.Type.Kind() != reflect.Bool || !v.IsExported() {
		return reflect.StructField{}, 0, false
	}
	if k, _ := kindOf(v.Type); k == Unsupported || v.Type.Kind() == reflect.Pointer {
		return reflect.StructField{}, 0, false
	}
	if c, err := codecOf(v.Type); c != nil || err != nil {
		return reflect.StructField{}, 0, false
	}
	return v, ok.Offset, true
}

// fresh returns the address of a new zero T.
func (c *codec) fresh() unsafe.Pointer { return reflect.New(c.typ).UnsafePointer() }

// driverValue is the Valuer's value of the T at p. Bytes are copied, so
// that the value never shares the item's memory: p is hidden from escape
// analysis (the Valuer is called, not kept), so that an item a source
// writes stays where its caller put it, on the stack if there.
func (c *codec) driverValue(p unsafe.Pointer) (driver.Value, error) {
	if c.raw {
		raw := *(*json.RawMessage)(p)
		if raw == nil {
			return nil, nil
		}
		return string(raw), nil
	}
	if c.coll != nil {
		return c.coll.text(p), nil
	}
	x, err := at(c.valuer, noescape(p)).Value()
	if err != nil {
		return nil, err
	}
	if b, ok := x.([]byte); ok {
		return bytes.Clone(b), nil
	}
	return driver.DefaultParameterConverter.ConvertValue(x)
}

// noescape returns p, which escape analysis no longer follows.
func noescape(p unsafe.Pointer) unsafe.Pointer {
	x := uintptr(p)
	return *(*unsafe.Pointer)(unsafe.Pointer(&x))
}

// valueAt is the Valuer's value of the T at p as a Value: text and bytes
// are String, and so on.
func (c *codec) valueAt(p unsafe.Pointer) (Value, error) {
	x, err := c.driverValue(p)
	if err != nil {
		return Value{Kind: Custom, Null: true}, err
	}
	switch x := x.(type) {
	case nil:
		return Value{Kind: Custom, Null: true}, nil
	case string:
		return Value{Kind: String, S: x}, nil
	case []byte:
		return Value{Kind: String, S: string(x)}, nil
	case int64:
		return Value{Kind: Int, I: x}, nil
	case float64:
		return Value{Kind: Float, F: x}, nil
	case bool:
		return Value{Kind: Bool, B: x}, nil
	case time.Time:
		return Value{Kind: Time, T: x.UTC()}, nil
	}
	return Value{Kind: Custom, Null: true}, fmt.Errorf("structs: %s's Value gave %T", c.typ, x)
}

// scan reads src into the T at p.
func (c *codec) scan(p unsafe.Pointer, src any) error {
	if c.raw {
		switch x := src.(type) {
		case nil:
			*(*json.RawMessage)(p) = nil
		case []byte:
			*(*json.RawMessage)(p) = append(json.RawMessage(nil), x...)
		case string:
			*(*json.RawMessage)(p) = json.RawMessage(x)
		default:
			return fmt.Errorf("cannot read %T into json.RawMessage", src)
		}
		return nil
	}
	if c.coll != nil {
		switch x := src.(type) {
		case nil:
			c.coll.setNil(p)
			return nil
		case string:
			return c.coll.parse(p, x)
		case []byte:
			return c.coll.parse(p, string(x))
		}
		return fmt.Errorf("cannot read %T into %s", src, c.typ)
	}
	return at(c.scanner, p).Scan(src)
}

// Valuer returns a Custom field's Valuer's value as a Value (Null when it
// is nil, or when the field is a nil pointer).
func (f *Field) Valuer(base Addr) (Value, error) {
	p := f.ptr(base)
	if p == nil {
		return Value{Kind: f.Kind, Null: true}, nil
	}
	return f.custom.valueAt(p)
}

// Arg returns the field's value as an SQL argument: a Custom field's
// Valuer's value (as database/sql would bind the field itself), else
// Get(base).Bind().
func (f *Field) Arg(base Addr) (any, error) {
	if f.custom == nil {
		return f.Get(base).Bind(), nil
	}
	p := f.ptr(base)
	if p == nil {
		return nil, nil
	}
	x, err := f.custom.driverValue(p)
	if err != nil {
		return nil, fmt.Errorf("structs: field %s: %w", f.Name, err)
	}
	return x, nil
}

// Scan reads src, a value read from the database, into a Custom field
// through its sql.Scanner: NULL makes a nullable pointer field nil, and
// any other value is scanned into new storage for it.
func (f *Field) Scan(base Addr, src any) error {
	p := f.slot(base)
	if f.Nullable {
		if src == nil {
			*(*unsafe.Pointer)(p) = nil
			return nil
		}
		fresh := f.custom.fresh()
		if err := f.custom.scan(fresh, src); err != nil {
			return fmt.Errorf("structs: column %q: %w", f.Column, err)
		}
		*(*unsafe.Pointer)(p) = fresh
		return nil
	}
	if err := f.custom.scan(p, src); err != nil {
		return fmt.Errorf("structs: column %q: %w", f.Column, err)
	}
	return nil
}

// setNullCustom sets a Custom field to NULL: nil for a pointer, else what
// its type's Scan makes of NULL.
func (f *Field) setNullCustom(base Addr) {
	if f.Nullable {
		*(*unsafe.Pointer)(f.slot(base)) = nil
		return
	}
	// A type that refuses NULL keeps its value; Validate refuses null
	// for it before it gets here.
	_ = f.custom.scan(noescape(f.slot(base)), nil)
}

// Marshalers returns a Custom field's json.Marshaler and
// encoding.TextMarshaler, each nil when its type has none or when the
// field is NULL.
func (f *Field) Marshalers(base Addr) (json.Marshaler, encoding.TextMarshaler) {
	p := f.ptr(base)
	c := f.custom
	if p == nil || c == nil {
		return nil, nil
	}
	if c.raw {
		m := (*json.RawMessage)(p)
		if *m == nil {
			return nil, nil
		}
		return m, nil
	}
	var jm json.Marshaler
	var tm encoding.TextMarshaler
	if c.coll != nil {
		return nil, nil
	}
	if c.jm != nil {
		jm = at(c.jm, p)
	}
	if c.tm != nil {
		tm = at(c.tm, p)
	}
	return jm, tm
}

// ErrDecode is the error of a JSON value that a Custom type refuses.
var ErrDecode = errors.New("structs: invalid value")

// Decode sets a Custom field from js, one JSON value: through the type's
// json.Unmarshaler, else (for a JSON string) its encoding.TextUnmarshaler,
// else its sql.Scanner given the string, number, bool or nil. A nullable
// pointer field gets new storage (null makes it nil); another field is
// decoded in place, and a value its type refuses may leave it changed,
// so decode into a copy. The error wraps ErrDecode.
func (f *Field) Decode(base Addr, js []byte) error {
	c := f.custom
	p := f.slot(base)
	if f.Nullable {
		if string(js) == "null" {
			*(*unsafe.Pointer)(p) = nil
			return nil
		}
		p = c.fresh()
	}
	if err := c.decode(p, js); err != nil {
		return fmt.Errorf("%w: %s: %w", ErrDecode, f.Name, err)
	}
	if f.Nullable {
		*(*unsafe.Pointer)(f.slot(base)) = p
	}
	return nil
}

func (c *codec) decode(p unsafe.Pointer, js []byte) error {
	switch {
	case c.raw:
		if !json.Valid(js) {
			return errors.New("not JSON")
		}
		*(*json.RawMessage)(p) = append(json.RawMessage(nil), js...)
		return nil
	case c.coll != nil:
		return c.coll.decode(p, js)
	case c.ju != nil:
		return at(c.ju, p).UnmarshalJSON(js)
	}
	var s string
	isString := json.Unmarshal(js, &s) == nil
	switch {
	case c.tu != nil && isString:
		return at(c.tu, p).UnmarshalText([]byte(s))
	case c.tu != nil:
		return errors.New("not a string")
	case isString:
		return c.scan(p, s)
	case string(js) == "null":
		return c.scan(p, nil)
	case string(js) == "true" || string(js) == "false":
		return c.scan(p, string(js) == "true")
	}
	if i, err := strconv.ParseInt(string(js), 10, 64); err == nil {
		return c.scan(p, i)
	}
	if x, err := strconv.ParseFloat(string(js), 64); err == nil {
		return c.scan(p, x)
	}
	return errors.New("not a scalar")
}

// parseCustom reads text (a URL's lookup, a cursor's position) into a
// new T through its encoding.TextUnmarshaler, else its sql.Scanner, and
// returns its Valuer's value.
func (f *Field) parseCustom(text string) (Value, error) {
	c := f.custom
	p := c.fresh()
	var err error
	switch {
	case c.raw:
		err = c.decode(p, []byte(text))
	case c.tu != nil:
		err = at(c.tu, p).UnmarshalText([]byte(text))
	default:
		err = c.scan(p, text)
	}
	if err != nil {
		return Value{}, err
	}
	v, err := c.valueAt(p)
	if err == nil && v.Null {
		err = ErrInvalidValue
	}
	return v, err
}
