package queryset

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/go-drf/drf/framework/query"
	"github.com/go-drf/drf/framework/store"
	"github.com/go-drf/drf/internal/structs"
)

// lookupCond is one condition of Where, resolved against the model.
type lookupCond struct {
	f  *structs.Field
	op query.Lookup
	// vs are the values compared with (the bounds of a range), parsed.
	vs []structs.Value
	// pattern is the text of contains, icontains and iexact, as LIKE
	// reads it (escaped; with % around it for the containments); day is
	// the date of a date lookup.
	pattern, day string
	// null is isnull's value.
	null bool
	// many is the many-to-many field of an exact or in lookup, whose
	// related keys are keys; nil for a column's lookup.
	many *manyLookup
	keys []any
	// path is a lookup across relations, whose f is the related
	// column's; nil for a column of the model.
	path *relationPath
	// array is a lookup on an ArrayField: vs holds the array's text, or
	// len's number.
	array bool
}

// lookupTarget is the field a lookup by op compares: a column of the
// model (f alone), or the last related model's field of a path across
// relations (f and path). A relation to many rows (tags__isnull,
// posts__isnull) is null where no related row is: its rows' keys are
// compared.
func (m *model) lookupTarget(field string, op query.Lookup) (f *structs.Field, path *relationPath, err error) {
	if f = m.namedField(field); f != nil {
		return f, nil, m.checkArrayLookup(field, f, nil, op)
	}
	if path, err = m.pathOf(field); err != nil && op == query.IsNull {
		path, err = m.pathOf(field + "__pk")
	}
	if _, unknown := errors.AsType[*UnknownFieldError](err); unknown {
		return nil, nil, &UnknownFieldError{Field: field}
	}
	if err != nil {
		return nil, nil, err
	}
	return path.f, path, m.checkArrayLookup(field, path.f, path, op)
}

// where adds the condition field lookup values; see query.Query's Where.
func (s state) where(m *model, field string, op query.Lookup, values []string) state {
	if ml, ok := m.many[field]; ok && op != query.IsNull {
		return s.whereMany(ml, field, op, values)
	}
	f, path, err := m.lookupTarget(field, op)
	if err != nil {
		s.err = errors.Join(s.err, err)
		return s
	}
	c := lookupCond{f: f, op: op, path: path}
	bad := func() state {
		s.err = errors.Join(s.err, fmt.Errorf("%w: field %q: lookup %s of %q", query.ErrInvalidValue, field, op, values))
		return s
	}
	if elem, ok := m.arrays[f]; ok && path == nil && op != query.IsNull {
		if !arrayWhere(&c, elem, values) {
			return bad()
		}
		s.lookups = append(s.lookups[:len(s.lookups):len(s.lookups)], c)
		return s
	}
	switch op {
	case query.In, query.Range:
		if op == query.Range && len(values) != 2 {
			return bad()
		}
	default:
		if len(values) != 1 {
			return bad()
		}
	}
	switch op {
	case query.IsNull:
		switch values[0] {
		case "true", "True", "1":
			c.null = true
		case "false", "False", "0":
		default:
			return bad()
		}
	case query.Contains, query.IContains, query.IExact:
		c.pattern = likeEscaper.Replace(values[0])
		if op != query.IExact {
			c.pattern = "%" + c.pattern + "%"
		}
	case query.Date:
		if f.Kind != structs.Time || len(values[0]) != len("2006-01-02") {
			return bad()
		}
		if _, err := structs.ParseDateTime(values[0] + " 00:00"); err != nil {
			return bad()
		}
		c.day = values[0]
	case query.Exact, query.GT, query.GTE, query.LT, query.LTE, query.In, query.Range:
		var bounds [2]bool // a range's bounds that still bound
		for i, text := range values {
			v, match, err := parseBound(f, op, i, text)
			switch {
			case err != nil:
				return bad()
			case match == matchNone && op != query.In:
				s.none = true
				return s
			case match == matchSome:
				c.vs = append(c.vs, v)
				if op == query.Range {
					bounds[i] = true
				}
			}
		}
		switch {
		case op == query.In && len(c.vs) == 0:
			s.none = true
			return s
		case len(c.vs) == 0:
			// Every bound lies beyond the field's values: only nulls fail.
			c.op, c.null = query.IsNull, false
		case op == query.Range && !bounds[0]:
			c.op = query.LTE
		case op == query.Range && !bounds[1]:
			c.op = query.GTE
		}
	default:
		return bad()
	}
	s.lookups = append(s.lookups[:len(s.lookups):len(s.lookups)], c)
	return s
}

// What a bound matches of a field's values.
const (
	matchSome = iota // the values the comparison with it selects
	matchNone        // none (an equality with a number beyond the field's range)
	matchAll         // every value but null (a bound beyond the field's range)
)

// parseBound parses the i-th value of a numeric lookup as Django prepares
// it for an integer field: a decimal ("2.5", "1e1") is truncated toward
// zero (IntegerField's int(value)), so that >= 2.5 is >= 2. A number
// beyond the field's range bounds every value or none. Other kinds parse
// as Parse does.
func parseBound(f *structs.Field, op query.Lookup, i int, text string) (structs.Value, int, error) {
	if f.Kind != structs.Int && f.Kind != structs.Uint || plainInteger(f.Kind, text) {
		v, err := f.Parse(text)
		return v, matchSome, err
	}
	n, ok := truncated(text)
	if !ok {
		return structs.Value{}, 0, query.ErrInvalidValue
	}
	lo, hi := big.NewInt(math.MinInt64), big.NewInt(math.MaxInt64)
	if f.Kind == structs.Uint {
		lo, hi = new(big.Int), new(big.Int).SetUint64(math.MaxUint64)
	}
	below, above := n.Cmp(lo) < 0, n.Cmp(hi) > 0
	if (below || above) && (op == query.Exact || op == query.In) {
		return structs.Value{}, matchNone, nil
	}
	if below || above {
		// Beyond every value: greater than a bound below them all, or
		// less than one above them all, is every value.
		up := op == query.GT || op == query.GTE || op == query.Range && i == 0
		if below == up {
			return structs.Value{}, matchAll, nil
		}
		return structs.Value{}, matchNone, nil
	}
	v, err := f.Parse(n.String())
	return v, matchSome, err
}

// truncated is the integer of text, a decimal ("2.5", "1e1") truncated
// toward zero as Django's IntegerField prepares a value (int(value));
// false for text that is no number (a fraction "1/2" included). It is
// never nil.
func truncated(text string) (*big.Int, bool) {
	text = strings.TrimSpace(text)
	r, ok := new(big.Rat).SetString(text)
	if !ok || strings.Contains(text, "/") {
		return new(big.Int), false
	}
	return new(big.Int).Quo(r.Num(), r.Denom()), true
}

// plainInteger reports whether text is an integer of kind's range in
// decimal digits alone (a key of a URL, mostly), which Parse reads as
// it is, without parseBound's arithmetic.
func plainInteger(kind structs.Kind, text string) bool {
	var err error
	if kind == structs.Int {
		_, err = strconv.ParseInt(text, 10, 64)
	} else {
		_, err = strconv.ParseUint(text, 10, 64)
	}
	return err == nil
}

// lookupSQL is the WHERE term of c, its values in lookupArgs's order.
func (t *sqlTable) lookupSQL(c lookupCond) string {
	if c.many != nil {
		return c.many.sql(t, len(c.keys))
	}
	if p := c.path; p != nil {
		c.path = nil
		return p.sql(t, func(alias string) string {
			related := &sqlTable{alias: alias, pg: t.pg}
			return related.lookupSQL(c)
		}, c.op == query.IsNull && c.null)
	}
	col := t.col(c.f)
	if c.array {
		return arraySQL(col, c.op)
	}
	switch c.op {
	case query.IsNull:
		if c.null {
			return col + " IS NULL"
		}
		return col + " IS NOT NULL"
	case query.Contains:
		if t.pg {
			return col + "::text LIKE ?"
		}
		return col + ` LIKE ? ESCAPE '\'`
	case query.IContains:
		return t.like(c.f)
	case query.IExact:
		if t.pg {
			return "UPPER(" + col + "::text) = UPPER(?)"
		}
		return col + ` LIKE ? ESCAPE '\'`
	case query.Date:
		if t.pg {
			return "(" + col + " AT TIME ZONE 'UTC')::date = ?::date"
		}
		return "date(" + col + ") = ?"
	case query.In:
		marks := make([]string, len(c.vs))
		for i := range marks {
			marks[i] = t.param(c.f)
		}
		return col + " IN (" + strings.Join(marks, ", ") + ")"
	case query.Range:
		return col + " BETWEEN " + t.param(c.f) + " AND " + t.param(c.f)
	}
	return col + " " + lookupOps[c.op] + " " + t.param(c.f)
}

// lookupOps are the SQL comparisons of the lookups that are one.
var lookupOps = map[query.Lookup]string{query.Exact: "=", query.GT: ">", query.GTE: ">=", query.LT: "<", query.LTE: "<="}

// lookupArgs appends the values lookupSQL's text binds.
func (t *sqlTable) lookupArgs(args []any, c lookupCond) []any {
	if c.many != nil {
		return append(args, c.keys...)
	}
	switch {
	case c.array:
	case c.op == query.IsNull:
		return args
	case c.op == query.Contains || c.op == query.IContains || c.op == query.IExact:
		return append(args, t.likeArg(c.f, c.pattern))
	case c.op == query.Date:
		return append(args, c.day)
	}
	for _, v := range c.vs {
		args = append(args, t.bind(c.f, v.Bind()))
	}
	return args
}

// storable reports whether PostgreSQL can compare c's text (a condition
// it cannot matches nothing).
func (c lookupCond) storable() bool {
	for _, v := range c.vs {
		if v.Kind == structs.String && !store.StorableText(v.S) {
			return false
		}
	}
	return store.StorableText(c.pattern)
}

// shape appends c's part of the SQL text's cache key.
func (c lookupCond) shape(b *strings.Builder, m *model) {
	if c.many != nil {
		b.WriteString("wm" + c.many.m.Name + "," + strconv.Itoa(len(c.keys)))
		return
	}
	if c.path != nil {
		b.WriteString("wr" + c.path.name + ",")
	}
	b.WriteString("w" + string(c.op) + strconv.Itoa(m.index[c.f]) + "," + strconv.Itoa(len(c.vs)))
	if c.null {
		b.WriteByte('n')
	}
	if c.array {
		b.WriteByte('a')
	}
}

// match reports whether the item at base meets c, as SQLite answers it.
func (c lookupCond) match(base structs.Addr) bool {
	if c.many != nil {
		return c.many.holds(c.many.m.Field.Addr(base), c.keys)
	}
	v := c.f.Get(base)
	if c.op == query.IsNull {
		return v.Null == c.null
	}
	if v.Null {
		return false
	}
	switch c.op {
	case query.Contains, query.IContains:
		return containsFold(likeText(v), unescapeLike(c.pattern[1:len(c.pattern)-1]))
	case query.IExact:
		text, want := likeText(v), unescapeLike(c.pattern)
		return len(text) == len(want) && equalFoldASCII(text, want)
	case query.Date:
		return v.T.UTC().Format("2006-01-02") == c.day
	case query.In:
		for _, x := range c.vs {
			if structs.Compare(v, x) == 0 {
				return true
			}
		}
		return false
	case query.Range:
		return structs.Compare(v, c.vs[0]) >= 0 && structs.Compare(v, c.vs[1]) <= 0
	}
	r := structs.Compare(v, c.vs[0])
	switch c.op {
	case query.GT:
		return r > 0
	case query.GTE:
		return r >= 0
	case query.LT:
		return r < 0
	case query.LTE:
		return r <= 0
	}
	return r == 0
}

// unescapeLike is the text a LIKE pattern escaped by likeEscaper matches.
func unescapeLike(p string) string { return likeUnescaper.Replace(p) }

var likeUnescaper = strings.NewReplacer(`\\`, `\`, `\%`, `%`, `\_`, `_`)

// Where returns the items whose field meets the lookup.
func (s *SQLSource[T]) Where(field string, op query.Lookup, values ...string) Source[T] {
	st := s.st.where(s.t.m, field, op, values)
	if s.t.pg && st.err == nil && len(st.lookups) > 0 && !st.lookups[len(st.lookups)-1].storable() {
		st.none = true // PostgreSQL stores no such text, and refuses to compare with it
	}
	return s.with(st)
}

// Where returns the items whose field meets the lookup.
func (s *SliceSource[T]) Where(field string, op query.Lookup, values ...string) Source[T] {
	st := s.st.where(s.m, field, op, values)
	if st.err == nil && len(st.lookups) > 0 && st.lookups[len(st.lookups)-1].path != nil {
		st.err = fmt.Errorf("queryset: lookup %q across relations needs an SQL source", field)
	}
	if st.err == nil && len(st.lookups) > 0 && st.lookups[len(st.lookups)-1].array {
		st.err = arrayOnSlice(field, op)
	}
	return s.with(st)
}
