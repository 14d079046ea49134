// Package structs describes a model struct's tagged fields once, at setup,
// by reflection, and then reads, writes, compares and converts them by
// offset, without reflection, for data sources and serializers.
//
// A field takes part when it is exported and has a `db` or a `json` tag;
// embedded structs are flattened. Field values are addressed through the
// model's Addr, AddrOf(p) for a p of type *T.
package structs

import (
	"fmt"
	"reflect"
	"strings"
	"time"
	"unsafe"
)

// Kind is the scalar kind of a field.
type Kind int

// Field kinds. The scalar kinds are read and written in place, by
// offset. Custom values are read and written through their type's own
// interfaces (see Custom). Unsupported fields (slices, maps, other structs)
// can be described but not read or written.
const (
	Unsupported Kind = iota
	String
	Bool
	Int
	Uint
	Float
	Time
	// Custom is a type that implements sql.Scanner (on its pointer) and
	// driver.Valuer, such as uuid.UUID or a decimal, or json.RawMessage:
	// it is scanned and bound through those interfaces, compared as its
	// Valuer's value compares, and serialized through json.Marshaler,
	// else encoding.TextMarshaler, else as its Valuer's value. A column
	// of a slice or a map that PostgreSQL's array or hstore type holds
	// (IsCollection) is Custom too, read and written as that type's text.
	Custom
	// Duration is a time.Duration, Django's DurationField (Format
	// "duration"): its Value's I is in nanoseconds, whole microseconds as
	// Django keeps them; it is stored as Django stores it (see Bind).
	Duration
	// Bytes is a []byte, Django's BinaryField (Format "binary"): its
	// Value's S holds the bytes.
	Bytes
)

var (
	timeType     = reflect.TypeOf(time.Time{})
	durationType = reflect.TypeFor[time.Duration]()
	bytesType    = reflect.TypeFor[[]byte]()
)

// Field is one tagged field of a struct.
type Field struct {
	// Name is the Go field name.
	Name string
	// Column is the `db` tag's name, "" when untagged.
	Column string
	// JSON is the `json` tag's name, "" when untagged or "-".
	JSON string
	// NoJSON reports a `json:"-"` tag.
	NoJSON bool
	// Tag is the whole struct tag.
	Tag reflect.StructTag
	// Type is the Go type; for nullable fields, the pointer type.
	Type reflect.Type
	// Kind is the scalar kind of the value.
	Kind Kind
	// Bits is the size of Int, Uint and Float values.
	Bits int
	// Nullable reports a field that holds NULL: a pointer (nil is NULL) or
	// a wrapper with a Valid flag, as sql.NullString and sql.Null[T] are
	// (Valid false is NULL; the value's kind is Kind).
	Nullable bool
	// Format is what the value is, as DRF names its field: "uuid",
	// "decimal", "json", "date" and "time" (framework/models' Date and
	// TimeOfDay) for Custom values, "duration" and "binary" for the
	// Duration and Bytes kinds, "" for another type.
	Format string

	offset uintptr
	// valid is the offset of a wrapper's Valid flag; 0 for other fields
	// (a wrapper's value comes first, so its flag is never at 0).
	valid uintptr
	// custom reads and writes a Custom value; nil for other kinds.
	custom *codec
}

// Struct is the description of a struct type.
type Struct struct {
	// Type is the struct type.
	Type reflect.Type
	// Fields are the tagged fields in declaration order.
	Fields []*Field
}

// Describe describes t, which must be a struct type.
func Describe(t reflect.Type) (*Struct, error) {
	if t.Kind() != reflect.Struct {
		return nil, fmt.Errorf("structs: %s is not a struct type", t)
	}
	s := &Struct{Type: t}
	if err := s.collect(t, 0, map[reflect.Type]bool{}); err != nil {
		return nil, err
	}
	return s, nil
}

// Of describes T.
func Of[T any]() (*Struct, error) { return Describe(reflect.TypeFor[T]()) }

func (s *Struct) collect(t reflect.Type, base uintptr, seen map[reflect.Type]bool) error {
	if seen[t] {
		return fmt.Errorf("structs: %s embeds itself", t)
	}
	seen[t] = true
	defer delete(seen, t)
	for i := range t.NumField() {
		sf := t.Field(i)
		db, hasDB := sf.Tag.Lookup("db")
		js, hasJSON := sf.Tag.Lookup("json")
		if sf.Anonymous && sf.Type.Kind() == reflect.Struct && !hasDB && !hasJSON && sf.Type != timeType {
			if err := s.collect(sf.Type, base+sf.Offset, seen); err != nil {
				return err
			}
			continue
		}
		if !sf.IsExported() || (!hasDB && !hasJSON) {
			continue
		}
		f := &Field{Name: sf.Name, Tag: sf.Tag, Type: sf.Type, offset: base + sf.Offset}
		f.Column, _, _ = strings.Cut(db, ",")
		if f.Column == "-" {
			f.Column = ""
		}
		name, _, _ := strings.Cut(js, ",")
		switch {
		case name == "-":
			f.NoJSON = true
		case hasJSON:
			f.JSON = name
		}
		vt := sf.Type
		if vt.Kind() == reflect.Pointer {
			f.Nullable = true
			vt = vt.Elem()
		}
		switch inner, valid, ok := nullWrapper(vt); {
		case ok && !f.Nullable:
			f.Nullable = true
			f.Kind, f.Bits = kindOf(inner.Type)
			f.Format = kindFormats[f.Kind]
			f.offset += inner.Offset
			f.valid = base + sf.Offset + valid
		default:
			f.Kind, f.Bits = kindOf(vt)
			f.Format = kindFormats[f.Kind]
			if c := collectionCodec(vt); c != nil && f.Column != "" {
				// A column of PostgreSQL's array or hstore type.
				f.Kind, f.custom = Custom, c
			} else if c, err := codecOf(vt); err != nil {
				f.Kind, f.custom = Unsupported, &codec{err: err}
			} else if c != nil {
				f.Kind, f.Bits, f.custom, f.Format = Custom, 0, c, c.format
			}
		}
		s.Fields = append(s.Fields, f)
	}
	return nil
}

// kindFormats are the Formats of the kinds that have one.
var kindFormats = map[Kind]string{Duration: "duration", Bytes: "binary"}

func kindOf(t reflect.Type) (Kind, int) {
	switch t {
	case timeType:
		return Time, 0
	case durationType:
		return Duration, 64
	case bytesType:
		return Bytes, 0
	}
	switch t.Kind() {
	case reflect.String:
		return String, 0
	case reflect.Bool:
		return Bool, 0
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return Int, t.Bits()
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return Uint, t.Bits()
	case reflect.Float32, reflect.Float64:
		return Float, t.Bits()
	}
	return Unsupported, 0
}

// ByColumn returns the field whose `db` name is col.
func (s *Struct) ByColumn(col string) *Field {
	for _, f := range s.Fields {
		if f.Column != "" && f.Column == col {
			return f
		}
	}
	return nil
}

// Columns returns the fields that have a `db` name, in order.
func (s *Struct) Columns() []*Field {
	var cols []*Field
	for _, f := range s.Fields {
		if f.Column != "" {
			cols = append(cols, f)
		}
	}
	return cols
}

// Supported reports an error naming the field if its kind is Unsupported.
func (f *Field) Supported() error {
	if f.Kind == Unsupported {
		if f.custom != nil {
			return fmt.Errorf("structs: field %s: %w", f.Name, f.custom.err)
		}
		return fmt.Errorf("structs: field %s has unsupported type %s (a column type implements sql.Scanner and driver.Valuer)", f.Name, f.Type)
	}
	return nil
}

// slot is the address of the field in the struct at base.
func (f *Field) slot(base Addr) unsafe.Pointer { return unsafe.Add(base.p, f.offset) }

// ptr is the address of the value: the slot, or what a nullable field
// points to (nil when NULL).
func (f *Field) ptr(base Addr) unsafe.Pointer {
	p := f.slot(base)
	if f.Nullable {
		if f.valid != 0 {
			if !*(*bool)(unsafe.Add(base.p, f.valid)) {
				return nil
			}
			return p
		}
		return *(*unsafe.Pointer)(p)
	}
	return p
}

// Addr returns the address of the field's value in the struct at base:
// the field itself, or what a nullable field points to (nil when nil).
func (f *Field) Addr(base Addr) Addr { return Addr{f.ptr(base)} }

// IsNull reports a nullable field that holds NULL.
func (f *Field) IsNull(base Addr) bool {
	return f.Nullable && f.ptr(base) == nil
}

// SetNull sets a nullable field to NULL; other fields get their zero
// value (a Custom one what its Scan makes of NULL).
func (f *Field) SetNull(base Addr) {
	if f.Nullable || f.custom != nil {
		f.Set(base, Value{Kind: f.Kind, Null: true})
		return
	}
	f.Set(base, Value{Kind: f.Kind})
}

// Get returns the field's value; Null is set for nil nullable fields. A
// Custom field's value is its Valuer's (of kind String for text and
// bytes), Null when that fails; Valuer reports the error.
func (f *Field) Get(base Addr) Value {
	p := f.ptr(base)
	if p == nil {
		return Value{Kind: f.Kind, Null: true}
	}
	if f.custom != nil {
		v, _ := f.custom.valueAt(p)
		return v
	}
	v := Value{Kind: f.Kind}
	switch f.Kind {
	case String:
		v.S = *(*string)(p)
	case Bool:
		v.B = *(*bool)(p)
	case Int:
		switch f.Bits {
		case 8:
			v.I = int64(*(*int8)(p))
		case 16:
			v.I = int64(*(*int16)(p))
		case 32:
			v.I = int64(*(*int32)(p))
		default:
			v.I = *(*int64)(p)
		}
	case Uint:
		switch f.Bits {
		case 8:
			v.U = uint64(*(*uint8)(p))
		case 16:
			v.U = uint64(*(*uint16)(p))
		case 32:
			v.U = uint64(*(*uint32)(p))
		default:
			v.U = *(*uint64)(p)
		}
	case Float:
		if f.Bits == 32 {
			v.F = float64(*(*float32)(p))
		} else {
			v.F = *(*float64)(p)
		}
	case Time:
		v.T = *(*time.Time)(p)
	case Duration:
		v.I = *(*int64)(p)
	case Bytes:
		v.S = string(*(*[]byte)(p))
	}
	return v
}

// Set stores v, converted to the field's kind by the caller, in the field.
// A Null value sets a nullable field to nil (a wrapper to Valid false and
// its zero value). A nullable pointer field gets newly allocated storage,
// so values are never shared between structs. Custom fields are set by
// Scan and Decode, not Set; only a Null value reaches them here.
func (f *Field) Set(base Addr, v Value) {
	if f.custom != nil {
		if v.Null {
			f.setNullCustom(base)
		}
		return
	}
	p := f.slot(base)
	switch {
	case f.Nullable && f.valid != 0:
		*(*bool)(unsafe.Add(base.p, f.valid)) = !v.Null
		if v.Null {
			v = Value{Kind: f.Kind}
		}
	case f.Nullable:
		if v.Null {
			*(*unsafe.Pointer)(p) = nil
			return
		}
		*(*unsafe.Pointer)(p) = f.alloc()
		p = *(*unsafe.Pointer)(p)
	}
	switch f.Kind {
	case String:
		*(*string)(p) = v.S
	case Bool:
		*(*bool)(p) = v.B
	case Int:
		switch f.Bits {
		case 8:
			*(*int8)(p) = int8(v.I)
		case 16:
			*(*int16)(p) = int16(v.I)
		case 32:
			*(*int32)(p) = int32(v.I)
		default:
			*(*int64)(p) = v.I
		}
	case Uint:
		switch f.Bits {
		case 8:
			*(*uint8)(p) = uint8(v.U)
		case 16:
			*(*uint16)(p) = uint16(v.U)
		case 32:
			*(*uint32)(p) = uint32(v.U)
		default:
			*(*uint64)(p) = v.U
		}
	case Float:
		if f.Bits == 32 {
			*(*float32)(p) = float32(v.F)
		} else {
			*(*float64)(p) = v.F
		}
	case Time:
		*(*time.Time)(p) = v.T
	case Duration:
		*(*int64)(p) = v.I
	case Bytes:
		*(*[]byte)(p) = []byte(v.S)
	}
}

// alloc returns fresh storage for the value of a nullable field.
func (f *Field) alloc() unsafe.Pointer {
	switch f.Kind {
	case String:
		return unsafe.Pointer(new(string))
	case Bool:
		return unsafe.Pointer(new(bool))
	case Time:
		return unsafe.Pointer(new(time.Time))
	case Bytes:
		return unsafe.Pointer(new([]byte))
	}
	switch f.Bits {
	case 8:
		return unsafe.Pointer(new(uint8))
	case 16:
		return unsafe.Pointer(new(uint16))
	case 32:
		return unsafe.Pointer(new(uint32))
	}
	return unsafe.Pointer(new(uint64))
}
