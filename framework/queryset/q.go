package queryset

import (
	"errors"
	"strings"

	"github.com/go-drf/drf/framework/query"
)

// Q is a condition on a model's fields, Django's Q object: a lookup
// (Lookup), or conditions that must all hold (And) or of which one must
// (Or). Its values are text, as Where takes them, parsed by the field
// they compare with.
type Q struct {
	field  string
	lookup query.Lookup
	values []string
	or     bool
	kids   []Q
}

// Lookup is the condition field lookup values, as Where reads it:
// Lookup("user", query.Exact, "3") is Django's Q(user=3).
func Lookup(field string, lookup query.Lookup, values ...string) Q {
	return Q{field: field, lookup: lookup, values: values}
}

// And is the condition that every one of qs holds, Django's q1 & q2; And()
// holds for every item.
func And(qs ...Q) Q { return Q{kids: qs} }

// Or is the condition that at least one of qs holds, Django's q1 | q2;
// Or() holds for none.
func Or(qs ...Q) Q { return Q{or: true, kids: qs} }

// qcond is a Q resolved against the model: a lookup (leaf), or the
// conditions of which all (or, with or set, one) must hold.
type qcond struct {
	leaf *lookupCond
	or   bool
	kids []qcond
}

// resolve resolves q for s's model; none reports a condition that holds
// for no item (Or(), an equality with a number no field holds, text
// PostgreSQL cannot compare), all one that holds for every item (And()).
func (s *SQLSource[T]) resolve(q Q) (c qcond, none, all bool, err error) {
	if q.kids == nil && !q.or && q.field == "" {
		return qcond{}, false, true, nil
	}
	if q.field != "" {
		st := state{}.where(s.t.m, q.field, q.lookup, q.values)
		if st.err != nil {
			return qcond{}, false, false, st.err
		}
		if st.none || s.t.pg && !st.lookups[0].storable() {
			return qcond{}, true, false, nil
		}
		return qcond{leaf: &st.lookups[0]}, false, false, nil
	}
	if len(q.kids) == 1 {
		// And(q) and Or(q) are q.
		return s.resolve(q.kids[0])
	}
	c.or, c.kids = q.or, make([]qcond, 0, len(q.kids))
	for _, k := range q.kids {
		kc, kNone, kAll, err := s.resolve(k)
		switch {
		case err != nil:
			return qcond{}, false, false, err
		case q.or && kAll, !q.or && kNone:
			// One branch decides the whole.
			return qcond{}, kNone, kAll, nil
		case kNone, kAll:
			// A branch that cannot change the whole is dropped.
		default:
			c.kids = append(c.kids, kc)
		}
	}
	switch {
	case len(c.kids) == 0:
		return qcond{}, q.or, !q.or, nil
	case len(c.kids) == 1:
		return c.kids[0], false, false, nil
	}
	return c, false, false, nil
}

// Match returns the items that meet every one of qs, Django's
// filter(q1, q2): Match(Or(Lookup("a", query.Exact, "1"), Lookup("b",
// query.Exact, "2"))) is filter(Q(a=1) | Q(b=2)). A field that is not
// the model's, or a value its field cannot hold, is an error reported
// when the source is evaluated.
func (s *SQLSource[T]) Match(qs ...Q) *SQLSource[T] {
	st := s.st
	c, none, all, err := s.resolve(And(qs...))
	switch {
	case err != nil:
		st.err = errors.Join(st.err, err)
	case none:
		st.none = true
	case all:
	case c.leaf != nil:
		st.lookups = append(st.lookups[:len(st.lookups):len(st.lookups)], *c.leaf)
	case c.or:
		st.anyOf = append(st.anyOf[:len(st.anyOf):len(st.anyOf)], c)
	default:
		for _, k := range c.kids {
			if k.leaf != nil {
				st.lookups = append(st.lookups[:len(st.lookups):len(st.lookups)], *k.leaf)
			} else {
				st.anyOf = append(st.anyOf[:len(st.anyOf):len(st.anyOf)], k)
			}
		}
	}
	return s.with(st)
}

// NoPrefetch returns the source reading its items' columns alone, as
// Django reads a model's rows until a relation is asked for
// (prefetch_related(None)): the many-to-many fields, reverse accessors and
// nested rows that Slice otherwise fills, with one query each, are left
// nil.
func (s *SQLSource[T]) NoPrefetch() *SQLSource[T] {
	st := s.st
	st.columnsOnly = true
	return s.with(st)
}

// sql is c's WHERE term, its values in args's order.
func (c qcond) sql(t *sqlTable) string {
	if c.leaf != nil {
		return t.lookupSQL(*c.leaf)
	}
	terms := make([]string, len(c.kids))
	for i, k := range c.kids {
		terms[i] = k.sql(t)
	}
	if c.or {
		return "(" + strings.Join(terms, " OR ") + ")"
	}
	return "(" + strings.Join(terms, " AND ") + ")"
}

// args appends the values c's text binds.
func (c qcond) args(t *sqlTable, args []any) []any {
	if c.leaf != nil {
		return t.lookupArgs(args, *c.leaf)
	}
	for _, k := range c.kids {
		args = k.args(t, args)
	}
	return args
}

// shape appends c's part of the SQL text's cache key.
func (c qcond) shape(b *strings.Builder, m *model) {
	if c.leaf != nil {
		c.leaf.shape(b, m)
		return
	}
	if c.or {
		b.WriteString("|(")
	} else {
		b.WriteString("&(")
	}
	for _, k := range c.kids {
		k.shape(b, m)
		b.WriteByte(';')
	}
	b.WriteByte(')')
}
