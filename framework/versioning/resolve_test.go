package versioning_test

import (
	"errors"
	"net/http/httptest"
	"net/url"
	"testing"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/exceptions"
	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/framework/reverse"
	"github.com/go-drf/drf/framework/versioning"
)

// resolver answers the resolution of ?url= and its reverse in version ?to=.
func resolver(v *framework.View, r *request.Request) (*framework.Response, error) {
	res, err := versioning.Resolve(r.URL.Query().Get("url"), v, r)
	var none *reverse.NoResolveMatch
	if errors.As(err, &none) {
		return nil, exceptions.NotFound(err.Error())
	}
	if err != nil {
		return nil, err
	}
	to, err := reverse.ReverseVersion(r.URL.Query().Get("to"), res.Name, res.Params, res.Query, r)
	if err != nil {
		return nil, err
	}
	return framework.OK(struct {
		Name    string            `json:"name"`
		Params  map[string]string `json:"params"`
		Version string            `json:"version"`
		To      string            `json:"to"`
	}{res.Name, res.Params, res.Version, to}), nil
}

// resolveServer has a book route and a resolver route per scheme.
func resolveServer(t *testing.T) *httptest.Server {
	api := framework.NewAPI(nil, sampleSettings())
	handle := func(scheme request.Versioner, book, resolve, name string) {
		api.Handle(book, framework.View{Versioning: scheme, Get: info}, framework.Named(name))
		api.Handle(resolve, framework.View{Versioning: scheme, Get: resolver})
	}
	handle(versioning.URLPathVersioning{}, "/url/{version}/books/{pk}/", "/url/{version}/resolve/", "url-book")
	handle(versioning.QueryParameterVersioning{}, "/query/books/{pk}/", "/query/resolve/", "query-book")
	handle(versioning.HostNameVersioning{}, "/host/books/{pk}/", "/host/resolve/", "host-book")
	handle(versioning.AcceptHeaderVersioning{}, "/accept/books/{pk}/", "/accept/resolve/", "accept-book")
	for _, ns := range []string{"v1", "v2"} {
		api.Route("/ns/"+ns, ns, func(api *framework.API) {
			api.Handle("/books/{pk}/", framework.View{Versioning: versioning.NamespaceVersioning{}, Get: info}, framework.Named("book"))
			api.Handle("/resolve/", framework.View{Versioning: versioning.NamespaceVersioning{}, Get: resolver})
		})
	}
	api.Handle("/books/new/", framework.View{Get: info}, framework.Named("book-new"))
	srv := httptest.NewServer(api)
	t.Cleanup(srv.Close)
	return srv
}

// TestResolveAndReverseAcrossVersions: a URL of any version resolves to
// its route, parameters and version, and reverses into another version.
func TestResolveAndReverseAcrossVersions(t *testing.T) {
	srv := resolveServer(t)
	q := func(u, to string) string { return "?" + url.Values{"url": {u}, "to": {to}}.Encode() }
	check(t, srv, cases{
		{call{"/url/v1/resolve/" + q("/url/v2/books/5/", "v1"), nil}, 200,
			`{"name":"url-book","params":{"pk":"5"},"version":"v2","to":"{base}/url/v1/books/5/"}`},
		{call{"/url/v1/resolve/" + q("http://elsewhere.example/url/v1/books/a%20b/", "v2"), nil}, 200,
			`{"name":"url-book","params":{"pk":"a b"},"version":"v1","to":"{base}/url/v2/books/a%20b/"}`},
		{call{"/ns/v1/resolve/" + q("/ns/v2/books/7/", "v1"), nil}, 200,
			`{"name":"book","params":{"pk":"7"},"version":"v2","to":"{base}/ns/v1/books/7/"}`},
		{call{"/ns/v2/resolve/" + q("/ns/v1/books/7/", "v2"), nil}, 200,
			`{"name":"book","params":{"pk":"7"},"version":"v1","to":"{base}/ns/v2/books/7/"}`},
		{call{"/query/resolve/" + q("/query/books/5/?version=v2&x=1", "v1"), nil}, 200,
			`{"name":"query-book","params":{"pk":"5"},"version":"v2","to":"{base}/query/books/5/?version=v1&x=1"}`},
		{call{"/query/resolve/" + q("/query/books/5/", "v2"), nil}, 200,
			`{"name":"query-book","params":{"pk":"5"},"version":"v1","to":"{base}/query/books/5/?version=v2"}`},
		{call{"/host/resolve/" + q("http://v2.example.com/host/books/5/", "v2"), map[string]string{"Host": "v1.example.com:8000"}}, 200,
			`{"name":"host-book","params":{"pk":"5"},"version":"v2","to":"http://v2.example.com:8000/host/books/5/"}`},
		{call{"/host/resolve/" + q("/host/books/5/", "v1"), map[string]string{"Host": "v1.example.com"}}, 200,
			`{"name":"host-book","params":{"pk":"5"},"version":"v1","to":"http://v1.example.com/host/books/5/"}`},
		{call{"/accept/resolve/" + q("/accept/books/5/", "v2"), nil}, 200,
			`{"name":"accept-book","params":{"pk":"5"},"version":"v1","to":"{base}/accept/books/5/"}`},
		// The static route wins over a parameter, as in chi.
		{call{"/accept/resolve/" + q("/books/new/", "v2"), nil}, 200,
			`{"name":"book-new","params":{},"version":"v1","to":"{base}/books/new/"}`},
		{call{"/url/v1/resolve/" + q("/url/v9/books/5/", "v1"), nil}, 404, `{"detail":"Invalid version in URL path."}`},
		{call{"/query/resolve/" + q("/query/books/5/?version=v9", "v1"), nil}, 404, `{"detail":"Invalid version in query parameter."}`},
		{call{"/url/v1/resolve/" + q("/url/v1/books/5/extra/", "v1"), nil}, 404, `{"detail":"resolve: no named route matches \"/url/v1/books/5/extra/\""}`},
		{call{"/url/v1/resolve/" + q("/url/v1/books//", "v1"), nil}, 404, `{"detail":"resolve: no named route matches \"/url/v1/books//\""}`},
	})
}
