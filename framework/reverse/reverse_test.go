package reverse_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/go-chi/chi/v5"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/framework/reverse"
)

func TestPath(t *testing.T) {
	r, rt := chi.NewRouter(), reverse.New(reverse.Config{})
	h := http.NotFoundHandler()
	rt.Handle(r, "/books/", h, reverse.Named("book-list"))
	rt.Handle(r, "/books/{pk}/", h, reverse.Named("book-detail"))
	rt.Handle(r, "/years/{year:[0-9]{4}}/", h, reverse.Named("year"))
	rt.Handle(r, "/files/{name}.{ext}", h, reverse.Named("file"))
	rt.Handle(r, "/static/*", h, reverse.Named("static"))
	rt.Add("external", "/elsewhere/{slug:[a-z-]+}/")
	rt.Route(r, "/api/", "api", func(r chi.Router, rt *reverse.Routes) {
		rt.Route(r, "/{version}", "v", func(r chi.Router, rt *reverse.Routes) {
			rt.Handle(r, "/info/", h, reverse.Named("info"))
		})
		rt.Route(r, "/plain", "", func(r chi.Router, rt *reverse.Routes) {
			rt.Handle(r, "/", h, reverse.Named("plain"))
		})
	})

	for _, tc := range []struct {
		name   string
		params map[string]string
		want   string
	}{
		{"book-list", nil, "/books/"},
		{"book-detail", map[string]string{"pk": "12"}, "/books/12/"},
		{"book-detail", map[string]string{"pk": "a b?", "extra": "ignored"}, "/books/a%20b%3F/"},
		{"year", map[string]string{"year": "2024"}, "/years/2024/"},
		{"file", map[string]string{"name": "report", "ext": "pdf"}, "/files/report.pdf"},
		{"static", map[string]string{"*": "css/a b.css"}, "/static/css/a%20b.css"},
		{"static", nil, "/static/"},
		{"external", map[string]string{"slug": "a-b"}, "/elsewhere/a-b/"},
		{"api:v:info", map[string]string{"version": "v1"}, "/api/v1/info/"},
		{"api:plain", nil, "/api/plain/"},
	} {
		got, err := rt.Path(tc.name, tc.params)
		if err != nil || got != tc.want {
			t.Errorf("Path(%q, %v) = %q, %v; want %q", tc.name, tc.params, got, err, tc.want)
		}
	}

	for _, tc := range []struct {
		name   string
		params map[string]string
		reason string
	}{
		{"nope", nil, `reverse for "nope" not found: no route has that name`},
		{"info", map[string]string{"version": "v1"}, "no route has that name"},
		{"book-detail", nil, `/books/{pk}/ needs parameter "pk"`},
		{"book-detail", map[string]string{"pk": ""}, `needs parameter "pk"`},
		{"book-detail", map[string]string{"pk": "a/b"}, `parameter "pk" value "a/b" may not contain "/"`},
		{"file", map[string]string{"name": "a.b", "ext": "pdf"}, `parameter "name" value "a.b" may not contain "."`},
		{"year", map[string]string{"year": "24"}, `parameter "year" value "24" does not match ^[0-9]{4}$`},
	} {
		_, err := rt.Path(tc.name, tc.params)
		var nrm *reverse.NoReverseMatch
		if !errors.As(err, &nrm) || nrm.Name != tc.name || !strings.Contains(err.Error(), tc.reason) {
			t.Errorf("Path(%q, %v): got error %v, want a NoReverseMatch saying %q", tc.name, tc.params, err, tc.reason)
		}
	}

	want := []string{"api:plain", "api:v:info", "book-detail", "book-list", "external", "file", "static", "year"}
	if got := rt.Names(); strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("Names() = %v, want %v", got, want)
	}
}

func TestSetupErrorsPanic(t *testing.T) {
	for name, fn := range map[string]func(rt *reverse.Routes){
		"duplicate route":     func(rt *reverse.Routes) { rt.Add("x", "/a/"); rt.Add("x", "/a/") },
		"unclosed parameter":  func(rt *reverse.Routes) { rt.Add("x", "/a/{id/") },
		"bad regexp":          func(rt *reverse.Routes) { rt.Add("x", "/a/{id:[0-9}/") },
		"wildcard not at end": func(rt *reverse.Routes) { rt.Add("x", "/a/*/b") },
		"nameless parameter":  func(rt *reverse.Routes) { rt.Add("x", "/a/{}/") },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			fn(reverse.New(reverse.Config{}))
		}()
	}
}

// suffixHook is a URL-based test scheme: version "vN" from ?v=, and
// reversed names get the "-vN" suffix.
type suffixHook struct{}

func (suffixHook) DetermineVersion(r *request.Request, c request.VersionConfig) (string, error) {
	return r.URL.Query().Get("v"), nil
}

func (suffixHook) ReverseLookup(l *reverse.Lookup, r *request.Request) {
	if v := r.Version(); v != "" {
		l.Name += "-" + v
		l.Params["extra"] = v
		l.Query.Set("hooked", "1")
	}
}

// server mounts one view answering the reverse of the name and params in
// its query (name, and p=key:value pairs) as text.
func server(t *testing.T, trust bool, tls bool) *httptest.Server {
	t.Helper()
	r, rt := chi.NewRouter(), reverse.New(reverse.Config{TrustForwardedHeaders: trust})
	view := framework.NewAPI(nil, framework.Settings{}).Handler(framework.View{
		Versioning: suffixHook{},
		Renderers:  framework.Renderers(textRenderer{}),
		Get: func(v *framework.View, r *request.Request) (*framework.Response, error) {
			q := r.URL.Query()
			params := map[string]string{}
			for _, p := range q["p"] {
				k, v, _ := strings.Cut(p, ":")
				params[k] = v
			}
			var extra url.Values
			if x := q.Get("q"); x != "" {
				extra = url.Values{"page": {x}}
			}
			u, err := reverse.ReverseQuery(q.Get("name"), params, extra, r)
			if err != nil {
				return framework.OK("error: " + err.Error()), nil
			}
			m, _ := reverse.MatchOf(r.Request)
			return framework.OK(m.Namespace + "|" + m.Name + "|" + u), nil
		},
	})
	rt.Handle(r, "/here/", view, reverse.Named("here"))
	rt.Handle(r, "/items/{id:[0-9]+}/", view, reverse.Named("item"))
	rt.Handle(r, "/items/{id}/v2/", view, reverse.Named("item-v2"))
	rt.Route(r, "/ns", "app", func(r chi.Router, rt *reverse.Routes) {
		rt.Handle(r, "/here/", view, reverse.Named("here"))
	})
	r.Handle("/unrouted/", view)
	var srv *httptest.Server
	if tls {
		srv = httptest.NewTLSServer(r)
	} else {
		srv = httptest.NewServer(r)
	}
	t.Cleanup(srv.Close)
	return srv
}

type textRenderer struct{}

func (textRenderer) MediaType() string { return "text/plain" }
func (textRenderer) Format() string    { return "txt" }
func (textRenderer) Render(data any, _ *framework.RenderContext) ([]byte, error) {
	s, _ := data.(string)
	return []byte(s), nil
}

// fetch returns the body of GET path from srv's handler, as over TLS
// when srv is, with the test host's base URL replaced by "{base}".
func fetch(t *testing.T, srv *httptest.Server, path string, header map[string]string) string {
	t.Helper()
	c := apitest.New(t, srv.Config.Handler)
	c.Secure = srv.TLS != nil
	var fields []string
	for k, v := range header {
		fields = append(fields, k+": "+v)
	}
	base := "http://" + apitest.Host
	if c.Secure {
		base = "https://" + apitest.Host
	}
	return strings.ReplaceAll(c.Get(path, fields...).Body, base, "{base}")
}

func TestReverseThroughHTTP(t *testing.T) {
	srv := server(t, false, false)
	for _, tc := range []struct{ path, want string }{
		{"/here/?name=here", "|here|{base}/here/"},
		{"/ns/here/?name=app:here", "app|here|{base}/ns/here/"},
		{"/here/?name=item&p=id:5&q=2", "|here|{base}/items/5/?page=2"},
		// The format parameter of the request is kept, its last value.
		{"/here/?name=here&format=txt&format=txt", "|here|{base}/here/?format=txt"},
		{"/here/?name=item&p=id:x", `error: reverse for "item" with params map[id:x] not found: parameter "id" value "x" does not match ^[0-9]+$ in /items/{id:[0-9]+}/`},
		{"/here/?name=missing", `error: reverse for "missing" not found: no route has that name`},
		// The hook adjusts the lookup...
		{"/here/?name=item&p=id:5&v=v2", "|here|{base}/items/5/v2/?hooked=1"},
		// ...and when its lookup finds nothing, the plain one is used.
		{"/here/?name=here&v=v2", "|here|{base}/here/"},
		{"/unrouted/?name=here", `error: reverse for "here" not found: the request was not routed through reverse.Routes`},
	} {
		if got := fetch(t, srv, tc.path, nil); got != tc.want {
			t.Errorf("GET %s: got %q, want %q", tc.path, got, tc.want)
		}
	}
}

func TestReverseWithoutRequest(t *testing.T) {
	_, err := reverse.Reverse("here", nil, nil)
	var nrm *reverse.NoReverseMatch
	if !errors.As(err, &nrm) || !strings.Contains(err.Error(), "no request") {
		t.Errorf("Reverse without a request: %v", err)
	}
}

func TestForwardedHeaders(t *testing.T) {
	fwd := map[string]string{"Host": "internal:8080", "X-Forwarded-Host": "api.example.com, proxy.local", "X-Forwarded-Proto": "HTTPS, http"}
	if got, want := fetch(t, server(t, false, false), "/here/?name=here", fwd), "|here|http://internal:8080/here/"; got != want {
		t.Errorf("untrusted: got %q, want %q", got, want)
	}
	trusted := server(t, true, false)
	for _, tc := range []struct {
		header map[string]string
		want   string
	}{
		{fwd, "|here|https://api.example.com/here/"},
		{map[string]string{"X-Forwarded-Host": "[::1]:8443"}, "|here|http://[::1]:8443/here/"},
		// A forwarded host that is not a host name is ignored.
		{map[string]string{"Host": "internal", "X-Forwarded-Host": "evil.com/x?"}, "|here|http://internal/here/"},
		{map[string]string{"Host": "internal", "X-Forwarded-Proto": "ftp"}, "|here|http://internal/here/"},
	} {
		if got := fetch(t, trusted, "/here/?name=here", tc.header); got != tc.want {
			t.Errorf("trusted %v: got %q, want %q", tc.header, got, tc.want)
		}
	}
	tlsSrv := server(t, false, true)
	if got, want := fetch(t, tlsSrv, "/here/?name=here", map[string]string{"X-Forwarded-Proto": "http"}), "|here|{base}/here/"; got != want || !strings.HasPrefix(tlsSrv.URL, "https://") {
		t.Errorf("TLS: got %q, want %q on %s", got, want, tlsSrv.URL)
	}
}

func TestHost(t *testing.T) {
	r, rt := chi.NewRouter(), reverse.New(reverse.Config{TrustForwardedHeaders: true})
	var got []string
	var mu sync.Mutex
	record := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		got = append(got, reverse.Host(r))
		mu.Unlock()
	})
	rt.Handle(r, "/trusted/", record)
	r.Handle("/plain/", record)
	for _, path := range []string{"/trusted/", "/plain/"} {
		req := httptest.NewRequest(http.MethodGet, path, nil)
		req.Host = "internal:80"
		req.Header.Set("X-Forwarded-Host", "v2.example.com")
		r.ServeHTTP(httptest.NewRecorder(), req)
	}
	if strings.Join(got, " ") != "v2.example.com internal:80" {
		t.Errorf("Host: got %v, want the forwarded host only through trusting routes", got)
	}
}

// Reversing from many requests at once is safe.
func TestConcurrentReverse(t *testing.T) {
	srv := server(t, true, false)
	var wg sync.WaitGroup
	for i := 0; i < 16; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 10; j++ {
				if got := fetch(t, srv, "/here/?name=item&p=id:5&v=v2", nil); got != "|here|{base}/items/5/v2/?hooked=1" {
					t.Errorf("concurrent reverse: %q", got)
					return
				}
			}
		}()
	}
	wg.Wait()
}

// TestResolve: paths back to the named routes and their parameters, as
// chi matches them.
func TestResolve(t *testing.T) {
	r := chi.NewRouter()
	rt := reverse.New(reverse.Config{})
	h := http.NotFoundHandler()
	rt.Handle(r, "/books/{pk}/", h, reverse.Named("book-detail"))
	rt.Handle(r, "/books/new/", h, reverse.Named("book-new"))
	rt.Handle(r, "/r/{id:[0-9]+}/", h, reverse.Named("numbered"))
	rt.Handle(r, "/files/*", h, reverse.Named("files"))
	rt.Handle(r, "/d/{a}-{b}/", h, reverse.Named("pair"))
	rt.Route(r, "/v1", "v1", func(r chi.Router, rt *reverse.Routes) { rt.Handle(r, "/info/", h, reverse.Named("info")) })
	rt.Handle(r, "/unnamed/", h)
	cases := []struct {
		path, name, namespace string
		params                map[string]string
	}{
		{"/books/5/", "book-detail", "", map[string]string{"pk": "5"}},
		{"/books/new/", "book-new", "", map[string]string{}},
		{"/books/a%20b/", "book-detail", "", map[string]string{"pk": "a b"}},
		{"/r/42/", "numbered", "", map[string]string{"id": "42"}},
		{"/files/a/b.txt", "files", "", map[string]string{"*": "a/b.txt"}},
		{"/d/x-y/", "pair", "", map[string]string{"a": "x", "b": "y"}},
		{"/v1/info/", "v1:info", "v1", map[string]string{}},
	}
	for _, c := range cases {
		m, err := rt.Resolve(c.path)
		if err != nil {
			t.Errorf("%s: %v", c.path, err)
			continue
		}
		if m.Name != c.name || m.Namespace != c.namespace || !maps.Equal(m.Params, c.params) {
			t.Errorf("%s: %s (%q) %v, want %s %v", c.path, m.Name, m.Namespace, m.Params, c.name, c.params)
		}
		// Reversing the match gives the path back.
		if p, err := rt.Path(m.Name, m.Params); err != nil || p != c.path {
			t.Errorf("%s: reversed to %q %v", c.path, p, err)
		}
	}
	for _, p := range []string{"/books/", "/books//", "/books/5", "/books/5/x/", "/r/x/", "/unnamed/", "/v2/info/", "/d/xy/"} {
		var none *reverse.NoResolveMatch
		if m, err := rt.Resolve(p); !errors.As(err, &none) {
			t.Errorf("%s: %+v %v, want no match", p, m, err)
		}
	}
}

// Resolve matches the decoded path, as the API routes a request and as
// Django's resolve() does: an escaped letter or "/" is that character.
func TestResolveDecodesThePath(t *testing.T) {
	r := chi.NewRouter()
	rt := reverse.New(reverse.Config{})
	h := http.NotFoundHandler()
	rt.Handle(r, "/books/{pk}/", h, reverse.Named("book-detail"))
	rt.Route(r, "/v1", "v1", func(r chi.Router, rt *reverse.Routes) { rt.Handle(r, "/info/", h, reverse.Named("info")) })
	for path, want := range map[string]string{
		"/books/%31/":   "book-detail map[pk:1]",
		"/books%2F1/":   "book-detail map[pk:1]",
		"/books/%251/":  "book-detail map[pk:%1]",
		"/%76%31/info/": "v1:info map[]",
	} {
		m, err := rt.Resolve(path)
		if err != nil {
			t.Errorf("%s: %v", path, err)
			continue
		}
		if got := fmt.Sprint(m.Name, " ", m.Params); got != want {
			t.Errorf("%s: %s, want %s", path, got, want)
		}
		if pk := chi.URLParam(m.Request(context.Background(), &url.URL{Path: path}), "pk"); pk != m.Params["pk"] {
			t.Errorf("%s: the request's pk is %q, want %q", path, pk, m.Params["pk"])
		}
	}
	for _, p := range []string{"/books/a%2Fb/", "/books/%ZZ/"} {
		var none *reverse.NoResolveMatch
		if m, err := rt.Resolve(p); !errors.As(err, &none) {
			t.Errorf("%s: %+v %v, want no match", p, m, err)
		}
	}
}

// A {param} takes a value of one character or more, as Django's
// converters do: a path that fills one with nothing is not the route's.
// Handle gives it to the router's not-found handler without running the
// route's own; Find finds no route for it. The trailing "*" may be empty,
// and a one-space value is a value.
func TestEmptyParamsMatchNoRoute(t *testing.T) {
	rt := reverse.New(reverse.Config{})
	mux := chi.NewRouter()
	mux.NotFound(func(w http.ResponseWriter, r *http.Request) { _, _ = io.WriteString(w, "not found") })
	served := func(w http.ResponseWriter, r *http.Request) {
		rctx := chi.RouteContext(r.Context())
		_, _ = fmt.Fprint(w, rctx.URLParams.Keys, rctx.URLParams.Values)
	}
	h := http.HandlerFunc(served)
	rt.Handle(mux, "/books/{pk}/", h, reverse.Named("book-detail"))
	rt.Handle(mux, "/d/{a}-{b}/", h)
	rt.Handle(mux, "/files/*", h)
	rt.Route(mux, "/ns/{version}", "v", func(r chi.Router, rt *reverse.Routes) {
		rt.Handle(r, "/info/", h, reverse.Named("info"))
	})
	for path, want := range map[string]string{
		"/books/1/":      "[pk] [1]",
		"/books/%20/":    "[pk] [ ]",
		"/d/x-y/":        "[a b] [x y]",
		"/files/":        "[*] []",
		"/files//a":      "[*] [/a]",
		"/ns/v1/info/":   "[version *] [v1 ]",
		"/books//":       "not found",
		"/d/-y/":         "not found",
		"/d/x-/":         "not found",
		"/ns//info/":     "not found",
		"/books/1//":     "not found",
		"/ns/v1//info/":  "not found",
		"/nowhere/1/2/3": "not found",
	} {
		w := httptest.NewRecorder()
		mux.ServeHTTP(w, httptest.NewRequest(http.MethodGet, path, nil))
		if got := w.Body.String(); got != want {
			t.Errorf("GET %s: %q, want %q", path, got, want)
		}
	}
	for path, want := range map[string]string{
		"/books/1/": "/books/{pk}/", "/files/": "/files/*", "/ns/v1/info/": "/ns/{version}/info/",
		"/books//": "", "/d/-y/": "", "/ns//info/": "", "/nowhere/": "",
	} {
		if got := reverse.Find(mux, http.MethodGet, path); got != want {
			t.Errorf("Find(%s) = %q, want %q", path, got, want)
		}
	}
}

// TestMatchOfEachRouter: MatchOf gives each request the route that served
// it, among routers that mount the same pattern under other names and
// namespaces, and after a pattern is mounted again under another name.
func TestMatchOfEachRouter(t *testing.T) {
	type seen struct{ name, namespace string }
	var got seen
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		m, ok := reverse.MatchOf(r)
		if !ok {
			t.Error("no match")
		}
		got = seen{m.Name, m.Namespace}
	})
	serve := func(router http.Handler) seen {
		got = seen{}
		router.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, "/v/books/7/", nil))
		return got
	}
	routers := make([]http.Handler, 3)
	for i := range routers {
		r, rt := chi.NewRouter(), reverse.New(reverse.Config{})
		rt.Route(r, "/v", fmt.Sprintf("ns%d", i), func(r chi.Router, rt *reverse.Routes) {
			rt.Handle(r, "/books/{pk}/", h, reverse.Named(fmt.Sprintf("detail%d", i)))
		})
		routers[i] = r
	}
	for range 2 {
		for i, router := range routers {
			if s, want := serve(router), (seen{fmt.Sprintf("detail%d", i), fmt.Sprintf("ns%d", i)}); s != want {
				t.Errorf("router %d: %+v, want %+v", i, s, want)
			}
		}
	}
	r, rt := chi.NewRouter(), reverse.New(reverse.Config{})
	rt.Handle(r, "/v/books/{pk}/", h, reverse.Named("first"))
	if s := serve(r); s.name != "first" {
		t.Errorf("first mount: %+v", s)
	}
	rt.Handle(r, "/v/books/{pk}/", h, reverse.Named("again"))
	for range 2 {
		if s := serve(r); s.name != "again" {
			t.Errorf("mounted again: %+v, want the name again", s)
		}
	}
}

// TestMatchOfThroughTwoRoots: a route mounted once, on a router that two
// root routers mount at the same prefix, is found by MatchOf through
// either root, in any order of their requests.
func TestMatchOfThroughTwoRoots(t *testing.T) {
	var name string
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		m, ok := reverse.MatchOf(r)
		if !ok {
			t.Errorf("%s: no match", r.URL.Path)
		}
		name = m.Name
	})
	sub, rt := chi.NewRouter(), reverse.New(reverse.Config{})
	rt.Handle(sub, "/books/{pk}/", h, reverse.Named("book-detail"))
	a, b := chi.NewRouter(), chi.NewRouter()
	a.Mount("/v", sub)
	b.Mount("/v", sub)
	for i, root := range []http.Handler{a, a, b, a, b, b} {
		name = ""
		root.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, "/v/books/1/", nil))
		if name != "book-detail" {
			t.Errorf("request %d: route %q, want book-detail", i, name)
		}
	}
}
