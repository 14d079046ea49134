package routers_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/generics"
	"github.com/go-drf/drf/framework/pagination"
	"github.com/go-drf/drf/framework/queryset"
	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/framework/routers"
	"github.com/go-drf/drf/framework/serializers"
	qt "github.com/go-drf/drf/internal/querysettest"
)

// bookViewSet is the sample's: anyone reads, users write, the creator owns.
func bookViewSet(f *qt.Fixture) *generics.ModelViewSet[qt.Book] {
	vs := &generics.ModelViewSet[qt.Book]{}
	vs.Permissions = framework.Permissions(framework.IsAuthenticatedOrReadOnly{})
	vs.Source = f.Books
	vs.Serializer = serializers.MustNew[qt.Book]()
	vs.PerformCreate = func(r *request.Request, b *qt.Book) error {
		b.OwnerID = qt.UserID(r)
		b.Created = time.Now()
		return vs.InsertObject(r, b)
	}
	return vs
}

// api returns an API with the tests' settings.
func api(f *qt.Fixture) *framework.API {
	return framework.NewAPI(f.DB, framework.Settings{
		Authentication: framework.Authenticators(f.UserHeader()),
		Pagination:     &pagination.PageNumberPagination{},
		PageSize:       10,
	})
}

type answer struct {
	status int
	header http.Header
	body   string
}

// call sends a request as user (the X-User header), "" for anonymous.
func call(c *apitest.Client, method, path, user, body string) answer {
	var header []string
	if user != "" {
		header = append(header, "X-User: "+user)
	}
	r := c.Do(method, path, body, header...)
	return answer{r.Status, r.Header, r.Body}
}

// bookFields is the reference's OPTIONS description of BookSerializer.
const bookFields = `{"id":{"type":"integer","required":false,"read_only":true,"label":"ID"},` +
	`"title":{"type":"string","required":true,"read_only":false,"label":"Title","max_length":200},` +
	`"author":{"type":"string","required":true,"read_only":false,"label":"Author","max_length":200},` +
	`"rating":{"type":"integer","required":true,"read_only":false,"label":"Rating","min_value":1,"max_value":5},` +
	`"created":{"type":"datetime","required":false,"read_only":true,"label":"Created"},` +
	`"owner":{"type":"field","required":false,"read_only":true,"label":"Owner"}}`

// TestModelViewSetAsTheReference: the DRF reference's answers to the same
// requests on its /books/ viewset.
func TestModelViewSetAsTheReference(t *testing.T) {
	f := qt.Open(t, 100)
	var router routers.DefaultRouter
	router.Register("books", bookViewSet(f), "")
	api := api(f)
	router.Mount(api)
	srv := apitest.New(t, api)

	const listAllow, detailAllow = "GET, POST, HEAD, OPTIONS", "GET, PUT, PATCH, DELETE, HEAD, OPTIONS"
	// A lookup value that cannot be an id is "Not found."; no such book
	// names the model (DRF 3.15, #8051).
	notFound, noBook := `{"detail":"Not found."}`, `{"detail":"No Book matches the given query."}`
	for _, c := range []struct {
		method, path, user, body string
		status                   int
		allow                    string
		want                     string // exact body, or a prefix ending in "..."
	}{
		{"GET", "/books/", "", "", 200, listAllow, `{"count":100,"next":"http://testserver/books/?page=2","previous":null,"results":[{"id":1,"title":"Book 001","author":"Author 1","rating":3,"created":"2024-01-01T01:00:00Z","owner":"admin"},{"id":2,...`},
		{"GET", "/books/?page=10", "", "", 200, listAllow, `{"count":100,"next":null,"previous":"http://testserver/books/?page=9","results":[{"id":91,...`},
		{"GET", "/books/3/", "", "", 200, detailAllow, `{"id":3,"title":"Book 003","author":"Author 3","rating":2,"created":"2024-01-01T03:00:00Z","owner":"admin"}`},
		{"GET", "/books/abc/", "", "", 404, detailAllow, notFound},
		{"GET", "/books/999/", "", "", 404, detailAllow, noBook},
		{"GET", "/books/1%20OR%201=1/", "", "", 404, detailAllow, notFound},
		{"POST", "/books/", "", `{"title":"t","author":"a","rating":3}`, 403, listAllow, `{"detail":"Authentication credentials were not provided."}`},
		{"DELETE", "/books/7/", "", "", 403, detailAllow, `{"detail":"Authentication credentials were not provided."}`},
		{"POST", "/books/", "alice", `{}`, 400, listAllow, `{"title":["This field is required."],"author":["This field is required."],"rating":["This field is required."]}`},
		{"POST", "/books/", "alice", `[]`, 400, listAllow, `{"non_field_errors":["Invalid data. Expected a dictionary, but got list."]}`},
		{"POST", "/books/", "alice", `null`, 400, listAllow, `{"non_field_errors":["No data provided"]}`},
		{"POST", "/books/", "alice", "", 400, listAllow, `{"title":["This field is required."],"author":["This field is required."],"rating":["This field is required."]}`},
		{"POST", "/books/", "alice", `{"title":"t","author":"a","rating":"3","created":"2020-01-01T00:00:00Z","owner":"bob","id":777}`, 201, listAllow, `{"id":101,"title":"t","author":"a","rating":3,"created":"20...`},
		{"PUT", "/books/3/", "alice", `{"title":"new"}`, 400, detailAllow, `{"author":["This field is required."],"rating":["This field is required."]}`},
		{"PUT", "/books/3/", "alice", `{"title":"new","author":"x","rating":2}`, 200, detailAllow, `{"id":3,"title":"new","author":"x","rating":2,"created":"2024-01-01T03:00:00Z","owner":"admin"}`},
		{"PATCH", "/books/5/", "alice", `{"rating":9}`, 400, detailAllow, `{"rating":["Ensure this value is less than or equal to 5."]}`},
		{"PATCH", "/books/5/", "alice", `{"rating":1, "title":"patched"}`, 200, detailAllow, `{"id":5,"title":"patched","author":"Author 5","rating":1,"created":"2024-01-01T05:00:00Z","owner":"admin"}`},
		{"PATCH", "/books/5/", "alice", `[]`, 400, detailAllow, `{"non_field_errors":["Invalid data. Expected a dictionary, but got list."]}`},
		{"PATCH", "/books/5/", "alice", "", 200, detailAllow, `{"id":5,"title":"patched","author":"Author 5","rating":1,"created":"2024-01-01T05:00:00Z","owner":"admin"}`},
		{"PATCH", "/books/999/", "alice", `{"rating":9}`, 404, detailAllow, noBook},
		{"DELETE", "/books/6/", "alice", "", 204, detailAllow, ``},
		{"DELETE", "/books/6/", "alice", "", 404, detailAllow, noBook},
		{"POST", "/books/7/", "alice", "", 405, detailAllow, `{"detail":"Method \"POST\" not allowed."}`},
		{"DELETE", "/books/", "alice", "", 405, listAllow, `{"detail":"Method \"DELETE\" not allowed."}`},
		{"OPTIONS", "/books/", "", "", 200, listAllow, `{"name":"Book List","description":"","renders":["application/json"],"parses":["application/json","application/x-www-form-urlencoded","multipart/form-data"]}`},
		{"OPTIONS", "/books/1/", "", "", 200, detailAllow, `{"name":"Book Instance","description":"","renders":["application/json"],"parses":["application/json","application/x-www-form-urlencoded","multipart/form-data"]}`},
		{"OPTIONS", "/books/", "alice", "", 200, listAllow, `{"name":"Book List","description":"","renders":["application/json"],"parses":["application/json","application/x-www-form-urlencoded","multipart/form-data"],"actions":{"POST":` + bookFields + `}}`},
		{"OPTIONS", "/books/1/", "alice", "", 200, detailAllow, `{"name":"Book Instance","description":"","renders":["application/json"],"parses":["application/json","application/x-www-form-urlencoded","multipart/form-data"],"actions":{"PUT":` + bookFields + `}}`},
		{"OPTIONS", "/books/999/", "alice", "", 200, detailAllow, `{"name":"Book Instance","description":"","renders":["application/json"],"parses":["application/json","application/x-www-form-urlencoded","multipart/form-data"]}`},
		{"GET", "/", "", "", 200, "GET, HEAD, OPTIONS", `{"books":"http://testserver/books/"}`},
	} {
		got := call(srv, c.method, c.path, c.user, c.body)
		ok := got.body == c.want
		if prefix, cut := strings.CutSuffix(c.want, "..."); cut {
			ok = strings.HasPrefix(got.body, prefix)
		}
		if got.status != c.status || got.header.Get("Allow") != c.allow || !ok {
			t.Errorf("%s %s %s\n got %d %q %s\nwant %d %q %s", c.method, c.path, c.body, got.status, got.header.Get("Allow"), got.body, c.status, c.allow, c.want)
		}
		if c.status == 201 && got.header.Get("Location") != "" {
			t.Errorf("DRF sends no Location when the data has no url: %q", got.header.Get("Location"))
		}
	}
	// The created book belongs to alice, was created now, and is stored.
	created := call(srv, "GET", "/books/101/", "", "")
	var b map[string]any
	if err := json.Unmarshal([]byte(created.body), &b); err != nil || b["owner"] != "alice" {
		t.Fatalf("created book = %s", created.body)
	}
	if when, err := time.Parse(time.RFC3339Nano, b["created"].(string)); err != nil || time.Since(when) > time.Minute {
		t.Errorf("created = %v, %v", b["created"], err)
	}
	var titles []string
	if err := f.DB.Select(&titles, `SELECT "title" FROM "books" WHERE "id" IN (3, 5, 6) ORDER BY "id"`); err != nil || !slices.Equal(titles, []string{"new", "patched"}) {
		t.Errorf("stored titles = %v, %v", titles, err)
	}
	if names := api.Routes().Names(); !slices.Equal(names, []string{"api-root", "book-detail", "book-list"}) {
		t.Errorf("route names = %v", names)
	}
}

// shelf is a read-only viewset with extra actions.
type shelf struct {
	generics.ReadOnlyModelViewSet[qt.Book]
}

// Top answers the best-rated books (a list route action).
func (s *shelf) Top(v *framework.View, r *request.Request) (*framework.Response, error) {
	return framework.OK(map[string]string{"action": "top"}), nil
}

// SetRating answers on one book (a detail route action).
func (s *shelf) SetRating(v *framework.View, r *request.Request) (*framework.Response, error) {
	obj, err := s.GetObject(v, r)
	if err != nil {
		return nil, err
	}
	return framework.OK(map[string]any{"id": obj.ID, "method": r.Method}), nil
}

func TestExtraActionsAndNamespaces(t *testing.T) {
	f := qt.Open(t, 5)
	sh := &shelf{}
	sh.Source, sh.Serializer = f.Books, serializers.MustNew[qt.Book]()
	var router routers.DefaultRouter
	router.Register("/shelf/", sh, "shelf",
		routers.Action{Name: "Top", Handler: sh.Top},
		routers.Action{Name: "SetRating", Handler: sh.SetRating, Detail: true, HTTPMethods: []string{"post", "PUT"}})
	api := api(f)
	api.Route("/api", "api", router.Mount)
	srv := apitest.New(t, api)

	for _, c := range []struct {
		method, path string
		status       int
		allow, want  string
	}{
		{"GET", "/api/", 200, "GET, HEAD, OPTIONS", `{"shelf":"http://testserver/api/shelf/"}`},
		{"GET", "/api/shelf/top/", 200, "GET, HEAD, OPTIONS", `{"action":"top"}`},
		{"OPTIONS", "/api/shelf/top/", 200, "GET, HEAD, OPTIONS", `{"name":"Top","description":"","renders":["application/json"],"parses":["application/json","application/x-www-form-urlencoded","multipart/form-data"]}`},
		{"POST", "/api/shelf/2/set_rating/", 200, "POST, PUT, OPTIONS", `{"id":2,"method":"POST"}`},
		{"PUT", "/api/shelf/9/set_rating/", 404, "POST, PUT, OPTIONS", `{"detail":"No Book matches the given query."}`},
		{"GET", "/api/shelf/2/set_rating/", 405, "POST, PUT, OPTIONS", `{"detail":"Method \"GET\" not allowed."}`},
		{"POST", "/api/shelf/", 405, "GET, HEAD, OPTIONS", `{"detail":"Method \"POST\" not allowed."}`},
		{"DELETE", "/api/shelf/2/", 405, "GET, HEAD, OPTIONS", `{"detail":"Method \"DELETE\" not allowed."}`},
		{"GET", "/api/shelf/2/", 200, "GET, HEAD, OPTIONS", `{"id":2,"title":"Book 002","author":"Author 2","rating":5,"created":"2024-01-01T02:00:00Z","owner":"alice"}`},
	} {
		got := call(srv, c.method, c.path, "", "")
		if got.status != c.status || got.header.Get("Allow") != c.allow || got.body != c.want {
			t.Errorf("%s %s\n got %d %q %s\nwant %d %q %s", c.method, c.path, got.status, got.header.Get("Allow"), got.body, c.status, c.allow, c.want)
		}
	}
	want := []string{"api:api-root", "api:shelf-detail", "api:shelf-list", "api:shelf-set-rating", "api:shelf-top"}
	if names := api.Routes().Names(); !slices.Equal(names, want) {
		t.Errorf("route names = %v", names)
	}
	if p, err := api.Routes().Path("api:shelf-set-rating", map[string]string{"pk": "4"}); err != nil || p != "/api/shelf/4/set_rating/" {
		t.Errorf("reverse = %q, %v", p, err)
	}
}

type plain struct{ generics.ViewSet }

func (p *plain) List(v *framework.View, r *request.Request) (*framework.Response, error) {
	return framework.OK([]int{1}), nil
}

func TestRegisterErrors(t *testing.T) {
	f := qt.Open(t, 1)
	for name, fn := range map[string]func(){
		"no basename": func() {
			var rt routers.SimpleRouter
			rt.Register("x", &plain{}, "")
		},
		"duplicate basename": func() {
			var rt routers.SimpleRouter
			rt.Register("x", &plain{}, "x")
			rt.Register("y", &plain{}, "x")
		},
		"no actions": func() {
			var rt routers.SimpleRouter
			rt.Register("x", &generics.ViewSet{}, "x")
		},
		"missing extra action": func() {
			var rt routers.SimpleRouter
			rt.Register("x", &plain{}, "x", routers.Action{Name: "Nope"})
		},
		"bad extra method": func() {
			var rt routers.SimpleRouter
			rt.Register("x", &plain{}, "x", routers.Action{Name: "List", Handler: (&plain{}).List, HTTPMethods: []string{"TRACE"}})
		},
		"no serializer": func() {
			var rt routers.SimpleRouter
			vs := &generics.ModelViewSet[qt.Book]{}
			vs.Source = f.Books
			rt.Register("x", vs, "")
		},
		"source cannot write": func() {
			var rt routers.SimpleRouter
			vs := &generics.ModelViewSet[qt.Book]{}
			vs.Source, vs.Serializer = readOnly{f.Books}, serializers.MustNew[qt.Book]()
			rt.Register("x", vs, "")
		},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: Register did not panic", name)
				}
			}()
			fn()
		}()
	}
	var rt routers.SimpleRouter
	rt.Register("plain", &plain{}, "plain")
	api := framework.NewAPI(nil, framework.Settings{})
	rt.Mount(api)
	srv := apitest.New(t, api)
	if got := call(srv, "GET", "/plain/", "", ""); got.status != 200 || got.body != "[1]" {
		t.Errorf("plain viewset = %+v", got)
	}
	if got := call(srv, "GET", "/plain/1/", "", ""); got.status != 404 {
		t.Errorf("a viewset without detail actions has no detail route: %d", got.status)
	}
}

// readOnly hides the source's Writer.
type readOnly struct{ queryset.Source[qt.Book] }

// TestConcurrentRequests: one viewset serves many clients at once.
func TestConcurrentRequests(t *testing.T) {
	f := qt.Open(t, 30)
	var router routers.SimpleRouter
	router.Register("books", bookViewSet(f), "book")
	api := api(f)
	router.Mount(api)
	srv := apitest.New(t, api)
	var wg sync.WaitGroup
	errs := make(chan string, 100)
	for w := range 8 {
		wg.Go(func() {
			for i := range 10 {
				var got answer
				switch i % 4 {
				case 0:
					got = call(srv, "GET", fmt.Sprintf("/books/?page=%d", i%3+1), "", "")
				case 1:
					got = call(srv, "GET", fmt.Sprintf("/books/%d/", w+1), "", "")
				case 2:
					got = call(srv, "POST", "/books/", "alice", fmt.Sprintf(`{"title":"w%d-%d","author":"a","rating":2}`, w, i))
				case 3:
					got = call(srv, "PATCH", fmt.Sprintf("/books/%d/", w+1), "admin", fmt.Sprintf(`{"rating":%d}`, i%5+1))
				}
				if got.status >= 300 {
					errs <- fmt.Sprintf("worker %d request %d: %d %s", w, i, got.status, got.body)
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	var n int
	if err := f.DB.Get(&n, `SELECT COUNT(*) FROM "books"`); err != nil || n != 30+8*2 {
		t.Errorf("books = %d, %v", n, err)
	}
}

// TestRootDescription: OPTIONS on a DefaultRouter's root describes it with
// DRF's APIRootView docstring, as DRF 3.14 and 3.18 both do; a Root of
// one's own keeps its description.
func TestRootDescription(t *testing.T) {
	for _, c := range []struct {
		root framework.View
		want string
	}{
		{framework.View{}, `"description":"The default basic root view for DefaultRouter"`},
		{framework.View{Description: "Ours."}, `"description":"Ours."`},
	} {
		var rt routers.DefaultRouter
		rt.Root = c.root
		rt.Register("plain", &plain{}, "plain")
		api := framework.NewAPI(nil, framework.Settings{})
		rt.Mount(api)
		srv := apitest.New(t, api)
		if got := call(srv, "OPTIONS", "/", "", ""); got.status != 200 || !strings.Contains(got.body, `{"name":"Api Root",`+c.want) {
			t.Errorf("OPTIONS / = %+v, want %s", got, c.want)
		}
	}
}
