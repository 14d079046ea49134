package pagination_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/exceptions"
	"github.com/go-drf/drf/framework/filters"
	"github.com/go-drf/drf/framework/generics"
	"github.com/go-drf/drf/framework/pagination"
	"github.com/go-drf/drf/framework/query"
	"github.com/go-drf/drf/framework/queryset"
	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/framework/serializers"
	"github.com/go-drf/drf/internal/drfsuite"
)

// DRF 3.18's tests/test_pagination.py, ported onto the pagination styles:
// each test is an item named by its class and method (a parametrized one
// by its parameter too, as pytest names it), run at both compatibility
// levels with DRF's assertions. DRF's unit tests call the style's methods
// on a plain list and a Request; here the style, set up at the level,
// pages a queryset.SliceSource (range(1, 101), the cursor tests' mock
// queryset) or an SQL source (the cursor tests' model), for a request to
// http://testserver, and what DRF reads of the paginator is read of the
// page: paginate_queryset is the rows the page fetched,
// get_paginated_response(...).data the Response's body, get_html_context
// HTMLContext, display_page_controls DisplayControls, to_html
// HTMLControls, get_next_link and get_previous_link NextLink and
// PreviousLink. OpenAPI 3.1, which the framework writes, has no
// "nullable": DRF's {"type": "string", "nullable": true} is
// {"type": ["string", "null"]} there (docs/schemas.md), which the schema
// items compare with.

// drfNum is an item of range(1, 101); Parity is N % 2, by which
// EvenItemsOnly filters.
type drfNum struct {
	N      int64 `db:"n" json:"n"`
	Parity int64 `db:"parity" json:"parity"`
}

// drfRange is range(1, n+1) as a source.
func drfRange(n int) *queryset.SliceSource[drfNum] {
	items := make([]drfNum, n)
	for i := range items {
		items[i] = drfNum{N: int64(i + 1), Parity: int64((i + 1) % 2)}
	}
	return queryset.MustSlice(items)
}

// drfNumbers are the numbers of items, never nil.
func drfNumbers(items []*drfNum) []int64 {
	out := make([]int64, len(items))
	for i, it := range items {
		out[i] = it.N
	}
	return out
}

// drfRequest is Request(factory.get(target)) to http://testserver.
func drfRequest(target string) *request.Request {
	hr := httptest.NewRequest(http.MethodGet, target, nil)
	hr.Host = apitest.Host
	return request.New(hr, request.Config{})
}

// drfSetup is the style as registration sets it up at level.
func drfSetup(t *testing.T, style framework.PaginatorSetup, level framework.Compatibility) framework.Paginator {
	t.Helper()
	p, err := style.Setup(&framework.Settings{Compatibility: level})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// drfPaginate is paginate_queryset: p's page of q (made with rows) for a
// GET of target, the page's numbers, and the error.
func drfPaginate(p framework.Paginator, q query.Query, rows *queryset.Rows[drfNum], target string) (framework.Page, []int64, error) {
	page, err := p.Paginate(drfRequest(target), q)
	if err != nil || page == nil {
		return page, nil, err
	}
	return page, drfNumbers(rows.Items), nil
}

// drfPage is drfPaginate of range(1, 101).
func drfPage(p framework.Paginator, target string) (framework.Page, []int64, error) {
	var rows queryset.Rows[drfNum]
	return drfPaginate(p, queryset.Into(drfRange(100), &rows), &rows, target)
}

// drfContent is get_paginated_response(items).data, as JSON.
func drfContent(page framework.Page, items []int64) string {
	b, err := json.Marshal(page.Response(items).Data)
	if err != nil {
		return err.Error()
	}
	return string(b)
}

// drfHTML is what DRF reads of a page for the browsable API.
type drfHTML interface {
	HTMLContext() pagination.ControlsData
	DisplayControls() bool
	pagination.Controls
}

// drfLink is PageLink(url, number, is_active, False).
func drfLink(u string, n int, active bool) pagination.PageLink {
	return pagination.PageLink{URL: u, Number: n, IsActive: active}
}

// drfBreak is PAGE_BREAK.
var drfBreak = pagination.PageLink{IsBreak: true}

// drfNotFound records a failure unless err is DRF's exceptions.NotFound.
func drfNotFound(c *drfsuite.Checks, what string, err error) {
	var e *exceptions.APIException
	if !errors.As(err, &e) || e.Status != http.StatusNotFound {
		*c = append(*c, fmt.Sprintf("%s: %v, DRF raises NotFound", what, err))
	}
}

// drfUnit runs the common part of DRF's unit tests of a numbered style:
// the page of target, its items, content and HTML context.
func drfUnit(c *drfsuite.Checks, p framework.Paginator, target string, items []int64, content string, context pagination.ControlsData) drfHTML {
	page, got, err := drfPage(p, target)
	if err != nil || page == nil {
		*c = append(*c, fmt.Sprintf("paginate_queryset(%s): %v, %v", target, page, err))
		return nil
	}
	c.Equal("queryset", got, items)
	c.JSON("content", drfContent(page, got), content)
	h := page.(drfHTML)
	c.Equal("context", h.HTMLContext(), context)
	return h
}

// drfToHTML records a failure unless the page's controls render.
func drfToHTML(c *drfsuite.Checks, h drfHTML, class string) {
	if h != nil && !strings.Contains(string(h.HTMLControls()), `class="`+class+`"`) {
		*c = append(*c, fmt.Sprintf("to_html() = %q", h.HTMLControls()))
	}
}

// drfEvenItemsOnly is test_pagination.py's EvenItemsOnly filter backend:
// the items whose item % 2 == 0.
type drfEvenItemsOnly struct{}

func (drfEvenItemsOnly) Filter(_ *request.Request, q query.Query) (query.Query, error) {
	return q.Filter("parity", "0"), nil
}

// drfListView is ListAPIView.as_view(serializer_class=PassThroughSerializer,
// queryset=range(1, 101), filter_backends=..., pagination_class=p): a view
// answering the items themselves, paginated by the view's style.
func drfListView(p framework.Paginator, level framework.Compatibility, backends ...framework.FilterBackend) http.Handler {
	src := drfRange(100)
	return apitest.View(framework.View{Pagination: p, Get: func(v *framework.View, r *request.Request) (*framework.Response, error) {
		var rows queryset.Rows[drfNum]
		q := queryset.Into(src, &rows)
		for _, b := range backends {
			var err error
			if q, err = b.Filter(r, q); err != nil {
				return nil, err
			}
		}
		if p := v.Paginator(); p != nil {
			page, err := p.Paginate(r, q)
			if err != nil {
				return nil, err
			}
			if page != nil {
				return page.Response(drfNumbers(rows.Items)), nil
			}
		}
		if _, err := q.Fetch(r.Context(), 0, -1); err != nil {
			return nil, err
		}
		return framework.OK(drfNumbers(rows.Items)), nil
	}}, framework.Settings{Compatibility: level})
}

// drfIntegration is TestPaginationIntegration's test: a GET of target to
// its view, answered status and body.
func drfIntegration(t *testing.T, level framework.Compatibility, target string, status int, body string) []string {
	var c drfsuite.Checks
	view := drfListView(&pagination.PageNumberPagination{PageSize: 5, PageSizeQueryParam: "page_size", MaxPageSize: 20}, level, drfEvenItemsOnly{})
	r := apitest.New(t, view).Get(target)
	c.Equal("status", r.Status, status)
	c.JSON("data", r.Body, body)
	return c
}

// drfPageNumber is TestPageNumberPagination's ExamplePagination.
func drfPageNumber(t *testing.T, level framework.Compatibility) framework.Paginator {
	return drfSetup(t, &pagination.PageNumberPagination{PageSize: 5}, level)
}

// drfLimitOffset is TestLimitOffset's ExamplePagination.
func drfLimitOffset(t *testing.T, level framework.Compatibility) framework.Paginator {
	return drfSetup(t, &pagination.LimitOffsetPagination{DefaultLimit: 10, MaxLimit: 15}, level)
}

// drfCountOne is a query counted as one item, whatever it holds: the
// count of TestPageNumberPaginationOverride's OverriddenDjangoPaginator.
type drfCountOne struct{ query.Query }

func (drfCountOne) Count(context.Context) (int, error) { return 1, nil }

// drfOverride is TestPageNumberPaginationOverride's paginate_queryset.
func drfOverride(t *testing.T, level framework.Compatibility, target string) (framework.Page, []int64, error) {
	var rows queryset.Rows[drfNum]
	return drfPaginate(drfPageNumber(t, level), drfCountOne{queryset.Into(drfRange(100), &rows)}, &rows, target)
}

// drfUnpaginated is the schema of the list the schema tests wrap.
const drfUnpaginated = `{"type":"object","item":{"properties":{"test-property":{"type":"integer"}}}}`

// drfSchema records a failure unless style's ResponseSchema, set up at
// level, is want, a DRF schema whose "nullable": true is read as
// OpenAPI 3.1 writes it.
func drfSchema(c *drfsuite.Checks, style any, want string) {
	var unpaginated, w any
	if err := json.Unmarshal([]byte(drfUnpaginated), &unpaginated); err != nil {
		panic(err)
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		panic(err)
	}
	got, err := json.Marshal(style.(interface{ ResponseSchema(any) any }).ResponseSchema(unpaginated))
	if err != nil {
		*c = append(*c, err.Error())
		return
	}
	wantJSON, err := json.Marshal(openAPI31(w))
	if err != nil {
		panic(err)
	}
	c.JSON("get_paginated_response_schema", string(got), string(wantJSON))
}

// openAPI31 rewrites a schema of OpenAPI 3.0's {"type": t, "nullable":
// true} as OpenAPI 3.1's {"type": [t, "null"]}.
func openAPI31(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, e := range v {
			out[k] = openAPI31(e)
		}
		if out["nullable"] == true {
			delete(out, "nullable")
			out["type"] = []any{out["type"], "null"}
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = openAPI31(e)
		}
		return out
	}
	return v
}

// drfCursorItem is the cursor tests' item: MockObject's and
// CursorPaginationModel's created, with the username the ordering tests'
// MockView orders by.
type drfCursorItem struct {
	ID       int64  `db:"id" json:"id"`
	Created  int64  `db:"created" json:"created"`
	Username string `db:"username" json:"username"`
}

// drfCreated are the values of created the cursor tests page.
var drfCreated = []int64{
	1, 1, 1, 1, 1,
	1, 2, 3, 4, 4,
	4, 4, 5, 6, 7,
	7, 7, 7, 7, 7,
	7, 7, 7, 8, 9,
	9, 9, 9, 9, 9,
}

// drfCursorSource is the source of one of the two cursor test classes:
// TestCursorPagination's MockQuerySet, a list of objects (a slice), or
// TestCursorPaginationWithValueQueryset's
// CursorPaginationModel.objects.values() (an SQL table), of items.
type drfCursorSource func(t *testing.T, items []drfCursorItem) queryset.Source[drfCursorItem]

// drfMockQuerySet is TestCursorPagination's source.
func drfMockQuerySet(_ *testing.T, items []drfCursorItem) queryset.Source[drfCursorItem] {
	return queryset.MustSlice(items)
}

// drfModelQuerySet is TestCursorPaginationWithValueQueryset's source.
func drfModelQuerySet(t *testing.T, items []drfCursorItem) queryset.Source[drfCursorItem] {
	db, _ := drfsuite.Open(t)
	db.MustExec(`CREATE TABLE "tests_cursorpaginationmodel" ("id" integer NOT NULL PRIMARY KEY AUTOINCREMENT, "created" integer NOT NULL, "username" varchar(100) NOT NULL)`)
	for _, it := range items {
		db.MustExec(`INSERT INTO "tests_cursorpaginationmodel" ("created", "username") VALUES (?, ?)`, it.Created, it.Username)
	}
	return queryset.MustSQL[drfCursorItem](db, queryset.SQLConfig{Table: "tests_cursorpaginationmodel"})
}

// drfCursorStyle is the cursor tests' ExamplePagination.
func drfCursorStyle() *pagination.CursorPagination {
	return &pagination.CursorPagination{PageSize: 5, PageSizeQueryParam: "page_size", MaxPageSize: 20, Ordering: []string{"created"}}
}

// drfCursor is one cursor test: the style set up at level over the
// class's source of drfCreated.
type drfCursor struct {
	c     *drfsuite.Checks
	style framework.Paginator
	src   queryset.Source[drfCursorItem]
	// last is the page get_pages read last.
	last *pagination.CursorPage
}

func newDRFCursor(t *testing.T, level framework.Compatibility, source drfCursorSource, c *drfsuite.Checks) *drfCursor {
	items := make([]drfCursorItem, len(drfCreated))
	for i, n := range drfCreated {
		items[i] = drfCursorItem{ID: int64(i + 1), Created: n}
	}
	return &drfCursor{c: c, style: drfSetup(t, drfCursorStyle(), level), src: source(t, items)}
}

// page is the created values of the page of target (nil when its request
// failed, which is recorded).
func (d *drfCursor) page(target string) ([]int64, *pagination.CursorPage) {
	var rows queryset.Rows[drfCursorItem]
	page, err := d.style.Paginate(drfRequest(target), queryset.Into(d.src, &rows))
	if err != nil || page == nil {
		*d.c = append(*d.c, fmt.Sprintf("paginate_queryset(%s): %v, %v", target, page, err))
		return nil, nil
	}
	created := make([]int64, len(rows.Items))
	for i, it := range rows.Items {
		created[i] = it.Created
	}
	return created, page.(*pagination.CursorPage)
}

// drfPages is what get_pages returns; a nil page is None.
type drfPages struct {
	previous, current, next []int64
	previousURL, nextURL    string
}

// pages is get_pages(target).
func (d *drfCursor) pages(target string) drfPages {
	var p drfPages
	var page *pagination.CursorPage
	p.current, page = d.page(target)
	if page == nil {
		return p
	}
	p.nextURL, p.previousURL = string(page.NextLink()), string(page.PreviousLink())
	d.last = page
	if p.nextURL != "" {
		p.next, _ = d.page(p.nextURL)
	}
	if p.previousURL != "" {
		p.previous, _ = d.page(p.previousURL)
	}
	return p
}

// check compares get_pages's previous, current and next pages (nil:
// None) with DRF's.
func (d *drfCursor) check(step string, p drfPages, previous, current, next []int64) {
	d.c.Equal(step+": previous", p.previous, previous)
	d.c.Equal(step+": current", p.current, current)
	d.c.Equal(step+": next", p.next, next)
}

// walk is a test that follows links from target, each step going by the
// link the step names and checking the pages it then finds.
func (d *drfCursor) walk(target string, steps []drfStep) {
	p := d.pages(target)
	for i, s := range steps {
		if i > 0 {
			u := p.nextURL
			if s.back {
				u = p.previousURL
			}
			if u == "" {
				*d.c = append(*d.c, fmt.Sprintf("step %d: no link to follow", i))
				return
			}
			p = d.pages(u)
		}
		d.check(fmt.Sprintf("step %d", i), p, s.previous, s.current, s.next)
	}
}

// drfStep is one get_pages of a walk: by the previous link when back,
// else the next one (the first step is the walk's start).
type drfStep struct {
	back                    bool
	previous, current, next []int64
}

// drfWalk is test_cursor_pagination's walk, from the first page to the
// last and back, which the page-size tests repeat.
var drfWalk = []drfStep{
	{false, nil, []int64{1, 1, 1, 1, 1}, []int64{1, 2, 3, 4, 4}},
	{false, []int64{1, 1, 1, 1, 1}, []int64{1, 2, 3, 4, 4}, []int64{4, 4, 5, 6, 7}},
	{false, []int64{1, 2, 3, 4, 4}, []int64{4, 4, 5, 6, 7}, []int64{7, 7, 7, 7, 7}},
	{false, []int64{4, 4, 4, 5, 6}, []int64{7, 7, 7, 7, 7}, []int64{7, 7, 7, 8, 9}}, // Paging artifact
	{false, []int64{7, 7, 7, 7, 7}, []int64{7, 7, 7, 8, 9}, []int64{9, 9, 9, 9, 9}},
	{false, []int64{7, 7, 7, 8, 9}, []int64{9, 9, 9, 9, 9}, nil},
	{true, []int64{7, 7, 7, 7, 7}, []int64{7, 7, 7, 8, 9}, []int64{9, 9, 9, 9, 9}},
	{true, []int64{4, 4, 5, 6, 7}, []int64{7, 7, 7, 7, 7}, []int64{8, 9, 9, 9, 9}}, // Paging artifact
	{true, []int64{1, 2, 3, 4, 4}, []int64{4, 4, 5, 6, 7}, []int64{7, 7, 7, 7, 7}},
	{true, []int64{1, 1, 1, 1, 1}, []int64{1, 2, 3, 4, 4}, []int64{4, 4, 5, 6, 7}},
	{true, nil, []int64{1, 1, 1, 1, 1}, []int64{1, 2, 3, 4, 4}},
}

// drfCursorURL is encode_cursor(cursor) with base_url "/": DRF's cursor
// is base64 of its tokens as a query string.
func drfCursorURL(tokens string) string {
	return "/?cursor=" + url.QueryEscape(base64.StdEncoding.EncodeToString([]byte(tokens)))
}

// drfOrderingView is a ListAPIView over the class's source whose
// filter_backends are an OrderingFilter of ordering_fields username and
// created, and ordering when given (MockView's), paginated by the cursor
// tests' style; it answers the usernames of a page, in the order the
// style paged them.
func drfOrderingView(t *testing.T, level framework.Compatibility, source drfCursorSource, ordering ...string) func(c *drfsuite.Checks, target string) []string {
	// Each ordering is another order of the three: the source's own
	// (c a b), created (b c a), username (a b c), -username (c b a).
	src := source(t, []drfCursorItem{{ID: 1, Created: 2, Username: "c"}, {ID: 2, Created: 3, Username: "a"}, {ID: 3, Created: 1, Username: "b"}})
	api := framework.NewAPI(nil, framework.Settings{Compatibility: level})
	api.Handle("/", generics.ListAPIView(generics.GenericAPIView[drfCursorItem]{
		View:           framework.View{Pagination: drfCursorStyle()},
		Source:         src,
		Serializer:     serializers.MustNew[drfCursorItem](),
		FilterBackends: framework.FilterBackends(filters.OrderingFilter{Fields: []string{"username", "created"}, Default: ordering}),
	}))
	client := apitest.New(t, api)
	return func(c *drfsuite.Checks, target string) []string {
		r := client.Get(target)
		var body struct{ Results []drfCursorItem }
		if err := json.Unmarshal([]byte(r.Body), &body); err != nil || r.Status != http.StatusOK {
			*c = append(*c, fmt.Sprintf("GET %s: %d %s", target, r.Status, r.Body))
			return nil
		}
		var names []string
		for _, it := range body.Results {
			names = append(names, it.Username)
		}
		return names
	}
}

// drfOrdered are the usernames a page in each ordering lists.
var drfOrdered = map[string][]string{
	"created": {"b", "c", "a"}, "username": {"a", "b", "c"}, "-username": {"c", "b", "a"},
}

// drfCursorMixin are CursorPaginationTestsMixin's tests over a class's
// source, by method.
func drfCursorMixin(source drfCursorSource) map[string]func(t *testing.T, level framework.Compatibility) []string {
	return map[string]func(t *testing.T, level framework.Compatibility) []string{
		"test_invalid_cursor": func(t *testing.T, level framework.Compatibility) []string {
			var c drfsuite.Checks
			d := newDRFCursor(t, level, source, &c)
			var rows queryset.Rows[drfCursorItem]
			_, err := d.style.Paginate(drfRequest("/?cursor=123"), queryset.Into(d.src, &rows))
			drfNotFound(&c, "paginate_queryset", err)
			return c
		},
		"test_use_with_ordering_filter": func(t *testing.T, level framework.Compatibility) []string {
			var c drfsuite.Checks
			get := drfOrderingView(t, level, source, "created")
			c.Equal("ordering=username", get(&c, "/?ordering=username"), drfOrdered["username"])
			c.Equal("ordering=-username", get(&c, "/?ordering=-username"), drfOrdered["-username"])
			c.Equal("ordering=invalid", get(&c, "/?ordering=invalid"), drfOrdered["created"])
			return c
		},
		"test_use_with_ordering_filter_without_ordering_default_value": func(t *testing.T, level framework.Compatibility) []string {
			var c drfsuite.Checks
			get := drfOrderingView(t, level, source)
			// it gets the value of `ordering` provided by CursorPagination
			c.Equal("no ordering", get(&c, "/"), drfOrdered["created"])
			c.Equal("ordering=username", get(&c, "/?ordering=username"), drfOrdered["username"])
			c.Equal("ordering=invalid", get(&c, "/?ordering=invalid"), drfOrdered["created"])
			return c
		},
		"test_cursor_pagination": func(t *testing.T, level framework.Compatibility) []string {
			var c drfsuite.Checks
			d := newDRFCursor(t, level, source, &c)
			d.walk("/", drfWalk)
			drfToHTML(&c, d.last, "pager")
			return c
		},
		"test_cursor_pagination_current_page_empty_forward": func(t *testing.T, level framework.Compatibility) []string {
			var c drfsuite.Checks
			d := newDRFCursor(t, level, source, &c)
			// A cursor on the element at position 100, which does not
			// exist anymore; neither its page nor its previous one fails.
			p := d.pages(drfCursorURL("p=100"))
			if p.previousURL == "" {
				return append(c, "no previous link from the empty page")
			}
			p = d.pages(p.previousURL)
			d.check("previous of the empty page", p, []int64{7, 7, 7, 8, 9}, []int64{9, 9, 9, 9, 9}, []int64{})
			c.Equal("previous_url is not None", p.previousURL != "", true)
			c.Equal("next_url is not None", p.nextURL != "", true)
			return c
		},
		"test_cursor_pagination_current_page_empty_reverse": func(t *testing.T, level framework.Compatibility) []string {
			var c drfsuite.Checks
			d := newDRFCursor(t, level, source, &c)
			p := d.pages(drfCursorURL("r=1&p=100"))
			if p.nextURL == "" {
				return append(c, "no next link from the empty page")
			}
			p = d.pages(p.nextURL)
			d.check("next of the empty page", p, []int64{7, 7, 7, 7, 8}, []int64{}, nil)
			c.Equal("previous_url is not None", p.previousURL != "", true)
			c.Equal("next_url is None", p.nextURL, "")
			return c
		},
		"test_cursor_pagination_with_page_size": func(t *testing.T, level framework.Compatibility) []string {
			var c drfsuite.Checks
			newDRFCursor(t, level, source, &c).walk("/?page_size=20", drfPageSize20)
			return c
		},
		"test_cursor_pagination_with_page_size_over_limit": func(t *testing.T, level framework.Compatibility) []string {
			var c drfsuite.Checks
			newDRFCursor(t, level, source, &c).walk("/?page_size=30", drfPageSize20)
			return c
		},
		"test_cursor_pagination_with_page_size_zero": func(t *testing.T, level framework.Compatibility) []string {
			var c drfsuite.Checks
			newDRFCursor(t, level, source, &c).walk("/?page_size=0", drfWalk)
			return c
		},
		"test_cursor_pagination_with_page_size_negative": func(t *testing.T, level framework.Compatibility) []string {
			var c drfsuite.Checks
			newDRFCursor(t, level, source, &c).walk("/?page_size=-5", drfWalk)
			return c
		},
		"test_get_paginated_response_schema": func(t *testing.T, level framework.Compatibility) []string {
			var c drfsuite.Checks
			style := drfSetup(t, drfCursorStyle(), level)
			if level == framework.DRF314 {
				drfSchema(&c, style, `{"type":"object","properties":{"next":{"type":"string","nullable":true},"previous":{"type":"string","nullable":true},"results":`+drfUnpaginated+`}}`)
				return c
			}
			drfSchema(&c, style, `{"type":"object","required":["results"],"properties":{`+
				`"next":{"type":"string","nullable":true,"format":"uri","example":"http://api.example.org/accounts/?cursor=cD00ODY%3D\""},`+
				`"previous":{"type":"string","nullable":true,"format":"uri","example":"http://api.example.org/accounts/?cursor=cj0xJnA9NDg3"},`+
				`"results":`+drfUnpaginated+`}}`)
			return c
		},
	}
}

// drfPageSize20 is the walk of test_cursor_pagination_with_page_size.
var drfPageSize20 = []drfStep{
	{false, nil, []int64{1, 1, 1, 1, 1, 1, 2, 3, 4, 4, 4, 4, 5, 6, 7, 7, 7, 7, 7, 7}, []int64{7, 7, 7, 8, 9, 9, 9, 9, 9, 9}},
	{false, []int64{1, 1, 1, 1, 1, 1, 2, 3, 4, 4, 4, 4, 5, 6, 7, 7, 7, 7, 7, 7}, []int64{7, 7, 7, 8, 9, 9, 9, 9, 9, 9}, nil},
}

// drfDisplayed is test_get_displayed_page_numbers's table: the page
// numbers the controls show for each current and last page, 0 for None
// (a break).
var drfDisplayed = []struct {
	current, final int
	want           []int
}{
	{1, 5, []int{1, 2, 3, 4, 5}}, {2, 5, []int{1, 2, 3, 4, 5}}, {3, 5, []int{1, 2, 3, 4, 5}}, {4, 5, []int{1, 2, 3, 4, 5}}, {5, 5, []int{1, 2, 3, 4, 5}},

	{1, 6, []int{1, 2, 3, 0, 6}}, {2, 6, []int{1, 2, 3, 0, 6}}, {3, 6, []int{1, 2, 3, 4, 5, 6}},
	{4, 6, []int{1, 2, 3, 4, 5, 6}}, {5, 6, []int{1, 0, 4, 5, 6}}, {6, 6, []int{1, 0, 4, 5, 6}},

	{1, 7, []int{1, 2, 3, 0, 7}}, {2, 7, []int{1, 2, 3, 0, 7}}, {3, 7, []int{1, 2, 3, 4, 0, 7}}, {4, 7, []int{1, 2, 3, 4, 5, 6, 7}},
	{5, 7, []int{1, 0, 4, 5, 6, 7}}, {6, 7, []int{1, 0, 5, 6, 7}}, {7, 7, []int{1, 0, 5, 6, 7}},

	{1, 8, []int{1, 2, 3, 0, 8}}, {2, 8, []int{1, 2, 3, 0, 8}}, {3, 8, []int{1, 2, 3, 4, 0, 8}}, {4, 8, []int{1, 2, 3, 4, 5, 0, 8}},
	{5, 8, []int{1, 0, 4, 5, 6, 7, 8}}, {6, 8, []int{1, 0, 5, 6, 7, 8}}, {7, 8, []int{1, 0, 6, 7, 8}}, {8, 8, []int{1, 0, 6, 7, 8}},

	{1, 9, []int{1, 2, 3, 0, 9}}, {2, 9, []int{1, 2, 3, 0, 9}}, {3, 9, []int{1, 2, 3, 4, 0, 9}}, {4, 9, []int{1, 2, 3, 4, 5, 0, 9}},
	{5, 9, []int{1, 0, 4, 5, 6, 0, 9}}, {6, 9, []int{1, 0, 5, 6, 7, 8, 9}}, {7, 9, []int{1, 0, 6, 7, 8, 9}},
	{8, 9, []int{1, 0, 7, 8, 9}}, {9, 9, []int{1, 0, 7, 8, 9}},
}

// drfPaginationItems are the ported tests.
func drfPaginationItems() []drfsuite.Item {
	items := []drfsuite.Item{
		{Name: "TestPaginationIntegration.test_filtered_items_are_paginated", Run: func(t *testing.T, level framework.Compatibility) []string {
			return drfIntegration(t, level, "/?page=2", 200,
				`{"results":[12,14,16,18,20],"previous":"http://testserver/","next":"http://testserver/?page=3","count":50}`)
		}},
		{Name: "TestPaginationIntegration.test_setting_page_size", Run: func(t *testing.T, level framework.Compatibility) []string {
			return drfIntegration(t, level, "/?page_size=10", 200,
				`{"results":[2,4,6,8,10,12,14,16,18,20],"previous":null,"next":"http://testserver/?page=2&page_size=10","count":50}`)
		}},
		{Name: "TestPaginationIntegration.test_setting_page_size_over_maximum", Run: func(t *testing.T, level framework.Compatibility) []string {
			return drfIntegration(t, level, "/?page_size=1000", 200,
				`{"results":[2,4,6,8,10,12,14,16,18,20,22,24,26,28,30,32,34,36,38,40],"previous":null,"next":"http://testserver/?page=2&page_size=1000","count":50}`)
		}},
		{Name: "TestPaginationIntegration.test_setting_page_size_to_zero", Run: func(t *testing.T, level framework.Compatibility) []string {
			return drfIntegration(t, level, "/?page_size=0", 200,
				`{"results":[2,4,6,8,10],"previous":null,"next":"http://testserver/?page=2&page_size=0","count":50}`)
		}},
		{Name: "TestPaginationIntegration.test_additional_query_params_are_preserved", Run: func(t *testing.T, level framework.Compatibility) []string {
			return drfIntegration(t, level, "/?page=2&filter=even", 200,
				`{"results":[12,14,16,18,20],"previous":"http://testserver/?filter=even","next":"http://testserver/?filter=even&page=3","count":50}`)
		}},
		{Name: "TestPaginationIntegration.test_empty_query_params_are_preserved", Run: func(t *testing.T, level framework.Compatibility) []string {
			return drfIntegration(t, level, "/?page=2&filter=", 200,
				`{"results":[12,14,16,18,20],"previous":"http://testserver/?filter=","next":"http://testserver/?filter=&page=3","count":50}`)
		}},
		{Name: "TestPaginationIntegration.test_404_not_found_for_zero_page", Run: func(t *testing.T, level framework.Compatibility) []string {
			return drfIntegration(t, level, "/?page=0", 404, `{"detail":"Invalid page."}`)
		}},
		{Name: "TestPaginationIntegration.test_404_not_found_for_invalid_page", Run: func(t *testing.T, level framework.Compatibility) []string {
			return drfIntegration(t, level, "/?page=invalid", 404, `{"detail":"Invalid page."}`)
		}},
		{Name: "TestPaginationDisabledIntegration.test_unpaginated_list", Run: func(t *testing.T, level framework.Compatibility) []string {
			var c drfsuite.Checks
			r := apitest.New(t, drfListView(framework.NoPagination, level)).Get("/?page=2")
			c.Equal("status", r.Status, 200)
			all := make([]int64, 100)
			for i := range all {
				all[i] = int64(i + 1)
			}
			b, _ := json.Marshal(all)
			c.JSON("data", r.Body, string(b))
			return c
		}},
	}
	for _, target := range []string{"/", "/?page="} {
		items = append(items, drfsuite.Item{Name: "TestPageNumberPagination.test_no_page_number[" + target + "]", Run: func(t *testing.T, level framework.Compatibility) []string {
			var c drfsuite.Checks
			p := drfPageNumber(t, level)
			if target == "/?page=" && level == framework.DRF314 {
				// DRF 3.14 reads an empty page number as a bad one.
				_, _, err := drfPage(p, target)
				drfNotFound(&c, "paginate_queryset", err)
				return c
			}
			h := drfUnit(&c, p, target, []int64{1, 2, 3, 4, 5},
				`{"results":[1,2,3,4,5],"previous":null,"next":"http://testserver/?page=2","count":100}`,
				pagination.ControlsData{NextURL: "http://testserver/?page=2", PageLinks: []pagination.PageLink{
					drfLink("http://testserver/", 1, true),
					drfLink("http://testserver/?page=2", 2, false),
					drfLink("http://testserver/?page=3", 3, false),
					drfBreak,
					drfLink("http://testserver/?page=20", 20, false),
				}})
			if h != nil {
				c.Equal("display_page_controls", h.DisplayControls(), true)
			}
			drfToHTML(&c, h, "pagination")
			return c
		}})
	}
	items = append(items, []drfsuite.Item{
		{Name: "TestPageNumberPagination.test_second_page", Run: func(t *testing.T, level framework.Compatibility) []string {
			var c drfsuite.Checks
			drfUnit(&c, drfPageNumber(t, level), "/?page=2", []int64{6, 7, 8, 9, 10},
				`{"results":[6,7,8,9,10],"previous":"http://testserver/","next":"http://testserver/?page=3","count":100}`,
				pagination.ControlsData{PreviousURL: "http://testserver/", NextURL: "http://testserver/?page=3", PageLinks: []pagination.PageLink{
					drfLink("http://testserver/", 1, false),
					drfLink("http://testserver/?page=2", 2, true),
					drfLink("http://testserver/?page=3", 3, false),
					drfBreak,
					drfLink("http://testserver/?page=20", 20, false),
				}})
			return c
		}},
		{Name: "TestPageNumberPagination.test_last_page", Run: func(t *testing.T, level framework.Compatibility) []string {
			var c drfsuite.Checks
			drfUnit(&c, drfPageNumber(t, level), "/?page=last", []int64{96, 97, 98, 99, 100},
				`{"results":[96,97,98,99,100],"previous":"http://testserver/?page=19","next":null,"count":100}`,
				pagination.ControlsData{PreviousURL: "http://testserver/?page=19", PageLinks: []pagination.PageLink{
					drfLink("http://testserver/", 1, false),
					drfBreak,
					drfLink("http://testserver/?page=18", 18, false),
					drfLink("http://testserver/?page=19", 19, false),
					drfLink("http://testserver/?page=20", 20, true),
				}})
			return c
		}},
		{Name: "TestPageNumberPagination.test_invalid_page", Run: func(t *testing.T, level framework.Compatibility) []string {
			var c drfsuite.Checks
			_, _, err := drfPage(drfPageNumber(t, level), "/?page=invalid")
			drfNotFound(&c, "paginate_queryset", err)
			return c
		}},
		{Name: "TestPageNumberPagination.test_get_paginated_response_schema", Run: func(t *testing.T, level framework.Compatibility) []string {
			var c drfsuite.Checks
			required := `"required":["count","results"],`
			if level == framework.DRF314 {
				required = ""
			}
			drfSchema(&c, drfPageNumber(t, level), `{"type":"object",`+required+`"properties":{"count":{"type":"integer","example":123},`+
				`"next":{"type":"string","nullable":true,"format":"uri","example":"http://api.example.org/accounts/?page=4"},`+
				`"previous":{"type":"string","nullable":true,"format":"uri","example":"http://api.example.org/accounts/?page=2"},`+
				`"results":`+drfUnpaginated+`}}`)
			return c
		}},
		{Name: "TestPageNumberPaginationOverride.test_no_page_number", Run: func(t *testing.T, level framework.Compatibility) []string {
			var c drfsuite.Checks
			page, got, err := drfOverride(t, level, "/")
			if err != nil || page == nil {
				return append(c, fmt.Sprintf("paginate_queryset: %v, %v", page, err))
			}
			c.Equal("queryset", got, []int64{1})
			c.JSON("content", drfContent(page, got), `{"results":[1],"previous":null,"next":null,"count":1}`)
			h := page.(drfHTML)
			c.Equal("context", h.HTMLContext(), pagination.ControlsData{PageLinks: []pagination.PageLink{drfLink("http://testserver/", 1, true)}})
			c.Equal("display_page_controls", h.DisplayControls(), false)
			return c
		}},
		{Name: "TestPageNumberPaginationOverride.test_invalid_page", Run: func(t *testing.T, level framework.Compatibility) []string {
			var c drfsuite.Checks
			_, _, err := drfOverride(t, level, "/?page=invalid")
			drfNotFound(&c, "paginate_queryset", err)
			return c
		}},
		{Name: "TestLimitOffset.test_no_offset", Run: func(t *testing.T, level framework.Compatibility) []string {
			var c drfsuite.Checks
			h := drfUnit(&c, drfLimitOffset(t, level), "/?limit=5", []int64{1, 2, 3, 4, 5},
				`{"results":[1,2,3,4,5],"previous":null,"next":"http://testserver/?limit=5&offset=5","count":100}`,
				pagination.ControlsData{NextURL: "http://testserver/?limit=5&offset=5", PageLinks: []pagination.PageLink{
					drfLink("http://testserver/?limit=5", 1, true),
					drfLink("http://testserver/?limit=5&offset=5", 2, false),
					drfLink("http://testserver/?limit=5&offset=10", 3, false),
					drfBreak,
					drfLink("http://testserver/?limit=5&offset=95", 20, false),
				}})
			if h != nil {
				c.Equal("display_page_controls", h.DisplayControls(), true)
			}
			drfToHTML(&c, h, "pagination")
			return c
		}},
		{Name: "TestLimitOffset.test_pagination_not_applied_if_limit_or_default_limit_not_set", Run: func(t *testing.T, level framework.Compatibility) []string {
			var c drfsuite.Checks
			// MockPagination: default_limit = None.
			p := drfSetup(t, &pagination.LimitOffsetPagination{}, level)
			page, _, err := drfPage(p, "/")
			c.Equal("queryset is None", page == nil && err == nil, true)
			return c
		}},
		{Name: "TestLimitOffset.test_single_offset", Run: func(t *testing.T, level framework.Compatibility) []string {
			var c drfsuite.Checks
			drfUnit(&c, drfLimitOffset(t, level), "/?limit=5&offset=1", []int64{2, 3, 4, 5, 6},
				`{"results":[2,3,4,5,6],"previous":"http://testserver/?limit=5","next":"http://testserver/?limit=5&offset=6","count":100}`,
				pagination.ControlsData{PreviousURL: "http://testserver/?limit=5", NextURL: "http://testserver/?limit=5&offset=6", PageLinks: []pagination.PageLink{
					drfLink("http://testserver/?limit=5", 1, false),
					drfLink("http://testserver/?limit=5&offset=1", 2, true),
					drfLink("http://testserver/?limit=5&offset=6", 3, false),
					drfBreak,
					drfLink("http://testserver/?limit=5&offset=96", 21, false),
				}})
			return c
		}},
		{Name: "TestLimitOffset.test_first_offset", Run: func(t *testing.T, level framework.Compatibility) []string {
			var c drfsuite.Checks
			drfUnit(&c, drfLimitOffset(t, level), "/?limit=5&offset=5", []int64{6, 7, 8, 9, 10},
				`{"results":[6,7,8,9,10],"previous":"http://testserver/?limit=5","next":"http://testserver/?limit=5&offset=10","count":100}`,
				pagination.ControlsData{PreviousURL: "http://testserver/?limit=5", NextURL: "http://testserver/?limit=5&offset=10", PageLinks: []pagination.PageLink{
					drfLink("http://testserver/?limit=5", 1, false),
					drfLink("http://testserver/?limit=5&offset=5", 2, true),
					drfLink("http://testserver/?limit=5&offset=10", 3, false),
					drfBreak,
					drfLink("http://testserver/?limit=5&offset=95", 20, false),
				}})
			return c
		}},
		{Name: "TestLimitOffset.test_middle_offset", Run: func(t *testing.T, level framework.Compatibility) []string {
			var c drfsuite.Checks
			drfUnit(&c, drfLimitOffset(t, level), "/?limit=5&offset=10", []int64{11, 12, 13, 14, 15},
				`{"results":[11,12,13,14,15],"previous":"http://testserver/?limit=5&offset=5","next":"http://testserver/?limit=5&offset=15","count":100}`,
				pagination.ControlsData{PreviousURL: "http://testserver/?limit=5&offset=5", NextURL: "http://testserver/?limit=5&offset=15", PageLinks: []pagination.PageLink{
					drfLink("http://testserver/?limit=5", 1, false),
					drfLink("http://testserver/?limit=5&offset=5", 2, false),
					drfLink("http://testserver/?limit=5&offset=10", 3, true),
					drfLink("http://testserver/?limit=5&offset=15", 4, false),
					drfBreak,
					drfLink("http://testserver/?limit=5&offset=95", 20, false),
				}})
			return c
		}},
		{Name: "TestLimitOffset.test_ending_offset", Run: func(t *testing.T, level framework.Compatibility) []string {
			var c drfsuite.Checks
			drfUnit(&c, drfLimitOffset(t, level), "/?limit=5&offset=95", []int64{96, 97, 98, 99, 100},
				`{"results":[96,97,98,99,100],"previous":"http://testserver/?limit=5&offset=90","next":null,"count":100}`,
				pagination.ControlsData{PreviousURL: "http://testserver/?limit=5&offset=90", PageLinks: []pagination.PageLink{
					drfLink("http://testserver/?limit=5", 1, false),
					drfBreak,
					drfLink("http://testserver/?limit=5&offset=85", 18, false),
					drfLink("http://testserver/?limit=5&offset=90", 19, false),
					drfLink("http://testserver/?limit=5&offset=95", 20, true),
				}})
			return c
		}},
		{Name: "TestLimitOffset.test_erroneous_offset", Run: func(t *testing.T, level framework.Compatibility) []string {
			var c drfsuite.Checks
			// Neither the page, its content nor its context fails.
			page, got, err := drfPage(drfLimitOffset(t, level), "/?limit=5&offset=1000")
			if err != nil || page == nil {
				return append(c, fmt.Sprintf("paginate_queryset: %v, %v", page, err))
			}
			drfContent(page, got)
			page.(drfHTML).HTMLContext()
			return c
		}},
		{Name: "TestLimitOffset.test_invalid_offset", Run: func(t *testing.T, level framework.Compatibility) []string {
			var c drfsuite.Checks
			_, got, err := drfPage(drfLimitOffset(t, level), "/?limit=5&offset=invalid")
			c.Equal("error", err, nil)
			c.Equal("queryset", got, []int64{1, 2, 3, 4, 5})
			return c
		}},
		{Name: "TestLimitOffset.test_invalid_limit", Run: func(t *testing.T, level framework.Compatibility) []string {
			return drfLimitNext(t, level, "/?limit=invalid&offset=0")
		}},
		{Name: "TestLimitOffset.test_zero_limit", Run: func(t *testing.T, level framework.Compatibility) []string {
			return drfLimitNext(t, level, "/?limit=0&offset=0")
		}},
		{Name: "TestLimitOffset.test_max_limit", Run: func(t *testing.T, level framework.Compatibility) []string {
			var c drfsuite.Checks
			page, got, err := drfPage(drfLimitOffset(t, level), "/?limit=11235&offset=50")
			if err != nil || page == nil {
				return append(c, fmt.Sprintf("paginate_queryset: %v, %v", page, err))
			}
			want := make([]int64, 15)
			for i := range want {
				want[i] = int64(51 + i)
			}
			c.Equal("queryset", got, want)
			c.Equal("next", page.(*pagination.LimitOffsetPage).NextLink(), pagination.Link("http://testserver/?limit=15&offset=65"))
			c.Equal("previous", page.(*pagination.LimitOffsetPage).PreviousLink(), pagination.Link("http://testserver/?limit=15&offset=35"))
			return c
		}},
		{Name: "TestLimitOffset.test_get_paginated_response_schema", Run: func(t *testing.T, level framework.Compatibility) []string {
			var c drfsuite.Checks
			required := `"required":["count","results"],`
			if level == framework.DRF314 {
				required = ""
			}
			drfSchema(&c, drfLimitOffset(t, level), `{"type":"object",`+required+`"properties":{"count":{"type":"integer","example":123},`+
				`"next":{"type":"string","nullable":true,"format":"uri","example":"http://api.example.org/accounts/?offset=400&limit=100"},`+
				`"previous":{"type":"string","nullable":true,"format":"uri","example":"http://api.example.org/accounts/?offset=200&limit=100"},`+
				`"results":`+drfUnpaginated+`}}`)
			return c
		}},
		{Name: "test_get_displayed_page_numbers", Run: func(t *testing.T, level framework.Compatibility) []string {
			var c drfsuite.Checks
			p := drfSetup(t, &pagination.PageNumberPagination{PageSize: 1}, level)
			for _, d := range drfDisplayed {
				var rows queryset.Rows[drfNum]
				page, _, err := drfPaginate(p, queryset.Into(drfRange(d.final), &rows), &rows, fmt.Sprintf("/?page=%d", d.current))
				if err != nil || page == nil {
					c = append(c, fmt.Sprintf("page %d of %d: %v, %v", d.current, d.final, page, err))
					continue
				}
				var got []int
				for _, l := range page.(drfHTML).HTMLContext().PageLinks {
					got = append(got, l.Number)
				}
				c.Equal(fmt.Sprintf("displayed_page_numbers(%d, %d)", d.current, d.final), got, d.want)
			}
			return c
		}},
	}...)
	for _, class := range []struct {
		name   string
		source drfCursorSource
	}{{"TestCursorPagination", drfMockQuerySet}, {"TestCursorPaginationWithValueQueryset", drfModelQuerySet}} {
		for method, run := range drfCursorMixin(class.source) {
			items = append(items, drfsuite.Item{Name: class.name + "." + method, Run: run})
		}
	}
	return items
}

// drfLimitNext is test_invalid_limit and test_zero_limit: a limit that is
// not a positive integer gives the default one.
func drfLimitNext(t *testing.T, level framework.Compatibility, target string) []string {
	var c drfsuite.Checks
	page, got, err := drfPage(drfLimitOffset(t, level), target)
	if err != nil || page == nil {
		return append(c, fmt.Sprintf("paginate_queryset: %v, %v", page, err))
	}
	c.Equal("queryset", got, []int64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10})
	var content struct{ Next string }
	if err := json.Unmarshal([]byte(drfContent(page, got)), &content); err != nil {
		return append(c, err.Error())
	}
	c.Equal("next", content.Next, "http://testserver/?limit=10&offset=10")
	return c
}

// drfPaginationMethods are every test of tests/test_pagination.py, as
// internal/drfsuite/drf_suite.py names them.
var drfPaginationMethods = func() []string {
	methods := []string{
		"TestPaginationIntegration.test_filtered_items_are_paginated",
		"TestPaginationIntegration.test_setting_page_size",
		"TestPaginationIntegration.test_setting_page_size_over_maximum",
		"TestPaginationIntegration.test_setting_page_size_to_zero",
		"TestPaginationIntegration.test_additional_query_params_are_preserved",
		"TestPaginationIntegration.test_empty_query_params_are_preserved",
		"TestPaginationIntegration.test_404_not_found_for_zero_page",
		"TestPaginationIntegration.test_404_not_found_for_invalid_page",
		"TestPaginationDisabledIntegration.test_unpaginated_list",
		"TestPageNumberPagination.test_no_page_number[/]",
		"TestPageNumberPagination.test_no_page_number[/?page=]",
		"TestPageNumberPagination.test_second_page",
		"TestPageNumberPagination.test_last_page",
		"TestPageNumberPagination.test_invalid_page",
		"TestPageNumberPagination.test_get_paginated_response_schema",
		"TestPageNumberPaginationOverride.test_no_page_number",
		"TestPageNumberPaginationOverride.test_invalid_page",
		"TestLimitOffset.test_no_offset",
		"TestLimitOffset.test_pagination_not_applied_if_limit_or_default_limit_not_set",
		"TestLimitOffset.test_single_offset",
		"TestLimitOffset.test_first_offset",
		"TestLimitOffset.test_middle_offset",
		"TestLimitOffset.test_ending_offset",
		"TestLimitOffset.test_erroneous_offset",
		"TestLimitOffset.test_invalid_offset",
		"TestLimitOffset.test_invalid_limit",
		"TestLimitOffset.test_zero_limit",
		"TestLimitOffset.test_max_limit",
		"TestLimitOffset.test_get_paginated_response_schema",
		"test_get_displayed_page_numbers",
	}
	for _, class := range []string{"TestCursorPagination", "TestCursorPaginationWithValueQueryset"} {
		for _, m := range []string{
			"test_invalid_cursor",
			"test_use_with_ordering_filter",
			"test_use_with_ordering_filter_without_ordering_default_value",
			"test_cursor_pagination",
			"test_cursor_pagination_current_page_empty_forward",
			"test_cursor_pagination_current_page_empty_reverse",
			"test_cursor_pagination_with_page_size",
			"test_cursor_pagination_with_page_size_over_limit",
			"test_cursor_pagination_with_page_size_zero",
			"test_cursor_pagination_with_page_size_negative",
			"test_get_paginated_response_schema",
		} {
			methods = append(methods, class+"."+m)
		}
	}
	return methods
}()

// drfOwnOrdering is why the cursor's own ordering under an ordering
// filter that chooses none is DRF 3.18's alone.
const drfOwnOrdering = "DRF 3.15 (#8954): under an ordering filter that chooses no ordering, the cursor pages in its own; " +
	"DRF 3.14 fails the request (AssertionError, a 500)"

func TestDRFPagination(t *testing.T) {
	drfsuite.Suite{
		File:    "tests/test_pagination.py",
		Methods: drfPaginationMethods,
		Items:   drfPaginationItems(),
		Own314: []string{
			"TestPageNumberPagination.test_no_page_number[/?page=]",
			"TestPageNumberPagination.test_get_paginated_response_schema",
			"TestLimitOffset.test_get_paginated_response_schema",
			"TestCursorPagination.test_get_paginated_response_schema",
			"TestCursorPaginationWithValueQueryset.test_get_paginated_response_schema",
		},
		Only318: map[string]string{
			"TestCursorPagination.test_use_with_ordering_filter_without_ordering_default_value":                  drfOwnOrdering,
			"TestCursorPaginationWithValueQueryset.test_use_with_ordering_filter_without_ordering_default_value": drfOwnOrdering,
		},
	}.Run(t)
}
