package queryset

import (
	"errors"
	"fmt"
	"strings"

	"github.com/go-drf/drf/framework/models"
	"github.com/go-drf/drf/framework/query"
)

// LookupField resolves the field that a Django lookup on T names
// (Comment.objects.filter(post=1), a name of a django-filter FilterSet's
// Meta.fields) to the name T's sources filter by (Where), once, at
// setup: a model's field by its Django name or its column, so that a
// foreign key's name without "_id" ("post") is its column ("post_id"),
// as Django reads filter(post=1) as filter(post_id=1); a joined field by
// its lookup path ("owner__username"); any other `db` column as it is;
// a path across relations ("author__username", "tags__name",
// "post__author__username": foreign keys and many-to-many fields, then
// a field of the last related model, which must be described by then)
// as it is too, its condition made on the related rows.
// field is T's model field (framework/models' description of T), or the
// last related model's field of a path; nil for a joined field and for a
// struct that models cannot describe. A name that T has no field of is
// an *UnknownFieldError.
func LookupField[T any](name string) (column string, field *models.Field, err error) {
	m, err := describe[T]()
	if err != nil {
		return "", nil, err
	}
	_, declared := any((*T)(nil)).(models.Model)
	rules, err := modelOf[T](m, declared)
	if err != nil {
		return "", nil, fmt.Errorf("queryset: %w", err)
	}
	if d := rules.desc; d != nil {
		if f := d.Field(name); f != nil {
			return f.Column, f, nil
		}
	}
	if _, err := m.field(name); err != nil {
		if _, unknown := errors.AsType[*UnknownFieldError](err); !unknown {
			return "", nil, err
		}
		p, err := relationPathOf(rules.desc, name, models.Described())
		if err != nil {
			return "", nil, err
		}
		return name, p.mf, nil
	}
	return name, nil, nil
}

// VerboseFieldName is django-filter's verbose_field_name of name, a path
// across T's relations ("author__country", "books__tags", "review"): its
// parts' names in words, a reverse side's by its related_name, and
// "[invalid name]" when a reverse side it crosses has none (its related
// query name being the model's name, or related_query_name). "" when name
// is no path across relations.
func VerboseFieldName[T any](name string) string {
	d, err := models.Of[T]()
	if err != nil {
		return ""
	}
	p, err := relationPathOf(d, name, models.Described())
	last := true
	if err != nil {
		// A relation to many rows, named alone (an isnull lookup's).
		p, last = nil, false
		if p2, err := relationPathOf(d, name+"__pk", models.Described()); err == nil {
			p = p2
		}
	}
	if p == nil {
		return ""
	}
	parts := strings.Split(name, "__")
	for i, s := range p.steps {
		switch {
		case !s.reverse:
		case s.relatedName == "":
			return "[invalid name]"
		default:
			parts[i] = s.relatedName
		}
	}
	if !last {
		parts = parts[:len(p.steps)]
	}
	return strings.ReplaceAll(strings.Join(parts, " "), "_", " ")
}

// FinderOf returns the RelatedFinder of the source that q reads, q being
// a query made by Into (as the filter backends narrow it); false when
// the source looks no related row up (a SliceSource) or Into did not
// make q. A filter of a foreign key's values looks the related rows up
// through it, as django-filter's ModelChoiceFilter asks its queryset.
func FinderOf(q query.Query) (RelatedFinder, bool) {
	s, ok := q.(interface{ source() any })
	if !ok {
		return nil, false
	}
	f, ok := s.source().(RelatedFinder)
	return f, ok
}

// source is the source the rows are fetched from (FinderOf).
func (r *Rows[T]) source() any { return r.src }

// source is the narrowed source (FinderOf).
func (s set[T]) source() any { return s.src }

// CheckOrdering reports, at setup, whether the source that q reads (a
// query made by Into) can be ordered by ordering: each field one of its
// columns or, for an SQLSource, a path across foreign keys
// ("author__username"). The error names what it cannot; nil for a q that
// Into did not make.
func CheckOrdering(q query.Query, ordering []query.Order) error {
	if c, ok := checkerOf(q); ok {
		return c.checkOrdering(ordering)
	}
	return nil
}

// CheckLookup reports, at setup, whether the source that q reads can
// narrow its items by a lookup on field (Where): a column, a foreign key
// by its Django name, a many-to-many field or, for an SQLSource, a path
// across relations. The error names what it cannot; nil for a q that
// Into did not make.
func CheckLookup(q query.Query, field string, lookup query.Lookup) error {
	if c, ok := checkerOf(q); ok {
		return c.checkLookup(field, lookup)
	}
	return nil
}

// checker is what CheckOrdering and CheckLookup ask of a source.
type checker interface {
	checkOrdering(ordering []query.Order) error
	checkLookup(field string, lookup query.Lookup) error
}

func checkerOf(q query.Query) (checker, bool) {
	s, ok := q.(interface{ source() any })
	if !ok {
		return nil, false
	}
	c, ok := s.source().(checker)
	return c, ok
}

func (s *SQLSource[T]) checkOrdering(o []query.Order) error {
	return state{}.orderBy(s.t.m, o).err
}

func (s *SliceSource[T]) checkOrdering(o []query.Order) error {
	return sliceOrder(state{}.orderBy(s.m, o)).err
}

func (s *SQLSource[T]) checkLookup(field string, lookup query.Lookup) error {
	if _, many := s.t.m.many[field]; many && lookup != query.IsNull {
		return nil
	}
	_, _, err := s.t.m.lookupTarget(field, lookup)
	return err
}

func (s *SliceSource[T]) checkLookup(field string, lookup query.Lookup) error {
	if _, many := s.m.many[field]; many && lookup != query.IsNull {
		return nil
	}
	f, path, err := s.m.lookupTarget(field, lookup)
	if err == nil && path != nil {
		err = fmt.Errorf("queryset: lookup %q across relations needs an SQL source", field)
	}
	if _, array := s.m.arrays[f]; err == nil && array && lookup != query.IsNull {
		err = arrayOnSlice(field, lookup)
	}
	return err
}
