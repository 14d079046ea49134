package versioning_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/go-drf/drf/framework"
)

// drfHostnameRegex is HostNameVersioning.hostname_regex in DRF.
var drfHostnameRegex = regexp.MustCompile(`^([a-zA-Z0-9]+)\.[a-zA-Z0-9]+\.[a-zA-Z0-9]+$`)

// fuzzServer is the sample's versioning routes, served in process.
func fuzzServer() http.Handler {
	return newAPI(sampleSettings())
}

// serve returns the status and, for a 200, the version answered.
func serve(t *testing.T, h http.Handler, req *http.Request) (int, string) {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusOK {
		return rec.Code, ""
	}
	var body struct{ Version string }
	if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil {
		t.Fatalf("200 with a body that is not JSON: %q", rec.Body.String())
	}
	return rec.Code, body.Version
}

// FuzzHostVersion sends any Host to host-name versioning: the answer is
// the default version when the name (without port) does not match the
// default pattern, the named version when it matches an allowed one, and
// 404 otherwise; never a panic or a 500.
func FuzzHostVersion(f *testing.F) {
	for _, h := range []string{"v2.example.com", "v3.example.com:80", "10.0.0.1"} {
		f.Add(h)
	}
	h := fuzzServer()
	f.Fuzz(func(t *testing.T, host string) {
		req := httptest.NewRequest(http.MethodGet, "/host/info/", nil)
		req.Host = host
		req.Header.Set("Accept", "application/json")
		status, version := serve(t, h, req)

		name, _, _ := strings.Cut(host, ":")
		wantStatus, wantVersion := http.StatusOK, "v1"
		if m := drfHostnameRegex.FindStringSubmatch(name); m != nil {
			wantVersion = m[1]
			if m[1] != "v1" && m[1] != "v2" {
				wantStatus, wantVersion = http.StatusNotFound, ""
			}
		}
		if status != wantStatus || version != wantVersion {
			t.Fatalf("Host %q: got %d %q, want %d %q", host, status, version, wantStatus, wantVersion)
		}
	})
}

// FuzzAcceptVersion sends any Accept header to Accept-header versioning,
// through content negotiation and framework.ParseMediaType: the answer is
// 200 with an allowed version or 406, never a panic or a 500.
func FuzzAcceptVersion(f *testing.F) {
	for _, a := range []string{"application/json; version=v2", "*/*", "text/html; version=v1"} {
		f.Add(a)
	}
	h := fuzzServer()
	f.Fuzz(func(t *testing.T, accept string) {
		framework.ParseMediaType(accept)
		req := httptest.NewRequest(http.MethodGet, "/accept/info/", nil)
		req.Header.Set("Accept", accept)
		switch status, version := serve(t, h, req); {
		case status == http.StatusOK && (version == "v1" || version == "v2"):
		case status == http.StatusNotAcceptable:
		default:
			t.Fatalf("Accept %q: got %d %q", accept, status, version)
		}
	})
}
