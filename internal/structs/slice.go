package structs

import "unsafe"

// SliceHeader is the layout of a slice of any element type: a slice
// whose element type is known only at setup (a nested list of structs)
// is read and set through it.
type SliceHeader struct {
	// Data points to the first element.
	Data unsafe.Pointer
	// Len and Cap are the slice's length and capacity.
	Len, Cap int
}
