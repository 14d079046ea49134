package pagination_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/pagination"
	"github.com/go-drf/drf/framework/queryset"
	"github.com/go-drf/drf/framework/request"
)

// item is the element of the examples' lists.
type item struct {
	ID int `db:"id" json:"id"`
}

// items is a source of n items, ordered by id.
func items(n int) queryset.Source {
	list := make([]item, n)
	for i := range list {
		list[i].ID = i + 1
	}
	return queryset.MustSlice(list, queryset.Order{Field: "id"})
}

// listView is a plain view whose GET paginates src with the view's style.
func listView(src queryset.Source, style framework.Paginator) http.Handler {
	return framework.NewAPI(nil, framework.Settings{}).Handler(framework.View{
		Pagination: style,
		Get: func(v *framework.View, r *request.Request) (*framework.Response, error) {
			page, err := v.Paginator().Paginate(src, r, v)
			if err != nil {
				return nil, err
			}
			if page == nil { // no page size: the whole list
				all, err := src.Slice(r.Context(), 0, -1)
				return framework.OK(all), err
			}
			return page.Response(page.Items()), nil
		},
	})
}

// show serves target with view and prints the Link header and the body.
func show(view http.Handler, target string) {
	rec := httptest.NewRecorder()
	view.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, target, nil))
	if link := rec.Header().Get("Link"); link != "" {
		fmt.Println("Link:", link)
	}
	fmt.Println(rec.Body.String())
}

// A plain view paginates a source itself: Paginate, then answer the page
// with the serialised items.
func Example() {
	view := listView(items(7), &pagination.PageNumberPagination{PageSize: 3})
	show(view, "http://api.example.com/items/?page=2&q=x")
	// Output:
	// {"count":7,"next":"http://api.example.com/items/?page=3&q=x","previous":"http://api.example.com/items/?q=x","results":[{"id":4},{"id":5},{"id":6}]}
}

// The sample contract's link-header style: the bare page as the body, the
// links in a Link header.
func ExampleLinkHeaderPagination() {
	style := &pagination.LinkHeaderPagination{PageNumberPagination: pagination.PageNumberPagination{PageSize: 3}}
	show(listView(items(7), style), "http://api.example.com/items/?page=2")
	// Output:
	// Link: <http://api.example.com/items/?page=3>; rel="next", <http://api.example.com/items/>; rel="prev"
	// [{"id":4},{"id":5},{"id":6}]
}

// The sample contract's nested-links style.
func ExampleNestedLinksPagination() {
	style := &pagination.NestedLinksPagination{PageNumberPagination: pagination.PageNumberPagination{PageSize: 3}}
	show(listView(items(7), style), "http://api.example.com/items/")
	// Output:
	// {"links":{"next":"http://api.example.com/items/?page=2","previous":null},"count":7,"results":[{"id":1},{"id":2},{"id":3}]}
}

// totalCursor is a custom style: cursor pagination whose answer also
// carries the page's size and shows the browsable controls even when
// there is only one page.
type totalCursor struct{ pagination.CursorPagination }

func (s *totalCursor) Paginate(src queryset.Source, r *request.Request, v *framework.View) (framework.Page, error) {
	page, err := s.Page(src, r, v)
	if page == nil {
		return nil, err
	}
	page.SetDisplayControls(true)
	return &totalCursorPage{page}, nil
}

// totalCursorPage answers its own envelope from the page's accessors.
type totalCursorPage struct{ *pagination.CursorPage }

func (p *totalCursorPage) Response(data any) *framework.Response {
	body := struct {
		Size  int             `json:"size"`
		Next  pagination.Link `json:"next"`
		Items any             `json:"items"`
	}{len(p.Items()), p.NextLink(), data}
	return &framework.Response{Status: http.StatusOK, Data: body, Page: p}
}

// A custom style embeds a built-in one and wraps its page.
func Example_customStyle() {
	style := &totalCursor{pagination.CursorPagination{PageSize: 2, Ordering: []string{"-id"}}}
	show(listView(items(3), style), "http://api.example.com/items/")
	// Output:
	// {"size":2,"next":"http://api.example.com/items/?cursor=cD0y","items":[{"id":3},{"id":2}]}
}
