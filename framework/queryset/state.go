package queryset

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/go-drf/drf/framework/models"
	"github.com/go-drf/drf/framework/query"
	"github.com/go-drf/drf/framework/store"
	"github.com/go-drf/drf/internal/structs"
)

// UnknownFieldError is the error of a field name that is not one of the
// model's `db` columns.
type UnknownFieldError struct {
	Field string
}

// Error names the field.
func (e *UnknownFieldError) Error() string {
	return fmt.Sprintf("queryset: unknown field %q", e.Field)
}

// model is what both kinds of source know of T: its columns by name.
type model struct {
	desc     *structs.Struct
	columns  []*structs.Field
	byColumn map[string]*structs.Field
	index    map[*structs.Field]int
	names    []string
	// keys are the foreign keys' columns by their Django names ("post"
	// for post_id), which lookups take as Django's do.
	keys map[string]*structs.Field
	// many are the many-to-many fields by their Django names.
	many map[string]*manyLookup
	// rel is T's model declaration, nil for a struct that declares none:
	// lookups across its relations start there.
	rel *models.Description
	// installed are the models whose reverse relations a lookup follows:
	// those of an SQL source's database, every one described otherwise.
	installed *models.Registry
	// paths are the paths across relations resolved so far
	// (*relationPath by name), and orders the orderings by other names
	// than columns ([]orderTerm, ascending, by name), so that a request
	// resolves none again.
	paths, orders sync.Map
	// arrays are the model's ArrayFields, with their elements' kind.
	arrays map[*structs.Field]structs.Kind
}

func describe[T any]() (*model, error) {
	desc, err := structs.Of[T]()
	if err != nil {
		return nil, err
	}
	m := &model{desc: desc, byColumn: map[string]*structs.Field{}, index: map[*structs.Field]int{}, keys: map[string]*structs.Field{},
		many: map[string]*manyLookup{}, installed: models.Described()}
	for _, f := range desc.Columns() {
		if err := f.Supported(); err != nil {
			return nil, err
		}
		if _, dup := m.byColumn[f.Column]; dup {
			return nil, fmt.Errorf("queryset: column %q is tagged twice in %s", f.Column, desc.Type)
		}
		m.index[f] = len(m.columns)
		m.columns = append(m.columns, f)
		m.byColumn[f.Column] = f
		m.names = append(m.names, f.Column)
	}
	if len(m.columns) == 0 {
		return nil, fmt.Errorf("queryset: %s has no field with a db tag", desc.Type)
	}
	// A declaration that fails is reported by the source that needs it
	// (NewSQL); a lookup then knows the columns alone.
	if d, err := models.Of[T](); err == nil {
		m.rel = d
		m.arrays = m.arraysOf(d)
		for _, f := range d.Fields {
			if f.Related != nil && f.Name != f.Column {
				m.keys[f.Name] = m.byColumn[f.Column]
			}
		}
		for _, mm := range d.ManyToMany {
			if mm, err := mm.ThroughKeys(d.Meta.Table); err == nil {
				m.many[mm.Name] = newManyLookup(mm)
			}
		}
	}
	return m, nil
}

func (m *model) field(name string) (*structs.Field, error) {
	if f, ok := m.byColumn[name]; ok {
		return f, nil
	}
	return nil, &UnknownFieldError{Field: name}
}

// lookupField is the field a lookup (Where) names: a column, or a
// foreign key by its Django name, as Django reads filter(post=1) as
// filter(post_id=1).
func (m *model) lookupField(name string) (*structs.Field, error) {
	if f := m.namedField(name); f != nil {
		return f, nil
	}
	return nil, &UnknownFieldError{Field: name}
}

// namedField is lookupField's field, nil for none.
func (m *model) namedField(name string) *structs.Field {
	if f, ok := m.byColumn[name]; ok {
		return f
	}
	return m.keys[name]
}

func (m *model) position(base structs.Addr, field string) (string, error) {
	f, err := m.field(field)
	if err != nil {
		return "", err
	}
	return f.Get(base).Text(), nil
}

type orderTerm struct {
	f    *structs.Field
	desc bool
	// path is an ordering across foreign keys, whose f is the last
	// related model's field; nil for a column of the model.
	path *relationPath
}

// cond is an equality (Filter) or a keyset (Seek) condition.
type cond struct {
	f  *structs.Field
	op byte // '=', '>', '<'
	v  structs.Value
}

// keyTerm is one term of a SeekAfter condition: the position's value of
// a field, in the direction of its ordering.
type keyTerm struct {
	f    *structs.Field
	desc bool
	v    structs.Value
}

type search struct {
	fields []*structs.Field
	terms  []string
}

// state is the immutable query a source carries; every change copies it.
type state struct {
	ordering []query.Order
	order    []orderTerm
	conds    []cond
	keyset   []keyTerm
	searches []search
	lookups  []lookupCond
	anyOf    []qcond // conditions of Match that are more than lookups
	none     bool    // matches nothing, whatever else it says
	// columnsOnly leaves the relations that a read fetches after the rows
	// unread (SQLSource.NoPrefetch).
	columnsOnly bool
	// related are the nested rows joined into the items' query
	// (SQLSource.SelectRelated): bit i for sqlTable.related[i].
	related uint64
	err     error
}

// orderBy replaces the ordering; a field named again is dropped, as
// Django drops repeated ORDER BY terms (they cannot change the order).
func (s state) orderBy(m *model, o []query.Order) state {
	s.ordering = make([]query.Order, 0, len(o))
	s.order = make([]orderTerm, 0, len(o))
	for _, t := range o {
		if slices.ContainsFunc(s.ordering, func(x query.Order) bool { return x.Field == t.Field }) {
			continue
		}
		s.ordering = append(s.ordering, t)
		if f, ok := m.byColumn[t.Field]; ok {
			s.order = append(s.order, orderTerm{f: f, desc: t.Desc})
			continue
		}
		terms, err := m.orderingBy(t.Field)
		if err != nil {
			s.err = errors.Join(s.err, err)
			continue
		}
		for _, o := range terms {
			o.desc = o.desc != t.Desc
			s.order = append(s.order, o)
		}
	}
	return s
}

// orderingBy is orderTerms of name, ascending, resolved once per name.
func (m *model) orderingBy(name string) ([]orderTerm, error) {
	if terms, ok := m.orders.Load(name); ok {
		return terms.([]orderTerm), nil
	}
	terms, err := m.orderTerms(nil, name, false, 0)
	if err != nil {
		return nil, err
	}
	m.orders.Store(name, terms)
	return terms, nil
}

// orderTerms appends to terms those of ordering by name as Django orders
// by it: a column; a path across foreign keys to a column; a foreign key
// (by its Django name, or at the end of a path) by the related model's
// Meta.Ordering, each term's direction turned when desc, else by its
// column.
func (m *model) orderTerms(terms []orderTerm, name string, desc bool, depth int) ([]orderTerm, error) {
	f, err := m.field(name)
	if err == nil {
		return append(terms, orderTerm{f: f, desc: desc}), nil
	}
	var path *relationPath
	var related *models.Field
	switch k, isKey := m.keys[name]; {
	case isKey:
		f, related = k, m.rel.Field(name)
	case strings.Contains(name, "__"):
		if path, err = m.orderPath(name); err != nil {
			return terms, err
		}
		f, related = path.f, path.mf
	default:
		return terms, err
	}
	if related.Related != nil {
		if d := relatedModel(models.Described().OfTable(related.Related.Table), "pk", m.installed); d != nil && len(d.Ordering) > 0 {
			if depth == maxOrderDepth {
				return terms, fmt.Errorf("queryset: ordering %q: infinite loop caused by ordering", name)
			}
			for _, o := range d.Ordering {
				if terms, err = m.orderTerms(terms, name+"__"+o.Field, desc != o.Desc, depth+1); err != nil {
					return terms, err
				}
			}
			return terms, nil
		}
	}
	return append(terms, orderTerm{f: f, desc: desc, path: path}), nil
}

// maxOrderDepth bounds the related models' orderings that an ordering by
// a foreign key follows, one after another: Django's "Infinite loop
// caused by ordering." past it.
const maxOrderDepth = 8

func (s state) cond(m *model, field string, op byte, text string) state {
	f, err := m.field(field)
	if err != nil {
		s.err = errors.Join(s.err, err)
		return s
	}
	v, err := f.Parse(text)
	if err != nil {
		s.err = errors.Join(s.err, err)
		return s
	}
	s.conds = append(s.conds[:len(s.conds):len(s.conds)], cond{f, op, v})
	return s
}

func (s state) seek(m *model, field string, op query.Op, position string) state {
	c := byte('>')
	if op == query.Less {
		c = '<'
	}
	return s.cond(m, field, c, position)
}

// seekAfter replaces the keyset condition by the position in ordering.
func (s state) seekAfter(m *model, ordering []query.Order, positions []string) state {
	if len(ordering) == 0 || len(positions) != len(ordering) {
		s.err = errors.Join(s.err, fmt.Errorf("queryset: a keyset position needs one value per ordering field, got %d for %d", len(positions), len(ordering)))
		return s
	}
	k := make([]keyTerm, len(ordering))
	for i, o := range ordering {
		f, err := m.field(o.Field)
		if err != nil {
			s.err = errors.Join(s.err, err)
			return s
		}
		v, err := f.Parse(positions[i])
		if err != nil {
			s.err = errors.Join(s.err, err)
			return s
		}
		k[i] = keyTerm{f, o.Desc, v}
	}
	s.keyset = k
	return s
}

// after reports whether the item at base comes after the keyset position.
func (s *state) after(base structs.Addr) bool {
	for _, t := range s.keyset {
		v := t.f.Get(base)
		if v.Null {
			return false
		}
		c := structs.Compare(v, t.v)
		if t.desc {
			c = -c
		}
		if c != 0 {
			return c > 0
		}
	}
	return false
}

// search adds the condition that every term is in one of fields; a term
// given again is dropped, as Django 3.2's query keeps one of identical
// conditions (Node.add; Django 5.2 repeats them, which selects the same
// items), so that repeating a term costs the database nothing.
func (s state) search(m *model, fields, terms []string) state {
	if len(terms) == 0 {
		return s
	}
	var sc search
	seen := make(map[string]bool, len(terms))
	for _, term := range terms {
		if !seen[term] {
			seen[term] = true
			sc.terms = append(sc.terms, term)
		}
	}
	for _, name := range fields {
		f, err := m.field(name)
		if err != nil {
			s.err = errors.Join(s.err, err)
			return s
		}
		sc.fields = append(sc.fields, f)
	}
	if len(sc.fields) == 0 {
		s.err = errors.Join(s.err, errors.New("queryset: search over no fields"))
		return s
	}
	s.searches = append(s.searches[:len(s.searches):len(s.searches)], sc)
	return s
}

// shape is the key of the SQL text of a query: everything but the values.
func (s *state) shape(m *model, kind byte) string {
	var b strings.Builder
	b.WriteByte(kind)
	for _, o := range s.order {
		b.WriteByte('o')
		if o.desc {
			b.WriteByte('-')
		}
		if o.path != nil {
			b.WriteString(o.path.name + ",")
			continue
		}
		b.WriteString(strconv.Itoa(m.index[o.f]))
	}
	for _, c := range s.conds {
		b.WriteByte(c.op)
		b.WriteString(strconv.Itoa(m.index[c.f]))
	}
	for _, t := range s.keyset {
		b.WriteByte('k')
		if t.desc {
			b.WriteByte('-')
		}
		b.WriteString(strconv.Itoa(m.index[t.f]))
	}
	for _, c := range s.lookups {
		c.shape(&b, m)
	}
	for _, c := range s.anyOf {
		c.shape(&b, m)
	}
	for _, sc := range s.searches {
		b.WriteByte('s')
		b.WriteString(strconv.Itoa(len(sc.terms)))
		for _, f := range sc.fields {
			b.WriteByte(',')
			b.WriteString(strconv.Itoa(m.index[f]))
		}
	}
	if kind != 'c' && s.related != 0 {
		b.WriteByte('j')
		b.WriteString(strconv.FormatUint(s.related, 36))
	}
	return b.String()
}

// likeText is the text SQLite's LIKE sees for a value as Django stores it.
func likeText(v structs.Value) string {
	switch {
	case v.Null:
		return ""
	case v.Kind == structs.Time:
		return store.FormatTime(v.T)
	case v.Kind == structs.Bool:
		if v.B {
			return "1"
		}
		return "0"
	}
	return v.Text()
}

// containsFold reports whether sub is in s, ignoring ASCII case as
// SQLite's LIKE does.
func containsFold(s, sub string) bool {
	n := len(sub)
	for i := 0; i+n <= len(s); i++ {
		if equalFoldASCII(s[i:i+n], sub) {
			return true
		}
	}
	return false
}

func equalFoldASCII(a, b string) bool {
	for i := range len(a) {
		x, y := a[i], b[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}
