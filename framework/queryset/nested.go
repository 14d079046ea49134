package queryset

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"

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
	// is true) and that meets where (a foreign key's limit_choices_to);
	// found is false when no row does.
	FindRelated(ctx context.Context, table, column, value string, integer bool, key string, where ...models.Condition) (string, bool, error)
	// ListRelated lists the value and display columns, as text, of up to
	// limit rows of table that meet where, ordered by the value column
	// (all of them for a limit of 0).
	ListRelated(ctx context.Context, table, value, display string, limit int, where ...models.Condition) ([][2]string, error)
}

// FindRelated runs SELECT key FROM table WHERE column = value AND where:
// the first row by key where several match (Django's get() raises
// MultipleObjectsReturned). A column across relations ("nested__name",
// as Django's get(nested__name=value)) is compared on the related rows,
// a reverse relation's of the models installed on the database. A value
// its column cannot hold (not an integer, a NUL character) is in no row.
func (s *SQLSource[T]) FindRelated(ctx context.Context, table, column, value string, integer bool, key string, where ...models.Condition) (string, bool, error) {
	match := store.QuoteName(column) + " = ?"
	if strings.Contains(column, "__") {
		p, err := relatedPath(table, column, s.t.installed)
		if err != nil {
			return "", false, err
		}
		match = p.sql(&sqlTable{alias: store.QuoteName(table)}, func(alias string) string {
			return alias + "." + store.QuoteName(p.mf.Column) + " = ?"
		}, false)
	}
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
	cond, args := conditionsSQL(table, where, []any{arg})
	q := s.t.db.Rebind("SELECT " + store.QuoteName(key) + " FROM " + store.QuoteName(table) +
		" WHERE " + match + cond + " ORDER BY " + store.QuoteName(key) + " LIMIT 1")
	var got any
	err := s.t.db.QueryRowContext(ctx, q, args...).Scan(&got)
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
// (the referencing rows of a reverse accessor, or the related rows of a
// many-to-many field: many=True) of each item of a page, with one query
// per relation per page, as Django's prefetch_related. The nested
// struct's own dotted sources and nested structs of its foreign keys are
// joined into that query, as select_related joins them.
type nestedFetch struct {
	// field is the struct or slice field of T; link, a nested one's way
	// to its struct.
	field *structs.Field
	link  *nestedLink
	// selects are the SQL of the columns read after the one matched, and
	// on SQLite (sqliteText); reads, what each is read into.
	selects, sqliteSelects []string
	reads                  []nestedRead
	// from is the FROM clause with its joins; match, the column compared
	// with the items' keys (or their foreign keys); order, the ORDER BY
	// of a nested many.
	from, match, order string
	// fk is a nested one's foreign key; nil for many.
	fk *models.Field
	// via is the foreign key of T a nested many is read through (DRF's
	// source='bar.foos'): its rows are matched with the items' values of
	// it, not their keys, and an item whose via is null holds nil.
	via *models.Field
	// elem is a nested many's element type: a page's elements are
	// allocated at once, the only reflection of the read.
	elem reflect.Type
}

// nestedRead is where one column read goes: the field, in the struct at
// path from the nested struct (nested ones within it), left alone when
// the column at guard (a foreign key the value is joined through) is
// NULL; guard is -1 when the value is always there.
type nestedRead struct {
	f     *structs.Field
	path  []*nestedLink
	guard int
}

// nestedLink is a field that holds a nested row: a struct, or a pointer
// to one, which is nil until a row is read into it.
type nestedLink struct {
	f *structs.Field
	// elem is a pointer's struct type, nil for a struct; off, the
	// pointer's offset in the struct that has it.
	elem reflect.Type
	off  uintptr
}

// newLink is the link of f, a field of the struct t.
func newLink(t reflect.Type, f *structs.Field) (*nestedLink, error) {
	l := &nestedLink{f: f}
	if f.Type.Kind() != reflect.Pointer {
		return l, nil
	}
	sf, ok := t.FieldByName(f.Name)
	if !ok {
		return nil, fmt.Errorf("%v.%s is ambiguous", t, f.Name)
	}
	for at, i := t, 0; i < len(sf.Index); i++ {
		field := at.Field(sf.Index[i])
		l.off, at = l.off+field.Offset, field.Type
	}
	l.elem = f.Type.Elem()
	return l, nil
}

// in is the nested struct of the item (or nested struct) at base, a new
// one when the pointer that holds it is nil.
func (l *nestedLink) in(base structs.Addr) structs.Addr {
	if l.elem == nil {
		return l.f.Addr(base)
	}
	p := structs.At[structs.Addr](base.Add(l.off))
	if p.IsNil() {
		*p = structs.New(l.elem)
	}
	return *p
}

// structOf is the struct type of a nested row's field: t, or what t
// points to; nil when it is neither.
func structOf(t reflect.Type) reflect.Type {
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return nil
	}
	return t
}

// newNestedFetch describes the nested struct of field, of type t, read
// from table.
func newNestedFetch(field *structs.Field, t reflect.Type, table string) (*nestedFetch, error) {
	n := &nestedFetch{field: field, from: store.QuoteName(table)}
	if err := n.columnsOf(t, table, nil, -1, false); err != nil {
		return nil, err
	}
	return n, nil
}

// addSelect adds col to the columns read, a model's DateTimeField when
// dateTime.
func (n *nestedFetch) addSelect(col string, dateTime bool) {
	n.selects = append(n.selects, col)
	if dateTime {
		col = sqliteText(col)
	}
	n.sqliteSelects = append(n.sqliteSelects, col)
}

// columns is the SQL of the columns read, on PostgreSQL when pg and
// else on SQLite.
func (n *nestedFetch) columns(pg bool) string {
	if pg {
		return strings.Join(n.selects, ", ")
	}
	return strings.Join(n.sqliteSelects, ", ")
}

// columnsOf adds the columns of the struct t, read from alias, to n's
// query: its own, its dotted sources (joined through a foreign key, by
// LEFT OUTER JOINs when outer), and its nested structs of foreign keys
// (joined too, their fields read into the struct at path), each guarded
// by guard. Its many-to-many fields and reverse accessors are left nil,
// as NoPrefetch leaves them. Any other field that JSON shows is refused:
// a nested serializer would render it empty.
func (n *nestedFetch) columnsOf(t reflect.Type, alias string, path []*nestedLink, guard int, outer bool) error {
	desc, err := structs.Describe(t)
	if err != nil {
		return err
	}
	md, _ := models.Describe(t)
	at := map[string]int{} // the columns' positions among the values read
	for _, f := range desc.Fields {
		if f.Column == "" {
			continue
		}
		if err := f.Supported(); err != nil {
			return err
		}
		at[f.Column] = len(n.reads)
		n.addSelect(store.QuoteName(alias)+"."+store.QuoteName(f.Column), md != nil && f.Kind == structs.Time)
		n.reads = append(n.reads, nestedRead{f: f, path: path, guard: guard})
	}
	if len(at) == 0 {
		return fmt.Errorf("the nested %v has no db columns", t)
	}
	joined := map[string]bool{}
	from := store.QuoteName(alias)
	join := func(links []*models.Field) string {
		var b strings.Builder
		as, _ := joinSQL(&b, joined, from, alias, links, outer)
		n.from += b.String()
		return as
	}
	for _, f := range desc.Fields {
		if f.Column != "" || f.NoJSON {
			continue
		}
		if md != nil {
			if j := joinOf(md, f); j != nil {
				links, err := j.Links()
				if err != nil {
					return fmt.Errorf("%v.%s: %w", t, f.Name, err)
				}
				n.addSelect(store.QuoteName(join(links))+"."+store.QuoteName(j.Column), f.Kind == structs.Time)
				n.reads = append(n.reads, nestedRead{f: f, path: path, guard: at[j.Via.Column]})
				continue
			}
			if fk := nestedForeignKey(md, f); fk != nil {
				link, err := newLink(t, f)
				if err != nil {
					return err
				}
				if err := n.columnsOf(structOf(f.Type), join([]*models.Field{fk}), append(path[:len(path):len(path)], link), at[fk.Column], true); err != nil {
					return err
				}
				continue
			}
			if slices.ContainsFunc(md.ManyToMany, func(m *models.ManyToMany) bool { return m.Field.Name == f.Name }) ||
				slices.ContainsFunc(md.Reverses, func(r *models.Reverse) bool { return r.Field.Name == f.Name }) {
				continue
			}
		}
		return fmt.Errorf("%v.%s is no db column, dotted source through a foreign key or nested row of a foreign key", t, f.Name)
	}
	return nil
}

// joinOf is the join of d that fills f, nil when none does.
func joinOf(d *models.Description, f *structs.Field) *models.Join {
	for _, j := range d.Joins {
		if j.Field.Name == f.Name {
			return j
		}
	}
	return nil
}

// nestedForeignKey is the foreign key of d that a struct field f (or a
// pointer to a struct) names, by its drf source or else its JSON name (as
// the serializer's nested fields do); nil when f is no struct naming one.
func nestedForeignKey(d *models.Description, f *structs.Field) *models.Field {
	if f.Column != "" || structOf(f.Type) == nil || f.Kind != structs.Unsupported {
		return nil
	}
	rel := f.JSON
	for opt := range strings.SplitSeq(f.Tag.Get("drf"), ",") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(opt), "source="); ok {
			rel = v
		}
	}
	if fk := d.Field(rel); fk != nil && fk.Related != nil {
		return fk
	}
	return nil
}

// orderMany orders a nested many's rows by its element model's
// Meta.Ordering, as Django's related manager does, then by key.
func (n *nestedFetch) orderMany(t reflect.Type, alias, key string) {
	var terms []string
	if md, err := models.Describe(t); err == nil {
		terms = orderingTerms(md, store.QuoteName(alias))
	}
	n.order = " ORDER BY " + strings.Join(append(terms, store.QuoteName(alias)+"."+store.QuoteName(key)), ", ")
}

// orderingTerms are the ORDER BY terms of d's Meta.Ordering, of its
// table named alias, up to the first that is a path across relations
// (which the related rows are read without joining).
func orderingTerms(d *models.Description, alias string) []string {
	var terms []string
	for _, o := range d.Ordering {
		f := d.Field(o.Field)
		if f == nil {
			break
		}
		term := alias + "." + store.QuoteName(f.Column)
		if o.Desc {
			term += " DESC"
		}
		terms = append(terms, term)
	}
	return terms
}

// nestedMany is the fetch of a reverse accessor holding structs.
func nestedMany(rev *models.Reverse) (*nestedFetch, error) {
	t := rev.Field.Type.Elem()
	n, err := newNestedFetch(rev.Field, t, rev.Table)
	if err != nil {
		return nil, err
	}
	n.elem, n.match = t, store.QuoteName(rev.Table)+"."+store.QuoteName(rev.Column)
	n.orderMany(t, rev.Table, rev.Key)
	return n, nil
}

// nestedThrough is the fetch of a many-to-many field holding structs:
// the related rows joined to their through table's, as Django's
// prefetch_related reads them.
func nestedThrough(m *models.ManyToMany) (*nestedFetch, error) {
	t := m.Field.Type.Elem()
	n, err := newNestedFetch(m.Field, t, m.Table)
	if err != nil {
		return nil, err
	}
	through := store.QuoteName(m.Through)
	n.elem, n.match = t, through+"."+store.QuoteName(m.From)
	n.from += " INNER JOIN " + through + " ON (" + store.QuoteName(m.Table) + "." + store.QuoteName(m.Column) + " = " +
		through + "." + store.QuoteName(m.To) + ")"
	n.orderMany(t, m.Table, m.Column)
	return n, nil
}

// nestedOnes are the fetches of d's struct fields (or pointers to
// structs) that name a foreign key of the model, by their drf source or
// else their JSON name (as the serializer's nested fields do).
func nestedOnes(d *models.Description) ([]*nestedFetch, error) {
	var out []*nestedFetch
	for _, sf := range d.Struct.Fields {
		fk := nestedForeignKey(d, sf)
		if fk == nil {
			continue
		}
		n, err := newNestedFetch(sf, structOf(sf.Type), fk.Related.Table)
		if err == nil {
			n.link, err = newLink(d.Type, sf)
		}
		if err != nil {
			return nil, fmt.Errorf("%s.%s: %w", d.Type.Name(), sf.Name, err)
		}
		n.fk, n.match = fk, store.QuoteName(fk.Related.Table)+"."+store.QuoteName(fk.Related.Column)
		out = append(out, n)
	}
	return out, nil
}

// fillNested runs n's query for items: keys are the items' keys as
// arguments, byKey the items by their key's text.
func (s *SQLSource[T]) fillNested(ctx context.Context, db queryer, n *nestedFetch, items []*T, keys []any, byKey map[string][]structs.Addr) error {
	match := s.t.key // the field rows are matched on
	args := keys
	targets := byKey
	if link := cmp.Or(n.fk, n.via); link != nil {
		match = link.Struct
		args, targets = nil, map[string][]structs.Addr{}
		for _, item := range items {
			base := structs.AddrOf(item)
			if match.IsNull(base) {
				if n.via != nil {
					*structs.At[structs.SliceHeader](n.field.Addr(base)) = structs.SliceHeader{}
				}
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
	}
	q := s.t.db.Rebind("SELECT " + n.match + ", " + n.columns(s.t.pg) + " FROM " + n.from +
		" WHERE " + n.match + " IN (" + marks(len(args)) + ")" + n.order)
	rows, err := s.t.read(ctx, db, q, args)
	if err != nil {
		return err
	}
	defer rows.Close()
	var read [][]any // a nested many's rows, placed once all are read
	for rows.Next() {
		row := make([]any, len(n.selects)+1)
		dest := make([]any, len(row))
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
			if err := n.set(n.link.in(base), row[1:]); err != nil {
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
func (n *nestedFetch) place(match *structs.Field, read [][]any, byKey map[string][]structs.Addr) error {
	size := n.elem.Size()
	array := structs.New(reflect.ArrayOf(len(read), n.elem))
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
		at := array.Index(start[k]+filled[k], size)
		filled[k]++
		if err := n.set(at, row[1:]); err != nil {
			return err
		}
	}
	for k, bases := range byKey {
		s := structs.SliceHeader{Data: array.Index(start[k], size), Len: counts[k], Cap: counts[k]}
		if counts[k] == 0 {
			s.Data = array // a non-nil empty slice: []
		}
		for _, base := range bases {
			*structs.At[structs.SliceHeader](n.field.Addr(base)) = s
		}
	}
	return nil
}

// set reads a row's values into the nested struct at p.
func (n *nestedFetch) set(p structs.Addr, values []any) error {
	for i, r := range n.reads {
		if r.guard >= 0 && values[r.guard] == nil {
			continue
		}
		at := p
		for _, sub := range r.path {
			at = sub.in(at)
		}
		if err := setFromDB(r.f, at, values[i]); err != nil {
			return err
		}
	}
	return nil
}

// ListRelated lists the value and display columns, as text, of up to
// limit rows of table that meet where, ordered by the value column (all
// of them for a limit of 0): the choices of a relational field's select
// (RelatedFinder). A column across foreign keys ("nested__name", a slug
// through relations) is read by a join per link, and a row that reaches
// no value by it is none of the choices.
func (s *SQLSource[T]) ListRelated(ctx context.Context, table, value, display string, limit int, where ...models.Condition) ([][2]string, error) {
	from := store.QuoteName(table)
	var joins strings.Builder
	joined := map[string]bool{}
	column := func(name string) (string, error) {
		if !strings.Contains(name, "__") {
			return from + "." + store.QuoteName(name), nil
		}
		p, err := relatedPath(table, name, s.t.installed)
		if err != nil {
			return "", err
		}
		links := make([]*models.Field, len(p.steps))
		for i, step := range p.steps {
			if step.fk == nil {
				return "", fmt.Errorf("queryset: %q of the table %q is no column across foreign keys", name, table)
			}
			links[i] = step.fk
		}
		alias, _ := joinSQL(&joins, joined, from, "", links, false)
		return store.QuoteName(alias) + "." + store.QuoteName(p.mf.Column), nil
	}
	v, err := column(value)
	if err != nil {
		return nil, err
	}
	d, err := column(display)
	if err != nil {
		return nil, err
	}
	cond, args := conditionsSQL(table, where, nil)
	if strings.Contains(value, "__") {
		cond += " AND " + v + " IS NOT NULL"
	}
	q := "SELECT " + v + ", " + d + " FROM " + from + joins.String() + strings.Replace(cond, " AND ", " WHERE ", 1) + " ORDER BY " + v
	if limit > 0 {
		q += " LIMIT " + strconv.Itoa(limit)
	}
	q = s.t.db.Rebind(q)
	rows, err := s.t.db.QueryContext(ctx, q, args...)
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

// conditionsSQL is where as SQL to add to a WHERE clause (" AND col = ?"
// each, col of table, quoted) and args with their values appended.
func conditionsSQL(table string, where []models.Condition, args []any) (string, []any) {
	var b strings.Builder
	for _, c := range where {
		b.WriteString(" AND " + store.QuoteName(table) + "." + store.QuoteName(c.Column) + " = ?")
		args = append(args, conditionValue(table, c))
	}
	return b.String(), args
}

// conditionValue is c's value as its column compares it: a BooleanField's
// of a described model of table as a bool, read as Django's BooleanField
// reads text ("true", "True", "t", "1"; "false", ...), since SQLite holds
// it as 1 or 0, which text never equals; any other as its text.
func conditionValue(table string, c models.Condition) any {
	for _, d := range models.Described().OfTable(table) {
		if f := d.Field(c.Column); f != nil && f.Kind == models.BooleanField {
			if v, err := strconv.ParseBool(c.Value); err == nil {
				return v
			}
		}
	}
	return c.Value
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
