package framework

import (
	"github.com/go-drf/drf/framework/query"
	"github.com/go-drf/drf/framework/request"
)

// Paginator is a pagination style (pagination_class). Paginate returns the
// requested page of q, fetching its items into the rows q was made with
// (queryset.Into), or an error such as 404 "Invalid page."; a nil Page
// and no error answer the whole list. The style's value is configuration
// and is shared by all requests; what a request needs to remember lives
// in the Page.
type Paginator interface {
	Paginate(r *request.Request, q query.Query) (Page, error)
}

// FilterBackend narrows or orders a list's query for one request (a
// filter backend's filter_queryset): framework/filters has DRF's and
// django-filter's.
type FilterBackend interface {
	Filter(r *request.Request, src query.Query) (query.Query, error)
}

// PaginatorSetup is implemented by styles whose configuration depends on
// the settings (PAGE_SIZE) or can be wrong: registration calls Setup once
// per view and uses the paginator it returns, with every default filled
// in, so that no request reads the settings; nil means no pagination (no
// page size), and an error refuses the view. The paginator returned must
// be of the style's own type: a style that embeds a built-in one defines
// its own Setup.
type PaginatorSetup interface {
	Setup(s *Settings) (Paginator, error)
}

// PaginationChecker is implemented by a view's Describer that can tell,
// at registration, that the view's paginator cannot page its data (a
// cursor ordering by a field the source does not have): the view is
// refused with the error.
type PaginationChecker interface {
	CheckPagination(p Paginator) error
}

// FilterChecker is implemented by a view's Describer that can tell, at
// registration, that one of the view's filter backends cannot filter or
// order its data (a path across relations over a Go slice, an ordering
// by a field the source does not have): the view is refused with the
// error.
type FilterChecker interface {
	CheckFilters(v *View) error
}

// Page is one page of a paginated list.
type Page interface {
	// Response builds the paginated answer from the serialised items
	// (get_paginated_response).
	Response(data any) *Response
}
