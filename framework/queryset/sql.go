package queryset

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/framework/models"
	"github.com/go-drf/drf/framework/query"
	"github.com/go-drf/drf/framework/store"
	"github.com/go-drf/drf/internal/structs"
)

// SQLConfig says where an SQLSource reads and writes.
type SQLConfig struct {
	// Table is the table the source writes to, and reads from when Query
	// is empty.
	Table string
	// Query is a SELECT whose result columns are named like T's `db` tags,
	// for example a join that adds the owner's username; empty reads Table.
	// It must have no ORDER BY or LIMIT of its own.
	Query string
	// Key is the primary key column; "" gives "id".
	Key string
	// Columns are the Table columns that Insert and Update write; nil gives
	// every `db` column of T except Key when Query is empty, and nothing
	// (a read-only source) otherwise.
	Columns []string
	// Ordering is the default ordering (Django's Meta.ordering).
	Ordering []query.Order
	// Counter counts the source while it has no filter, search or seek,
	// instead of SELECT COUNT(*) over Query: CountTable, RowCounter or
	// CachedCount. Nil counts through Query.
	Counter Counter
	// Estimator estimates the count of the source while it has no filter,
	// search or seek, for EstimateCount: on SQLite a count cached for a
	// while (CachedCount(CountTable(table), time.Minute)). Nil makes
	// EstimateCount count exactly.
	Estimator Counter
	// TableRows declares that Query has exactly Table's rows, one for one:
	// it only joins columns onto them, as a join on a NOT NULL foreign key
	// does. A page at an offset of LateRowLookup or more, while the
	// source has no filter, search or seek and is ordered by Table's
	// columns (Key and Columns), then finds its keys by an OFFSET over
	// Table alone and joins only its own rows ("late row lookup"),
	// instead of joining every row it skips.
	TableRows bool
}

// LateRowLookup is the offset from which a source with
// SQLConfig.TableRows skips rows over its table alone; below it, the
// extra lookup costs more than the join it saves.
const LateRowLookup = 100

// SQLSource is a Source over a table or a SELECT, read with sqlx into
// items of type *T whose `db` tags name the columns. Conditions use bound
// parameters only; field names are checked against T's columns and quoted.
// The SQL text of each distinct query shape is built once and cached.
type SQLSource[T any] struct {
	t  *sqlTable
	st state
}

type sqlTable struct {
	m         *model
	rules     *modelRules
	db        *sqlx.DB
	pg        bool // PostgreSQL rather than SQLite
	from      string
	alias     string // qualifies column names, so a missing one is an error
	columns   string
	key       *structs.Field
	writes    []*structs.Field
	table     string
	readsRow  bool   // the source reads Table itself, so RETURNING gives its row
	ownRows   bool   // the model's rows (no SQLConfig.Query): a unique field is one row's
	returning string // a write's RETURNING clause: the row's columns if readsRow, else its key
	tableRows bool   // SQLConfig.TableRows, with a Query and a Table
	counter   Counter
	estimator Counter
	related   []*relatedJoin          // the nested rows SelectRelated joins in
	unique    map[*structs.Field]bool // the fields one row holds a value of at most (Get)
	cache     sync.Map
	cached    atomic.Int64
	reader    *store.Reader // db's native reader, on PostgreSQL
	// made is the source NewSQL made (*SQLSource[T]), and selected its
	// SelectRelated sources by their state.related, each made once.
	made     any
	selected sync.Map
	// installed are db's models (Installed), whose foreign keys a delete
	// applies on_delete to.
	installed *models.Registry
}

// Bounds of the SQL text cache: clients choose orderings and search terms,
// so the number of shapes they can make is kept from growing the cache
// without end; rarer shapes are built each time.
const (
	maxCachedShapes = 1024
	maxCachedTerms  = 8
)

// ErrReadOnly is the error of writing through a source that has no table
// columns to write.
var ErrReadOnly = errors.New("queryset: the source is read-only")

// NewSQL returns a source over c's table or query for T.
func NewSQL[T any](db *sqlx.DB, c SQLConfig) (*SQLSource[T], error) {
	m, err := describe[T]()
	if err != nil {
		return nil, err
	}
	_, declared := any((*T)(nil)).(models.Model)
	if c.Table == "" && c.Query == "" && !declared {
		return nil, fmt.Errorf("queryset: SQLConfig needs a Table or a Query, or %T a Meta method (a model)", *new(T))
	}
	rules, err := modelOf[T](m, declared)
	if err != nil {
		return nil, fmt.Errorf("queryset: %w", err)
	}
	if db == nil {
		return nil, fmt.Errorf("queryset: the source of %T has no database (a nil *sqlx.DB)", *new(T))
	}
	reg := Installed(db)
	if rules.desc != nil {
		reg.Add(rules.desc)
	}
	m.installed = reg
	ownRows := c.Query == "" // the model's rows, not a hand-written SELECT's
	if d := rules.desc; d != nil && c.Query == "" && (declared || len(d.Joins) > 0) {
		if c, err = fromModel(d, c); err != nil {
			return nil, fmt.Errorf("queryset: %w", err)
		}
	}
	t := &sqlTable{m: m, rules: rules, db: db, pg: store.DialectOf(db) == store.PostgreSQL, table: c.Table, counter: c.Counter, estimator: c.Estimator,
		tableRows: c.TableRows && c.Query != "" && c.Table != "", installed: reg}
	if d := rules.desc; d != nil && !t.pg {
		// django.contrib.postgres' fields: an array or an hstore column.
		if err := d.PostgresOnlyError("SQLite"); err != nil {
			return nil, fmt.Errorf("queryset: %w", err)
		}
	}
	t.reader = store.ReaderOf(db)
	if c.Query != "" {
		t.alias = store.QuoteName("q")
		t.from = "(" + c.Query + ") AS " + t.alias
	} else {
		t.alias = store.QuoteName(c.Table)
		t.from = t.alias
	}
	names := make([]string, len(m.columns))
	for i, f := range m.columns {
		names[i] = t.col(f)
		if f.Kind == structs.Time && !t.pg && rules.desc != nil && ownRows {
			names[i] = sqliteText(names[i])
		}
	}
	t.columns = strings.Join(names, ", ")
	if t.related, err = t.relatedJoins(rules.ones); err != nil {
		return nil, fmt.Errorf("queryset: %w", err)
	}
	keyName := c.Key
	if keyName == "" {
		keyName = "id"
	}
	if t.key, err = m.field(keyName); err != nil {
		return nil, fmt.Errorf("queryset: key: %w", err)
	}
	t.unique = uniqueFields(m, t.key, rules.desc, ownRows)
	t.ownRows = ownRows
	t.readsRow = c.Query == ""
	if t.readsRow {
		t.returning = " RETURNING " + t.columns
	} else {
		t.returning = " RETURNING " + store.QuoteName(t.key.Column)
	}
	cols := c.Columns
	if cols == nil && c.Query == "" {
		for _, f := range m.columns {
			if f != t.key {
				cols = append(cols, f.Column)
			}
		}
	}
	if len(cols) > 0 && c.Table == "" {
		return nil, errors.New("queryset: SQLConfig.Columns needs a Table")
	}
	if k := t.key.Kind; !slices.Contains(cols, keyName) && k != structs.Int && k != structs.Uint {
		return nil, fmt.Errorf("queryset: key %q is not an integer, so Columns must include it", keyName)
	}
	for _, name := range cols {
		f, err := m.field(name)
		if err != nil {
			return nil, fmt.Errorf("queryset: columns: %w", err)
		}
		t.writes = append(t.writes, f)
	}
	s := &SQLSource[T]{t: t}
	s.st = s.st.orderBy(m, c.Ordering)
	if s.st.err != nil {
		return nil, fmt.Errorf("queryset: %T: ordering: %w", *new(T), s.st.err)
	}
	t.made = s
	return s, nil
}

// MustSQL is NewSQL that panics on a setup error.
func MustSQL[T any](db *sqlx.DB, c SQLConfig) *SQLSource[T] {
	s, err := NewSQL[T](db, c)
	if err != nil {
		panic(err)
	}
	return s
}

// sqliteText is the select of col, a model's DateTimeField, on SQLite:
// an expression (SQLite's no-op unary +) has no declared type, so the
// driver hands over the text as stored, which FromDB reads as Django's
// parse_datetime does (an offset without its colon, say), where the
// driver would try its own formats in turn and read what none of them
// parses as the zero time.
func sqliteText(col string) string { return "+" + col }

// col is the qualified name of f's column: SQLite reads an unknown
// unqualified "name" as a string, a qualified one is an error.
func (t *sqlTable) col(f *structs.Field) string { return t.alias + "." + store.QuoteName(f.Column) }

// param is the placeholder of a value of f. PostgreSQL types a parameter
// by its column, so an integer beyond the column's range would be an
// error rather than no match: integers are bound as bigint (numeric for
// unsigned ones), which compares with every integer column and keeps its
// index usable. SQLite gets store.Dialect.LookupParam's placeholder, which
// keeps a join's plan from being made again on every run.
func (t *sqlTable) param(f *structs.Field) string {
	if t.pg {
		switch f.Kind {
		case structs.Int:
			return "?::bigint"
		case structs.Uint:
			return "?::numeric"
		}
		return "?"
	}
	return store.SQLite.LookupParam()
}

// bind is x, a value of f bound as an argument, as Django binds it: on
// SQLite, where Django stores a UUIDField as char(32), a uuid's text
// without its dashes; on PostgreSQL, where a DurationField is an
// interval, a duration's interval text.
func (t *sqlTable) bind(f *structs.Field, x any) any {
	if us, ok := x.(int64); ok && f.Kind == structs.Duration && t.pg {
		return structs.PostgresInterval(us)
	}
	if f.Format != "uuid" || t.pg {
		return x
	}
	if s, ok := x.(string); ok && len(s) == 36 {
		return strings.ReplaceAll(s, "-", "")
	}
	return x
}

// likeArg is pattern, a LIKE pattern on f's column, as Django binds it:
// on SQLite, where a UUIDField is stored without hyphens, without them
// (Django's UUIDTextMixin).
func (t *sqlTable) likeArg(f *structs.Field, pattern string) string {
	if f.Format != "uuid" || t.pg {
		return pattern
	}
	return strings.ReplaceAll(pattern, "-", "")
}

// arg is the argument of f's value in the item at base, as bind binds it.
func (t *sqlTable) arg(f *structs.Field, base structs.Addr) (any, error) {
	x, err := f.Arg(base)
	return t.bind(f, x), err
}

// like is the search condition on f's column: Django's icontains, which
// is LIKE on SQLite (case-insensitive for ASCII) and UPPER(...) LIKE
// UPPER(...) on PostgreSQL. Both escape with a backslash.
func (t *sqlTable) like(f *structs.Field) string {
	if t.pg {
		return "UPPER(" + t.col(f) + "::text) LIKE UPPER(?)"
	}
	return t.col(f) + ` LIKE ? ESCAPE '\'`
}

func (s *SQLSource[T]) with(st state) *SQLSource[T] { return &SQLSource[T]{t: s.t, st: st} }

// Fields lists T's `db` columns, the fields the source can filter and order by.
func (s *SQLSource[T]) Fields() []string { return s.t.m.names }

// Ordering returns the current ordering; do not modify it.
func (s *SQLSource[T]) Ordering() []query.Order { return s.st.ordering }

// OrderBy returns the source ordered by o.
func (s *SQLSource[T]) OrderBy(o ...query.Order) Source[T] { return s.with(s.st.orderBy(s.t.m, o)) }

// Filter returns the items whose field equals value.
func (s *SQLSource[T]) Filter(field, value string) Source[T] {
	st := s.st.cond(s.t.m, field, '=', value)
	if s.unstorable(st, value) {
		// PostgreSQL stores no such text, and refuses to compare with it.
		st.none = true
	}
	return s.with(st)
}

// Seek returns the items whose field compares op to position.
func (s *SQLSource[T]) Seek(field string, op query.Op, position string) Source[T] {
	st := s.st.seek(s.t.m, field, op, position)
	if s.unstorable(st, position) {
		st.err = errors.Join(st.err, fmt.Errorf("%w: field %q: not text PostgreSQL can compare", query.ErrInvalidValue, field))
	}
	return s.with(st)
}

// SeekAfter returns the items after the position in ordering, as one
// WHERE condition that an index on ordering's columns serves: for
// (a, b, id) ascending, a >= ? AND (a > ? OR (a = ? AND (b > ? OR (b = ?
// AND id > ?)))), the row-value comparison spelled out so that it works
// on every SQL dialect and with mixed directions.
func (s *SQLSource[T]) SeekAfter(ordering []query.Order, positions []string) Source[T] {
	st := s.st.seekAfter(s.t.m, ordering, positions)
	for _, k := range st.keyset {
		if s.t.pg && st.err == nil && k.f.Kind == structs.String && !store.StorableText(k.v.S) {
			st.err = fmt.Errorf("%w: field %q: not text PostgreSQL can compare", query.ErrInvalidValue, k.f.Column)
		}
	}
	return s.with(st)
}

// unstorable reports whether the condition that st just gained compares
// a text column with text that PostgreSQL cannot hold (store.StorableText).
func (s *SQLSource[T]) unstorable(st state, text string) bool {
	return s.t.pg && st.err == nil && st.conds[len(st.conds)-1].f.Kind == structs.String && !store.StorableText(text)
}

// Search returns the items where every term is in one of fields (Django's
// icontains: LIKE, case-insensitive for ASCII on SQLite, and for all of
// Unicode on PostgreSQL).
func (s *SQLSource[T]) Search(fields []string, terms []string) Source[T] {
	st := s.st.search(s.t.m, fields, terms)
	if s.t.pg && !st.none && slices.ContainsFunc(terms, func(term string) bool { return !store.StorableText(term) }) {
		st.none = true
	}
	return s.with(st)
}

// Position returns Django's str() of item's field.
func (s *SQLSource[T]) Position(item *T, field string) (string, error) {
	return s.t.m.position(structs.AddrOf(item), field)
}

// Count returns the number of items.
func (s *SQLSource[T]) Count(ctx context.Context) (int, error) {
	if s.st.err != nil {
		return 0, s.st.err
	}
	if s.st.none {
		return 0, nil
	}
	if s.t.counter != nil && s.unfiltered() {
		return s.t.counter.CountRows(ctx, s.t.db)
	}
	return s.t.count(ctx, s.sql('c'), s.args(nil))
}

// EstimateCount returns the Estimator's count while the source has no
// filter, search or seek (exact is false then), else the exact Count.
func (s *SQLSource[T]) EstimateCount(ctx context.Context) (n int, exact bool, err error) {
	if s.st.err != nil {
		return 0, false, s.st.err
	}
	if s.t.estimator == nil || !s.unfiltered() {
		n, err := s.Count(ctx)
		return n, true, err
	}
	n, err = s.t.estimator.CountRows(ctx, s.t.db)
	return n, false, err
}

// unfiltered reports whether the source holds every row of its query.
func (s *SQLSource[T]) unfiltered() bool {
	return len(s.st.conds) == 0 && len(s.st.keyset) == 0 && len(s.st.searches) == 0 && len(s.st.lookups) == 0 && len(s.st.anyOf) == 0
}

// Slice returns up to limit items from offset; limit < 0 means all.
func (s *SQLSource[T]) Slice(ctx context.Context, offset, limit int) ([]*T, error) {
	if s.st.err != nil {
		return nil, s.st.err
	}
	if limit == 0 || s.st.none {
		return []*T{}, nil
	}
	args := argBuffers.Get().(*[]any)
	*args = s.args((*args)[:0])
	items, err := s.query(ctx, s.t.db, s.sliceSQL(offset, limit), *args, limit)
	clear(*args)
	argBuffers.Put(args)
	return items, err
}

// argBuffers are the buffers of the arguments of the slices read
// (*[]any), for the next: the statement holds none once read.
var argBuffers = sync.Pool{New: func() any { return new([]any) }}

// sliceSQL is the statement of Slice. LIMIT and OFFSET are written into
// the text rather than bound: SQLite plans a statement for its bound LIMIT
// and plans it again once the driver clears its bindings, that is on
// every run, while a statement with literal numbers is planned once per
// connection (store.Open's statement cache) and then reused. "All" is
// LIMIT -1 on SQLite (which needs a LIMIT before OFFSET) and no LIMIT on
// PostgreSQL.
func (s *SQLSource[T]) sliceSQL(offset, limit int) string {
	if limit > 0 && offset >= LateRowLookup && s.lateLookup() {
		return s.lateSQL(offset, limit)
	}
	if offset == 0 && limit == 1 {
		// One item, a detail view's object: its whole text is cached.
		if s.pinned() {
			return s.sql('u')
		}
		return s.sql('1')
	}
	lim := ""
	switch {
	case limit > 0:
		lim = " LIMIT " + strconv.Itoa(limit)
	case !s.t.pg:
		lim = " LIMIT -1"
	}
	return s.sql('r') + lim + " OFFSET " + strconv.Itoa(max(offset, 0))
}

// pinned reports whether a condition of the source holds a unique field of
// the model's own rows to one value, so that one row at most matches.
func (s *SQLSource[T]) pinned() bool {
	if !s.t.ownRows {
		return false
	}
	for _, c := range s.st.conds {
		if c.op == '=' && s.t.unique[c.f] {
			return true
		}
	}
	return false
}

// queryer runs a query on a database or in a transaction.
type queryer interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// query runs q, whose result columns are the source's, on db and reads up
// to limit items (all when limit < 0) from its rows.
func (s *SQLSource[T]) query(ctx context.Context, db queryer, q string, args []any, limit int) ([]*T, error) {
	rows, err := s.t.read(ctx, db, q, args)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	cols := s.t.m.columns
	width := len(cols) // the columns read, the joined rows' included
	for r := range s.joined() {
		width += r.width
	}
	typed, _ := rows.(*store.Rows)
	var holders, dest []any
	if typed == nil || width > len(cols) {
		buf := scanBuffers.Get().(*[]any)
		defer func() {
			clear(*buf)
			scanBuffers.Put(buf)
		}()
		if cap(*buf) < 2*width {
			*buf = make([]any, 2*width)
		}
		*buf = (*buf)[:2*width]
		holders, dest = (*buf)[:width], (*buf)[width:]
		for i := range holders {
			dest[i] = &holders[i]
		}
	}
	items := []*T{}
	var spare *T
	if limit == 1 {
		// One item, a detail view's object: it and the slice that holds
		// it share one allocation.
		one := new(struct {
			items [1]*T
			item  T
		})
		items, spare = one.items[:0], &one.item
	}
	for rows.Next() {
		item := spare
		if spare = nil; item == nil {
			item = new(T)
		}
		base := structs.AddrOf(item)
		if typed != nil {
			if err := scanTyped(typed, cols, base, width); err != nil {
				return nil, err
			}
			for i := len(cols); i < width; i++ {
				if holders[i], err = typed.Value(i); err != nil {
					return nil, err
				}
			}
		} else {
			if err := rows.Scan(dest...); err != nil {
				return nil, err
			}
			for i, f := range cols {
				if err := setFromDB(f, base, holders[i]); err != nil {
					return nil, err
				}
			}
		}
		at := len(cols)
		for r := range s.joined() {
			if err := r.fill(base, holders[at:at+r.width]); err != nil {
				return nil, err
			}
			at += r.width
		}
		items = append(items, item)
		if len(items) == limit {
			// The page is full: no need to step the statement to its end.
			break
		}
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if len(s.t.rules.reverses) > 0 && !s.st.columnsOnly {
		rows.Close()
		if err := s.prefetch(ctx, db, items); err != nil {
			return nil, err
		}
	}
	return items, nil
}

// scanBuffers are the buffers of the values a query scans and the
// pointers to them (*[]any), of the queries done, for the next.
var scanBuffers = sync.Pool{New: func() any { return new([]any) }}

// scanTyped reads the first columns of the current row of rs, of width
// columns, into the item at base: each column that has its field's type
// straight into the field, the others as rows.Scan reads them
// (setFromDB).
func scanTyped(rs *store.Rows, cols []*structs.Field, base structs.Addr, width int) error {
	if n := rs.Columns(); n != width {
		return fmt.Errorf("queryset: %d columns for %d fields", n, width)
	}
	for i, f := range cols {
		v := structs.Value{Kind: f.Kind}
		ok := false
		switch f.Kind {
		case structs.String:
			v.S, ok = rs.Text(i)
		case structs.Int, structs.Uint:
			v.I, ok = rs.Int(i)
			v.U = uint64(v.I)
		case structs.Float:
			v.F, ok = rs.Float(i)
		case structs.Bool:
			v.B, ok = rs.Bool(i)
		case structs.Time:
			v.T, ok = rs.Time(i)
		}
		if ok {
			f.Set(base, v)
			continue
		}
		x, err := rs.Value(i)
		if err != nil {
			return err
		}
		if err := setFromDB(f, base, x); err != nil {
			return err
		}
	}
	return nil
}

// setFromDB sets f in the item at base to x, a value as database/sql
// reads it.
func setFromDB(f *structs.Field, base structs.Addr, x any) error {
	if f.Kind == structs.Custom {
		return f.Scan(base, x)
	}
	v, err := f.FromDB(x)
	if err != nil {
		return err
	}
	f.Set(base, v)
	return nil
}

// lateLookup reports whether a deep page may find its keys over the table
// alone (SQLConfig.TableRows): the source is unfiltered and ordered by
// the table's own columns.
func (s *SQLSource[T]) lateLookup() bool {
	if !s.t.tableRows || !s.unfiltered() {
		return false
	}
	for _, o := range s.st.order {
		if o.f != s.t.key && !slices.Contains(s.t.writes, o.f) {
			return false
		}
	}
	return true
}

// lateSQL selects limit items from offset by their keys, which an OFFSET
// over the table alone finds in the source's order. Both orders end with
// the key, so that rows that tie come in key order, as in sql's text.
func (s *SQLSource[T]) lateSQL(offset, limit int) string {
	inner := s.orderTerms(func(f *structs.Field) string { return store.QuoteName(f.Column) }, nil, true)
	outer := s.orderTerms(s.t.col, nil, true)
	columns, joins := s.relatedSQL()
	return "SELECT " + s.t.columns + columns + " FROM " + s.t.from + joins + " WHERE " + s.t.col(s.t.key) + " IN (SELECT " +
		store.QuoteName(s.t.key.Column) + " FROM " + store.QuoteName(s.t.table) + " ORDER BY " + strings.Join(inner, ", ") +
		" LIMIT " + strconv.Itoa(limit) + " OFFSET " + strconv.Itoa(offset) + ") ORDER BY " + strings.Join(outer, ", ")
}

// orderTerms are the ORDER BY terms of the source's order, each column
// named by col (a related one by its table's alias in paths, orderJoins'),
// ending with the key (ascending) when tieBreak is set and the order
// does not hold it.
func (s *SQLSource[T]) orderTerms(col func(*structs.Field) string, paths map[*relationPath]string, tieBreak bool) []string {
	terms := make([]string, 0, len(s.st.order)+1)
	keyed := false
	for _, o := range s.st.order {
		keyed = keyed || o.f == s.t.key
		var name string
		if o.path != nil {
			name = paths[o.path] + "." + store.QuoteName(o.f.Column)
		} else {
			name = col(o.f)
		}
		if o.desc {
			terms = append(terms, name+" DESC")
		} else {
			terms = append(terms, name+" ASC")
		}
	}
	if tieBreak && !keyed {
		terms = append(terms, col(s.t.key)+" ASC")
	}
	return terms
}

// sql returns the cached SQL text of the query: 'c' counts, 's' selects
// with LIMIT and OFFSET parameters, 'r' selects without them, '1' selects
// the first row (LIMIT 1 OFFSET 0, as sliceSQL writes it), 'u' the one
// row of a unique value (pinned), unordered (LIMIT 1), as Django's get()
// clears the ordering.
func (s *SQLSource[T]) sql(kind byte) string {
	key := s.st.shape(s.t.m, kind)
	if q, ok := s.t.cache.Load(key); ok {
		return q.(string)
	}
	var b strings.Builder
	var paths map[*relationPath]string
	if kind == 'c' {
		b.WriteString("SELECT COUNT(*) FROM " + s.t.from)
	} else {
		columns, joins := s.relatedSQL()
		b.WriteString("SELECT " + s.t.columns + columns + " FROM " + s.t.from + joins)
		if kind != 'u' {
			joins, paths = s.t.orderJoins(s.st.order)
			b.WriteString(joins)
		}
	}
	where := s.whereTerms()
	if len(where) > 0 {
		b.WriteString(" WHERE " + strings.Join(where, " AND "))
	}
	if kind == 'u' {
		b.WriteString(" LIMIT 1")
	} else if kind != 'c' {
		// Rows that tie come in key order, as SQLite gives them (it scans
		// by rowid and sorts stably), where PostgreSQL's order would be
		// arbitrary and could differ from page to page.
		terms := s.orderTerms(s.t.col, paths, s.t.pg)
		if len(terms) > 0 {
			b.WriteString(" ORDER BY " + strings.Join(terms, ", "))
		}
		switch kind {
		case 's':
			b.WriteString(" LIMIT ? OFFSET ?")
		case '1':
			b.WriteString(" LIMIT 1 OFFSET 0")
		}
	}
	q := s.t.db.Rebind(b.String())
	terms := 0
	for _, sc := range s.st.searches {
		terms += len(sc.terms)
	}
	if terms <= maxCachedTerms && s.t.cached.Add(1) <= maxCachedShapes {
		s.t.cache.Store(key, q)
	}
	return q
}

// whereTerms are the terms of the source's WHERE clause, to be joined by
// AND, their values in args's order.
func (s *SQLSource[T]) whereTerms() []string {
	var where []string
	for _, c := range s.st.conds {
		where = append(where, s.t.col(c.f)+" "+string(c.op)+" "+s.t.param(c.f))
	}
	for _, c := range s.st.lookups {
		where = append(where, s.t.lookupSQL(c))
	}
	for _, c := range s.st.anyOf {
		where = append(where, c.sql(s.t))
	}
	if k := s.st.keyset; len(k) > 0 {
		where = append(where, s.t.keysetSQL(k))
	}
	for _, sc := range s.st.searches {
		for range sc.terms {
			alts := make([]string, len(sc.fields))
			for i, f := range sc.fields {
				alts[i] = s.t.like(f)
			}
			where = append(where, "("+strings.Join(alts, " OR ")+")")
		}
	}
	return where
}

// keysetSQL is the condition of SeekAfter: each term strictly after its
// position, or equal to it and the following terms after theirs, behind
// a range on the first column (a >= ? for ascending) that lets the
// database seek its index instead of testing every row.
func (t *sqlTable) keysetSQL(k []keyTerm) string {
	op := func(k keyTerm, strict bool) string {
		switch {
		case k.desc && strict:
			return " < " + t.param(k.f)
		case k.desc:
			return " <= " + t.param(k.f)
		case strict:
			return " > " + t.param(k.f)
		}
		return " >= " + t.param(k.f)
	}
	last := len(k) - 1
	e := t.col(k[last].f) + op(k[last], true)
	for i := last - 1; i >= 0; i-- {
		c := t.col(k[i].f)
		e = c + op(k[i], true) + " OR (" + c + " = " + t.param(k[i].f) + " AND (" + e + "))"
	}
	if last == 0 {
		return e
	}
	return "(" + t.col(k[0].f) + op(k[0], false) + " AND (" + e + "))"
}

// args appends to args the bound values, in the order of the SQL text.
func (s *SQLSource[T]) args(args []any) []any {
	for _, c := range s.st.conds {
		args = append(args, s.t.bind(c.f, c.v.Bind()))
	}
	for _, c := range s.st.lookups {
		args = s.t.lookupArgs(args, c)
	}
	for _, c := range s.st.anyOf {
		args = c.args(s.t, args)
	}
	if k := s.st.keyset; len(k) > 1 {
		// The leading range, then each term but the last twice (its
		// comparison and its equality), then the last once.
		args = append(args, s.t.bind(k[0].f, k[0].v.Bind()))
		for _, t := range k[:len(k)-1] {
			args = append(args, s.t.bind(t.f, t.v.Bind()), s.t.bind(t.f, t.v.Bind()))
		}
		args = append(args, s.t.bind(k[len(k)-1].f, k[len(k)-1].v.Bind()))
	} else if len(k) == 1 {
		args = append(args, s.t.bind(k[0].f, k[0].v.Bind()))
	}
	for _, sc := range s.st.searches {
		for _, term := range sc.terms {
			pattern := "%" + likeEscaper.Replace(term) + "%"
			for _, f := range sc.fields {
				args = append(args, s.t.likeArg(f, pattern))
			}
		}
	}
	return args
}

var likeEscaper = strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)

// Insert writes item as a new row of the table and reads the row
// back into item (the key the database chose, and the columns of a join),
// as one statement or one transaction: see write. An integer key that is
// not zero is written too, as Django's create(pk=...).
func (s *SQLSource[T]) Insert(ctx context.Context, item *T) (err error) {
	base, err := s.writable(item)
	if err != nil {
		return err
	}
	undo, err := s.beforeWrite(ctx, item, true)
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			undo()
		}
	}()
	writes := s.t.writes
	if k := s.t.key.Get(base); !slices.Contains(writes, s.t.key) && (k.I != 0 || k.U != 0) {
		// An integer key the item holds is written, as Django's
		// create(pk=...) writes it; zero lets the database number it.
		writes = append(slices.Clip(writes), s.t.key)
	}
	names := make([]string, len(writes))
	marks := make([]string, len(writes))
	args := make([]any, len(writes))
	for i, f := range writes {
		if args[i], err = s.t.arg(f, base); err != nil {
			return err
		}
		names[i], marks[i] = store.QuoteName(f.Column), s.t.param(f)
	}
	return s.write(ctx, "INSERT INTO "+store.QuoteName(s.t.table)+" ("+strings.Join(names, ", ")+") VALUES ("+strings.Join(marks, ", ")+")", args, item, nil, true)
}

// Update writes item's columns to its row (found by key) and reads the
// row back into item, as Insert does; a row that no longer exists is
// sql.ErrNoRows.
func (s *SQLSource[T]) Update(ctx context.Context, item *T) (err error) {
	base, err := s.writable(item)
	if err != nil {
		return err
	}
	undo, err := s.beforeWrite(ctx, item, false)
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			undo()
		}
	}()
	sets := make([]string, len(s.t.writes))
	args := make([]any, 0, len(s.t.writes)+1)
	for i, f := range s.t.writes {
		sets[i] = store.QuoteName(f.Column) + " = " + s.t.param(f)
		arg, err := s.t.arg(f, base)
		if err != nil {
			return err
		}
		args = append(args, arg)
	}
	key, err := s.t.arg(s.t.key, base)
	if err != nil {
		return err
	}
	if len(sets) == 0 {
		// Nothing changed, but AfterSave runs, as Django's save() sends
		// post_save: the key is written over itself.
		sets, args = append(sets, store.QuoteName(s.t.key.Column)+" = "+s.t.param(s.t.key)), append(args, key)
	}
	args = append(args, key)
	return s.write(ctx, "UPDATE "+store.QuoteName(s.t.table)+" SET "+strings.Join(sets, ", ")+" WHERE "+store.QuoteName(s.t.table)+"."+store.QuoteName(s.t.key.Column)+" = "+s.t.param(s.t.key), args, item, nil, false)
}

// UpdateChanged saves the columns whose values differ between before (the
// stored item as it was read) and item, and reads the row back into item,
// as Update does: two partial updates of different fields of one row do
// not undo each other, where DRF's save() writes every column. With no
// column changed it reads the row back; a row that no longer exists is
// sql.ErrNoRows.
func (s *SQLSource[T]) UpdateChanged(ctx context.Context, before, item *T) (err error) {
	base, err := s.writable(item)
	if err != nil {
		return err
	}
	undo, err := s.beforeWrite(ctx, item, false)
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			undo()
		}
	}()
	old := structs.AddrOf(before)
	var sets []string
	var args []any
	for _, f := range s.t.writes {
		if a, b := f.Get(old), f.Get(base); a.Null == b.Null && structs.Compare(a, b) == 0 {
			continue
		}
		arg, err := s.t.arg(f, base)
		if err != nil {
			return err
		}
		sets, args = append(sets, store.QuoteName(f.Column)+" = "+s.t.param(f)), append(args, arg)
	}
	key, err := s.t.arg(s.t.key, base)
	if err != nil {
		return err
	}
	if len(sets) == 0 {
		if !s.t.rules.afterSave && len(s.relationsOf(item, before)) == 0 {
			row := &SQLSource[T]{t: s.t}
			row.st.conds = []cond{{f: s.t.key, op: '=', v: s.t.key.Get(base)}}
			var db queryer = s.t.db
			if tx := store.TxOf(ctx, s.t.db); tx != nil {
				db = tx
			}
			return row.readInto(ctx, db, row.sliceSQL(0, 1), row.args(nil), item)
		}
		// A relation changed, or AfterSave runs: the key is written over itself.
		sets, args = append(sets, store.QuoteName(s.t.key.Column)+" = "+s.t.param(s.t.key)), append(args, key)
	}
	args = append(args, key)
	return s.write(ctx, "UPDATE "+store.QuoteName(s.t.table)+" SET "+strings.Join(sets, ", ")+" WHERE "+store.QuoteName(s.t.table)+"."+store.QuoteName(s.t.key.Column)+" = "+s.t.param(s.t.key), args, item, before, false)
}

// write runs q, an INSERT or UPDATE of one row, and reads the row it wrote
// into obj before the write is committed: the statement RETURNING the
// row when the source reads its table, else, in one transaction, the
// statement RETURNING the row's key and the row read through the source.
// A row that is committed is thus always answered, and a failure to read
// it back leaves nothing written (a client that retries cannot write it
// twice). No row written is sql.ErrNoRows. The many-to-many fields and
// reverse foreign keys of obj (those that differ from before's, for a
// partial update) are set in that transaction, after the row was written
// and before it is read back, as ModelSerializer's save() sets them. A model's AfterSave runs in
// that transaction, after the row was read back: its error rolls the
// write back. A foreign key that names no row is a MissingRelatedError.
func (s *SQLSource[T]) write(ctx context.Context, q string, args []any, obj, before *T, created bool) error {
	var err error
	rels := s.relationsOf(obj, before)
	// In an atomic block (store.Atomic) the write joins its transaction,
	// through InTx.
	inBlock := store.InAtomicBlock(ctx, s.t.db)
	if s.t.readsRow && !s.t.rules.afterSave && len(rels) == 0 && !inBlock {
		// RETURNING gives the row's columns, without the nested rows
		// SelectRelated joins (Django's create() ignores it).
		row := SQLSource[T]{t: s.t, st: s.st}
		row.st.related = 0
		err = row.readInto(ctx, s.t.db.DB, s.t.db.Rebind(q+s.t.returning), args, obj) // a write: database/sql's
	} else {
		q = s.t.db.Rebind(q + " RETURNING " + store.QuoteName(s.t.key.Column))
		err = store.InTx(ctx, s.t.db, func(tx *sqlx.Tx) error {
			var key any
			if err := tx.QueryRowContext(ctx, q, args...).Scan(&key); err != nil {
				return err
			}
			v, err := s.t.key.FromDB(key)
			if err != nil {
				return err
			}
			if err := s.setRelations(ctx, tx, s.t.bind(s.t.key, v.Bind()), rels); err != nil {
				return err
			}
			row := &SQLSource[T]{t: s.t}
			row.st.conds = []cond{{f: s.t.key, op: '=', v: v}}
			if err := row.readInto(ctx, tx, row.sliceSQL(0, 1), row.args(nil), obj); err != nil {
				return err
			}
			if s.t.rules.afterSave {
				return any(obj).(models.AfterSaver).AfterSave(ctx, created)
			}
			return nil
		})
	}
	if err != nil {
		var db rowQueryer = s.t.db
		if tx := store.TxOf(ctx, s.t.db); inBlock && tx != nil {
			db = tx // the savepoint rolled back, the transaction goes on
		}
		return s.missingRelated(ctx, db, structs.AddrOf(obj), err)
	}
	return nil
}

// readInto runs q, a statement of one row at most, on db and reads the
// row into obj; no row is sql.ErrNoRows. The statement is stepped to its
// end: a write outside a transaction commits there, and the commit may
// yet fail (a deferred foreign key), which SQLite reports only then.
func (s *SQLSource[T]) readInto(ctx context.Context, db queryer, q string, args []any, obj *T) error {
	items, err := s.query(ctx, db, q, args, -1)
	if err != nil {
		return err
	}
	if len(items) == 0 {
		return sql.ErrNoRows
	}
	*obj = *items[0]
	return nil
}

// Delete removes item's row (found by key), after the model's
// BeforeDelete, and applies the on_delete of the foreign keys that
// reference it (see ProtectedError) in the same transaction; a row that
// no longer exists is sql.ErrNoRows.
func (s *SQLSource[T]) Delete(ctx context.Context, item *T) error {
	base, err := s.writable(item)
	if err == nil && s.t.rules.beforeDelete {
		err = any(item).(models.BeforeDeleter).BeforeDelete(ctx)
	}
	if err != nil {
		return err
	}
	q := s.t.db.Rebind("DELETE FROM " + store.QuoteName(s.t.table) + " WHERE " + store.QuoteName(s.t.table) + "." + store.QuoteName(s.t.key.Column) + " = " + s.t.param(s.t.key))
	key, err := s.t.arg(s.t.key, base)
	if err != nil {
		return err
	}
	if !store.InAtomicBlock(ctx, s.t.db) && len(s.t.installed.ReferencesTo(s.t.table)) == 0 {
		return deleted(s.t.db.ExecContext(ctx, q, key))
	}
	// Other models reference the table: their on_delete first, in the
	// delete's transaction (Django's Collector).
	model := s.t.table
	if s.t.rules.desc != nil {
		model = s.t.rules.desc.Meta.Name
	}
	return store.InTx(ctx, s.t.db, func(tx *sqlx.Tx) error {
		if _, err := s.t.collect(ctx, tx, model, s.t.table, s.t.key.Column, []any{key}, 0); err != nil {
			return err
		}
		return deleted(tx.ExecContext(ctx, q, key))
	})
}

// deleted is the error of a DELETE of one row: sql.ErrNoRows when it
// deleted none.
func deleted(res sql.Result, err error) error {
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err == nil && n == 0 {
		return sql.ErrNoRows
	}
	return nil
}

// CanWrite reports whether the source writes: whether it has Columns.
func (s *SQLSource[T]) CanWrite() bool { return len(s.t.writes) > 0 }

func (s *SQLSource[T]) writable(item *T) (structs.Addr, error) {
	if len(s.t.writes) == 0 {
		return structs.Addr{}, ErrReadOnly
	}
	return structs.AddrOf(item), nil
}
