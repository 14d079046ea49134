package structs

import (
	"reflect"
	"unsafe"
)

// Addr is the address of a model struct, or of a value inside one, that
// Field's methods read and write by offset: the one way the data path
// holds a value whose type it knows only at setup. AddrOf makes it, At
// reads it as a *T; the zero Addr is nil.
type Addr struct{ p unsafe.Pointer }

// AddrOf returns the address of the value p points to.
func AddrOf[T any](p *T) Addr { return Addr{unsafe.Pointer(p)} }

// At returns the value at a as a *T; T must be the type of what is there.
func At[T any](a Addr) *T { return (*T)(a.p) }

// New returns the address of a new zero value of type t.
func New(t reflect.Type) Addr { return Addr{reflect.New(t).UnsafePointer()} }

// IsNil reports a nil address.
func (a Addr) IsNil() bool { return a.p == nil }

// Add returns the address off bytes past a: a struct field's, from its
// reflect.StructField Offset.
func (a Addr) Add(off uintptr) Addr { return Addr{unsafe.Add(a.p, off)} }

// Index returns the address of element i of the array at a, whose
// elements are size bytes (their reflect.Type's Size).
func (a Addr) Index(i int, size uintptr) Addr { return Addr{unsafe.Add(a.p, uintptr(i)*size)} }

// SliceHeader is the layout of a slice of any element type: a slice
// whose element type is known only at setup (a nested list of structs)
// is read and set through it, At[SliceHeader] of the slice's address.
type SliceHeader struct {
	// Data is the address of the first element.
	Data Addr
	// Len and Cap are the slice's length and capacity.
	Len, Cap int
}
