package sample

import (
	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/filters"
	"github.com/go-drf/drf/framework/generics"
	"github.com/go-drf/drf/framework/pagination"
	"github.com/go-drf/drf/framework/queryset"
	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/framework/serializers"
)

// bookList is a generic list view of the books, paginated in the given
// style (framework.NoPagination: not at all) after the filter backends.
func (a *app) bookList(name string, style framework.Paginator, backends ...framework.FilterBackend) framework.View {
	return generics.ListAPIView(generics.GenericAPIView[Book]{
		View:           framework.View{Name: name, Pagination: style},
		Source:         a.books,
		Serializer:     bookSerializer,
		FilterBackends: framework.FilterBackends(backends...),
	})
}

// Pagination styles of the /pages/ routes, beside the global default (page
// numbers, 10 a page). A style is configuration, shared by all requests.
var (
	fivePerPage      = &pagination.PageNumberPagination{PageSize: 5}
	pageNumberStyle  = &pagination.PageNumberPagination{PageSize: 5, PageSizeQueryParam: "page_size", MaxPageSize: 20}
	limitOffsetStyle = &pagination.LimitOffsetPagination{DefaultLimit: 5, MaxLimit: 20}
	cursorStyle      = &pagination.CursorPagination{PageSize: 5, Ordering: []string{"-created"}, PageSizeQueryParam: "page_size", MaxPageSize: 20}
	// ratingCursor orders by a field that is not unique, so its cursors
	// carry an offset past the items that share a rating.
	ratingCursor = &pagination.CursorPagination{PageSize: 5, Ordering: []string{"rating"}}
	// orderableCursor pages in the ordering the view's ordering filter picks.
	orderableCursor = &pagination.CursorPagination{PageSize: 5, Ordering: []string{"-created"}}
	// The two custom styles: the links in a Link header, or under "links".
	linkHeaderStyle  = &pagination.LinkHeaderPagination{PageNumberPagination: pagination.PageNumberPagination{PageSize: 5}}
	nestedLinksStyle = &pagination.NestedLinksPagination{PageNumberPagination: pagination.PageNumberPagination{PageSize: 5}}
)

// byTitleCreatedOrID lets clients order by ?ordering=title, created or id.
var byTitleCreatedOrID = filters.OrderingFilter{Fields: []string{"title", "created", "id"}, Default: []string{"-created"}}

// manualPage is a plain view (not a generic one) that pages the books by
// calling the pagination API itself.
func (a *app) manualPage() framework.View {
	return framework.View{
		Name:       "Manual Page",
		Pagination: fivePerPage,
		Get: func(v *framework.View, r *request.Request) (*framework.Response, error) {
			var rows queryset.Rows[Book]
			page, err := v.Paginator().Paginate(r, queryset.Into(a.books, &rows))
			if err != nil {
				return nil, err
			}
			data, err := bookSerializer.Many(rows.Items, &serializers.Context{Request: r})
			if err != nil {
				return nil, err
			}
			return page.Response(data), nil
		},
	}
}
