package versioning_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/exceptions"
	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/framework/versioning"
)

// lifecycleAPI serves /url/{version}/items/{pk}/ (and its format-suffixed
// twins) and the same route in the namespaces v1 and v2, v1 deprecated in
// favour of v2; item 0 is 404.
func lifecycleAPI() *framework.API {
	since := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	sunset := time.Date(2027, 6, 30, 23, 59, 59, 0, time.FixedZone("CEST", 2*3600))
	deprecated := map[string]versioning.Deprecation{"v1": {Since: since, Sunset: sunset, Successor: "v2", Policy: "https://example.com/deprecations/v1"}}
	item := func(scheme request.Versioner) framework.View {
		return framework.View{
			Versioning: versioning.Lifecycle{Scheme: scheme, Deprecated: deprecated},
			Get: func(v *framework.View, r *request.Request) (*framework.Response, error) {
				if r.URL.Query().Get("missing") != "" {
					return nil, exceptions.NotFound()
				}
				return framework.OK(map[string]string{"version": r.Version()}), nil
			},
		}
	}
	api := framework.NewAPI(nil, sampleSettings())
	api.Handle("/url/{version}/items/{pk}/", item(versioning.URLPathVersioning{}), framework.Named("item"), framework.FormatSuffixes())
	for _, ns := range []string{"v1", "v2"} {
		api.Route("/ns/"+ns, ns, func(api *framework.API) {
			api.Handle("/items/{pk}/", item(versioning.NamespaceVersioning{}), framework.Named("item"))
		})
	}
	api.Handle("/query/items/", item(versioning.QueryParameterVersioning{}), framework.Named("query-item"))
	return api
}

// TestLifecycle: the answers of v1, successes and errors, carry
// Deprecation (RFC 9745), Sunset (RFC 8594) and the successor's URL;
// v2's carry none; an unknown version is refused as the scheme refuses it.
func TestLifecycle(t *testing.T) {
	c := apitest.New(t, lifecycleAPI())
	const deprecation, sunset = "@1767225600", "Wed, 30 Jun 2027 21:59:59 GMT"
	policy := `<https://example.com/deprecations/v1>; rel="deprecation"; type="text/html"`
	cases := []struct {
		path      string
		status    int
		successor string
	}{
		{"/url/v1/items/5/", 200, "http://testserver/url/v2/items/5/"},
		// The successor keeps the request's format suffix.
		{"/url/v1/items/5.json", 200, "http://testserver/url/v2/items/5.json"},
		{"/url/v1/items/5/?missing=1&page=2", 404, "http://testserver/url/v2/items/5/?missing=1&page=2"},
		{"/ns/v1/items/7/", 200, "http://testserver/ns/v2/items/7/"},
		{"/query/items/?version=v1&page=3", 200, "http://testserver/query/items/?page=3&version=v2"},
		// No version: the default, v1.
		{"/query/items/", 200, "http://testserver/query/items/?version=v2"},
	}
	for _, tc := range cases {
		r := c.Get(tc.path)
		links := r.Header.Values("Link")
		if r.Status != tc.status || r.Header.Get("Deprecation") != deprecation || r.Header.Get("Sunset") != sunset ||
			len(links) != 2 || links[0] != "<"+tc.successor+`>; rel="successor-version"` || links[1] != policy {
			t.Errorf("%s: %d Deprecation %q Sunset %q Link %q", tc.path, r.Status, r.Header.Get("Deprecation"), r.Header.Get("Sunset"), links)
		}
	}
	for _, path := range []string{"/url/v2/items/5/", "/ns/v2/items/7/", "/query/items/?version=v2", "/url/v9/items/5/"} {
		r := c.Get(path)
		if h := r.Header; h.Get("Deprecation") != "" || h.Get("Sunset") != "" || h.Get("Link") != "" {
			t.Errorf("%s: %d %v", path, r.Status, h)
		}
	}
	if r := c.Get("/url/v9/items/5/"); r.Status != http.StatusNotFound || r.Body != `{"detail":"Invalid version in URL path."}` {
		t.Errorf("v9: %d %s", r.Status, r.Body)
	}
	if s := versioning.Scheme(versioning.Lifecycle{Scheme: versioning.URLPathVersioning{}}); s != (versioning.URLPathVersioning{}) {
		t.Errorf("Scheme: %T", s)
	}
}
