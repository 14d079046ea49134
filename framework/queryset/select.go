package queryset

import (
	"errors"
	"fmt"
	"iter"
	"slices"
	"strings"

	"github.com/go-drf/drf/framework/models"
	"github.com/go-drf/drf/framework/store"
	"github.com/go-drf/drf/internal/structs"
)

// relatedJoin is a nested row of a foreign key (nestedOnes) as
// SelectRelated reads it: joined into the items' query, its columns
// after the items' own. The related key, which is NULL for an item that
// has no related row, is one of them, or read first when the nested
// struct has no field of it.
type relatedJoin struct {
	// one is the nested fetch it reads instead.
	one *nestedFetch
	// read reads the values of its selects, the last of the columns,
	// into the nested struct.
	read *nestedFetch
	// joins are the JOIN clauses; columns, the columns read, each after
	// ", ".
	joins, columns string
	// width is the number of columns read; key, the related key's place
	// among them.
	width, key int
}

// maxRelated bounds a model's nested rows of foreign keys: state.related
// holds which are joined as bits.
const maxRelated = 64

// relatedJoins are the joins of the nested rows ones from the table
// named t.alias, each aliased by "select" and the foreign key's name
// ("select__user"), its own joins by their paths after it: an INNER
// JOIN for a NOT NULL key, a LEFT OUTER JOIN for a nullable one and
// every join after it, as select_related joins them.
func (t *sqlTable) relatedJoins(ones []*nestedFetch) ([]*relatedJoin, error) {
	if len(ones) > maxRelated {
		return nil, fmt.Errorf("%d nested rows of foreign keys, more than %d", len(ones), maxRelated)
	}
	out := make([]*relatedJoin, len(ones))
	for i, one := range ones {
		var b strings.Builder
		alias, _ := joinSQL(&b, map[string]bool{}, t.alias, "select", []*models.Field{one.fk}, false)
		n := &nestedFetch{field: one.field, from: b.String()}
		if err := n.columnsOf(structOf(one.field.Type), alias, nil, -1, one.fk.Null); err != nil {
			return nil, err
		}
		r := &relatedJoin{one: one, read: n, joins: n.from, width: len(n.selects)}
		r.key = slices.IndexFunc(n.reads, func(read nestedRead) bool { return read.path == nil && read.f.Column == one.fk.Related.Column })
		if r.key < 0 {
			r.key, r.width = 0, r.width+1
			r.columns = ", " + store.QuoteName(alias) + "." + store.QuoteName(one.fk.Related.Column)
		}
		r.columns += ", " + n.columns(t.pg)
		out[i] = r
	}
	return out, nil
}

// SelectRelated returns the source reading the nested rows of the named
// foreign keys (a struct field, or a pointer to a struct, named by the
// key; see the models package) in its items' query, by a join, instead
// of one more query per page: Django's select_related. A NOT NULL key is
// an INNER JOIN; a nullable one a LEFT OUTER JOIN, which leaves the
// nested row of an item whose key is null unread (a nil pointer). With no
// names, the nested rows of every NOT NULL key are joined. A name that is
// no such field is an error reported when the source is evaluated.
func (s *SQLSource[T]) SelectRelated(fields ...string) *SQLSource[T] {
	st := s.st
	var invalid []string
	for i, r := range s.t.related {
		if len(fields) == 0 && !r.one.fk.Null || slices.Contains(fields, r.one.fk.Name) {
			st.related |= 1 << i
		}
	}
	for _, name := range fields {
		switch {
		case slices.ContainsFunc(s.t.related, func(r *relatedJoin) bool { return r.one.fk.Name == name }):
		case s.t.nonRelational(name):
			st.err = errors.Join(st.err, fmt.Errorf("queryset: Non-relational field given in select_related: '%s'. Choices are: %s", name, s.t.relatedChoices()))
			return s.with(st)
		default:
			invalid = append(invalid, "'"+name+"'")
		}
	}
	if len(invalid) > 0 {
		st.err = errors.Join(st.err, fmt.Errorf("queryset: Invalid field name(s) given in select_related: %s. Choices are: %s", strings.Join(invalid, ", "), s.t.relatedChoices()))
	}
	if s != s.t.made || st.err != nil {
		return s.with(st)
	}
	// The source NewSQL made, which each request narrows: each of its
	// SelectRelated sources is made once.
	if sel, ok := s.t.selected.Load(st.related); ok {
		return sel.(*SQLSource[T])
	}
	sel, _ := s.t.selected.LoadOrStore(st.related, s.with(st))
	return sel.(*SQLSource[T])
}

// nonRelational reports whether name is a field of the model that is no
// relation (a column, by its Django name).
func (t *sqlTable) nonRelational(name string) bool {
	if d := t.rules.desc; d != nil {
		f := d.Field(name)
		return f != nil && f.Name == name && f.Related == nil
	}
	_, ok := t.m.byColumn[name]
	return ok
}

// relatedChoices are the names SelectRelated takes, as Django lists its
// choices: "(none)" for none.
func (t *sqlTable) relatedChoices() string {
	names := make([]string, len(t.related))
	for i, r := range t.related {
		names[i] = r.one.fk.Name
	}
	if len(names) == 0 {
		return "(none)"
	}
	return strings.Join(names, ", ")
}

// joined are the nested rows the source joins in, in their order.
func (s *SQLSource[T]) joined() iter.Seq[*relatedJoin] {
	return func(yield func(*relatedJoin) bool) {
		for i, r := range s.t.related {
			if s.st.related&(1<<i) != 0 && !yield(r) {
				return
			}
		}
	}
}

// relatedSQL are the columns and joins of the nested rows the source
// joins in.
func (s *SQLSource[T]) relatedSQL() (columns, joins string) {
	for r := range s.joined() {
		columns += r.columns
		joins += r.joins
	}
	return columns, joins
}

// joins reports whether the source reads the nested fetch n by a join.
func (s *SQLSource[T]) joins(n *nestedFetch) bool {
	for r := range s.joined() {
		if r.one == n {
			return true
		}
	}
	return false
}

// fill reads values, the join's columns of one row, into the item at
// base: nothing when the item has no related row.
func (r *relatedJoin) fill(base structs.Addr, values []any) error {
	if values[r.key] == nil {
		return nil
	}
	return r.read.set(r.one.link.in(base), values[r.width-len(r.read.selects):])
}
