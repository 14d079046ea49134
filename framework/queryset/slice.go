package queryset

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/go-drf/drf/framework/query"
	"github.com/go-drf/drf/internal/structs"
)

// SliceSource is a Source over a Go slice, for views that paginate data
// they computed: the same semantics as SQLSource (NULL first, LIKE-style
// ASCII case folding, Django's text of values) evaluated in memory with a
// stable sort. Items are pointers into the slice, which must not change
// while the source is in use.
type SliceSource[T any] struct {
	m     *model
	items []T
	st    state
}

// NewSlice returns a source over items ordered by ordering (the slice's
// own order when none).
func NewSlice[T any](items []T, ordering ...query.Order) (*SliceSource[T], error) {
	m, err := describe[T]()
	if err != nil {
		return nil, err
	}
	s := &SliceSource[T]{m: m, items: items}
	s.st = sliceOrder(s.st.orderBy(m, ordering))
	if s.st.err != nil {
		return nil, s.st.err
	}
	return s, nil
}

// sliceOrder is st, refused when its ordering crosses a relation, whose
// related rows a slice does not hold.
func sliceOrder(st state) state {
	for _, o := range st.order {
		if o.path != nil {
			st.err = errors.Join(st.err, fmt.Errorf("queryset: ordering %q across relations needs an SQL source", o.path.name))
		}
	}
	return st
}

// MustSlice is NewSlice that panics on a setup error.
func MustSlice[T any](items []T, ordering ...query.Order) *SliceSource[T] {
	s, err := NewSlice(items, ordering...)
	if err != nil {
		panic(err)
	}
	return s
}

func (s *SliceSource[T]) with(st state) *SliceSource[T] {
	return &SliceSource[T]{m: s.m, items: s.items, st: st}
}

// Fields lists T's `db` columns, the fields the source can filter and order by.
func (s *SliceSource[T]) Fields() []string { return s.m.names }

// Ordering returns the current ordering; do not modify it.
func (s *SliceSource[T]) Ordering() []query.Order { return s.st.ordering }

// OrderBy returns the source ordered by o.
func (s *SliceSource[T]) OrderBy(o ...query.Order) Source[T] {
	return s.with(sliceOrder(s.st.orderBy(s.m, o)))
}

// Filter returns the items whose field equals value.
func (s *SliceSource[T]) Filter(field, value string) Source[T] {
	return s.with(s.st.cond(s.m, field, '=', value))
}

// Seek returns the items whose field compares op to position.
func (s *SliceSource[T]) Seek(field string, op query.Op, position string) Source[T] {
	return s.with(s.st.seek(s.m, field, op, position))
}

// SeekAfter returns the items after the position in ordering.
func (s *SliceSource[T]) SeekAfter(ordering []query.Order, positions []string) Source[T] {
	return s.with(s.st.seekAfter(s.m, ordering, positions))
}

// Search returns the items where every term is in one of fields.
func (s *SliceSource[T]) Search(fields []string, terms []string) Source[T] {
	return s.with(s.st.search(s.m, fields, terms))
}

// Position returns Django's str() of item's field.
func (s *SliceSource[T]) Position(item *T, field string) (string, error) {
	return s.m.position(structs.AddrOf(item), field)
}

// Count returns the number of items.
func (s *SliceSource[T]) Count(context.Context) (int, error) {
	if s.st.err != nil {
		return 0, s.st.err
	}
	if s.st.none {
		return 0, nil
	}
	if len(s.st.conds) == 0 && len(s.st.keyset) == 0 && len(s.st.searches) == 0 && len(s.st.lookups) == 0 {
		return len(s.items), nil
	}
	n := 0
	for i := range s.items {
		if s.match(structs.AddrOf(&s.items[i])) {
			n++
		}
	}
	return n, nil
}

// Slice returns up to limit items from offset; limit < 0 means all.
func (s *SliceSource[T]) Slice(_ context.Context, offset, limit int) ([]*T, error) {
	if s.st.err != nil {
		return nil, s.st.err
	}
	if s.st.none {
		return []*T{}, nil
	}
	offset = max(offset, 0)
	var picked []*T
	if len(s.st.order) == 0 {
		// No sort needed: stop as soon as the page is full.
		items := []*T{}
		for i := range s.items {
			if limit >= 0 && len(items) == limit {
				break
			}
			if s.match(structs.AddrOf(&s.items[i])) {
				if offset > 0 {
					offset--
					continue
				}
				items = append(items, &s.items[i])
			}
		}
		return items, nil
	}
	for i := range s.items {
		if s.match(structs.AddrOf(&s.items[i])) {
			picked = append(picked, &s.items[i])
		}
	}
	// Items given in the ordering (the usual case) need no sort.
	if !slices.IsSortedFunc(picked, s.compare) {
		slices.SortStableFunc(picked, s.compare)
	}
	if offset >= len(picked) {
		return []*T{}, nil
	}
	picked = picked[offset:]
	if limit >= 0 && limit < len(picked) {
		picked = picked[:limit]
	}
	return picked, nil
}

func (s *SliceSource[T]) compare(a, b *T) int {
	pa, pb := structs.AddrOf(a), structs.AddrOf(b)
	for _, o := range s.st.order {
		c := structs.Compare(o.f.Get(pa), o.f.Get(pb))
		if o.desc {
			c = -c
		}
		if c != 0 {
			return c
		}
	}
	return 0
}

func (s *SliceSource[T]) match(base structs.Addr) bool {
	for _, c := range s.st.conds {
		v := c.f.Get(base)
		if v.Null {
			return false
		}
		r := structs.Compare(v, c.v)
		if (c.op == '=' && r != 0) || (c.op == '>' && r <= 0) || (c.op == '<' && r >= 0) {
			return false
		}
	}
	if len(s.st.keyset) > 0 && !s.st.after(base) {
		return false
	}
	for _, c := range s.st.lookups {
		if !c.match(base) {
			return false
		}
	}
	for _, sc := range s.st.searches {
		for _, term := range sc.terms {
			found := false
			for _, f := range sc.fields {
				if containsFold(likeText(f.Get(base)), term) {
					found = true
					break
				}
			}
			if !found {
				return false
			}
		}
	}
	return true
}
