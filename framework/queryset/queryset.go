// Package queryset is the data-source abstraction of list views and
// paginators, like a Django QuerySet: an immutable, lazily evaluated
// collection (a table, a SELECT, or a Go slice) that can be filtered,
// ordered, counted and sliced, and sought by keyset for cursor pagination.
package queryset

import (
	"context"
	"slices"

	"github.com/go-drf/drf/framework/query"
)

// Source is a typed collection of items: a table, a SELECT, or a Go
// slice. Every method that returns a Source returns a new one; the
// receiver is unchanged, so a Source built at setup is shared by all
// requests. Into gives filters and paginators its untyped query.Query.
type Source[T any] interface {
	// Fields lists the field names the source can filter and order by.
	Fields() []string
	// Ordering returns the current ordering; do not modify it.
	Ordering() []query.Order
	// OrderBy returns the source ordered by o (replacing any ordering).
	// Unknown fields are an error reported when the source is evaluated.
	OrderBy(o ...query.Order) Source[T]
	// Filter returns the items whose field equals value (given as text,
	// as it comes in a URL).
	Filter(field, value string) Source[T]
	// Seek returns the items whose field compares op to position, where
	// position is the text form of the field's value (Position's output).
	Seek(field string, op query.Op, position string) Source[T]
	// SeekAfter returns the items that come strictly after the position
	// in ordering (see query.Query's SeekAfter).
	SeekAfter(ordering []query.Order, positions []string) Source[T]
	// Search returns the items where every term is contained,
	// case-insensitively, in at least one of the fields. A term given
	// more than once is one condition, as Django 3.2's query makes it.
	Search(fields []string, terms []string) Source[T]
	// Where returns the items whose field meets the lookup (see
	// query.Query's Where).
	Where(field string, lookup query.Lookup, values ...string) Source[T]
	// Count returns the number of items.
	Count(ctx context.Context) (int, error)
	// Slice returns up to limit items from offset; limit < 0 means all.
	Slice(ctx context.Context, offset, limit int) ([]*T, error)
	// Position returns the text form of item's field, the value a cursor
	// carries (Django's str() of it: "2024-01-05 00:00:00+00:00" for times).
	Position(item *T, field string) (string, error)
}

// Rows holds the items a query made by Into fetched: after a paginator
// ran, the page's items, in order. It is also the query Into returns, so
// that a list that is not narrowed costs no allocation of its own.
type Rows[T any] struct {
	// Items are the fetched items.
	Items []*T
	src   Source[T]
}

// Len is the number of items.
func (r *Rows[T]) Len() int { return len(r.Items) }

// Position returns the text form of item i's field.
func (r *Rows[T]) Position(i int, field string) (string, error) {
	return r.src.Position(r.Items[i], field)
}

// Keep keeps the first n items.
func (r *Rows[T]) Keep(n int) { r.Items = r.Items[:n:n] }

// Reverse reverses the items' order.
func (r *Rows[T]) Reverse() { slices.Reverse(r.Items) }

// Into returns src as an untyped query.Query whose Fetch reads the items
// into rows (nil for a query that only checks, as at setup): the one
// place where the typed and the untyped halves of the data path meet,
// with no type assertion. Filters and paginators narrow the query; the
// caller then reads rows.Items.
//
//	var rows queryset.Rows[Book]
//	page, err := paginator.Paginate(r, queryset.Into(books, &rows))
//	data, err := serializer.Many(rows.Items, ctx)
func Into[T any](src Source[T], rows *Rows[T]) query.Query {
	if rows == nil {
		rows = new(Rows[T])
	}
	rows.src = src
	return rows
}

// The query of rows is its source's; narrowing it gives a set.

// Fields lists the source's fields.
func (r *Rows[T]) Fields() []string { return r.src.Fields() }

// Ordering returns the source's ordering.
func (r *Rows[T]) Ordering() []query.Order { return r.src.Ordering() }

// OrderBy returns the source ordered by o, fetching into r.
func (r *Rows[T]) OrderBy(o ...query.Order) query.Query { return set[T]{r.src, r}.OrderBy(o...) }

// Filter returns the source filtered, fetching into r.
func (r *Rows[T]) Filter(field, value string) query.Query {
	return set[T]{r.src, r}.Filter(field, value)
}

// Seek returns the source sought, fetching into r.
func (r *Rows[T]) Seek(field string, op query.Op, position string) query.Query {
	return set[T]{r.src, r}.Seek(field, op, position)
}

// SeekAfter returns the source sought past positions, fetching into r.
func (r *Rows[T]) SeekAfter(ordering []query.Order, positions []string) query.Query {
	return set[T]{r.src, r}.SeekAfter(ordering, positions)
}

// Search returns the source searched, fetching into r.
func (r *Rows[T]) Search(fields []string, terms []string) query.Query {
	return set[T]{r.src, r}.Search(fields, terms)
}

// Where returns the source narrowed by a lookup, fetching into r.
func (r *Rows[T]) Where(field string, lookup query.Lookup, values ...string) query.Query {
	return set[T]{r.src, r}.Where(field, lookup, values...)
}

// Count counts the source's items.
func (r *Rows[T]) Count(ctx context.Context) (int, error) { return r.src.Count(ctx) }

// EstimateCount estimates the source's items (see query.Query).
func (r *Rows[T]) EstimateCount(ctx context.Context) (int, bool, error) {
	return set[T]{r.src, r}.EstimateCount(ctx)
}

// Fetch reads the source's items into r.
func (r *Rows[T]) Fetch(ctx context.Context, offset, limit int) (query.Rows, error) {
	return set[T]{r.src, r}.Fetch(ctx, offset, limit)
}

// set is a narrowed source whose fetches fill rows.
type set[T any] struct {
	src  Source[T]
	rows *Rows[T]
}

func (s set[T]) Fields() []string        { return s.src.Fields() }
func (s set[T]) Ordering() []query.Order { return s.src.Ordering() }
func (s set[T]) OrderBy(o ...query.Order) query.Query {
	return set[T]{s.src.OrderBy(o...), s.rows}
}
func (s set[T]) Filter(field, value string) query.Query {
	return set[T]{s.src.Filter(field, value), s.rows}
}
func (s set[T]) Seek(field string, op query.Op, position string) query.Query {
	return set[T]{s.src.Seek(field, op, position), s.rows}
}
func (s set[T]) SeekAfter(ordering []query.Order, positions []string) query.Query {
	return set[T]{s.src.SeekAfter(ordering, positions), s.rows}
}
func (s set[T]) Search(fields []string, terms []string) query.Query {
	return set[T]{s.src.Search(fields, terms), s.rows}
}
func (s set[T]) Where(field string, lookup query.Lookup, values ...string) query.Query {
	return set[T]{s.src.Where(field, lookup, values...), s.rows}
}
func (s set[T]) Count(ctx context.Context) (int, error) { return s.src.Count(ctx) }

func (s set[T]) EstimateCount(ctx context.Context) (int, bool, error) {
	if e, ok := s.src.(Estimator); ok {
		return e.EstimateCount(ctx)
	}
	n, err := s.src.Count(ctx)
	return n, true, err
}

func (s set[T]) Fetch(ctx context.Context, offset, limit int) (query.Rows, error) {
	items, err := s.src.Slice(ctx, offset, limit)
	if err != nil {
		return nil, err
	}
	s.rows.Items = items
	return s.rows, nil
}
