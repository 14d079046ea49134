package pagination_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/pagination"
	"github.com/go-drf/drf/framework/query"
	"github.com/go-drf/drf/framework/queryset"
	"github.com/go-drf/drf/framework/request"
)

// item is the element of the examples' lists.
type item struct {
	ID int `db:"id" json:"id"`
}

// items is a source of n items, ordered by id.
func items(n int) queryset.Source[item] {
	list := make([]item, n)
	for i := range list {
		list[i].ID = i + 1
	}
	return queryset.MustSlice(list, query.Order{Field: "id"})
}

// listView is a plain view whose GET paginates src with the view's style.
func listView(src queryset.Source[item], style framework.Paginator) http.Handler {
	return framework.NewAPI(nil, framework.Settings{}).Handler(framework.View{
		Pagination: style,
		Get: func(v *framework.View, r *request.Request) (*framework.Response, error) {
			var rows queryset.Rows[item]
			q := queryset.Into(src, &rows)
			page, err := v.Paginator().Paginate(r, q)
			if err != nil {
				return nil, err
			}
			if page == nil { // no page size: the whole list
				_, err := q.Fetch(r.Context(), 0, -1)
				return framework.OK(rows.Items), err
			}
			return page.Response(rows.Items), nil
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

// totalCursor is a custom style: cursor pagination whose answer has its
// own envelope and shows the browsable controls even when there is only
// one page.
type totalCursor struct{ pagination.CursorPagination }

// Setup resolves the embedded style and keeps the custom type.
func (s *totalCursor) Setup(settings *framework.Settings) (framework.Paginator, error) {
	c, err := s.Resolve(settings)
	if c == nil {
		return nil, err
	}
	return &totalCursor{*c}, nil
}

func (s *totalCursor) Paginate(r *request.Request, q query.Query) (framework.Page, error) {
	page, err := s.Page(r, q)
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
		Next     pagination.Link `json:"next"`
		Previous pagination.Link `json:"previous"`
		Items    any             `json:"items"`
	}{p.NextLink(), p.PreviousLink(), data}
	return &framework.Response{Status: http.StatusOK, Data: body, Page: p}
}

// A custom style embeds a built-in one and wraps its page.
func Example_customStyle() {
	style := &totalCursor{pagination.CursorPagination{PageSize: 2, Ordering: []string{"-id"}}}
	show(listView(items(3), style), "http://api.example.com/items/")
	// Output:
	// {"next":"http://api.example.com/items/?cursor=cD0y","previous":null,"items":[{"id":3},{"id":2}]}
}
