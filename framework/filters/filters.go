// Package filters holds the filter backends of list views, DRF's
// filter_backends: OrderingFilter (?ordering=) and SearchFilter (?search=).
// A backend narrows or orders a list query for one request.
package filters

import (
	"cmp"
	"slices"
	"strings"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/pagination"
	"github.com/go-drf/drf/framework/query"
	"github.com/go-drf/drf/framework/request"
)

// Backend is a filter backend (filter_queryset).
type Backend interface {
	Filter(r *request.Request, src query.Query) (query.Query, error)
}

// Orderer is a backend that chooses an ordering (DRF's get_ordering):
// generic list views mark the filtered source for CursorPagination, which
// then pages in that ordering rather than its own.
type Orderer interface {
	Backend
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
	OrderingDescription = "Which field to use when ordering the results."
	SearchDescription   = "A search term."
)

// SchemaParameters lists the ordering parameter, for OpenAPI.
func (f OrderingFilter) SchemaParameters(*framework.View) []pagination.SchemaParameter {
	return []pagination.SchemaParameter{{Name: cmp.Or(f.Param, "ordering"), Location: "query", Description: OrderingDescription, Type: "string"}}
}

// SchemaParameters lists the search parameter, for OpenAPI; none when no
// field is searched.
func (f SearchFilter) SchemaParameters(*framework.View) []pagination.SchemaParameter {
	if len(f.Fields) == 0 {
		return nil
	}
	return []pagination.SchemaParameter{{Name: cmp.Or(f.Param, "search"), Location: "query", Description: SearchDescription, Type: "string"}}
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
type SearchFilter struct {
	// Param is the query parameter; "" gives "search" (SEARCH_PARAM).
	Param string
	// Fields are the fields searched (search_fields); none disables the filter.
	Fields []string
}

// Filter narrows src to the items matching every term.
func (f SearchFilter) Filter(r *request.Request, src query.Query) (query.Query, error) {
	terms := f.Terms(r)
	if len(f.Fields) == 0 || len(terms) == 0 {
		return src, nil
	}
	return src.Search(f.Fields, terms), nil
}

// Terms returns the request's search terms (get_search_terms).
func (f SearchFilter) Terms(r *request.Request) []string {
	param := f.Param
	if param == "" {
		param = "search"
	}
	if !r.QueryParams().Has(param) {
		return nil
	}
	s := strings.ReplaceAll(r.QueryParam(param), "\x00", "")
	return strings.Fields(strings.ReplaceAll(s, ",", " "))
}

var _ Orderer = OrderingFilter{}
