package queryset

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/go-drf/drf/framework/store"
	"github.com/go-drf/drf/internal/structs"
)

// UpdateAll sets fields (columns, or foreign keys by their Django names)
// of every row the source holds to their values in values, in one
// statement, and returns the number of rows matched: Django's
// QuerySet.update(**kwargs). As Django's, it runs no BeforeSave or
// AfterSave hook and touches no auto_now field. It joins the transaction
// ctx carries (an atomic request's, Atomic's), as store.Write does.
func (s *SQLSource[T]) UpdateAll(ctx context.Context, values *T, fields ...string) (int64, error) {
	if len(s.t.writes) == 0 {
		return 0, ErrReadOnly
	}
	if len(fields) == 0 {
		return 0, errors.New("queryset: UpdateAll needs at least one field to set")
	}
	base := structs.AddrOf(values)
	sets := make([]string, len(fields))
	args := make([]any, len(fields))
	for i, name := range fields {
		f, err := s.t.m.lookupField(name)
		if err != nil {
			return 0, err
		}
		if f != s.t.key && !slices.Contains(s.t.writes, f) {
			return 0, fmt.Errorf("queryset: UpdateAll: %q is not a column of %s", name, s.t.table)
		}
		if args[i], err = s.t.arg(f, base); err != nil {
			return 0, err
		}
		sets[i] = store.QuoteName(f.Column) + " = " + s.t.param(f)
	}
	if s.st.err != nil {
		return 0, s.st.err
	}
	if s.st.none {
		return 0, nil
	}
	return store.Exec(ctx, s.t.db, "UPDATE "+store.QuoteName(s.t.table)+" SET "+strings.Join(sets, ", ")+s.rowsWhere(), append(args, s.args(nil)...)...)
}

// rowsWhere is the WHERE clause of a write of the rows the source holds:
// its conditions on the table itself, or, over a Query, on the keys of
// the Query's rows that meet them. No condition is no clause.
func (s *SQLSource[T]) rowsWhere() string {
	where := s.whereTerms()
	if len(where) == 0 {
		return ""
	}
	if s.t.readsRow {
		return " WHERE " + strings.Join(where, " AND ")
	}
	return " WHERE " + store.QuoteName(s.t.key.Column) + " IN (SELECT " + s.t.col(s.t.key) + " FROM " + s.t.from +
		" WHERE " + strings.Join(where, " AND ") + ")"
}

// keysOf reads the key of every row the source holds, on db, bound as
// the key's column binds it.
func (s *SQLSource[T]) keysOf(ctx context.Context, db queryer) ([]any, error) {
	q := "SELECT " + s.t.col(s.t.key) + " FROM " + s.t.from
	if where := s.whereTerms(); len(where) > 0 {
		q += " WHERE " + strings.Join(where, " AND ")
	}
	rows, err := s.t.read(ctx, db, s.t.db.Rebind(q), s.args(nil))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var keys []any
	for rows.Next() {
		var x any
		if err := rows.Scan(&x); err != nil {
			return nil, err
		}
		v, err := s.t.key.FromDB(x)
		if err != nil {
			return nil, err
		}
		keys = append(keys, s.t.bind(s.t.key, v.Bind()))
	}
	return keys, rows.Err()
}
