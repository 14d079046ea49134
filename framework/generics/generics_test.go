package generics_test

import (
	"encoding/json"
	"fmt"
	"net/http"
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
	qt "github.com/go-drf/drf/internal/querysettest"
)

// ownerOnly lets only a book's owner change it.
type ownerOnly struct{}

func (ownerOnly) HasPermission(*request.Request, *framework.View) (bool, error) { return true, nil }

func (ownerOnly) HasObjectPermission(r *request.Request, _ *framework.View, obj any) (bool, error) {
	return framework.IsSafeMethod(r.Method) || obj.(*qt.Book).Owner == r.User().GetUsername(), nil
}

var bookSerializer = serializers.MustNew[qt.Book]()

type server struct {
	c   *apitest.Client
	api *framework.API
	f   *qt.Fixture
	s   framework.Settings
}

func newServer(t *testing.T, books int) *server {
	t.Helper()
	f := qt.Open(t, books)
	srv := &server{f: f}
	srv.s = framework.Settings{Authentication: framework.Authenticators(f.UserHeader()), PageSize: 10}
	srv.c = apitest.New(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { srv.api.ServeHTTP(w, r) }))
	return srv
}

// handle mounts v on the API of the settings s.s, made on first use.
func (s *server) handle(pattern string, v framework.View, opts ...framework.RouteOption) {
	if s.api == nil {
		s.api = framework.NewAPI(nil, s.s)
	}
	s.api.Handle(pattern, v, opts...)
}

// view returns a GenericAPIView of the fixture's books.
func (s *server) view() generics.GenericAPIView[qt.Book] {
	return generics.GenericAPIView[qt.Book]{Source: s.f.Books, Serializer: bookSerializer}
}

// do sends a request as user (the X-User header), "" for anonymous.
func (s *server) do(t *testing.T, method, path, user, body string) (int, http.Header, string) {
	t.Helper()
	var header []string
	if user != "" {
		header = append(header, "X-User: "+user)
	}
	r := s.c.Do(method, path, body, header...)
	return r.Status, r.Header, r.Body
}

// ids decodes a list body (bare or paginated) into the items' ids.
func ids(t *testing.T, body string) []int {
	t.Helper()
	var page struct{ Results []struct{ ID int } }
	var items []struct{ ID int }
	if err := json.Unmarshal([]byte(body), &items); err != nil {
		if err := json.Unmarshal([]byte(body), &page); err != nil {
			t.Fatalf("%v: %s", err, body)
		}
		items = page.Results
	}
	out := []int{}
	for _, it := range items {
		out = append(out, it.ID)
	}
	return out
}

func TestConcreteViewsAllow(t *testing.T) {
	s := newServer(t, 3)
	for _, c := range []struct {
		make  func(generics.GenericAPIView[qt.Book]) framework.View
		allow string
	}{
		{generics.ListAPIView[qt.Book], "GET, HEAD, OPTIONS"},
		{generics.CreateAPIView[qt.Book], "POST, OPTIONS"},
		{generics.RetrieveAPIView[qt.Book], "GET, HEAD, OPTIONS"},
		{generics.UpdateAPIView[qt.Book], "PUT, PATCH, OPTIONS"},
		{generics.DestroyAPIView[qt.Book], "DELETE, OPTIONS"},
		{generics.ListCreateAPIView[qt.Book], "GET, POST, HEAD, OPTIONS"},
		{generics.RetrieveUpdateAPIView[qt.Book], "GET, PUT, PATCH, HEAD, OPTIONS"},
		{generics.RetrieveDestroyAPIView[qt.Book], "GET, DELETE, HEAD, OPTIONS"},
		{generics.RetrieveUpdateDestroyAPIView[qt.Book], "GET, PUT, PATCH, DELETE, HEAD, OPTIONS"},
	} {
		v := c.make(s.view())
		if got := strings.Join(v.AllowedMethods(), ", "); got != c.allow {
			t.Errorf("allow = %q, want %q", got, c.allow)
		}
	}
	s.handle("/create/", generics.CreateAPIView(s.view()))
	if code, h, body := s.do(t, "GET", "/create/", "", ""); code != 405 || h.Get("Allow") != "POST, OPTIONS" || body != `{"detail":"Method \"GET\" not allowed."}` {
		t.Errorf("GET on a create view = %d %v %s", code, h, body)
	}
	for name, make := range map[string]func(){
		"no source":     func() { generics.ListAPIView(generics.GenericAPIView[qt.Book]{Serializer: bookSerializer}) },
		"no serializer": func() { generics.RetrieveAPIView(generics.GenericAPIView[qt.Book]{Source: s.f.Books}) },
		"cannot write": func() {
			generics.CreateAPIView(generics.GenericAPIView[qt.Book]{Source: queryset.MustSlice([]qt.Book{}), Serializer: bookSerializer})
		},
		"read-only SQL": func() {
			readOnly := queryset.MustSQL[qt.Book](s.f.DB, queryset.SQLConfig{Table: "books", Query: qt.BooksQuery})
			generics.UpdateAPIView(generics.GenericAPIView[qt.Book]{Source: readOnly, Serializer: bookSerializer})
		},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no setup panic", name)
				}
			}()
			make()
		}()
	}
	generics.DestroyAPIView(generics.GenericAPIView[qt.Book]{Source: queryset.MustSlice([]qt.Book{}),
		PerformDestroy: func(*request.Request, *qt.Book) error { return nil }})
}

func TestListPaginatesOnlyWithAPaginator(t *testing.T) {
	s := newServer(t, 12)
	s.s.Pagination = &pagination.PageNumberPagination{}
	s.handle("/paged/", generics.ListAPIView(s.view()))
	off := s.view()
	off.Pagination = framework.NoPagination
	s.handle("/off/", generics.ListAPIView(off))
	plain := framework.View{Get: func(v *framework.View, r *request.Request) (*framework.Response, error) {
		var rows queryset.Rows[qt.Book]
		page, err := v.Paginator().Paginate(r, queryset.Into(s.f.Books.OrderBy(query.ParseOrder("-id")), &rows))
		if err != nil {
			return nil, err
		}
		data, err := bookSerializer.Many(rows.Items, &serializers.Context{Request: r})
		if err != nil {
			return nil, err
		}
		return page.Response(data), nil
	}}
	s.handle("/plain/", plain)

	code, _, body := s.do(t, "GET", "/paged/?page=2", "", "")
	if code != 200 || !strings.HasPrefix(body, `{"count":12,"next":null,"previous":"http://testserver/paged/","results":[{"id":11,`) {
		t.Errorf("paged = %d %s", code, body)
	}
	if code, _, body := s.do(t, "GET", "/paged/?page=3", "", ""); code != 404 || body != `{"detail":"Invalid page."}` {
		t.Errorf("page 3 = %d %s", code, body)
	}
	code, _, body = s.do(t, "GET", "/off/", "", "")
	if got := ids(t, body); code != 200 || !strings.HasPrefix(body, `[{"id":1,"title":"Book 001"`) || len(got) != 12 {
		t.Errorf("unpaginated = %d %s", code, body)
	}
	code, _, body = s.do(t, "GET", "/plain/", "", "")
	if got := ids(t, body); code != 200 || fmt.Sprint(got) != "[12 11 10 9 8 7 6 5 4 3]" || !strings.Contains(body, `"next":"http://testserver/plain/?page=2"`) {
		t.Errorf("plain view = %d %s", code, body)
	}
}

func TestFiltersAndInjection(t *testing.T) {
	s := newServer(t, 20)
	v := s.view()
	v.FilterBackends = framework.FilterBackends(
		filters.OrderingFilter{Fields: []string{"title", "created", "id"}, Default: []string{"-created"}},
		filters.SearchFilter{Fields: []string{"title", "author"}},
	)
	s.handle("/books/", generics.ListAPIView(v))
	byRating := s.view()
	byRating.FilterBackends = framework.FilterBackends(filters.OrderingFilter{Param: "o"})
	s.handle("/any/", generics.ListAPIView(byRating))
	for _, c := range []struct {
		query, want string
	}{
		{"", "[20 19 18 17 16 15 14 13 12 11 10 9 8 7 6 5 4 3 2 1]"},
		{"?ordering=id", "[1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20]"},
		{"?ordering=rating,-id", "[20 19 18 17 16 15 14 13 12 11 10 9 8 7 6 5 4 3 2 1]"},
		{"?ordering=nope&ordering=title", "[1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20]"},
		{"?ordering=" + url.QueryEscape(`id;DROP TABLE books`), "[20 19 18 17 16 15 14 13 12 11 10 9 8 7 6 5 4 3 2 1]"},
		{"?ordering=" + url.QueryEscape(`"id" DESC, (SELECT 1)`), "[20 19 18 17 16 15 14 13 12 11 10 9 8 7 6 5 4 3 2 1]"},
		{"?ordering=" + url.QueryEscape(` -id , ,--id`), "[20 19 18 17 16 15 14 13 12 11 10 9 8 7 6 5 4 3 2 1]"},
		{"?search=01&ordering=id", "[1 10 11 12 13 14 15 16 17 18 19]"},
		{"?search=" + url.QueryEscape("author 3,book"), "[17 13 10 3]"},
		{"?search=" + url.QueryEscape(`' OR '1'='1`), "[]"},
		{"?search=" + url.QueryEscape(`%`), "[]"},
		{"?search=" + url.QueryEscape("\x00 \t"), "[20 19 18 17 16 15 14 13 12 11 10 9 8 7 6 5 4 3 2 1]"},
	} {
		code, _, body := s.do(t, "GET", "/books/"+c.query, "", "")
		if got := fmt.Sprint(ids(t, body)); code != 200 || got != c.want {
			t.Errorf("%s = %d %s, want %s", c.query, code, got, c.want)
		}
	}
	if _, _, body := s.do(t, "GET", "/any/?o=-rating,-id", "", ""); fmt.Sprint(ids(t, body)[:3]) != "[17 12 7]" {
		t.Errorf("ordering by any field of the source = %v", ids(t, body))
	}
	var n int
	if err := s.f.DB.Get(&n, `SELECT COUNT(*) FROM "books"`); err != nil || n != 20 {
		t.Errorf("books left = %d, %v", n, err)
	}
}

// TestOrderingFilterDrivesTheCursor: with an ordering filter on the view,
// the cursor paginator pages in the filter's ordering, as DRF's does.
func TestOrderingFilterDrivesTheCursor(t *testing.T) {
	s := newServer(t, 20)
	cursor := &pagination.CursorPagination{PageSize: 3, Ordering: []string{"-created"}}
	orderable := s.view()
	orderable.Pagination = cursor
	orderable.FilterBackends = framework.FilterBackends(filters.OrderingFilter{Fields: []string{"title", "created", "id"}, Default: []string{"-created"}})
	s.handle("/orderable/", generics.ListAPIView(orderable))
	fixed := s.view()
	fixed.Pagination = cursor
	s.handle("/fixed/", generics.ListAPIView(fixed))
	for path, want := range map[string]string{
		"/orderable/?ordering=title": "[1 2 3]",
		"/orderable/?ordering=bad":   "[20 19 18]",
		"/orderable/":                "[20 19 18]",
		"/fixed/?ordering=title":     "[20 19 18]",
	} {
		if _, _, body := s.do(t, "GET", path, "", ""); fmt.Sprint(ids(t, body)) != want {
			t.Errorf("%s = %s, want %s", path, body, want)
		}
	}
}

// countingOrderer is an OrderingFilter that counts the times it is asked
// for an ordering.
type countingOrderer struct {
	filters.OrderingFilter
	asked *int
}

func (o countingOrderer) Ordering(r *request.Request, src query.Query) []query.Order {
	*o.asked++
	return o.OrderingFilter.Ordering(r, src)
}

// Filter orders src by the ordering it is asked for, as OrderingFilter's.
func (o countingOrderer) Filter(r *request.Request, src query.Query) (query.Query, error) {
	if ordering := o.Ordering(r, src); len(ordering) > 0 {
		return src.OrderBy(ordering...), nil
	}
	return src, nil
}

// TestOrderingAskedOnce: a list asks its ordering filter for the ordering
// once per request, and the cursor still pages in it after the backends
// that follow.
func TestOrderingAskedOnce(t *testing.T) {
	s := newServer(t, 20)
	asked := 0
	v := s.view()
	v.Pagination = &pagination.CursorPagination{PageSize: 3, Ordering: []string{"-created"}}
	v.FilterBackends = framework.FilterBackends(
		countingOrderer{filters.OrderingFilter{Fields: []string{"title", "created", "id"}}, &asked},
		filters.SearchFilter{Fields: []string{"title"}})
	s.handle("/orderable/", generics.ListAPIView(v))
	for path, want := range map[string]string{
		"/orderable/?ordering=title&search=Book": "[1 2 3]",
		"/orderable/?ordering=-id&search=Book":   "[20 19 18]",
		"/orderable/?search=Book":                "[20 19 18]",
	} {
		asked = 0
		if _, _, body := s.do(t, "GET", path, "", ""); fmt.Sprint(ids(t, body)) != want {
			t.Errorf("%s = %s, want %s", path, body, want)
		}
		if asked != 1 {
			t.Errorf("%s asked the ordering %d times, want 1", path, asked)
		}
	}
}

func TestObjectPermissionsAndHooks(t *testing.T) {
	s := newServer(t, 4)
	var log []string
	v := s.view()
	v.Permissions = framework.Permissions(framework.IsAuthenticatedOrReadOnly{}, ownerOnly{})
	v.PerformUpdate = func(r *request.Request, b *qt.Book) error {
		log = append(log, "update "+b.Title)
		b.Title += "!"
		return v.UpdateObject(r, b)
	}
	v.PerformDestroy = func(r *request.Request, b *qt.Book) error {
		log = append(log, fmt.Sprint("destroy ", b.ID))
		return v.DeleteObject(r, b)
	}
	s.handle("/books/{pk}/", generics.RetrieveUpdateDestroyAPIView(v))
	for _, c := range []struct {
		method, path, user, body string
		status                   int
		want                     string
	}{
		{"GET", "/books/2/", "", "", 200, `{"id":2,"title":"Book 002","author":"Author 2","rating":5,"created":"2024-01-01T02:00:00Z","owner":"alice"}`},
		{"OPTIONS", "/books/1/", "alice", "", 200, `{"name":"","description":"","renders":["application/json"],"parses":["application/json","application/x-www-form-urlencoded","multipart/form-data"]}`},
		{"OPTIONS", "/books/4/", "alice", "", 200, `{"name":"","description":"","renders":["application/json"],"parses":["application/json","application/x-www-form-urlencoded","multipart/form-data"],"actions":{"PUT":{"id":{"type":"integer",...`},
		{"PATCH", "/books/1/", "alice", `{"title":"mine"}`, 403, `{"detail":"You do not have permission to perform this action."}`},
		{"DELETE", "/books/1/", "alice", "", 403, `{"detail":"You do not have permission to perform this action."}`},
		{"PATCH", "/books/9/", "alice", `{"title":"x"}`, 404, `{"detail":"No Book matches the given query."}`},
		{"PATCH", "/books/2/", "alice", `{"title":"mine"}`, 200, `{"id":2,"title":"mine!","author":"Author 2","rating":5,"created":"2024-01-01T02:00:00Z","owner":"alice"}`},
		{"DELETE", "/books/2/", "alice", "", 204, ``},
		{"GET", "/books/2/", "", "", 404, `{"detail":"No Book matches the given query."}`},
	} {
		code, _, body := s.do(t, c.method, c.path, c.user, c.body)
		ok := body == c.want
		if prefix, cut := strings.CutSuffix(c.want, "..."); cut {
			ok = strings.HasPrefix(body, prefix)
		}
		if code != c.status || !ok {
			t.Errorf("%s %s = %d %s\nwant %d %s", c.method, c.path, code, body, c.status, c.want)
		}
	}
	if fmt.Sprint(log) != "[update mine destroy 2]" {
		t.Errorf("hooks ran %v", log)
	}
}

// TestHyperlinkedCreateAndLookup: a serializer with a url field gives the
// created item's URL as Location; lookups may use another field and URL
// parameter; SourceFor and SerializerFor pick per request.
func TestHyperlinkedCreateAndLookup(t *testing.T) {
	s := newServer(t, 4)
	linked := serializers.MustNew[qt.Book](serializers.Fields("id", "title", "url"),
		serializers.HyperlinkedIdentity{Name: "url", Route: "book-by-title", LookupField: "title", URLParam: "title"})
	short := serializers.MustNew[qt.Book](serializers.Fields("id"))
	v := s.view()
	v.Serializer = linked
	v.PerformCreate = func(r *request.Request, b *qt.Book) error {
		b.OwnerID = qt.UserID(r)
		return v.InsertObject(r, b)
	}
	s.handle("/books/", generics.ListCreateAPIView(v), framework.Named("books"))
	byTitle := s.view()
	byTitle.LookupField, byTitle.LookupURLKwarg = "title", "title"
	byTitle.SerializerFor = func(_ *framework.View, r *request.Request) *serializers.Serializer[qt.Book] {
		if r.URL.Query().Get("short") != "" {
			return short
		}
		return linked
	}
	s.handle("/by-title/{title}/", generics.RetrieveAPIView(byTitle), framework.Named("book-by-title"))
	mine := s.view()
	mine.SourceFor = func(r *request.Request) (queryset.Source[qt.Book], error) {
		if !r.User().IsAuthenticated() {
			return nil, exceptions.NotAuthenticated()
		}
		return s.f.Books.Filter("owner", r.User().GetUsername()), nil
	}
	mine.Source = nil
	s.handle("/mine/", generics.ListAPIView(mine))

	code, h, body := s.do(t, "POST", "/books/", "bob", `{"title":"A & B","author":"x","rating":1}`)
	if code != 201 || body != `{"id":5,"title":"A & B","url":"http://testserver/by-title/A%20&%20B/"}` ||
		h.Get("Location") != "http://testserver/by-title/A%20&%20B/" {
		t.Errorf("create = %d %q %s", code, h.Get("Location"), body)
	}
	if code, _, body := s.do(t, "GET", "/by-title/A%20&%20B/", "", ""); code != 200 || !strings.HasPrefix(body, `{"id":5,`) {
		t.Errorf("lookup by title = %d %s", code, body)
	}
	if code, _, body := s.do(t, "GET", "/by-title/Book%20003/?short=1", "", ""); code != 200 || body != `{"id":3}` {
		t.Errorf("serializer per request = %d %s", code, body)
	}
	if _, _, body := s.do(t, "GET", "/mine/", "alice", ""); fmt.Sprint(ids(t, body)) != "[2 4]" {
		t.Errorf("alice's = %s", body)
	}
	if code, _, _ := s.do(t, "GET", "/mine/", "", ""); code != 403 {
		t.Errorf("anonymous mine = %d", code)
	}
}

type computed struct {
	Rank  int    `db:"rank" json:"rank"`
	Label string `db:"label" json:"label"`
}

// TestSliceSourceAndSQLSourceAgree: the same list view over the table and
// over a slice of its rows answers the same JSON.
func TestSliceSourceAndSQLSourceAgree(t *testing.T) {
	s := newServer(t, 30)
	s.s.Pagination = &pagination.PageNumberPagination{PageSize: 7}
	backends := framework.FilterBackends(
		filters.OrderingFilter{Fields: []string{"rating", "title", "created", "id"}, Default: []string{"-rating", "id"}},
		filters.SearchFilter{Fields: []string{"title", "author", "owner"}},
	)
	fromSQL := s.view()
	fromSQL.FilterBackends = backends
	s.handle("/sql/", generics.ListAPIView(fromSQL))
	fromSlice := s.view()
	fromSlice.FilterBackends = backends
	fromSlice.Source = queryset.MustSlice(s.f.All(t))
	s.handle("/slice/", generics.ListAPIView(fromSlice))
	for _, q := range []string{"", "?page=2", "?page=5", "?ordering=title", "?ordering=-created&search=alice",
		"?search=author+2", "?search=2&ordering=rating,-id&page=2", "?ordering=-rating,title"} {
		c1, _, b1 := s.do(t, "GET", "/sql/"+q, "", "")
		c2, _, b2 := s.do(t, "GET", "/slice/"+q, "", "")
		if c1 != c2 || strings.ReplaceAll(b1, "/sql/", "/x/") != strings.ReplaceAll(b2, "/slice/", "/x/") {
			t.Errorf("%s:\nsql   %d %s\nslice %d %s", q, c1, b1, c2, b2)
		}
	}
	ranks := generics.ListAPIView(generics.GenericAPIView[computed]{
		Source:     queryset.MustSlice([]computed{{3, "c"}, {1, "a"}, {2, "b"}}, query.ParseOrder("rank")),
		Serializer: serializers.MustNew[computed](),
	})
	s.handle("/ranks/", ranks)
	if _, _, body := s.do(t, "GET", "/ranks/", "", ""); body != `{"count":3,"next":null,"previous":null,"results":[{"rank":1,"label":"a"},{"rank":2,"label":"b"},{"rank":3,"label":"c"}]}` {
		t.Errorf("computed list = %s", body)
	}
}
