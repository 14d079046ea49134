package apidocs_test

import (
	"net/http"
	"os"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/schemas/apidocs"
)

// serve mounts p under /schema/ on a new API.
func serve(t *testing.T, p apidocs.Pages) *apitest.Client {
	api := framework.NewAPI(nil, framework.Settings{})
	p.Register(api, "/schema/")
	return apitest.New(t, api)
}

// TestUnavailable: without the files, both pages and the files answer a
// 503 that names the command installing them.
func TestUnavailable(t *testing.T) {
	c := serve(t, apidocs.Pages{Files: fstest.MapFS{"README.md": {Data: []byte("placeholder")}}})
	for path, want := range map[string]string{
		"/schema/swagger-ui/":                `{"detail":"Swagger UI (swagger-ui.css) is not installed in this binary: run scripts/install-docs-assets, then build again."}`,
		"/schema/redoc/":                     `{"detail":"Redoc (redoc.standalone.js) is not installed in this binary: run scripts/install-docs-assets, then build again."}`,
		"/schema/assets/redoc.standalone.js": `{"detail":"redoc.standalone.js is not installed in this binary: run scripts/install-docs-assets, then build again."}`,
	} {
		r := c.Get(path)
		if r.Status != http.StatusServiceUnavailable || r.Header.Get("Content-Type") != "application/json" || r.Body != want {
			t.Errorf("%s: %d %s %s", path, r.Status, r.Header.Get("Content-Type"), r.Body)
		}
	}
}

// files are stand-ins for the npm files.
var files = fstest.MapFS{
	"swagger-ui.css": {Data: []byte("body{}")}, "swagger-ui-bundle.js": {Data: []byte("// bundle")},
	"swagger-ui-standalone-preset.js": {Data: []byte("// preset")}, "redoc.standalone.js": {Data: []byte("// redoc")},
	"README.md": {Data: []byte("placeholder")},
}

// TestPages: each page loads its files from /schema/assets/ and offers
// the whole API's document and each version's; ?version= picks one.
func TestPages(t *testing.T) {
	c := serve(t, apidocs.Pages{Files: files, Title: "Bookshelf", Versions: func() []string { return []string{"v1", "v2"} }})
	r := c.Get("/schema/swagger-ui/?version=v2")
	for _, w := range []string{`<title>Bookshelf – Swagger UI</title>`, `<link rel="stylesheet" href="/schema/assets/swagger-ui.css">`,
		`<script src="/schema/assets/swagger-ui-bundle.js"></script>`,
		`{"urls":[{"url":"/schema/?format=openapi-json","name":"All versions"},{"url":"/schema/?format=openapi-json\u0026version=v1","name":"v1"},{"url":"/schema/?format=openapi-json\u0026version=v2","name":"v2"}],"urls.primaryName":"v2","validatorUrl":null,"deepLinking":true,"csrfCookie":"csrftoken"}`} {
		if !strings.Contains(r.Body, w) {
			t.Errorf("the Swagger UI page lacks %s:\n%s", w, r.Body)
		}
	}
	if r.Status != http.StatusOK || r.Header.Get("Content-Type") != "text/html; charset=utf-8" {
		t.Errorf("swagger-ui: %d %v", r.Status, r.Header)
	}
	r = c.Get("/schema/redoc/?version=v1")
	for _, w := range []string{`<redoc spec-url="/schema/?format=openapi-json&amp;version=v1"></redoc>`, `<script src="/schema/assets/redoc.standalone.js"></script>`,
		`<a href="?">All versions</a><strong>v1</strong><a href="?version=v2">v2</a>`} {
		if !strings.Contains(r.Body, w) {
			t.Errorf("the Redoc page lacks %s:\n%s", w, r.Body)
		}
	}
	if r := c.Get("/schema/redoc/?version=v9"); r.Status != http.StatusNotFound {
		t.Errorf("v9: %d", r.Status)
	}
	if r := c.Get("/schema/assets/redoc.standalone.js"); r.Status != http.StatusOK || r.Body != "// redoc" || !strings.HasPrefix(r.Header.Get("Content-Type"), "text/javascript") {
		t.Errorf("asset: %d %v %q", r.Status, r.Header, r.Body)
	}
	for _, p := range []string{"/schema/assets/README.md", "/schema/assets/..%2fapidocs.go"} {
		if r := c.Get(p); r.Status != http.StatusNotFound {
			t.Errorf("%s: %d", p, r.Status)
		}
	}
}

// TestEmbedded: after scripts/install-docs-assets the binary serves npm's
// files themselves.
func TestEmbedded(t *testing.T) {
	if _, err := os.Stat("assets/swagger-ui-bundle.js"); err != nil {
		t.Skip("run scripts/install-docs-assets to embed Swagger UI and Redoc")
	}
	c := serve(t, apidocs.Pages{})
	if r := c.Get("/schema/assets/swagger-ui-bundle.js"); r.Status != http.StatusOK || len(r.Body) < 100000 {
		t.Errorf("%d, %d bytes", r.Status, len(r.Body))
	}
	if r := c.Get("/schema/redoc/"); r.Status != http.StatusOK {
		t.Errorf("redoc: %d %s", r.Status, r.Body)
	}
	for _, licence := range []string{"swagger-ui.LICENSE", "redoc.LICENSE"} {
		if r := c.Get("/schema/assets/" + licence); r.Status != http.StatusOK || !strings.Contains(r.Body, "License") && !strings.Contains(r.Body, "LICENSE") {
			t.Errorf("%s: %d %.80s", licence, r.Status, r.Body)
		}
	}
}
