package reverse_test

import (
	"testing"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/framework/reverse"
	"github.com/go-drf/drf/framework/versioning"
)

// Link keeps the request's format suffix and version, as DRF's reverse
// with format=view.format_kwarg: a route mounted with its twins links
// suffixed, one without them plainly (where DRF fails), and the caller's
// params are left as given.
func TestLinkKeepsFormatSuffix(t *testing.T) {
	api := framework.NewAPI(nil, framework.Settings{Versioning: versioning.URLPathVersioning{}})
	params := map[string]string{"pk": "7"}
	view := framework.View{Get: func(v *framework.View, r *request.Request) (*framework.Response, error) {
		u, err := reverse.Link(r.QueryParam("name"), params, r)
		if err != nil {
			return framework.OK(map[string]string{"error": err.Error(), "suffix": r.FormatSuffix()}), nil
		}
		return framework.OK(map[string]string{"url": u, "suffix": r.FormatSuffix()}), nil
	}}
	api.Handle("/{version}/books/{pk}/", view, framework.Named("book"), framework.FormatSuffixes())
	api.Handle("/{version}/plain/{pk}/", view, framework.Named("plain"))
	c := apitest.New(t, api)
	for path, want := range map[string]string{
		"/v1/books/1/?name=book":             `{"suffix":"","url":"http://testserver/v1/books/7/"}`,
		"/v2/books/1.json?name=book":         `{"suffix":"json","url":"http://testserver/v2/books/7.json"}`,
		"/v2/books/1.json/?name=book":        `{"suffix":"json","url":"http://testserver/v2/books/7.json"}`,
		"/v1/books/1/?name=book&format=json": `{"suffix":"","url":"http://testserver/v1/books/7/?format=json"}`,
		"/v1/plain/1/?name=book":             `{"suffix":"","url":"http://testserver/v1/books/7/"}`,
		"/v1/books/1.json?name=plain":        `{"suffix":"json","url":"http://testserver/v1/plain/7/"}`,
		"/v1/books/1.json?name=none":         `{"error":"reverse for \"none\" with params map[format:json pk:7] not found: no route has that name","suffix":"json"}`,
	} {
		if r := c.Get(path); r.Status != 200 || r.Body != want {
			t.Errorf("%s: %d %s\nwant %s", path, r.Status, r.Body, want)
		}
	}
	if len(params) != 1 || params["pk"] != "7" {
		t.Errorf("Link changed the caller's params: %v", params)
	}
}
