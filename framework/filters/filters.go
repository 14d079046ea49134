// Package filters holds the filter backends of list views, DRF's
// filter_backends: OrderingFilter (?ordering=), SearchFilter (?search=)
// and django-filter's FilterSet (DjangoFilterBackend). A backend narrows
// or orders a list query for one request (docs/filters.md).
package filters

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/exceptions"
	"github.com/go-drf/drf/framework/pagination"
	"github.com/go-drf/drf/framework/query"
	"github.com/go-drf/drf/framework/queryset"
	"github.com/go-drf/drf/framework/request"
)

// Orderer is a backend that chooses an ordering (DRF's get_ordering):
// when it chooses one, generic list views mark the filtered source for
// CursorPagination, which then pages in that ordering rather than its own.
// Generic views apply the first Orderer among their backends by ordering
// the source by its Ordering, as OrderingFilter's Filter does, so that it
// is asked once per request.
type Orderer interface {
	framework.FilterBackend
	Ordering(r *request.Request, src query.Query) []query.Order
}

// OrderingFilter orders the source by the comma-separated fields of the
// ordering query parameter ("-" for descending). Names outside Fields are
// dropped; when none remain, or the parameter is absent, Default applies,
// and without a Default the source keeps its ordering.
type OrderingFilter struct {
	// Param is the query parameter; "" gives "ordering" (ORDERING_PARAM).
	Param string
	// Fields are the names clients may order by (ordering_fields); nil
	// allows every field of a source that lists its fields.
	Fields []string
	// Default is the view's ordering ("-created"), used when the request
	// names no valid field.
	Default []string
}

// Filter orders src by the request's ordering.
func (f OrderingFilter) Filter(r *request.Request, src query.Query) (query.Query, error) {
	ordering := f.Ordering(r, src)
	if len(ordering) == 0 {
		return src, nil
	}
	return src.OrderBy(ordering...), nil
}

// Descriptions of the query parameters, as DRF words them.
const (
	orderingDescription = "Which field to use when ordering the results."
	searchDescription   = "A search term."
)

// SchemaParameters lists the ordering parameter, for OpenAPI.
func (f OrderingFilter) SchemaParameters(*framework.View) []pagination.SchemaParameter {
	return []pagination.SchemaParameter{{Name: cmp.Or(f.Param, "ordering"), Location: "query", Description: orderingDescription, Type: "string"}}
}

// SchemaParameters lists the search parameter, for OpenAPI; none when no
// field is searched.
func (f SearchFilter) SchemaParameters(*framework.View) []pagination.SchemaParameter {
	if len(f.Fields) == 0 {
		return nil
	}
	return []pagination.SchemaParameter{{Name: f.param(), Location: "query", Description: searchDescription, Type: "string"}}
}

// Check reports, when a view is registered, whether its source can be
// ordered by each of Fields and Default (a column, or for an SQL source
// a path across foreign keys such as "author__username"): the view is
// refused with the error, where DRF would answer the request 500.
func (f OrderingFilter) Check(q query.Query) error {
	var orders []query.Order
	for _, name := range slices.Concat(f.Fields, f.Default) {
		orders = append(orders, query.ParseOrder(name))
	}
	for _, o := range orders {
		if err := queryset.CheckOrdering(q, []query.Order{o}); err != nil {
			return fmt.Errorf("filters: OrderingFilter: %w", err)
		}
	}
	return nil
}

// Ordering returns the ordering the request asks for (get_ordering): the
// valid names of the parameter (its last value), else Default.
func (f OrderingFilter) Ordering(r *request.Request, src query.Query) []query.Order {
	param := f.Param
	if param == "" {
		param = "ordering"
	}
	valid := f.Fields
	if valid == nil {
		valid = src.Fields()
	}
	if val := r.QueryParam(param); val != "" {
		var ordering []query.Order
		for _, term := range strings.Split(val, ",") {
			o := query.ParseOrder(strings.TrimSpace(term))
			if o.Field != "" && slices.Contains(valid, o.Field) {
				ordering = append(ordering, o)
			}
		}
		if len(ordering) > 0 {
			return ordering
		}
	}
	ordering := make([]query.Order, len(f.Default))
	for i, d := range f.Default {
		ordering[i] = query.ParseOrder(d)
	}
	return ordering
}

// SearchFilter keeps the items that contain every term of the search
// query parameter (terms separated by whitespace or commas) in at least
// one of Fields, case-insensitively (DRF's icontains).
//
// Beyond DRF, a search is bounded so that its query stays within the
// database's limits: more distinct terms than MaxTerms, or a term longer
// than MaxTermLength, is refused with 400, one message per bound under the
// parameter's name ({"search": ["..."]}), as FilterSet refuses its values.
type SearchFilter struct {
	// Param is the query parameter; "" gives "search" (SEARCH_PARAM).
	Param string
	// Fields are the fields searched (search_fields); none disables the filter.
	Fields []string
	// MaxTerms bounds the distinct terms of a search (a term repeated
	// counts once); 0 gives 100.
	MaxTerms int
	// MaxTermLength bounds the characters of each term; 0 gives 10,000.
	MaxTermLength int
}

// defaultMaxSearchTerms is the default SearchFilter.MaxTerms. Each term is
// one more condition of the query, nested one level deeper, and binds one
// parameter per searched field: SQLite refuses an expression nested 1000
// deep (SQLITE_MAX_EXPR_DEPTH), which DRF's search reaches with about
// 1000 terms (a 500); 100 stays far from it.
const defaultMaxSearchTerms = 100

// Messages of the searches SearchFilter refuses (the bound), worded as
// DRF's field messages are.
const (
	msgSearchTerms      = "Ensure that there are no more than %d search terms."
	msgSearchTermLength = "Ensure that no search term has more than %d characters."
)

// Filter narrows src to the items matching every term (a term given more
// than once is one condition), or refuses a search beyond the bounds.
func (f SearchFilter) Filter(r *request.Request, src query.Query) (query.Query, error) {
	terms := f.Terms(r)
	if len(f.Fields) == 0 || len(terms) == 0 {
		return src, nil
	}
	if errs := f.refuse(terms); len(errs) > 0 {
		return nil, exceptions.ValidationError(errs)
	}
	return src.Search(f.Fields, terms), nil
}

// refuse returns the messages refusing terms, under the parameter's
// name: more than MaxTerms distinct ones, one longer than MaxTermLength.
func (f SearchFilter) refuse(terms []string) exceptions.ValidationErrors {
	maxTerms := cmp.Or(f.MaxTerms, defaultMaxSearchTerms)
	maxLength := cmp.Or(f.MaxTermLength, defaultMaxPatternLength)
	distinct := make(map[string]bool, min(len(terms), maxTerms+1))
	long := false
	for _, term := range terms {
		if len(distinct) <= maxTerms {
			distinct[term] = true
		}
		long = long || len(term) > maxLength && utf8.RuneCountInString(term) > maxLength
	}
	var errs exceptions.ValidationErrors
	if len(distinct) > maxTerms {
		errs.Add(f.param(), fmt.Sprintf(msgSearchTerms, maxTerms))
	}
	if long {
		errs.Add(f.param(), fmt.Sprintf(msgSearchTermLength, maxLength))
	}
	return errs
}

// param is the filter's query parameter.
func (f SearchFilter) param() string { return cmp.Or(f.Param, "search") }

// Terms returns the request's search terms (get_search_terms).
func (f SearchFilter) Terms(r *request.Request) []string {
	param := f.param()
	if !r.QueryParams().Has(param) {
		return nil
	}
	s := strings.ReplaceAll(r.QueryParam(param), "\x00", "")
	return strings.Fields(strings.ReplaceAll(s, ",", " "))
}

var _ Orderer = OrderingFilter{}
