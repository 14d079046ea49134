package framework_test

import (
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/accesslog"
	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/request"
)

// TestContentLength: every answer carries the Content-Length of its body,
// as DRF's do, whether the framework writes it or leaves it to net/http's
// server (small bodies written whole): served over TCP behind runserver's
// access log and security headers, for GET and HEAD, on both sides of
// the server's 2 KB buffer, never chunked, and whatever Content-Length
// the view's own headers carry; and into a ResponseRecorder, which
// computes nothing.
func TestContentLength(t *testing.T) {
	view := apitest.View(framework.View{Get: func(v *framework.View, r *request.Request) (*framework.Response, error) {
		n, _ := strconv.Atoi(r.URL.Query().Get("n"))
		resp := framework.OK(json.RawMessage(`"` + strings.Repeat("a", n-2) + `"`))
		if r.URL.Query().Has("wrong") {
			resp.Header = http.Header{"Content-Length": {"999"}}
		}
		return resp, nil
	}})
	logger := slog.New(slog.DiscardHandler)
	srv := httptest.NewServer(accesslog.New(logger, framework.SecurityHeaders(view)))
	defer srv.Close()
	for _, n := range []int{2, 107, 2047, 2048, 2049, 4096, 5000, 100000} {
		for _, q := range []string{"GET ", "HEAD ", "GET &wrong", "HEAD &wrong"} {
			method, wrong, _ := strings.Cut(q, " ")
			req, _ := http.NewRequest(method, srv.URL+"/?n="+strconv.Itoa(n)+wrong, nil)
			resp, err := srv.Client().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			wantBody := n
			if method == "HEAD" {
				wantBody = 0
			}
			if resp.StatusCode != 200 || resp.ContentLength != int64(n) || resp.TransferEncoding != nil || len(body) != wantBody {
				t.Errorf("%s of %d bytes%s: %d, Content-Length %d, Transfer-Encoding %q, %d bytes",
					method, n, wrong, resp.StatusCode, resp.ContentLength, resp.TransferEncoding, len(body))
			}
			if got := resp.Header.Values("Content-Length"); len(got) != 1 || got[0] != strconv.Itoa(n) {
				t.Errorf("%s of %d bytes%s: Content-Length lines %q", method, n, wrong, got)
			}
		}
		w := httptest.NewRecorder()
		view.ServeHTTP(w, httptest.NewRequest("GET", "/?n="+strconv.Itoa(n), nil))
		if w.Body.Len() != n || w.Header().Get("Content-Length") != strconv.Itoa(n) {
			t.Errorf("recorded %d bytes: %d bytes, Content-Length %q", n, w.Body.Len(), w.Header().Get("Content-Length"))
		}
	}
}
