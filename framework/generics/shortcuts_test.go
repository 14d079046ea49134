package generics_test

import (
	"testing"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/generics"
	"github.com/go-drf/drf/framework/request"
	qt "github.com/go-drf/drf/internal/querysettest"
)

// A hand-written detail view with GetObjectOr404 answers as DRF's
// get_object_or_404 (raising Http404): the item, else 404 "Not found." at
// DRF 3.14 level and Django's own wording after; a pk that is no integer
// is a 404 too.
func TestGetObjectOr404(t *testing.T) {
	f := qt.Open(t, 3)
	view := framework.View{Get: func(v *framework.View, r *request.Request) (*framework.Response, error) {
		b, err := generics.GetObjectOr404(v, r, f.Books, "id", r.PathValue("pk"))
		if err != nil {
			return nil, err
		}
		return framework.OK(map[string]any{"title": b.Title}), nil
	}}
	for _, tc := range []struct {
		compat     framework.Compatibility
		path, want string
		status     int
	}{
		{framework.DRF314, "/books/2/", `{"title":"Book 002"}`, 200},
		{framework.DRF314, "/books/9/", `{"detail":"Not found."}`, 404},
		{framework.DRF314, "/books/abc/", `{"detail":"Not found."}`, 404},
		{framework.DRF318, "/books/9/", `{"detail":"No Book matches the given query."}`, 404},
		{framework.DRF318, "/books/abc/", `{"detail":"Not found."}`, 404},
	} {
		api := framework.NewAPI(f.DB, framework.Settings{Compatibility: tc.compat})
		api.Handle("/books/{pk}/", view)
		if r := apitest.New(t, api).Get(tc.path); r.Status != tc.status || r.Body != tc.want {
			t.Errorf("%v %s: %d %s, want %d %s", tc.compat, tc.path, r.Status, r.Body, tc.status, tc.want)
		}
	}
}
