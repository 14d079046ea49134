package sample_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"testing"

	"github.com/go-drf/drf/framework/store"
	"github.com/go-drf/drf/sample"
)

// TestResolveBadURL: a ?url= that does not parse is 400 "Enter a valid
// URL." (Django's URLValidator's words), not a 500.
func TestResolveBadURL(t *testing.T) {
	c := serve(t, newDB(t))
	for _, u := range []string{"%0D%0A", "%25zz", "%7F", "%09", "http://[::1", "http://%zz/"} {
		path := "/beyond/url/v1/resolve/?url=" + u
		if r := c.Get(path); r.Status != 400 || r.Body != `{"detail":"Enter a valid URL."}` {
			t.Errorf("%s: %d %s", path, r.Status, r.Body)
		}
	}
}

// FuzzResolve sends any url and to to /beyond/url/{version}/resolve/: the
// answer is 200, 400 or 404, never a 500.
func FuzzResolve(f *testing.F) {
	for _, s := range [][2]string{{"/url/v2/books/3/", "v1"}, {"%0D%0A", ""}, {"http://[::1", "v2"},
		{"/url/v1/books/%2F/", "v2"}, {"/url/v1/books/1/?version=%zz", ""}, {"//x/url/v1/books/", "v3"}} {
		f.Add(s[0], s[1])
	}
	db, err := store.Open(filepath.Join(f.TempDir(), "db.sqlite3"))
	if err != nil {
		f.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	if err := sample.Migrate(ctx, db); err != nil {
		f.Fatal(err)
	}
	if err := sample.Seed(ctx, db, 3); err != nil {
		f.Fatal(err)
	}
	h, err := sample.New(ctx, db)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, u, to string) {
		target := "/beyond/url/v1/resolve/?" + url.Values{"url": {u}, "to": {to}}.Encode()
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "http://testserver"+target, nil))
		switch rec.Code {
		case http.StatusOK, http.StatusBadRequest, http.StatusNotFound:
		default:
			t.Fatalf("url %q to %q: %d %s", u, to, rec.Code, rec.Body)
		}
	})
}
