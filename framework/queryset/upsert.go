package queryset

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/go-drf/drf/framework/query"
	"github.com/go-drf/drf/framework/store"
	"github.com/go-drf/drf/internal/structs"
)

// MultipleObjectsReturnedError is the error of GetOrCreate and
// UpdateOrCreate when more than one row has the fields' values: Django's
// MultipleObjectsReturned.
type MultipleObjectsReturnedError struct {
	// Model names the model (Django's class name, Meta.Name) or the
	// table.
	Model string
	// Count is the number of rows read, at most maxGetResults.
	Count int
}

// maxGetResults is Django's MAX_GET_RESULTS: get() reads at most this
// many rows to count those it refuses.
const maxGetResults = 21

// Error is Django's message: "get() returned more than one Token -- it
// returned 2!", or "more than 20!" past Django's count.
func (e *MultipleObjectsReturnedError) Error() string {
	n := strconv.Itoa(e.Count)
	if e.Count >= maxGetResults {
		n = "more than " + strconv.Itoa(maxGetResults-1)
	}
	return fmt.Sprintf("get() returned more than one %s -- it returned %s!", e.Model, n)
}

// GetOrCreate reads into item the row whose fields (columns, or foreign
// keys by their Django names) hold item's values of them, or, when there
// is none, inserts item as Insert does; created reports which. It is
// Django's get_or_create(defaults, **kwargs): fields are the kwargs, the
// rest of item the defaults. Concurrent calls agree on one row when
// fields are unique together: the insert that loses the race (a unique
// violation, in a savepoint of the transaction ctx carries, if any) reads
// the winner's row.
func (s *SQLSource[T]) GetOrCreate(ctx context.Context, item *T, fields ...string) (created bool, err error) {
	match, err := s.matching(item, fields)
	if err != nil {
		return false, err
	}
	if found, err := match.get(ctx, item); found || err != nil {
		return false, err
	}
	err = s.Insert(ctx, item)
	if !store.IsUniqueViolation(err) {
		return err == nil, err
	}
	// Another request inserted the row meanwhile: read it.
	if found, gerr := match.get(ctx, item); found || gerr != nil {
		return false, gerr
	}
	return false, err
}

// UpdateOrCreate saves item over the row whose fields hold item's values
// of them (as Update does, under that row's key), or, when there is none,
// inserts it as Insert does, in one atomic block; created reports which.
// It is Django's update_or_create(defaults, **kwargs): fields are the
// kwargs, the rest of item the defaults.
func (s *SQLSource[T]) UpdateOrCreate(ctx context.Context, item *T, fields ...string) (created bool, err error) {
	match, err := s.matching(item, fields)
	if err != nil {
		return false, err
	}
	err = store.Atomic(ctx, s.t.db, func(ctx context.Context) error {
		for range 2 {
			var row T
			found, err := match.get(ctx, &row)
			if err != nil {
				return err
			}
			if found {
				s.t.key.Set(structs.AddrOf(item), s.t.key.Get(structs.AddrOf(&row)))
				return s.Update(ctx, item)
			}
			err = s.Insert(ctx, item)
			if !store.IsUniqueViolation(err) {
				created = err == nil
				return err
			}
			// Another request inserted the row meanwhile: update it.
		}
		return fmt.Errorf("queryset: UpdateOrCreate of %s: the row was inserted and deleted meanwhile", s.t.table)
	})
	return created, err
}

// matching is the source narrowed to the rows whose fields hold item's
// values of them: equal, or null for a null value.
func (s *SQLSource[T]) matching(item *T, fields []string) (*SQLSource[T], error) {
	if len(s.t.writes) == 0 {
		return nil, ErrReadOnly
	}
	if len(fields) == 0 {
		return nil, errors.New("queryset: GetOrCreate and UpdateOrCreate need at least one field to look up")
	}
	base := structs.AddrOf(item)
	st := state{}
	for _, name := range fields {
		f, err := s.t.m.lookupField(name)
		if err != nil {
			return nil, err
		}
		v := f.Get(base)
		if v.Null {
			st.lookups = append(st.lookups, lookupCond{f: f, op: query.IsNull, null: true})
			continue
		}
		st.conds = append(st.conds, cond{f: f, op: '=', v: v})
		if s.unstorable(st, v.S) {
			st.none = true // PostgreSQL stores no such text
		}
	}
	return s.with(st), nil
}

// get reads into item the one row the source holds, in the transaction
// ctx carries once begun, and reports whether there was one; two are a
// MultipleObjectsReturnedError.
func (s *SQLSource[T]) get(ctx context.Context, item *T) (bool, error) {
	if s.st.none {
		return false, nil
	}
	items, err := s.Slice(ctx, 0, maxGetResults)
	switch {
	case err != nil:
		return false, err
	case len(items) > 1:
		name := s.t.table
		if s.t.rules.desc != nil {
			name = s.t.rules.desc.Meta.Name
		}
		return false, &MultipleObjectsReturnedError{Model: name, Count: len(items)}
	case len(items) == 0:
		return false, nil
	}
	*item = *items[0]
	return true, nil
}
