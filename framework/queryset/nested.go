package queryset

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"unsafe"

	"github.com/go-drf/drf/framework/models"
	"github.com/go-drf/drf/framework/store"
	"github.com/go-drf/drf/internal/structs"
)

// RelatedFinder is a source that looks rows of other tables up in its
// database, for the relational fields of a serializer (the queryset of
// DRF's PrimaryKeyRelatedField, SlugRelatedField and
// HyperlinkedRelatedField); generic views use it when their source is one.
type RelatedFinder interface {
	// FindRelated returns the key column's value, as text, of the row of
	// table whose column holds value (compared as an integer when integer
	// is true); found is false when no row does.
	FindRelated(ctx context.Context, table, column, value string, integer bool, key string) (string, bool, error)
	// ListRelated lists the value and display columns, as text, of up to
	// limit rows of table ordered by the value column.
	ListRelated(ctx context.Context, table, value, display string, limit int) ([][2]string, error)
}

// FindRelated runs SELECT key FROM table WHERE column = value, one row.
// A value its column cannot hold (not an integer, a NUL character) is in
// no row.
func (s *SQLSource[T]) FindRelated(ctx context.Context, table, column, value string, integer bool, key string) (string, bool, error) {
	var arg any = value
	if integer {
		n, err := strconv.ParseInt(value, 10, 64)
		if err != nil {
			return "", false, nil
		}
		arg = n
	} else if strings.ContainsRune(value, 0) {
		return "", false, nil
	}
	q := s.t.db.Rebind("SELECT " + store.QuoteName(key) + " FROM " + store.QuoteName(table) +
		" WHERE " + store.QuoteName(column) + " = ? LIMIT 1")
	var got any
	err := s.t.db.QueryRowContext(ctx, q, arg).Scan(&got)
	if errors.Is(err, sql.ErrNoRows) {
		return "", false, nil
	}
	if err != nil {
		return "", false, err
	}
	return columnText(got), true, nil
}

// nestedFetch fills a nested struct (a related row, through a foreign
// key: DRF's nested serializer of a ForeignKey) or a slice of structs
// (the referencing rows of a reverse accessor: many=True) of each item
// of a page, with one query per relation per page, as Django's
// prefetch_related.
type nestedFetch struct {
	// field is the struct or slice field of T.
	field *structs.Field
	// columns are the nested struct's columns, read into it.
	columns []*structs.Field
	// fk is a nested one's foreign key; nil for many.
	fk *models.Field
	// rev is a nested many's reverse accessor; nil for one.
	rev *models.Reverse
	// elem is a nested many's element type: a page's elements are
	// allocated at once, the only reflection of the read.
	elem reflect.Type
}

// newNestedFetch describes the nested struct of field: its columns.
func newNestedFetch(field *structs.Field, t reflect.Type) (*nestedFetch, error) {
	desc, err := structs.Describe(t)
	if err != nil {
		return nil, err
	}
	n := &nestedFetch{field: field}
	for _, f := range desc.Fields {
		if f.Column == "" {
			continue
		}
		if err := f.Supported(); err != nil {
			return nil, err
		}
		n.columns = append(n.columns, f)
	}
	if len(n.columns) == 0 {
		return nil, fmt.Errorf("the nested %v has no db columns", t)
	}
	return n, nil
}

// nestedMany is the fetch of a reverse accessor holding structs.
func nestedMany(rev *models.Reverse) (*nestedFetch, error) {
	n, err := newNestedFetch(rev.Field, rev.Field.Type.Elem())
	if err != nil {
		return nil, err
	}
	n.rev, n.elem = rev, rev.Field.Type.Elem()
	return n, nil
}

// nestedOnes are the fetches of d's struct fields that name a foreign key
// of the model, by their drf source or else their JSON name (as the
// serializer's nested fields do).
func nestedOnes(d *models.Description) ([]*reverseFetch, error) {
	var out []*reverseFetch
	for _, sf := range d.Struct.Fields {
		if sf.Column != "" || sf.Type.Kind() != reflect.Struct || sf.Kind != structs.Unsupported {
			continue
		}
		rel := sf.JSON
		for opt := range strings.SplitSeq(sf.Tag.Get("drf"), ",") {
			if v, ok := strings.CutPrefix(strings.TrimSpace(opt), "source="); ok {
				rel = v
			}
		}
		fk := d.Field(rel)
		if fk == nil || fk.Related == nil {
			continue
		}
		n, err := newNestedFetch(sf, sf.Type)
		if err != nil {
			return nil, fmt.Errorf("queryset: %s.%s: %w", d.Type.Name(), sf.Name, err)
		}
		n.fk = fk
		out = append(out, &reverseFetch{nested: n})
	}
	return out, nil
}

// fillNested runs n's query for items: keys are the items' keys as
// arguments, byKey the items by their key's text.
func (s *SQLSource[T]) fillNested(ctx context.Context, db queryer, n *nestedFetch, items []*T, keys []any, byKey map[string][]unsafe.Pointer) error {
	var match *structs.Field // the column rows are matched on
	var table, column, order string
	args := keys
	targets := byKey
	if n.fk != nil {
		match, table, column = n.fk.Struct, n.fk.Related.Table, n.fk.Related.Column
		args, targets = nil, map[string][]unsafe.Pointer{}
		for _, item := range items {
			base := unsafe.Pointer(item)
			if match.IsNull(base) {
				continue
			}
			k := match.Get(base).Text()
			if _, seen := targets[k]; !seen {
				arg, err := match.Arg(base)
				if err != nil {
					return err
				}
				args = append(args, arg)
			}
			targets[k] = append(targets[k], base)
		}
		if len(args) == 0 {
			return nil
		}
	} else {
		match, table, column, order = s.t.key, n.rev.Table, n.rev.Column, " ORDER BY "+store.QuoteName(n.rev.Key)
	}
	cols := make([]string, 0, len(n.columns)+1)
	cols = append(cols, store.QuoteName(column))
	for _, c := range n.columns {
		cols = append(cols, store.QuoteName(c.Column))
	}
	q := s.t.db.Rebind("SELECT " + strings.Join(cols, ", ") + " FROM " + store.QuoteName(table) +
		" WHERE " + store.QuoteName(column) + " IN (" + marks(len(args)) + ")" + order)
	rows, err := db.QueryContext(ctx, q, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	var read [][]any // a nested many's rows, placed once all are read
	for rows.Next() {
		row := make([]any, len(cols))
		dest := make([]any, len(cols))
		for i := range row {
			dest[i] = &row[i]
		}
		if err := rows.Scan(dest...); err != nil {
			return err
		}
		if n.fk == nil {
			read = append(read, row)
			continue
		}
		k, err := match.FromDB(row[0])
		if err != nil {
			return err
		}
		for _, base := range targets[k.Text()] {
			if err := n.set(n.field.Addr(base), row[1:]); err != nil {
				return err
			}
		}
	}
	if err := rows.Err(); err != nil {
		return err
	}
	if n.fk != nil {
		return nil
	}
	return n.place(match, read, targets)
}

// place sets each item's slice to its rows, in their order: one array of
// the element type holds the page's rows.
func (n *nestedFetch) place(match *structs.Field, read [][]any, byKey map[string][]unsafe.Pointer) error {
	size := n.elem.Size()
	array := reflect.New(reflect.ArrayOf(len(read), n.elem)).UnsafePointer()
	owners := make([]string, len(read))
	counts := map[string]int{}
	for i, row := range read {
		k, err := match.FromDB(row[0])
		if err != nil {
			return err
		}
		owners[i] = k.Text()
		counts[owners[i]]++
	}
	start := map[string]int{}
	next := 0
	for _, k := range owners {
		if _, ok := start[k]; !ok {
			start[k], next = next, next+counts[k]
		}
	}
	filled := map[string]int{}
	for i, row := range read {
		k := owners[i]
		at := unsafe.Add(array, uintptr(start[k]+filled[k])*size)
		filled[k]++
		if err := n.set(at, row[1:]); err != nil {
			return err
		}
	}
	for k, bases := range byKey {
		s := structs.SliceHeader{Data: unsafe.Add(array, uintptr(start[k])*size), Len: counts[k], Cap: counts[k]}
		if counts[k] == 0 {
			s.Data = array // a non-nil empty slice: []
		}
		for _, base := range bases {
			*(*structs.SliceHeader)(n.field.Addr(base)) = s
		}
	}
	return nil
}

// set reads a row's values into the nested struct at p.
func (n *nestedFetch) set(p unsafe.Pointer, values []any) error {
	for i, f := range n.columns {
		if f.Kind == structs.Custom {
			if err := f.Scan(p, values[i]); err != nil {
				return err
			}
			continue
		}
		v, err := f.FromDB(values[i])
		if err != nil {
			return err
		}
		f.Set(p, v)
	}
	return nil
}

// ListRelated lists the value and display columns, as text, of up to
// limit rows of table ordered by the value column: the choices of a
// relational field's select (RelatedFinder).
func (s *SQLSource[T]) ListRelated(ctx context.Context, table, value, display string, limit int) ([][2]string, error) {
	q := s.t.db.Rebind("SELECT " + store.QuoteName(value) + ", " + store.QuoteName(display) + " FROM " +
		store.QuoteName(table) + " ORDER BY " + store.QuoteName(value) + " LIMIT " + strconv.Itoa(limit))
	rows, err := s.t.db.QueryContext(ctx, q)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out [][2]string
	for rows.Next() {
		var v, d any
		if err := rows.Scan(&v, &d); err != nil {
			return nil, err
		}
		out = append(out, [2]string{columnText(v), columnText(d)})
	}
	return out, rows.Err()
}

// columnText is a column's value as text ("" for NULL).
func columnText(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case int64:
		return strconv.FormatInt(x, 10)
	case []byte:
		return string(x)
	case string:
		return x
	}
	return fmt.Sprint(v)
}
