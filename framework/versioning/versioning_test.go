package versioning_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/go-chi/chi/v5"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/framework/reverse"
	"github.com/go-drf/drf/framework/versioning"
)

// sampleSettings are the contract's: default v1, allowed v1 and v2.
func sampleSettings() framework.Settings {
	return framework.Settings{DefaultVersion: "v1", AllowedVersions: framework.Versions("v1", "v2")}
}

// info answers {"version": V, "self": URL} with URL the version-aware
// reverse of the matched route, as the reference's info views do.
func info(v *framework.View, r *request.Request) (*framework.Response, error) {
	m, _ := reverse.MatchOf(r.Request)
	self, err := reverse.Reverse(m.Name, nil, r)
	if err != nil {
		return nil, err
	}
	return framework.OK(infoBody{nullable(r.Version()), self}), nil
}

// infoBody is the reference's answer, its keys in the reference's order.
type infoBody struct {
	Version any    `json:"version"`
	Self    string `json:"self"`
}

func nullable(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// newAPI is the reference's versioning routes on an API with settings s.
func newAPI(s framework.Settings) *framework.API {
	api := framework.NewAPI(nil, s)
	view := func(scheme request.Versioner) framework.View {
		return framework.View{Versioning: scheme, Get: info}
	}
	api.Handle("/url/{version}/info/", view(versioning.URLPathVersioning{}), framework.Named("url-info"))
	for prefix, namespace := range map[string]string{"/ns/v1": "v1", "/ns/v2": "v2", "/ns/{other}": "other"} {
		api.Route(prefix, namespace, func(api *framework.API) {
			api.Handle("/info/", view(versioning.NamespaceVersioning{}), framework.Named("info"))
		})
	}
	api.Handle("/query/info/", view(versioning.QueryParameterVersioning{}), framework.Named("query-info"))
	api.Handle("/accept/info/", view(versioning.AcceptHeaderVersioning{}), framework.Named("accept-info"))
	api.Handle("/host/info/", view(versioning.HostNameVersioning{}), framework.Named("host-info"))
	return api
}

func newServer(t *testing.T, s framework.Settings) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(newAPI(s))
	t.Cleanup(srv.Close)
	return srv
}

type call struct {
	path   string
	header map[string]string
}

// get sends the call to srv's handler, as JSON, and returns status and
// body, with the test host's address in the body replaced by "{base}".
func get(t *testing.T, srv *httptest.Server, c call) (int, string) {
	t.Helper()
	client := apitest.New(t, srv.Config.Handler)
	client.Header.Set("Accept", "application/json")
	var fields []string
	for k, v := range c.header {
		fields = append(fields, k+": "+v)
	}
	r := client.Get(c.path, fields...)
	return r.Status, strings.ReplaceAll(r.Body, "http://"+apitest.Host, "{base}")
}

func check(t *testing.T, srv *httptest.Server, cases []struct {
	call
	status int
	body   string
}) {
	t.Helper()
	for _, tc := range cases {
		status, body := get(t, srv, tc.call)
		if status != tc.status || body != tc.body {
			t.Errorf("GET %s %v: got %d %s, want %d %s", tc.path, tc.header, status, body, tc.status, tc.body)
		}
	}
}

type cases = []struct {
	call
	status int
	body   string
}

// The answers below are the reference's (DRF 3.14) for the same requests.

func TestURLPathVersioning(t *testing.T) {
	srv := newServer(t, sampleSettings())
	check(t, srv, cases{
		{call{path: "/url/v1/info/"}, 200, `{"version":"v1","self":"{base}/url/v1/info/"}`},
		{call{path: "/url/v2/info/"}, 200, `{"version":"v2","self":"{base}/url/v2/info/"}`},
		{call{path: "/url/v3/info/"}, 404, `{"detail":"Invalid version in URL path."}`},
		{call{path: "/url/V1/info/"}, 404, `{"detail":"Invalid version in URL path."}`},
		// The query string plays no part, but ?format= is kept.
		{call{path: "/url/v1/info/?version=v2"}, 200, `{"version":"v1","self":"{base}/url/v1/info/"}`},
		{call{path: "/url/v2/info/?format=json"}, 200, `{"version":"v2","self":"{base}/url/v2/info/?format=json"}`},
		// Escaped as Django would decode it.
		{call{path: "/url/v%32/info/"}, 200, `{"version":"v2","self":"{base}/url/v2/info/"}`},
	})
}

func TestNamespaceVersioning(t *testing.T) {
	srv := newServer(t, sampleSettings())
	check(t, srv, cases{
		{call{path: "/ns/v1/info/"}, 200, `{"version":"v1","self":"{base}/ns/v1/info/"}`},
		{call{path: "/ns/v2/info/"}, 200, `{"version":"v2","self":"{base}/ns/v2/info/"}`},
		{call{path: "/ns/v3/info/"}, 404, `{"detail":"Invalid version in URL path. Does not match any version namespace."}`},
		{call{path: "/ns/v1/info/?version=v2"}, 200, `{"version":"v1","self":"{base}/ns/v1/info/"}`},
		{call{path: "/ns/v2/info/?format=json&x=1"}, 200, `{"version":"v2","self":"{base}/ns/v2/info/?format=json"}`},
	})
}

func TestQueryParameterVersioning(t *testing.T) {
	srv := newServer(t, sampleSettings())
	check(t, srv, cases{
		{call{path: "/query/info/"}, 200, `{"version":"v1","self":"{base}/query/info/?version=v1"}`},
		{call{path: "/query/info/?version=v2"}, 200, `{"version":"v2","self":"{base}/query/info/?version=v2"}`},
		{call{path: "/query/info/?version=v3"}, 404, `{"detail":"Invalid version in query parameter."}`},
		{call{path: "/query/info/?version="}, 404, `{"detail":"Invalid version in query parameter."}`},
		{call{path: "/query/info/?version=v2&version=v3"}, 404, `{"detail":"Invalid version in query parameter."}`},
		{call{path: "/query/info/?version=v3&version=v2"}, 200, `{"version":"v2","self":"{base}/query/info/?version=v2"}`},
		{call{path: "/query/info/?a=1&version=v2&format=json"}, 200, `{"version":"v2","self":"{base}/query/info/?format=json&version=v2"}`},
	})
}

func TestAcceptHeaderVersioning(t *testing.T) {
	srv := newServer(t, sampleSettings())
	accept := func(v string) map[string]string { return map[string]string{"Accept": v} }
	check(t, srv, cases{
		{call{"/accept/info/", accept("application/json")}, 200, `{"version":"v1","self":"{base}/accept/info/"}`},
		{call{"/accept/info/", accept("application/json; version=v2")}, 200, `{"version":"v2","self":"{base}/accept/info/"}`},
		{call{"/accept/info/", accept("application/json; version=v3")}, 406, `{"detail":"Invalid version in \"Accept\" header."}`},
		{call{"/accept/info/", accept("application/json; version=")}, 406, `{"detail":"Invalid version in \"Accept\" header."}`},
		{call{"/accept/info/", accept(`application/json; version="v2"`)}, 200, `{"version":"v2","self":"{base}/accept/info/"}`},
		{call{"/accept/info/", accept("*/*; version=v2")}, 200, `{"version":"v2","self":"{base}/accept/info/"}`},
		{call{"/accept/info/", accept("application/json; VERSION=v2")}, 200, `{"version":"v2","self":"{base}/accept/info/"}`},
		{call{"/accept/info/", accept("application/json; version=v2, */*")}, 200, `{"version":"v2","self":"{base}/accept/info/"}`},
		{call{"/accept/info/", accept("application/json; version=v3; q=0.5, text/html")}, 406, `{"detail":"Invalid version in \"Accept\" header."}`},
		// No renderer serves the vendor type here.
		{call{"/accept/info/", accept("application/vnd.example.books+json; version=v2")}, 406, `{"detail":"Could not satisfy the request Accept header."}`},
	})
}

func TestAcceptHeaderVendorMediaType(t *testing.T) {
	const vendor = "application/vnd.example.books+json"
	r, rt := chi.NewRouter(), reverse.New(reverse.Config{})
	rt.Handle(r, "/books/info/", apitest.View(framework.View{
		Versioning: versioning.AcceptHeaderVersioning{},
		Renderers:  framework.Renderers(framework.JSONRenderer{Type: vendor}, framework.JSONRenderer{}),
		Get:        info,
	}, sampleSettings()), reverse.Named("books-info"))
	srv := httptest.NewServer(r)
	defer srv.Close()
	for _, tc := range []struct {
		accept, contentType string
		status              int
		body                string
	}{
		{vendor + "; version=v2", vendor, 200, `{"version":"v2","self":"{base}/books/info/"}`},
		{vendor, vendor, 200, `{"version":"v1","self":"{base}/books/info/"}`},
		{vendor + "; version=v3", vendor, 406, `{"detail":"Invalid version in \"Accept\" header."}`},
		{"application/json; version=v2", "application/json", 200, `{"version":"v2","self":"{base}/books/info/"}`},
	} {
		req, _ := http.NewRequest(http.MethodGet, srv.URL+"/books/info/", nil)
		req.Header.Set("Accept", tc.accept)
		resp, err := srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		got := strings.ReplaceAll(string(body), srv.URL, "{base}")
		if resp.StatusCode != tc.status || got != tc.body || resp.Header.Get("Content-Type") != tc.contentType {
			t.Errorf("Accept %s: got %d %s %s, want %d %s %s", tc.accept, resp.StatusCode, resp.Header.Get("Content-Type"), got, tc.status, tc.contentType, tc.body)
		}
	}
}

func TestHostNameVersioning(t *testing.T) {
	srv := newServer(t, sampleSettings())
	host := func(h string) map[string]string { return map[string]string{"Host": h} }
	check(t, srv, cases{
		{call{"/host/info/", host("v2.example.com")}, 200, `{"version":"v2","self":"http://v2.example.com/host/info/"}`},
		{call{"/host/info/", host("v1.example.com")}, 200, `{"version":"v1","self":"http://v1.example.com/host/info/"}`},
		{call{"/host/info/", host("v3.example.com")}, 404, `{"detail":"Invalid version in hostname."}`},
		{call{"/host/info/", host("V2.example.com")}, 404, `{"detail":"Invalid version in hostname."}`},
		{call{"/host/info/", host("example.com")}, 200, `{"version":"v1","self":"http://example.com/host/info/"}`},
		{call{"/host/info/", host("api.v2.example.com")}, 200, `{"version":"v1","self":"http://api.v2.example.com/host/info/"}`},
		{call{"/host/info/", host("v2.example.com:8000")}, 200, `{"version":"v2","self":"http://v2.example.com:8000/host/info/"}`},
		{call{"/host/info/", host("127.0.0.1")}, 200, `{"version":"v1","self":"http://127.0.0.1/host/info/"}`},
		{call{"/host/info/", host("10.0.0.1:80")}, 200, `{"version":"v1","self":"http://10.0.0.1:80/host/info/"}`},
		{call{"/host/info/", host("[::1]:8080")}, 200, `{"version":"v1","self":"http://[::1]:8080/host/info/"}`},
	})
}

func TestHostNameVersioningCustomPattern(t *testing.T) {
	r, rt := chi.NewRouter(), reverse.New(reverse.Config{})
	rt.Handle(r, "/info/", apitest.View(framework.View{
		Versioning: versioning.HostNameVersioning{
			Pattern: regexp.MustCompile(`^api-(v[0-9]+)\.`),
		},
		Get: info,
	}, sampleSettings()), reverse.Named("info"))
	srv := httptest.NewServer(r)
	defer srv.Close()
	host := func(h string) map[string]string { return map[string]string{"Host": h} }
	check(t, srv, cases{
		{call{"/info/", host("api-v2.example.co.uk")}, 200, `{"version":"v2","self":"http://api-v2.example.co.uk/info/"}`},
		{call{"/info/", host("api-v7.example.co.uk")}, 404, `{"detail":"Invalid version in hostname."}`},
		{call{"/info/", host("v2.example.com")}, 200, `{"version":"v1","self":"http://v2.example.com/info/"}`},
	})
}

func TestForwardedHostOnlyWhenTrusted(t *testing.T) {
	fwd := map[string]string{"Host": "internal:8080", "X-Forwarded-Host": "v2.example.com", "X-Forwarded-Proto": "https"}
	srv := newServer(t, sampleSettings())
	check(t, srv, cases{
		{call{"/host/info/", fwd}, 200, `{"version":"v1","self":"http://internal:8080/host/info/"}`},
		{call{"/url/v2/info/", fwd}, 200, `{"version":"v2","self":"http://internal:8080/url/v2/info/"}`},
	})
	trusted := sampleSettings()
	trusted.TrustForwardedHeaders = true
	check(t, newServer(t, trusted), cases{
		{call{"/host/info/", fwd}, 200, `{"version":"v2","self":"https://v2.example.com/host/info/"}`},
		{call{"/url/v2/info/", fwd}, 200, `{"version":"v2","self":"https://v2.example.com/url/v2/info/"}`},
		{call{"/host/info/", map[string]string{"Host": "v2.example.com", "X-Forwarded-Host": "v3.example.com"}}, 404, `{"detail":"Invalid version in hostname."}`},
	})
}

// Without ALLOWED_VERSIONS every version passes; with it and no default,
// a request without a version is refused by the URL path, query and
// Accept schemes, while the namespace and host schemes give none.
func TestAllowedAndDefaultVersions(t *testing.T) {
	t.Run("unrestricted", func(t *testing.T) {
		for _, s := range []framework.Settings{
			{DefaultVersion: "v1"},
			{DefaultVersion: "v1", AllowedVersions: framework.Versions()},
		} {
			srv := newServer(t, s)
			check(t, srv, cases{
				{call{path: "/url/v9/info/"}, 200, `{"version":"v9","self":"{base}/url/v9/info/"}`},
				{call{path: "/query/info/?version=anything"}, 200, `{"version":"anything","self":"{base}/query/info/?version=anything"}`},
				{call{path: "/query/info/"}, 200, `{"version":"v1","self":"{base}/query/info/?version=v1"}`},
			})
		}
	})
	t.Run("no default", func(t *testing.T) {
		srv := newServer(t, framework.Settings{AllowedVersions: framework.Versions("v1", "v2")})
		check(t, srv, cases{
			{call{path: "/query/info/"}, 404, `{"detail":"Invalid version in query parameter."}`},
			{call{"/accept/info/", map[string]string{"Accept": "application/json"}}, 406, `{"detail":"Invalid version in \"Accept\" header."}`},
			{call{"/host/info/", map[string]string{"Host": "localhost"}}, 200, `{"version":null,"self":"http://localhost/host/info/"}`},
			{call{path: "/query/info/?version=v2"}, 200, `{"version":"v2","self":"{base}/query/info/?version=v2"}`},
		})
	})
	t.Run("no default, unrestricted", func(t *testing.T) {
		srv := newServer(t, framework.Settings{})
		check(t, srv, cases{
			{call{path: "/query/info/"}, 200, `{"version":null,"self":"{base}/query/info/"}`},
			{call{"/accept/info/", map[string]string{"Accept": "application/json"}}, 200, `{"version":null,"self":"{base}/accept/info/"}`},
		})
	})
	t.Run("default is allowed", func(t *testing.T) {
		srv := newServer(t, framework.Settings{DefaultVersion: "v0", AllowedVersions: framework.Versions("v1", "v2")})
		check(t, srv, cases{
			{call{path: "/url/v0/info/"}, 200, `{"version":"v0","self":"{base}/url/v0/info/"}`},
			{call{path: "/query/info/"}, 200, `{"version":"v0","self":"{base}/query/info/?version=v0"}`},
		})
	})
}

// A URL path route without the version parameter gets the default.
func TestURLPathWithoutParameter(t *testing.T) {
	r, rt := chi.NewRouter(), reverse.New(reverse.Config{})
	rt.Handle(r, "/plain/info/", apitest.View(framework.View{
		Versioning: versioning.URLPathVersioning{},
		Get:        info,
	}, sampleSettings()), reverse.Named("plain-info"))
	srv := httptest.NewServer(r)
	defer srv.Close()
	check(t, srv, cases{{call{path: "/plain/info/"}, 200, `{"version":"v1","self":"{base}/plain/info/"}`}})
}

// The view's own DefaultVersion, AllowedVersions and VersionParam win
// over the settings, for determining and for reversing.
func TestPerViewOverrides(t *testing.T) {
	r, rt := chi.NewRouter(), reverse.New(reverse.Config{})
	view := func(scheme request.Versioner) http.Handler {
		return apitest.View(framework.View{Get: info, Versioning: scheme,
			DefaultVersion: "2.0", AllowedVersions: framework.Versions("1.0"), VersionParam: "api"}, sampleSettings())
	}
	rt.Handle(r, "/q/", view(versioning.QueryParameterVersioning{}), reverse.Named("q"))
	rt.Handle(r, "/u/{api}/", view(versioning.URLPathVersioning{}), reverse.Named("u"))
	rt.Handle(r, "/none/", apitest.View(framework.View{Get: info, Versioning: framework.NoVersioning}, sampleSettings()), reverse.Named("none"))
	srv := httptest.NewServer(r)
	defer srv.Close()
	check(t, srv, cases{
		{call{path: "/q/"}, 200, `{"version":"2.0","self":"{base}/q/?api=2.0"}`},
		{call{path: "/q/?api=1.0&version=v2"}, 200, `{"version":"1.0","self":"{base}/q/?api=1.0"}`},
		{call{path: "/q/?api=v1"}, 404, `{"detail":"Invalid version in query parameter."}`},
		{call{path: "/u/1.0/"}, 200, `{"version":"1.0","self":"{base}/u/1.0/"}`},
		{call{path: "/u/v1/"}, 404, `{"detail":"Invalid version in URL path."}`},
		// No versioning class: the version is always none.
		{call{path: "/none/?version=v2"}, 200, `{"version":null,"self":"{base}/none/"}`},
	})
}

// A reverse that names the version itself gets it from DRF 3.15 on
// (#7247); DRF 3.14 puts the request's version over it.
func TestURLPathReverseGivenVersion(t *testing.T) {
	for level, want := range map[framework.Compatibility]string{framework.DRF318: "/url/v2/books/7/", framework.DRF314: "/url/v1/books/7/"} {
		r, rt := chi.NewRouter(), reverse.New(reverse.Config{})
		s := sampleSettings()
		s.Compatibility = level
		link := func(v *framework.View, r *request.Request) (*framework.Response, error) {
			u, err := reverse.Reverse("url-detail", map[string]string{"version": "v2", "pk": "7"}, r)
			if err != nil {
				return nil, err
			}
			return framework.OK(map[string]string{"url": u}), nil
		}
		rt.Route(r, "/url/{version}", "", func(r chi.Router, rt *reverse.Routes) {
			view := apitest.View(framework.View{Versioning: versioning.URLPathVersioning{}, Get: link}, s)
			rt.Handle(r, "/links/", view, reverse.Named("url-links"))
			rt.Handle(r, "/books/{pk}/", view, reverse.Named("url-detail"))
		})
		srv := httptest.NewServer(r)
		check(t, srv, cases{{call{path: "/url/v1/links/"}, 200, `{"url":"{base}` + want + `"}`}})
		srv.Close()
	}
}

// Reversing another route carries the version the way each scheme puts
// it, and falls back to the plain name when the versioned lookup finds no
// route, as DRF does.
func TestReverseOtherRoutes(t *testing.T) {
	r, rt := chi.NewRouter(), reverse.New(reverse.Config{})
	s := sampleSettings()
	links := func(detail string) framework.HandlerFunc {
		return func(v *framework.View, r *request.Request) (*framework.Response, error) {
			out := map[string]string{}
			for _, name := range []string{detail, "top"} {
				u, err := reverse.Reverse(name, map[string]string{"pk": "7"}, r)
				if err != nil {
					return nil, err
				}
				out[name] = u
			}
			return framework.OK(out), nil
		}
	}
	use := func(scheme request.Versioner, detail string) http.Handler {
		return apitest.View(framework.View{Versioning: scheme, Get: links(detail)}, s)
	}
	rt.Handle(r, "/top/", use(nil, "top"), reverse.Named("top"))
	rt.Handle(r, "/books/{pk}/", use(nil, "top"), reverse.Named("plain-detail"))
	rt.Route(r, "/url/{version}", "", func(r chi.Router, rt *reverse.Routes) {
		rt.Handle(r, "/links/", use(versioning.URLPathVersioning{}, "url-detail"), reverse.Named("url-links"))
		rt.Handle(r, "/books/{pk}/", use(versioning.URLPathVersioning{}, "url-detail"), reverse.Named("url-detail"))
	})
	for _, ns := range []string{"v1", "v2"} {
		rt.Route(r, "/ns/"+ns+"/", ns, func(r chi.Router, rt *reverse.Routes) {
			rt.Handle(r, "/links/", use(versioning.NamespaceVersioning{}, "book-detail"), reverse.Named("links"))
			rt.Handle(r, "/books/{pk}/", use(versioning.NamespaceVersioning{}, "book-detail"), reverse.Named("book-detail"))
		})
	}
	rt.Handle(r, "/query/links/", use(versioning.QueryParameterVersioning{}, "plain-detail"), reverse.Named("query-links"))
	rt.Handle(r, "/host/links/", use(versioning.HostNameVersioning{}, "plain-detail"), reverse.Named("host-links"))
	srv := httptest.NewServer(r)
	defer srv.Close()
	check(t, srv, cases{
		{call{path: "/url/v2/links/"}, 200, `{"top":"{base}/top/","url-detail":"{base}/url/v2/books/7/"}`},
		{call{path: "/url/v1/links/?format=json"}, 200, `{"top":"{base}/top/?format=json","url-detail":"{base}/url/v1/books/7/?format=json"}`},
		{call{path: "/ns/v2/links/"}, 200, `{"book-detail":"{base}/ns/v2/books/7/","top":"{base}/top/"}`},
		{call{path: "/query/links/?version=v2"}, 200, `{"plain-detail":"{base}/books/7/?version=v2","top":"{base}/top/?version=v2"}`},
		{call{"/host/links/", map[string]string{"Host": "v2.example.com"}}, 200, `{"plain-detail":"http://v2.example.com/books/7/","top":"http://v2.example.com/top/"}`},
	})
}
