package queryset

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/framework/models"
	"github.com/go-drf/drf/framework/query"
	"github.com/go-drf/drf/framework/store"
	"github.com/go-drf/drf/internal/structs"
)

// manyToMany is how a source writes a many-to-many field of an automatic
// through table, or a reverse foreign key's keys: the keys a write sets,
// as arguments.
type manyToMany struct {
	// m is the many-to-many field, nil for a reverse foreign key (rev).
	m   *models.ManyToMany
	rev *models.Reverse
	// field is the struct field of m or rev.
	field *structs.Field
	// keys returns the keys of the slice at p as arguments, each once, in
	// order; ok is false for a nil slice (a relation the write leaves alone).
	keys func(p structs.Addr) (keys []any, ok bool)
	// same reports two slices of the same keys in the same order.
	same func(a, b structs.Addr) bool
}

func newManyToMany(m *models.ManyToMany) *manyToMany {
	w := keysOf(m.Field)
	w.m = m
	return w
}

// newReverseKeys is the write of a reverse accessor of keys, as
// ModelSerializer's save() sets a reverse foreign key (setReverse).
func newReverseKeys(rev *models.Reverse) *manyToMany {
	w := keysOf(rev.Field)
	w.rev = rev
	return w
}

func keysOf(sf *structs.Field) *manyToMany {
	if sf.Type.Kind() == reflect.Pointer {
		// A reverse one-to-one: its one key; nil leaves it alone.
		switch sf.Type.Elem().Kind() {
		case reflect.Int:
			return &manyToMany{field: sf, keys: pointerArgs[int], same: samePointer[int]}
		case reflect.Int32:
			return &manyToMany{field: sf, keys: pointerArgs[int32], same: samePointer[int32]}
		case reflect.String:
			return &manyToMany{field: sf, keys: pointerArgs[string], same: samePointer[string]}
		}
		return &manyToMany{field: sf, keys: pointerArgs[int64], same: samePointer[int64]}
	}
	switch sf.Type.Elem().Kind() {
	case reflect.Int:
		return &manyToMany{field: sf, keys: sliceArgs[int], same: sameSlice[int]}
	case reflect.Int32:
		return &manyToMany{field: sf, keys: sliceArgs[int32], same: sameSlice[int32]}
	case reflect.String:
		return &manyToMany{field: sf, keys: sliceArgs[string], same: sameSlice[string]}
	}
	return &manyToMany{field: sf, keys: sliceArgs[int64], same: sameSlice[int64]}
}

func sliceArgs[E int | int32 | int64 | string](p structs.Addr) ([]any, bool) {
	s := *structs.At[[]E](p)
	if s == nil {
		return nil, false
	}
	out := make([]any, 0, len(s))
	seen := make(map[E]bool, len(s))
	for _, k := range s {
		if !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	return out, true
}

func sameSlice[E int | int32 | int64 | string](a, b structs.Addr) bool {
	return slices.Equal(*structs.At[[]E](a), *structs.At[[]E](b))
}

// pointerArgs is the key a pointer points to (p, as structs.Field.Addr
// gives it: nil for a nil pointer).
func pointerArgs[E int | int32 | int64 | string](p structs.Addr) ([]any, bool) {
	if p.IsNil() {
		return nil, false
	}
	return []any{*structs.At[E](p)}, true
}

func samePointer[E int | int32 | int64 | string](a, b structs.Addr) bool {
	return a == b || !a.IsNil() && !b.IsNil() && *structs.At[E](a) == *structs.At[E](b)
}

// manyToManyFetch reads a many-to-many field as a reverse accessor of its
// through table: SELECT from, to FROM through WHERE from IN (...), the
// related keys in the order Django's tags.all() gives them and DRF
// renders them: the related model's Meta.Ordering when it is described
// by then, else the keys' (on SQLite, the through table's unique index).
// A field of slugs reads the related rows' slugs; a field of structs the
// related rows (nestedThrough).
func manyToManyFetch(m *models.ManyToMany) (*reverseFetch, error) {
	if m.Field.Type.Elem().Kind() == reflect.Struct {
		n, err := nestedThrough(m)
		return &reverseFetch{nested: n}, err
	}
	f, err := newReverseFetch(&models.Reverse{Field: m.Field, Table: m.Through, Column: m.From, Key: m.To})
	if err != nil {
		return f, err
	}
	// The related keys are the through table's To column, not the key
	// of a through model described with its own.
	f.value = store.QuoteName(m.To)
	f.order = f.value
	through, related := store.QuoteName(m.Through), store.QuoteName(m.Table)
	var order []string
	for _, d := range models.Described().OfTable(m.Table) {
		if order = orderingTerms(d, related); len(order) > 0 {
			break
		}
	}
	if m.SlugField == "" && len(order) == 0 {
		return f, nil
	}
	// SELECT through.from, through.to (or tag.name) FROM through INNER
	// JOIN tag ON (tag.id = through.to), in the related model's
	// ordering, then in the keys' order.
	f.from = through + " INNER JOIN " + related + " ON (" + related + "." + store.QuoteName(m.Column) + " = " + through + "." + store.QuoteName(m.To) + ")"
	f.match, f.value = through+"."+store.QuoteName(m.From), through+"."+store.QuoteName(m.To)
	if m.SlugField != "" {
		f.value = related + "." + store.QuoteName(m.SlugField)
	}
	f.order = strings.Join(append(order, through+"."+store.QuoteName(m.To)), ", ")
	return f, nil
}

// slugKeys are the keys of the related rows of m whose slug column holds
// slugs, in their order; a slug that no row holds is a
// MissingRelatedError naming the field and the slug.
func (t *sqlTable) slugKeys(ctx context.Context, tx *sqlx.Tx, m *models.ManyToMany, slugs []any) ([]any, error) {
	if len(slugs) == 0 {
		return slugs, nil
	}
	rows, err := tx.QueryContext(ctx, tx.Rebind("SELECT "+store.QuoteName(m.SlugField)+", "+store.QuoteName(m.Column)+" FROM "+
		store.QuoteName(m.Table)+" WHERE "+store.QuoteName(m.SlugField)+" IN ("+marks(len(slugs))+")"), slugs...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	keys := map[string]any{}
	for rows.Next() {
		var slug, key any
		if err := rows.Scan(&slug, &key); err != nil {
			return nil, err
		}
		keys[columnText(slug)] = key
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	out := make([]any, len(slugs))
	for i, s := range slugs {
		k, ok := keys[fmt.Sprint(s)]
		if !ok {
			return nil, &MissingRelatedError{Column: m.Name, Value: fmt.Sprint(s)}
		}
		out[i] = k
	}
	return out, nil
}

// relationSet is the keys a write sets one many-to-many field to.
type relationSet struct {
	m    *manyToMany
	keys []any
}

// relationsOf are the relations a write of obj sets: each many-to-many
// field of an automatic through table, and each reverse accessor of keys,
// whose slice is not nil and, for a partial update of before, differs
// from before's.
func (s *SQLSource[T]) relationsOf(obj, before *T) []relationSet {
	var out []relationSet
	for _, m := range s.t.rules.m2m {
		p := m.field.Addr(structs.AddrOf(obj))
		keys, ok := m.keys(p)
		if !ok || before != nil && m.same(m.field.Addr(structs.AddrOf(before)), p) {
			continue
		}
		out = append(out, relationSet{m: m, keys: keys})
	}
	return out
}

// setRelations sets each relation of the row whose key is key, in tx, as
// Django's ManyRelatedManager.set(): the through rows of keys no longer
// listed are deleted, those of new keys inserted in the order listed. A
// key that names no related row is a MissingRelatedError naming the field.
// A reverse foreign key is set by setReverse.
func (s *SQLSource[T]) setRelations(ctx context.Context, tx *sqlx.Tx, key any, rels []relationSet) error {
	for _, r := range rels {
		if r.m.rev != nil {
			if err := s.setReverse(ctx, tx, key, r.m.rev, r.keys); err != nil {
				return err
			}
			continue
		}
		m := r.m.m
		if m.SlugField != "" {
			var err error
			if r.keys, err = s.t.slugKeys(ctx, tx, m, r.keys); err != nil {
				return err
			}
		}
		if err := s.t.relate(ctx, tx, key, m, r.keys, true); err != nil {
			return err
		}
	}
	return nil
}

// relate inserts in tx the through rows of m that relate the row whose
// key is key to the related rows of keys, those it lacks, in the order
// listed; replace deletes its other through rows first (set(), where
// add() keeps them). A key that names no related row is a
// MissingRelatedError naming the field.
func (t *sqlTable) relate(ctx context.Context, tx *sqlx.Tx, key any, m *models.ManyToMany, keys []any, replace bool) error {
	through, from, to := store.QuoteName(m.Through), store.QuoteName(m.From), store.QuoteName(m.To)
	if len(keys) > 0 {
		found, err := t.column(ctx, tx, m.Table, m.Column, m.Column, keys)
		if err != nil {
			return err
		}
		if len(found) < len(keys) {
			have := map[string]bool{}
			for _, k := range found {
				have[columnText(k)] = true
			}
			for _, k := range keys {
				if t := fmt.Sprint(k); !have[t] {
					return &MissingRelatedError{Column: m.Name, Value: t}
				}
			}
		}
	}
	old, err := t.column(ctx, tx, m.Through, m.To, m.From, []any{key})
	if err != nil {
		return err
	}
	want := map[string]bool{}
	for _, k := range keys {
		want[fmt.Sprint(k)] = true
	}
	had := map[string]bool{}
	gone := false
	for _, k := range old {
		t := columnText(k)
		had[t] = true
		gone = gone || !want[t]
	}
	if gone && replace {
		q := "DELETE FROM " + through + " WHERE " + from + " = ?"
		if len(keys) > 0 {
			q += " AND " + to + " NOT IN (" + marks(len(keys)) + ")"
		}
		if _, err := tx.ExecContext(ctx, tx.Rebind(q), append([]any{key}, keys...)...); err != nil {
			return err
		}
	}
	var rows []string
	var args []any
	for _, k := range keys {
		if !had[fmt.Sprint(k)] {
			rows, args = append(rows, "(?, ?)"), append(args, key, k)
		}
	}
	if len(rows) > 0 {
		// A concurrent add may have inserted a pair since it was read:
		// it is left, as Django's add() inserts with ignore_conflicts.
		q := "INSERT INTO " + through + " (" + from + ", " + to + ") VALUES " + strings.Join(rows, ", ") + " ON CONFLICT DO NOTHING"
		if _, err := tx.ExecContext(ctx, tx.Rebind(q), args...); err != nil {
			return err
		}
	}
	return nil
}

// AddRelated relates item to the rows of keys through its many-to-many
// field named field (its Django name), Django's
// item.field.add(*keys): the through rows it lacks are inserted, in one
// transaction (a savepoint of the one ctx carries, if any), and those it
// has are left. keys are the related rows' keys, as text; one that names
// no row is a MissingRelatedError naming the field, and nothing is added.
// The field must be of an automatic through table (a declared through
// model's rows are written through its own source).
func (s *SQLSource[T]) AddRelated(ctx context.Context, item *T, field string, keys ...string) error {
	m, key, args, err := s.relatedKeys(item, field, keys)
	if err != nil {
		return err
	}
	return store.InTx(ctx, s.t.db, func(tx *sqlx.Tx) error {
		return s.t.relate(ctx, tx, key, m, args, false)
	})
}

// RemoveRelated removes the relations of item to the rows of keys through
// its many-to-many field named field, Django's item.field.remove(*keys):
// their through rows are deleted, in one statement; a key item is not
// related to is no error. It joins the transaction ctx carries, as
// store.Write does.
func (s *SQLSource[T]) RemoveRelated(ctx context.Context, item *T, field string, keys ...string) error {
	m, key, args, err := s.relatedKeys(item, field, keys)
	if err != nil || len(args) == 0 {
		return err
	}
	_, err = store.Exec(ctx, s.t.db, "DELETE FROM "+store.QuoteName(m.Through)+" WHERE "+store.QuoteName(m.From)+" = ? AND "+
		store.QuoteName(m.To)+" IN ("+marks(len(args))+")", append([]any{key}, args...)...)
	return err
}

// relatedKeys resolves AddRelated's and RemoveRelated's arguments: the
// many-to-many field named field, item's key, and keys, each once, as
// arguments of the related key's type.
func (s *SQLSource[T]) relatedKeys(item *T, field string, keys []string) (*models.ManyToMany, any, []any, error) {
	ml := s.t.m.many[field]
	if ml == nil || !ml.m.AutoCreated && !ml.m.Reverse {
		return nil, nil, nil, fmt.Errorf("queryset: %s has no many-to-many field %q of an automatic through table", s.t.m.desc.Type, field)
	}
	key, err := s.t.arg(s.t.key, structs.AddrOf(item))
	if err != nil {
		return nil, nil, nil, err
	}
	args := make([]any, 0, len(keys))
	seen := make(map[string]bool, len(keys))
	for _, k := range keys {
		if seen[k] {
			continue
		}
		seen[k] = true
		if !ml.integer {
			args = append(args, k)
			continue
		}
		n, err := strconv.ParseInt(k, 10, 64)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("%w: field %q: %q is not a key", query.ErrInvalidValue, field, k)
		}
		args = append(args, n)
	}
	return ml.m, key, args, nil
}

// setReverse sets the reverse foreign key rev of the row whose key is key
// to the referencing rows of keys, in tx, as Django's RelatedManager.set():
// each of those rows is made to reference the row; when the foreign key is
// nullable, the rows referencing it that are not listed are made to
// reference none (remove()), else they are left alone (set() only adds).
// A key that names no referencing row is a MissingRelatedError naming
// the field. A reverse accessor of slugs (slug_field) finds the rows by
// their slugs instead; a reverse one-to-one is set to its one row.
func (s *SQLSource[T]) setReverse(ctx context.Context, tx *sqlx.Tx, key any, rev *models.Reverse, keys []any) error {
	pk, null := rev.Referencing()
	pk = cmp.Or(rev.SlugField, pk)
	table, col, id := store.QuoteName(rev.Table), store.QuoteName(rev.Column), store.QuoteName(pk)
	if len(keys) > 0 {
		found, err := s.t.column(ctx, tx, rev.Table, pk, pk, keys)
		if err != nil {
			return err
		}
		have := map[string]bool{}
		for _, k := range found {
			have[columnText(k)] = true
		}
		for _, k := range keys {
			if t := fmt.Sprint(k); !have[t] {
				return &MissingRelatedError{Column: rev.Field.JSON, Value: t}
			}
		}
	}
	if rev.One && !null && len(keys) > 0 {
		// A reverse one-to-one whose foreign key cannot be null keeps the
		// row that references the item (no other may, the column being
		// unique): the rows are left as they are, as DRF's save() leaves
		// them.
		held, err := s.t.column(ctx, tx, rev.Table, pk, rev.Column, []any{key})
		if err != nil || len(held) > 0 {
			return err
		}
	}
	if null {
		q := "UPDATE " + table + " SET " + col + " = NULL WHERE " + col + " = ?"
		if len(keys) > 0 {
			q += " AND " + id + " NOT IN (" + marks(len(keys)) + ")"
		}
		if _, err := tx.ExecContext(ctx, tx.Rebind(q), append([]any{key}, keys...)...); err != nil {
			return err
		}
	}
	if len(keys) == 0 {
		return nil
	}
	q := "UPDATE " + table + " SET " + col + " = ? WHERE " + id + " IN (" + marks(len(keys)) + ")"
	_, err := tx.ExecContext(ctx, tx.Rebind(q), append([]any{key}, keys...)...)
	return err
}

// manyLookup is how a lookup filters by a many-to-many field: the items
// related to any of some keys, as Django's filter(tags__in=[...]) with
// distinct(), each item once.
type manyLookup struct {
	m       *models.ManyToMany
	integer bool
	// holds reports whether the slice at p holds one of keys (a
	// SliceSource's items).
	holds func(p structs.Addr, keys []any) bool
}

func newManyLookup(m *models.ManyToMany) *manyLookup {
	if m.Field.Type.Elem().Kind() == reflect.Struct {
		return structsLookup(m)
	}
	switch m.Field.Type.Elem().Kind() {
	case reflect.Int:
		return &manyLookup{m: m, integer: true, holds: holdsKey[int]}
	case reflect.Int32:
		return &manyLookup{m: m, integer: true, holds: holdsKey[int32]}
	case reflect.Int64:
		return &manyLookup{m: m, integer: true, holds: holdsKey[int64]}
	}
	if m.SlugField != "" {
		// The filter compares the related keys, not the slugs held.
		return &manyLookup{m: m, integer: true, holds: func(structs.Addr, []any) bool { return false }}
	}
	return &manyLookup{m: m, holds: func(p structs.Addr, keys []any) bool {
		return slices.ContainsFunc(*structs.At[[]string](p), func(k string) bool { return slices.Contains(keys, any(k)) })
	}}
}

// structsLookup is the lookup of a many-to-many field of structs: by
// the key field of the related rows (the struct field of the related
// key's column; a struct without one holds no keys).
func structsLookup(m *models.ManyToMany) *manyLookup {
	t := m.Field.Type.Elem()
	ml := &manyLookup{m: m, holds: func(structs.Addr, []any) bool { return false }}
	desc, err := structs.Describe(t)
	if err != nil {
		return ml
	}
	i := slices.IndexFunc(desc.Fields, func(f *structs.Field) bool { return f.Column == m.Column })
	if i < 0 {
		return ml
	}
	key, size := desc.Fields[i], t.Size()
	ml.integer = key.Kind == structs.Int || key.Kind == structs.Uint
	ml.holds = func(p structs.Addr, keys []any) bool {
		s := structs.At[structs.SliceHeader](p)
		for j := range s.Len {
			v := key.Get(s.Data.Index(j, size))
			for _, k := range keys {
				if fmt.Sprint(k) == v.Text() {
					return true
				}
			}
		}
		return false
	}
	return ml
}

func holdsKey[E int | int32 | int64](p structs.Addr, keys []any) bool {
	return slices.ContainsFunc(*structs.At[[]E](p), func(k E) bool { return slices.Contains(keys, any(int64(k))) })
}

// whereMany adds the condition that an item is related to one of values
// (exact: to values[0]), keys of the related table; a key its type
// cannot hold is no key.
func (s state) whereMany(ml *manyLookup, field string, op query.Lookup, values []string) state {
	if op != query.Exact && op != query.In || op == query.Exact && len(values) != 1 {
		s.err = errors.Join(s.err, fmt.Errorf("%w: field %q: lookup %s of a many-to-many field", query.ErrInvalidValue, field, op))
		return s
	}
	c := lookupCond{op: query.In, many: ml}
	for _, v := range values {
		if !ml.integer {
			c.keys = append(c.keys, v)
			continue
		}
		if n, err := strconv.ParseInt(v, 10, 64); err == nil {
			c.keys = append(c.keys, n)
		}
	}
	if len(c.keys) == 0 {
		s.none = true
		return s
	}
	s.lookups = append(s.lookups[:len(s.lookups):len(s.lookups)], c)
	return s
}

// sql is the condition of n keys: the item's key among the through
// table's rows of those related keys.
func (ml *manyLookup) sql(t *sqlTable, n int) string {
	m := ml.m
	return t.col(t.key) + " IN (SELECT " + store.QuoteName(m.From) + " FROM " + store.QuoteName(m.Through) +
		" WHERE " + store.QuoteName(m.To) + " IN (" + marks(n) + "))"
}
