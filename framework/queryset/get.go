package queryset

import (
	"context"
	"database/sql"

	"github.com/go-drf/drf/framework/models"
	"github.com/go-drf/drf/internal/structs"
)

// Get returns the one item whose field (a column, or a foreign key by
// its Django name) equals value, given as text: Django's
// get(field=value). No such item is sql.ErrNoRows (Django's
// DoesNotExist), more than one a *MultipleObjectsReturnedError. It
// narrows the source as Where(field, query.Exact, value) would, without
// making a source of its own, and reads the row of a primary key or a
// unique field alone (LIMIT 1), since no other row can hold its value: a
// row read by its key costs the statement and the row.
func (s *SQLSource[T]) Get(ctx context.Context, field, value string) (*T, error) {
	f, err := s.t.m.lookupField(field)
	if err != nil {
		return nil, err
	}
	v, err := f.Parse(value)
	if err != nil {
		return nil, err
	}
	one := SQLSource[T]{t: s.t, st: s.st}
	one.st.conds = append(s.st.conds[:len(s.st.conds):len(s.st.conds)], cond{f, '=', v})
	if s.unstorable(one.st, value) {
		return nil, sql.ErrNoRows // PostgreSQL stores no such text
	}
	if !s.t.unique[f] {
		item := new(T)
		found, err := one.get(ctx, item)
		if err == nil && !found {
			err = sql.ErrNoRows
		}
		if err != nil {
			return nil, err
		}
		return item, nil
	}
	items, err := one.Slice(ctx, 0, 1)
	if err != nil {
		return nil, err
	}
	if len(items) == 0 {
		return nil, sql.ErrNoRows
	}
	return items[0], nil
}

// uniqueFields are the fields whose value one row holds at most: the
// key, and, when the source reads the model's own rows (ownRows, not a
// hand-written SELECT's), the model's primary key and unique fields.
func uniqueFields(m *model, key *structs.Field, d *models.Description, ownRows bool) map[*structs.Field]bool {
	unique := map[*structs.Field]bool{key: true}
	if d == nil || !ownRows {
		return unique
	}
	for _, f := range d.Fields {
		if f.PrimaryKey || f.Unique {
			unique[m.byColumn[f.Column]] = true
		}
	}
	return unique
}
