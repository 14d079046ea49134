package browsable_test

import (
	"io"
	"net/http"
	"testing"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/request"
)

// A 204 answer (a DELETE's) rendered as a page is answered 200, so that
// the page reaches the browser (HTTP gives a 204 no body), and the page
// shows the 204, as DRF's renderer does; in JSON it stays 204.
func TestNoContentPageIsOK(t *testing.T) {
	srv := serve(t, framework.View{
		Get: func(*framework.View, *request.Request) (*framework.Response, error) { return framework.OK(nil), nil },
		Delete: func(*framework.View, *request.Request) (*framework.Response, error) {
			return framework.NoContent(), nil
		},
	})
	for _, tc := range []struct {
		accept, contentType string
		status              int
	}{
		{"text/html", "text/html; charset=utf-8", http.StatusOK},
		{"application/json", "", http.StatusNoContent},
	} {
		req, err := http.NewRequest(http.MethodDelete, srv.URL+"/books/1/", nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Accept", tc.accept)
		resp, err := srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tc.status || resp.Header.Get("Content-Type") != tc.contentType || resp.Header.Get("Allow") != "GET, DELETE, HEAD, OPTIONS" {
			t.Errorf("DELETE, Accept %s: %d %q %q, want %d %q", tc.accept, resp.StatusCode, resp.Header.Get("Content-Type"), resp.Header.Get("Allow"), tc.status, tc.contentType)
		}
		if tc.status == http.StatusOK {
			mustContain(t, string(b), "<b>DELETE</b> /books/1/", "<b>HTTP 204 No Content</b>")
		} else if len(b) != 0 {
			t.Errorf("the JSON 204 has a body: %q", b)
		}
	}
}
