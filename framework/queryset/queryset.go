// Package queryset is the data-source abstraction of list views and
// paginators, like a Django QuerySet: an immutable, lazily evaluated
// collection (a table, a SELECT, or a Go slice) that can be filtered,
// ordered, counted and sliced, and sought by keyset for cursor pagination.
package queryset

import (
	"context"
	"strings"
)

// Order is one term of an ordering: a field, ascending or descending.
type Order struct {
	Field string
	Desc  bool
}

// ParseOrder reads DRF's notation: "created" ascending, "-created" descending.
func ParseOrder(s string) Order {
	if f, ok := strings.CutPrefix(s, "-"); ok {
		return Order{Field: f, Desc: true}
	}
	return Order{Field: s}
}

// String returns the DRF notation of o.
func (o Order) String() string {
	if o.Desc {
		return "-" + o.Field
	}
	return o.Field
}

// Op is a comparison of a keyset condition.
type Op int

// Keyset comparisons.
const (
	Greater Op = iota
	Less
)

// Source is a collection of items. Every method that returns a Source
// returns a new one; the receiver is unchanged, so a Source built at setup
// is shared by all requests.
type Source interface {
	// Ordering returns the current ordering.
	Ordering() []Order
	// OrderBy returns the source ordered by o (replacing any ordering).
	// Unknown fields are an error reported when the source is evaluated.
	OrderBy(o ...Order) Source
	// Filter returns the items whose field equals value (given as text,
	// as it comes in a URL).
	Filter(field, value string) Source
	// Seek returns the items whose field compares op to position, where
	// position is the text form of the field's value (Position's output).
	Seek(field string, op Op, position string) Source
	// Search returns the items where every term is contained,
	// case-insensitively, in at least one of the fields.
	Search(fields []string, terms []string) Source
	// Count returns the number of items.
	Count(ctx context.Context) (int, error)
	// Slice returns up to limit items from offset; limit < 0 means all.
	Slice(ctx context.Context, offset, limit int) ([]any, error)
	// Position returns the text form of item's field, the value a cursor
	// carries (Django's str() of it: "2024-01-05 00:00:00+00:00" for times).
	Position(item any, field string) (string, error)
}

// KeysetSeeker is implemented by sources that seek past a row in a
// composite ordering, the condition (a, b, id) > (x, y, z) of keyset
// pagination with each term in its own direction. SQLSource and
// SliceSource implement it.
type KeysetSeeker interface {
	// SeekAfter returns the items that come strictly after the position
	// in ordering: positions holds the text forms (Position's output) of
	// ordering's fields, in its order. Items where one of those fields is
	// null never come after a position. The ordering should end with a
	// unique field (the primary key), so that no two items share a
	// position.
	SeekAfter(ordering []Order, positions []string) Source
}
