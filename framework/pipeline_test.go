package framework_test

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/go-chi/chi/v5"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/authentication"
	"github.com/go-drf/drf/framework/generics"
	"github.com/go-drf/drf/framework/pagination"
	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/framework/serializers"
)

// A method no view declares reaches the view all the same, whatever its
// name or case: the pipeline runs (authentication, permissions,
// throttles) and the view answers DRF's 405 with Allow; an upper-cased
// lower-case method is the method (Django upper-cases request.method).
func TestEveryMethodReachesTheView(t *testing.T) {
	var log []string
	api := framework.NewAPI(nil, framework.Settings{})
	api.Handle("/items/", framework.View{
		Authentication: framework.Authenticators(challengeScheme{headerScheme{challenge: "X-User", log: &log}}),
		Permissions:    framework.Permissions(recordPermission{&log, framework.IsAuthenticated{}}),
		Throttles:      framework.Throttles(recordThrottle{&log}),
		Get: func(v *framework.View, r *request.Request) (*framework.Response, error) {
			log = append(log, "handler")
			return framework.OK(map[string]string{"method": r.Method}), nil
		},
	})
	c := apitest.New(t, api)
	for _, tc := range []struct {
		method string
		header []string
		log    string
		want   answer
	}{
		{"PROPFIND", []string{"X-User: alice"}, "authenticate,permission,throttle", answer{405,
			[]string{"Allow: GET, HEAD, OPTIONS", "Content-Type: application/json"}, `{"detail":"Method \"PROPFIND\" not allowed."}`}},
		{"propfind", []string{"X-User: alice"}, "authenticate,permission,throttle", answer{405,
			[]string{"Allow: GET, HEAD, OPTIONS"}, `{"detail":"Method \"PROPFIND\" not allowed."}`}},
		{"QUERY", []string{"X-User: alice"}, "authenticate,permission,throttle", answer{405, nil, `{"detail":"Method \"QUERY\" not allowed."}`}},
		{"TRACE", []string{"X-User: alice"}, "authenticate,permission,throttle", answer{405, nil, `{"detail":"Method \"TRACE\" not allowed."}`}},
		{"get", []string{"X-User: alice"}, "authenticate,permission,throttle,handler", answer{200, nil, `{"method":"GET"}`}},
		// The policies answer first.
		{"PROPFIND", nil, "authenticate,permission", answer{401,
			[]string{"WWW-Authenticate: X-User", "Allow: GET, HEAD, OPTIONS"}, `{"detail":"Authentication credentials were not provided."}`}},
		{"PROPFIND", []string{"X-User: bad"}, "authenticate", answer{401, []string{"WWW-Authenticate: X-User"}, `{"detail":"No such user"}`}},
	} {
		log = nil
		r := c.Do(tc.method, "/items/", "", tc.header...)
		tc.want.check(t, tc.method+" "+strings.Join(tc.header, ","), r)
		if got := strings.Join(log, ","); got != tc.log {
			t.Errorf("%s %v: ran %s, want %s", tc.method, tc.header, got, tc.log)
		}
	}
}

// Pages mounted with HandleHTTP receive every method too, upper-cased;
// plain chi routes that name their methods keep answering chi's 405 to
// the others, and a path no route matches is Django's 404 page whatever
// the method, or the APPEND_SLASH redirect.
func TestUndeclaredMethodsOutsideViews(t *testing.T) {
	api := framework.NewAPI(nil, framework.Settings{})
	api.HandleHTTP("/page/", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, r.Method)
	}))
	api.Router().Get("/plain/", func(w http.ResponseWriter, r *http.Request) { _, _ = io.WriteString(w, "plain") })
	c := apitest.New(t, api)
	for _, tc := range []struct {
		method, path string
		want         answer
	}{
		{"PROPFIND", "/page/", answer{200, nil, "PROPFIND"}},
		{"mkcol", "/page/", answer{200, nil, "MKCOL"}},
		{"GET", "/plain/", answer{200, nil, "plain"}},
		{"get", "/plain/", answer{200, nil, "plain"}},
		{"PROPFIND", "/plain/", answer{405, nil, ""}},
		{"PROPFIND", "/nope/", answer{404, []string{"Content-Type: text/html; charset=utf-8"}, ""}},
		{"PROPFIND", "/page", answer{301, []string{"Location: /page/"}, ""}},
	} {
		tc.want.check(t, tc.method+" "+tc.path, c.Do(tc.method, tc.path, ""))
	}
}

// A path is routed decoded, as Django routes request.path_info: escaped
// letters and "/" are the characters, and the view's URL parameters are
// decoded. The path of the request itself is left as sent.
func TestEscapedPathsRouteDecoded(t *testing.T) {
	api := framework.NewAPI(nil, framework.Settings{})
	echo := func(v *framework.View, r *request.Request) (*framework.Response, error) {
		return framework.OK(map[string]string{"pk": chi.URLParam(r.Request, "pk"), "raw": r.URL.EscapedPath()}), nil
	}
	api.Handle("/books/{pk}/", framework.View{Get: echo})
	api.Route("/ns/v1", "v1", func(api *framework.API) { api.Handle("/info/", framework.View{Get: self}, framework.Named("info")) })
	c := apitest.New(t, api)
	for path, want := range map[string]string{
		"/books/%31/":      `{"pk":"1","raw":"/books/%31/"}`,
		"/books%2F1/":      `{"pk":"1","raw":"/books%2F1/"}`,
		"/books/1%2F":      `{"pk":"1","raw":"/books/1%2F"}`,
		"/books/%2531/":    `{"pk":"%31","raw":"/books/%2531/"}`,
		"/books/a%20b/":    `{"pk":"a b","raw":"/books/a%20b/"}`,
		"/ns/%76%31/info/": `{"self":"http://testserver/ns/v1/info/","view":"Self"}`, // named from its function, as DRF
	} {
		answer{200, nil, want}.check(t, path, c.Get(path))
	}
	answer{404, []string{"Content-Type: text/html; charset=utf-8"}, ""}.check(t, "/books/a%2Fb/", c.Get("/books/a%2Fb/"))
}

// A path that fills a route's {param} with nothing is not the route's, as
// no Django converter matches an empty segment: it is the not-found page
// whatever the method, before the view, its policies or the route's
// middleware run, and APPEND_SLASH does not redirect to such a path; the
// page set with NotFound answers it. A value of one space is a value,
// and a trailing "*" may be empty.
func TestEmptyParamsMatchNoRoute(t *testing.T) {
	var log []string
	api := framework.NewAPI(nil, framework.Settings{})
	echo := func(v *framework.View, r *request.Request) (*framework.Response, error) {
		return framework.OK(map[string]string{"v": chi.URLParam(r.Request, "v"), "pk": chi.URLParam(r.Request, "pk")}), nil
	}
	logged := framework.WithMiddleware(func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			log = append(log, "middleware "+r.URL.Path)
			next.ServeHTTP(w, r)
		})
	})
	api.Handle("/url/{v}/books/{pk}/", framework.View{
		Permissions: framework.Permissions(recordPermission{&log, framework.AllowAny{}}),
		Get:         echo,
	}, logged)
	api.HandleHTTP("/pages/{name}/", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, "page "+chi.URLParam(r, "name"))
	}), logged)
	api.Route("/ns/{v}", "", func(api *framework.API) { api.Handle("/info/", framework.View{Get: echo}) })
	api.HandleHTTP("/files/*", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, "files "+chi.URLParam(r, "*"))
	}))
	c := apitest.New(t, api)
	notFound := answer{404, []string{"Content-Type: text/html; charset=utf-8", "Location:", "Allow:"}, djangoNotFound}
	for _, path := range []string{
		"/url//books/1/", "/url/v1/books//", "/url//books//", "/url//books/1", "/url/v1/books/", "/url/v1/books/%2F/",
		"/pages//", "/pages/", "/ns//info/", "/ns//info", "/ns/v1//info/",
	} {
		for _, method := range []string{"GET", "HEAD", "PUT", "OPTIONS", "PROPFIND"} {
			notFound.check(t, method+" "+path, c.Do(method, path, ""))
		}
	}
	if len(log) > 0 {
		t.Errorf("ran %v for paths of no route", log)
	}
	for path, want := range map[string]answer{
		"/url/v1/books/1/":   {200, nil, `{"pk":"1","v":"v1"}`},
		"/url/%20/books/1/":  {200, nil, `{"pk":"1","v":" "}`},
		"/url/v1/books/1":    {301, []string{"Location: /url/v1/books/1/"}, ""},
		"/pages/x/":          {200, nil, "page x"},
		"/pages/x":           {301, []string{"Location: /pages/x/"}, ""},
		"/ns/v1/info/":       {200, nil, `{"pk":"","v":"v1"}`},
		"/ns/v1/info":        {301, []string{"Location: /ns/v1/info/"}, ""},
		"/files/":            {200, nil, "files "},
		"/files//a":          {200, nil, "files /a"},
		"/url/v1/books/1//":  notFound,
		"/url/v1//books/1/":  notFound,
		"/url/v1/books/1/x/": notFound,
	} {
		want.check(t, path, c.Get(path))
	}
	api.NotFound(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusGone)
		_, _ = io.WriteString(w, "gone "+r.URL.Path)
	}))
	for _, path := range []string{"/url//books/1/", "/url//books/1", "/ns//info/", "/pages//"} {
		answer{410, nil, "gone " + path}.check(t, "NotFound "+path, c.Get(path))
	}
}

// The APPEND_SLASH redirect writes its Location as Django's
// get_full_path_with_slash does: the decoded path escaped by
// escape_uri_path, the query by iri_to_uri, and a leading "//", which a
// browser would take for another host, as "/%2F".
func TestAppendSlashLocationIsEscaped(t *testing.T) {
	api := framework.NewAPI(nil, framework.Settings{})
	api.Handle("/books/{pk}/", framework.View{Get: self})
	// Django's path("/docs/"), which a path with two leading slashes
	// matches ("/{lang}/docs/" does not: lang would be empty).
	api.Handle("//docs/", framework.View{Get: self})
	c := apitest.New(t, api)
	for path, location := range map[string]string{
		"/books/;x":             "/books/%3Bx/",
		"/books/%3Bx":           "/books/%3Bx/",
		"/books/a=b":            "/books/a%3Db/",
		"/books/%E2%9C%93":      "/books/%E2%9C%93/",
		"/books/%FF":            "/books/%25FF/",
		"/books/%25":            "/books/%25/",
		"/books/a%3Fb":          "/books/a%3Fb/",
		"/books/!*'()~":         "/books/!*'()~/",
		"/books%2F1":            "/books/1/",
		`/books/a?x="y"&z=%ZZ`:  "/books/a/?x=%22y%22&z=%ZZ",
		"/books/a?q=%E2%9C%93&": "/books/a/?q=%E2%9C%93&",
		"//docs":                "/%2Fdocs/",
	} {
		answer{301, []string{"Location: " + location, "Content-Type: text/html; charset=utf-8"}, ""}.check(t, path, c.Get(path))
	}
}

// An Accept header that is there but names nothing satisfies no renderer:
// DRF reads it as one empty media range and answers 406 before it
// authenticates, where no Accept header at all is */*. Repeated Accept
// lines are one header, joined by "," as WSGI servers join them.
func TestEmptyAcceptIsNotAcceptable(t *testing.T) {
	api := framework.NewAPI(nil, framework.Settings{
		Renderers: framework.Renderers(framework.JSONRenderer{}, benchHTML{}),
	})
	api.Handle("/who/", framework.View{
		Authentication: framework.Authenticators(challengeScheme{headerScheme{challenge: "X-User"}}),
		Get: func(v *framework.View, r *request.Request) (*framework.Response, error) {
			return framework.OK(map[string]string{"user": r.User().GetUsername()}), nil
		},
	})
	c := apitest.New(t, api)
	notAcceptable := answer{406, []string{"Content-Type: application/json", "Vary: Accept", "Allow: GET, HEAD, OPTIONS", "WWW-Authenticate:"},
		`{"detail":"Could not satisfy the request Accept header."}`}
	for _, header := range [][]string{
		{"Accept:"}, {"Accept: \t "}, {"Accept: ,"}, {"Accept: , "}, {"Accept: ;q=1"},
		{"Accept:", "X-User: bad"},
	} {
		notAcceptable.check(t, strings.Join(header, ", "), c.Get("/who/", header...))
	}
	notAcceptable.check(t, "?format=json, Accept:", c.Get("/who/?format=json", "Accept:"))
	for _, header := range [][]string{
		nil, {"Accept: */*"}, {"Accept: text/html", "Accept: application/json"}, {"Accept:", "Accept: application/json"},
	} {
		answer{200, []string{"Content-Type: application/json", "Vary: Accept"}, `{"user":""}`}.check(t, strings.Join(header, ", "), c.Get("/who/", header...))
	}
}

// BenchmarkAPIPath is BenchmarkFrameworkPath's request through an API:
// the host check, chi's routing and the route's match before the view.
func BenchmarkAPIPath(b *testing.B) {
	serve(b, benchAPI("/pages/page-number/"), pageRequest(benchKey))
}

// BenchmarkAPIPathParam is BenchmarkAPIPath's request to a route with a
// parameter, /{section}/page-number/: chi fills it, the route checks that
// it is not empty.
func BenchmarkAPIPathParam(b *testing.B) {
	serve(b, benchAPI("/{section}/page-number/"), pageRequest(benchKey))
}

// benchAPI is an API with BenchmarkFrameworkPath's view at pattern.
func benchAPI(pattern string) *framework.API {
	tokens := memoryTokens{benchKey: {ID: 2, Username: "alice", Active: true}}
	api := framework.NewAPI(nil, framework.Settings{
		Authentication: framework.Authenticators(authentication.Token{Tokens: tokens}),
		Permissions:    framework.Permissions(framework.IsAuthenticated{}),
		PageSize:       10,
		Renderers:      framework.Renderers(framework.JSONRenderer{}, benchHTML{}),
		AllowedHosts:   []string{"127.0.0.1"},
	})
	api.Handle(pattern, generics.ListAPIView(generics.GenericAPIView[benchBook]{
		View:       framework.View{Pagination: &pagination.PageNumberPagination{PageSize: 5, PageSizeQueryParam: "page_size", MaxPageSize: 20}},
		Source:     newFixedSource(1000, 5),
		Serializer: serializers.MustNew[benchBook](),
	}))
	return api
}
