// Package query is the vocabulary of list queries that filter backends
// and paginators share without knowing the item type: an ordering term,
// a keyset comparison, the Query they narrow, count and fetch, and the
// Rows a fetch returns. Typed sources (package queryset) implement it;
// the framework's core and its policies depend on this package alone.
package query

import (
	"context"
	"errors"
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

// Reversed returns the ordering with every term's direction flipped.
func Reversed(ordering []Order) []Order {
	r := make([]Order, len(ordering))
	for i, o := range ordering {
		r[i] = Order{Field: o.Field, Desc: !o.Desc}
	}
	return r
}

// Op is a comparison of a keyset condition.
type Op int

// Keyset comparisons.
const (
	Greater Op = iota
	Less
)

// Lookup is a Django field lookup (field__lookup=value): how Where
// compares a field with its values.
type Lookup string

// The lookups of Where, Django's.
const (
	Exact     Lookup = "exact"     // equal to the value
	IExact    Lookup = "iexact"    // equal, ignoring case
	Contains  Lookup = "contains"  // holds the value (case-insensitively for ASCII on SQLite, as Django's LIKE)
	IContains Lookup = "icontains" // holds the value, ignoring case
	GT        Lookup = "gt"        // greater than the value
	GTE       Lookup = "gte"       // greater than or equal
	LT        Lookup = "lt"        // less than
	LTE       Lookup = "lte"       // less than or equal
	In        Lookup = "in"        // equal to one of the values
	Range     Lookup = "range"     // between the two values, both included
	IsNull    Lookup = "isnull"    // null when the value is "true", not null when "false"
	Date      Lookup = "date"      // a date-time whose date (in UTC) is the value, YYYY-MM-DD

	// The lookups of django.contrib.postgres' ArrayField, whose values
	// are the array's elements (Contains and Exact compare with the
	// array of them too).
	ContainedBy Lookup = "contained_by" // every element is one of the values
	Overlap     Lookup = "overlap"      // an element is one of the values
	Len         Lookup = "len"          // the array holds the value's number of elements
)

// ErrInvalidValue is the error of a filter value or a position that does
// not convert to its field's type (a lookup of "abc" on an integer field).
// Generic views answer it with 404, as Django's get_object_or_404 does.
var ErrInvalidValue = errors.New("invalid value")

// Query is a list query over a source of items whose type it does not
// name. Every method that returns a Query returns a new one; the receiver
// is unchanged. Unknown fields and values that do not convert are errors
// reported when the query is evaluated (Count, Fetch).
type Query interface {
	// Fields lists the field names the query can filter and order by.
	Fields() []string
	// Ordering returns the current ordering; do not modify it.
	Ordering() []Order
	// OrderBy returns the query ordered by o (replacing any ordering).
	OrderBy(o ...Order) Query
	// Filter returns the items whose field equals value (given as text,
	// as it comes in a URL).
	Filter(field, value string) Query
	// Seek returns the items whose field compares op to position, where
	// position is the text form of the field's value (Rows.Position).
	Seek(field string, op Op, position string) Query
	// SeekAfter returns the items that come strictly after the position
	// in ordering: positions holds the text forms of ordering's fields, in
	// its order. Items where one of those fields is null never come after
	// a position. The ordering should end with a unique field (the
	// primary key), so that no two items share a position.
	SeekAfter(ordering []Order, positions []string) Query
	// Search returns the items where every term is contained,
	// case-insensitively, in at least one of the fields. A term given
	// more than once is one condition, as Django 3.2's query makes it.
	Search(fields []string, terms []string) Query
	// Where returns the items whose field compares by lookup with the
	// values (their text forms; numbers may be decimals, "2.5", "1e1",
	// which an integer field truncates toward zero first, as Django's
	// IntegerField does): one value, or the list of In, or the two bounds
	// of Range, or an ArrayField's elements (Contains, ContainedBy,
	// Overlap and Exact on one). Null fields match only IsNull.
	Where(field string, lookup Lookup, values ...string) Query
	// Count returns the number of items.
	Count(ctx context.Context) (int, error)
	// EstimateCount returns the number of items or, when the source can
	// estimate it faster than counting, an estimate; exact says which.
	EstimateCount(ctx context.Context) (n int, exact bool, err error)
	// Fetch reads up to limit items from offset (limit < 0: all) into the
	// typed rows the query was made with, and returns them.
	Fetch(ctx context.Context, offset, limit int) (Rows, error)
}

// Rows are the items a Fetch read, in order, as a paginator sees them.
type Rows interface {
	// Len is the number of items.
	Len() int
	// Position returns the text form of item i's field, the value a
	// cursor carries (Django's str() of it: "2024-01-05 00:00:00+00:00"
	// for times).
	Position(i int, field string) (string, error)
	// Keep keeps the first n items (n <= Len).
	Keep(n int)
	// Reverse reverses the items' order.
	Reverse()
}
