package framework_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/framework/reverse"
)

// self answers the absolute URL of the route that matched.
func self(v *framework.View, r *request.Request) (*framework.Response, error) {
	m, _ := reverse.MatchOf(r.Request)
	u, err := reverse.Reverse(strings.TrimPrefix(m.Namespace+":"+m.Name, ":"), nil, r)
	if err != nil {
		return nil, err
	}
	return framework.OK(map[string]string{"self": u, "view": v.Name}), nil
}

func TestAPIRegistersNamedRoutesAndInheritsSettings(t *testing.T) {
	api := framework.NewAPI(nil, framework.Settings{
		Permissions:           framework.Permissions(framework.IsAuthenticated{}),
		TrustForwardedHeaders: true,
	})
	api.Handle("/closed/", framework.View{Get: self}, framework.Named("closed"))
	api.Route("/v1", "v1", func(api *framework.API) {
		api.Handle("/open/", framework.View{Name: "Open", Permissions: framework.Permissions(), Get: self}, framework.Named("open"))
	})
	if got := strings.Join(api.Routes().Names(), ","); got != "closed,v1:open" {
		t.Fatalf("names %s", got)
	}
	resp, _ := do(t, api, "GET", "/closed/", nil, "")
	if resp.Status != 403 {
		t.Errorf("the global permission is not inherited: %d", resp.Status)
	}
	resp, body := do(t, api, "GET", "/v1/open/", map[string]string{"X-Forwarded-Host": "api.example.com"}, "")
	if resp.Status != 200 || body["self"] != "http://api.example.com/v1/open/" || body["view"] != "Open" {
		t.Errorf("open: %d %v", resp.Status, body)
	}
}

// Two patterns may share a name (Django's, reversed by their arguments:
// framework/reverse's TestSharedNameByArguments), but one pattern named
// twice is refused.
func TestAPIRejectsATakenName(t *testing.T) {
	api := framework.NewAPI(nil, framework.Settings{})
	api.Handle("/a/", framework.View{Get: self}, framework.Named("a"))
	api.Handle("/{x}/a/", framework.View{Get: self}, framework.Named("a"))
	defer func() {
		if recover() == nil {
			t.Error("a route named twice did not panic")
		}
	}()
	api.Handle("/a/", framework.View{Get: self}, framework.Named("a"))
}

// A View is configuration: compiling it changes nothing in it, and one
// value can be registered twice with different settings.
func TestViewIsPlainConfiguration(t *testing.T) {
	v := framework.View{Get: self}
	open := framework.NewAPI(nil, framework.Settings{})
	closed := framework.NewAPI(nil, framework.Settings{Permissions: framework.Permissions(framework.IsAdminUser{})})
	open.Handle("/x/", v, framework.Named("x"))
	closed.Handle("/x/", v, framework.Named("x"))
	if v.Permissions.IsSet() || v.Options != nil {
		t.Errorf("registration changed the view: %+v", v)
	}
	if resp, _ := do(t, open, "GET", "/x/", nil, ""); resp.Status != 200 {
		t.Errorf("open: %d", resp.Status)
	}
	if resp, _ := do(t, closed, "GET", "/x/", nil, ""); resp.Status != 403 {
		t.Errorf("closed: %d", resp.Status)
	}
}

// APPEND_SLASH as Django's CommonMiddleware: a miss without the final
// slash goes (301, query kept, no body) to the slashed path when that one
// has a route; other misses get Django's 404 page.
func TestAppendSlash(t *testing.T) {
	api := framework.NewAPI(nil, framework.Settings{})
	api.Handle("/books/", framework.View{Get: self})
	api.Route("/ns", "", func(api *framework.API) { api.Handle("/info/", framework.View{Get: self}) })
	client := apitest.New(t, api)
	for _, c := range []struct {
		method, path string
		status       int
		location     string
	}{
		{"GET", "/books?page=2&x=%20", 301, "/books/?page=2&x=%20"},
		{"POST", "/books", 301, "/books/"},
		{"GET", "/ns/info", 301, "/ns/info/"},
		{"GET", "/nope", 404, ""},
		{"GET", "/nope/", 404, ""},
		{"GET", "/ns/nope", 404, ""},
	} {
		resp := client.Do(c.method, c.path, "")
		if resp.Status != c.status || resp.Header.Get("Location") != c.location {
			t.Errorf("%s %s: %d %q, want %d %q", c.method, c.path, resp.Status, resp.Header.Get("Location"), c.status, c.location)
		}
		if c.status == 301 && (resp.Body != "" || resp.Header.Get("Content-Type") != "text/html; charset=utf-8") {
			t.Errorf("%s: redirect body %q %q", c.path, resp.Body, resp.Header.Get("Content-Type"))
		}
	}

	off := framework.NewAPI(nil, framework.Settings{DisableAppendSlash: true})
	off.Handle("/books/", framework.View{Get: self})
	off.NotFound(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { http.Error(w, "gone", http.StatusGone) }))
	if r := apitest.New(t, off).Get("/books"); r.Status != 410 || r.Body != "gone\n" {
		t.Errorf("without APPEND_SLASH: %d %q", r.Status, r.Body)
	}
}

// Endpoints lists the views registered, children's included, with their
// full patterns and effective policies; WithMiddleware wraps a view's
// handler and keeps the route the view's.
func TestEndpoints(t *testing.T) {
	api := framework.NewAPI(nil, framework.Settings{Permissions: framework.Permissions(framework.IsAuthenticated{})})
	stamp := func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("X-Stamp", "yes")
			next.ServeHTTP(w, r)
		})
	}
	api.Handle("/a/", framework.View{Name: "A", Permissions: framework.Permissions(), Get: self}, framework.Named("a"), framework.WithMiddleware(stamp))
	api.Route("/v1", "v1", func(api *framework.API) {
		api.Handle("/b/{pk}/", framework.View{Name: "B", Get: self}, framework.Named("b"))
		api.HandleHTTP("/page/", http.NotFoundHandler())
	})
	var got []string
	for _, e := range api.Endpoints() {
		got = append(got, e.Pattern+" "+e.Namespace+":"+e.Name+" "+e.View.Name+" "+fmt.Sprint(len(e.View.Permissions.Items())))
	}
	if s := strings.Join(got, "; "); s != "/a/ :a A 0; /v1/b/{pk}/ v1:b B 1" {
		t.Errorf("endpoints %s", s)
	}
	resp := apitest.New(t, api).Get("/a/")
	if resp.Status != 200 || resp.Header.Get("X-Stamp") != "yes" || resp.JSON()["view"] != "A" {
		t.Errorf("/a/: %d %v %s", resp.Status, resp.Header, resp.Body)
	}
}

// EndpointAt finds the view a GET of a path reaches through the API's
// endpoints: in Route children, behind WithMiddleware, at a format
// suffix; not a page mounted with HandleHTTP, nor a path that fills a
// parameter with nothing.
func TestEndpointAt(t *testing.T) {
	api := framework.NewAPI(nil, framework.Settings{})
	pass := func(next http.Handler) http.Handler { return next }
	api.Handle("/books/", framework.View{Name: "List", Get: self}, framework.WithMiddleware(pass))
	api.Handle("/books/{pk:[0-9]+}/", framework.View{Name: "Detail", Get: self}, framework.FormatSuffixes())
	api.Route("/ns/{version}", "v", func(api *framework.API) {
		api.Handle("/info/", framework.View{Name: "Info", Get: self}, framework.Named("info"))
	})
	api.HandleHTTP("/page/", http.NotFoundHandler())
	api.Handle("/probe/", framework.View{Get: func(v *framework.View, r *request.Request) (*framework.Response, error) {
		var got []string
		for _, p := range []string{"/books/", "/books/7/", "/books/7.json", "/books/x/", "/books//", "/ns/v2/info/", "/ns/v2/", "/page/", "/nowhere/"} {
			name := "none"
			if e, ok := v.EndpointAt(r.Request, p); ok {
				name = e.View.Name
			}
			got = append(got, p+"="+name)
		}
		return framework.OK(strings.Join(got, " ")), nil
	}})
	want := "/books/=List /books/7/=Detail /books/7.json=Detail /books/x/=none /books//=none /ns/v2/info/=Info /ns/v2/=none /page/=none /nowhere/=none"
	if r := apitest.New(t, api).Get("/probe/"); r.Status != 200 || r.Body != `"`+want+`"` {
		t.Errorf("%d %s\nwant %s", r.Status, r.Body, want)
	}
	v := framework.View{Name: "Unmounted"}
	if _, ok := v.EndpointAt(httptest.NewRequest(http.MethodGet, "/books/", nil), "/books/"); ok {
		t.Error("a view no API compiled found an endpoint")
	}
}
