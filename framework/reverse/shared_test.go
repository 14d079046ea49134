package reverse_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/framework/reverse"
	"github.com/go-drf/drf/framework/versioning"
)

// DRF's test_reverse_url_path_versioning: "another" is both "/another/"
// and "/<version>/another/"; with URLPathVersioning, a request of v1
// reverses it to the versioned URL, one without a version to the plain
// one, and a name whose pattern has no version falls back to it.
func TestSharedNameByArguments(t *testing.T) {
	api := framework.NewAPI(nil, framework.Settings{Versioning: versioning.URLPathVersioning{}})
	view := framework.View{Get: func(v *framework.View, r *request.Request) (*framework.Response, error) {
		name := r.QueryParam("name")
		var params map[string]string
		if foo := r.QueryParam("foo"); foo != "" {
			params = map[string]string{"foo": foo}
		}
		u, err := reverse.Reverse(name, params, r)
		if err != nil {
			return nil, err
		}
		return framework.OK(map[string]string{"url": u}), nil
	}}
	api.Handle("/another/", view, framework.Named("another"))
	api.Handle("/{version:v1|v2}/another/", view, framework.Named("another"))
	api.Handle("/{foo}/unversioned/", view, framework.Named("unversioned"))
	c := apitest.New(t, api)
	for path, want := range map[string]string{
		"/v1/another/?name=another":             `{"url":"http://testserver/v1/another/"}`,
		"/another/?name=another":                `{"url":"http://testserver/another/"}`,
		"/v1/another/?name=unversioned&foo=bar": `{"url":"http://testserver/bar/unversioned/"}`,
		"/v2/another/?name=another":             `{"url":"http://testserver/v2/another/"}`,
		"/x/unversioned/?name=another":          `{"url":"http://testserver/another/"}`,
	} {
		if r := c.Get(path); r.Status != 200 || r.Body != want {
			t.Errorf("%s: %d %s, want %s", path, r.Status, r.Body, want)
		}
	}
	rt := api.Routes()
	for _, tc := range []struct {
		params map[string]string
		want   string
	}{
		{nil, "/another/"},
		{map[string]string{"version": "v2"}, "/v2/another/"},
		{map[string]string{"version": "v3"}, "/another/"}, // v3 does not fit the pattern: the other is taken, its extra parameter ignored
		{map[string]string{"other": "x"}, "/another/"},
	} {
		if p, err := rt.Path("another", tc.params); err != nil || p != tc.want {
			t.Errorf("Path(another, %v) = %q, %v; want %q", tc.params, p, err, tc.want)
		}
	}
	// Resolve finds each of them.
	for path, pattern := range map[string]string{"/another/": "/another/", "/v1/another/": "/{version:v1|v2}/another/"} {
		if m, err := rt.Resolve(path); err != nil || m.Name != "another" || m.Pattern != pattern {
			t.Errorf("Resolve(%s) = %+v, %v", path, m, err)
		}
	}
	if got := fmt.Sprint(rt.Names()); got != "[another unversioned]" {
		t.Errorf("names: %s", got)
	}
}

// The same name given twice to the same pattern is a mistake (a router
// mounted twice), refused at registration.
func TestSameNameSamePattern(t *testing.T) {
	api := framework.NewAPI(nil, framework.Settings{})
	api.Handle("/a/", framework.View{}, framework.Named("a"))
	defer func() {
		if msg := fmt.Sprint(recover()); !strings.Contains(msg, `route name "a" is already given to /a/`) {
			t.Errorf("panic: %s", msg)
		}
	}()
	api.Handle("/a/", framework.View{}, framework.Named("a"))
}
