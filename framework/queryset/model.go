package queryset

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/go-drf/drf/framework/models"
	"github.com/go-drf/drf/framework/store"
	"github.com/go-drf/drf/internal/structs"
)

// modelRules are what a source does for T's model declaration on every
// write: its hooks, auto_now fields, foreign keys and many-to-many
// fields, and after every read its reverse accessors and many-to-many
// fields.
type modelRules struct {
	desc                                *models.Description
	beforeSave, afterSave, beforeDelete bool
	fks                                 []*models.Field
	reverses                            []*reverseFetch
	m2m                                 []*manyToMany // of automatic through tables, and reverse keys
	// ones are the nested rows of foreign keys (nestedOnes), which
	// SelectRelated joins in; those JSON shows are read after the rows
	// too, among reverses, and those it does not only when joined, as
	// Django reads a relation when asked for it.
	ones []*nestedFetch
}

// fromModel fills in what c, which has no Query, leaves empty from T's
// declaration: the table, key, written columns and ordering, and, for
// fields read through foreign keys (a dotted source), the SELECT that
// joins them in.
func fromModel(d *models.Description, c SQLConfig) (SQLConfig, error) {
	c.Table = cmp.Or(c.Table, d.Meta.Table)
	c.Key = cmp.Or(c.Key, d.PrimaryKey.Column)
	table := store.QuoteName(c.Table)
	if c.Columns == nil {
		for _, f := range d.Fields {
			if !f.Generated() {
				c.Columns = append(c.Columns, f.Column)
			}
		}
	}
	if c.Ordering == nil {
		for _, o := range d.Ordering {
			// A foreign key by its Django name orders by the related
			// model's ordering, by its column as itself; a path stays.
			if f := d.Field(o.Field); f != nil && (f.Related == nil || o.Field != f.Name) {
				o.Field = f.Column
			}
			c.Ordering = append(c.Ordering, o)
		}
	}
	if len(d.Joins) == 0 {
		return c, nil
	}
	cols := make([]string, 0, len(d.Fields)+len(d.Joins))
	for _, f := range d.Fields {
		cols = append(cols, table+"."+store.QuoteName(f.Column))
	}
	var joins strings.Builder
	joined := map[string]bool{}
	inner := true
	names := joinColumns(d)
	for i, j := range d.Joins {
		links, err := j.Links()
		if err != nil {
			return c, fmt.Errorf("%s.%s: %w", d.Type.Name(), j.Field.Name, err)
		}
		alias, in := joinSQL(&joins, joined, table, "", links, false)
		inner = inner && in
		cols = append(cols, store.QuoteName(alias)+"."+store.QuoteName(j.Column)+" AS "+store.QuoteName(names[i]))
	}
	c.Query = "SELECT " + strings.Join(cols, ", ") + " FROM " + table + joins.String()
	// Joins on NOT NULL foreign keys add columns, not rows: the table
	// alone counts the source, and a deep page skips over it alone.
	c.TableRows = inner
	if inner && c.Counter == nil {
		c.Counter = CountTable(d.Meta.Table)
	}
	return c, nil
}

// joinColumns name the columns of d's joined fields in the source's
// SELECT, their Django lookup paths ("owner__username"); a path that two
// fields read is the first's, and the second's column gets a number
// ("owner__username__2"), since one SELECT cannot name two columns alike.
func joinColumns(d *models.Description) []string {
	names := make([]string, len(d.Joins))
	seen := map[string]int{}
	for i, j := range d.Joins {
		name := j.Via.Name + "__" + j.Lookup()
		if seen[name]++; seen[name] > 1 {
			name += "__" + strconv.Itoa(seen[name])
		}
		names[i] = name
	}
	return names
}

// modelOf returns the rules of T's declaration and adds its joined fields
// to m's columns, named by their lookup paths (joinColumns): the SELECT
// the source derives has them, and a hand-written Query must. A struct
// that declares no model (no Meta method, no model tag) and cannot be
// described as one has no rules.
func modelOf[T any](m *model, declared bool) (*modelRules, error) {
	d, err := models.Of[T]()
	if err != nil {
		if declared || hasModelTag(m.desc) {
			return nil, err
		}
		return &modelRules{}, nil
	}
	r := &modelRules{desc: d}
	_, r.beforeSave = any((*T)(nil)).(models.BeforeSaver)
	_, r.afterSave = any((*T)(nil)).(models.AfterSaver)
	_, r.beforeDelete = any((*T)(nil)).(models.BeforeDeleter)
	for _, f := range d.Fields {
		if f.Related != nil {
			r.fks = append(r.fks, f)
		}
	}
	names := joinColumns(d)
	for i, j := range d.Joins {
		jf := *j.Field
		jf.Column = names[i]
		if err := jf.Supported(); err != nil {
			return nil, err
		}
		m.index[&jf] = len(m.columns)
		m.columns = append(m.columns, &jf)
		m.byColumn[jf.Column] = &jf
		m.names = append(m.names, jf.Column)
	}
	for _, rev := range d.Reverses {
		via, err := rev.Via(d)
		if err != nil {
			return nil, fmt.Errorf("%s.%s: %w", d.Type.Name(), rev.Field.Name, err)
		}
		f, err := newReverseFetch(rev)
		if err != nil {
			return nil, fmt.Errorf("%s.%s: %w", d.Type.Name(), rev.Field.Name, err)
		}
		if via != nil {
			f.nested.via = via
		}
		r.reverses = append(r.reverses, f)
		if f.nested == nil {
			r.m2m = append(r.m2m, newReverseKeys(rev))
		}
	}
	for _, declared := range d.ManyToMany {
		mm, err := declared.ThroughKeys(d.Meta.Table)
		if err != nil {
			return nil, fmt.Errorf("%s.%s: %w", d.Type.Name(), declared.Field.Name, err)
		}
		f, err := manyToManyFetch(mm)
		if err != nil {
			return nil, fmt.Errorf("%s.%s: %w", d.Type.Name(), mm.Field.Name, err)
		}
		r.reverses = append(r.reverses, f)
		if (mm.AutoCreated || mm.Reverse) && f.nested == nil {
			r.m2m = append(r.m2m, newManyToMany(mm))
		}
	}
	if r.ones, err = nestedOnes(d); err != nil {
		return nil, err
	}
	for _, n := range r.ones {
		if !n.field.NoJSON {
			r.reverses = append(r.reverses, &reverseFetch{nested: n})
		}
	}
	return r, nil
}

func hasModelTag(s *structs.Struct) bool {
	for _, f := range s.Fields {
		if _, ok := f.Tag.Lookup("model"); ok {
			return true
		}
	}
	return false
}

// beforeWrite runs what precedes an insert (created) or update of item:
// its model's auto_now fields, its BeforeSave hook, then the storing of
// its new uploads (models.Description.SaveFiles), whose files undo
// deletes when the write fails.
func (s *SQLSource[T]) beforeWrite(ctx context.Context, item *T, created bool) (undo func(), err error) {
	r := s.t.rules
	if r.desc == nil {
		return func() {}, nil
	}
	r.desc.Touch(structs.AddrOf(item), created)
	if r.beforeSave {
		if err := any(item).(models.BeforeSaver).BeforeSave(ctx, created); err != nil {
			return func() {}, err
		}
	}
	return r.desc.SaveFiles(ctx, structs.AddrOf(item), item, time.Now())
}

// reverseFetch reads a reverse accessor: the keys of the rows of a table
// whose foreign key column holds an item's key.
type reverseFetch struct {
	rev *models.Reverse
	// from, match, value and order are its query's table, the column
	// compared with the items' keys, the column read and the order.
	from, match, value, order string
	// add appends a key, as read from the database, to the slice at p.
	add func(p structs.Addr, key any) error
	// reset empties the slice at p.
	reset func(p structs.Addr)
	// at is p of the item at base: the slice's address (the item's own
	// for a reverse one-to-one, whose add and reset set its pointer).
	at func(base structs.Addr) structs.Addr
	// nested fills nested structs instead (nested.go).
	nested *nestedFetch
}

func newReverseFetch(rev *models.Reverse) (*reverseFetch, error) {
	// The referencing model's own key, when it is described: a table
	// keyed by another column than id (Django's pk).
	key, _ := rev.Referencing()
	f := &reverseFetch{rev: rev, from: store.QuoteName(rev.Table), match: store.QuoteName(rev.Column), value: store.QuoteName(key)}
	f.order = f.value
	if rev.SlugField != "" {
		// The referencing rows' slugs, in their keys' order.
		f.value = store.QuoteName(rev.SlugField)
	}
	f.at = rev.Field.Addr
	if rev.One {
		// A reverse one-to-one: the referencing row's key, or nil, set
		// in the item at base.
		sf := rev.Field
		if k := sf.Type.Elem().Kind(); k != reflect.Int64 && k != reflect.Int && k != reflect.Int32 && k != reflect.String {
			return nil, fmt.Errorf("a reverse one-to-one holds a pointer to an int, int32, int64 or string key, not %v", sf.Type)
		}
		f.at = func(base structs.Addr) structs.Addr { return base }
		f.reset = sf.SetNull
		f.add = func(base structs.Addr, key any) error {
			v, err := sf.FromDB(key)
			if err == nil {
				sf.Set(base, v)
			}
			return err
		}
		return f, nil
	}
	switch rev.Field.Type.Elem().Kind() {
	case reflect.Int64:
		f.add, f.reset = appendInt[int64], resetSlice[int64]
	case reflect.Int:
		f.add, f.reset = appendInt[int], resetSlice[int]
	case reflect.Int32:
		f.add, f.reset = appendInt[int32], resetSlice[int32]
	case reflect.String:
		f.add, f.reset = appendString, resetSlice[string]
	case reflect.Struct:
		var err error
		f.nested, err = nestedMany(rev)
		return f, err
	default:
		return nil, fmt.Errorf("a reverse accessor holds int, int32, int64 or string keys, not %v", rev.Field.Type.Elem())
	}
	return f, nil
}

func resetSlice[E any](p structs.Addr) { *structs.At[[]E](p) = []E{} }

func appendInt[E int | int32 | int64](p structs.Addr, key any) error {
	n, ok := key.(int64)
	if !ok {
		return fmt.Errorf("queryset: reverse key %v is not an integer", key)
	}
	s := structs.At[[]E](p)
	*s = append(*s, E(n))
	return nil
}

func appendString(p structs.Addr, key any) error {
	s := structs.At[[]string](p)
	switch k := key.(type) {
	case string:
		*s = append(*s, k)
	case []byte:
		*s = append(*s, string(k))
	default:
		*s = append(*s, fmt.Sprint(k))
	}
	return nil
}

// prefetch fills the reverse accessors and many-to-many fields of items
// with one query each, as Django's prefetch_related: SELECT column, key
// FROM table WHERE column IN (the items' keys) ORDER BY key.
func (s *SQLSource[T]) prefetch(ctx context.Context, db queryer, items []*T) error {
	if len(items) == 0 {
		return nil
	}
	var byKey map[string][]structs.Addr
	var args []any
	for _, f := range s.t.rules.reverses {
		if f.nested != nil && s.joins(f.nested) {
			continue // read by the items' query
		}
		if byKey == nil {
			var err error
			if byKey, args, err = s.itemsByKey(items); err != nil {
				return err
			}
		}
		if f.nested != nil {
			if err := s.fillNested(ctx, db, f.nested, items, args, byKey); err != nil {
				return err
			}
			continue
		}
		for _, item := range items {
			f.reset(f.at(structs.AddrOf(item)))
		}
		q := s.t.db.Rebind("SELECT " + f.match + ", " + f.value + " FROM " + f.from +
			" WHERE " + f.match + " IN (" + marks(len(args)) + ") ORDER BY " + f.order)
		if err := s.fill(ctx, db, q, args, f, byKey); err != nil {
			return err
		}
	}
	return nil
}

// itemsByKey are items by their key's text, and their keys as arguments.
func (s *SQLSource[T]) itemsByKey(items []*T) (map[string][]structs.Addr, []any, error) {
	byKey := make(map[string][]structs.Addr, len(items))
	args := make([]any, 0, len(items))
	for _, item := range items {
		base := structs.AddrOf(item)
		k := s.t.key.Get(base).Text()
		if _, seen := byKey[k]; !seen {
			arg, err := s.t.arg(s.t.key, base)
			if err != nil {
				return nil, nil, err
			}
			args = append(args, arg)
		}
		byKey[k] = append(byKey[k], base)
	}
	return byKey, args, nil
}

func (s *SQLSource[T]) fill(ctx context.Context, db queryer, q string, args []any, f *reverseFetch, byKey map[string][]structs.Addr) error {
	rows, err := s.t.read(ctx, db, q, args)
	if err != nil {
		return err
	}
	defer rows.Close()
	var owner, key any
	for rows.Next() {
		if err := rows.Scan(&owner, &key); err != nil {
			return err
		}
		v, err := s.t.key.FromDB(owner)
		if err != nil {
			return err
		}
		for _, base := range byKey[v.Text()] {
			if err := f.add(f.at(base), key); err != nil {
				return err
			}
		}
	}
	return rows.Err()
}

// MissingRelatedError is the error of a write whose foreign key names no
// row of the table it references (a foreign-key violation).
type MissingRelatedError struct {
	// Column is the foreign key column.
	Column string
	// Value is the key it held, as text.
	Value string
	// Err is the database's error.
	Err error
}

// Error returns "queryset: owner_id: no row has key 99".
func (e *MissingRelatedError) Error() string {
	return "queryset: " + e.Column + ": no row has key " + strconv.Quote(e.Value)
}

// Unwrap returns the database's error.
func (e *MissingRelatedError) Unwrap() error { return e.Err }

// rowQueryer runs a query of one row on a database or in a transaction.
type rowQueryer interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// missingRelated turns a foreign-key violation of a write of the item at
// base into a MissingRelatedError naming the column: PostgreSQL names it,
// SQLite does not, so each foreign key's target is looked up on db. A row
// written but not read back (sql.ErrNoRows) may be one whose join found
// no related row before the deferred constraint was checked: its foreign
// keys are looked up too.
func (s *SQLSource[T]) missingRelated(ctx context.Context, db rowQueryer, base structs.Addr, err error) error {
	if !(store.IsForeignKeyViolation(err) || errors.Is(err, sql.ErrNoRows)) || len(s.t.rules.fks) == 0 {
		return err
	}
	col := store.ForeignKeyViolationColumn(err)
	for _, f := range s.t.rules.fks {
		if f.Struct.IsNull(base) || col != "" && col != f.Column {
			continue
		}
		v := f.Struct.Get(base)
		if col == "" {
			var one int
			arg, aerr := f.Struct.Arg(base)
			if aerr != nil {
				continue
			}
			q := s.t.db.Rebind("SELECT 1 FROM " + store.QuoteName(f.Related.Table) + " WHERE " + store.QuoteName(f.Related.Column) + " = ?")
			if qerr := db.QueryRowContext(ctx, q, arg).Scan(&one); !errors.Is(qerr, sql.ErrNoRows) {
				continue
			}
		}
		return &MissingRelatedError{Column: f.Column, Value: v.Text(), Err: err}
	}
	return err
}
