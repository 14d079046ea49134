package apidocs_test

import (
	"compress/gzip"
	"io"
	"mime"
	"net/http"
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

// TestMisconfigured: Files lacking a file the pages load, or holding a
// NAME.gz that is not gzip, fails at registration, naming the file.
func TestMisconfigured(t *testing.T) {
	for want, files := range map[string]fstest.MapFS{
		"apidocs: Pages.Files: swagger-ui.css: file does not exist": {"README.md": {Data: []byte("placeholder")}},
		"apidocs: Pages.Files: redoc.standalone.js.gz: gzip: invalid header": {
			"swagger-ui.css": {Data: []byte("body{}")}, "swagger-ui-bundle.js": {Data: []byte("// bundle")},
			"swagger-ui-standalone-preset.js": {Data: []byte("// preset")}, "redoc.standalone.js.gz": {Data: []byte("// not gzipped after all")},
		},
	} {
		func() {
			defer func() {
				if got := recover(); got != want {
					t.Errorf("panic %v, want %s", got, want)
				}
			}()
			serve(t, apidocs.Pages{Files: files})
		}()
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
	for _, p := range []string{"/schema/swagger-ui/", "/schema/assets/redoc.standalone.js"} {
		if r := c.Post(p, "{}"); r.Status != http.StatusMethodNotAllowed || r.Header.Get("Allow") != "GET, HEAD" {
			t.Errorf("POST %s: %d %v", p, r.Status, r.Header)
		}
	}
	for _, p := range []string{"/schema/assets/README.md", "/schema/assets/..%2fapidocs.go"} {
		if r := c.Get(p); r.Status != http.StatusNotFound {
			t.Errorf("%s: %d", p, r.Status)
		}
	}
}

// TestEmbedded: every build serves Swagger UI's and Redoc's files and
// their licences from the binary: gzipped, as stored, to a client that
// takes gzip, else decompressed, each with an ETag and 304 to a request
// that has it.
func TestEmbedded(t *testing.T) {
	c := serve(t, apidocs.Pages{})
	for _, page := range []string{"/schema/swagger-ui/", "/schema/redoc/"} {
		if r := c.Get(page); r.Status != http.StatusOK {
			t.Errorf("%s: %d %s", page, r.Status, r.Body)
		}
	}
	for file, start := range map[string]string{
		"swagger-ui-bundle.js":            "/*! For license information please see swagger-ui-bundle.js.LICENSE.txt */",
		"swagger-ui-standalone-preset.js": "/*! For license information please see swagger-ui-standalone-preset.js.LICENSE.txt */",
		"swagger-ui.css":                  ".swagger-ui{",
		"redoc.standalone.js":             "/*! For license information please see redoc.standalone.js.LICENSE.txt */",
	} {
		path := "/schema/assets/" + file
		gz := c.Get(path, "Accept-Encoding: gzip, deflate, br")
		zr, err := gzip.NewReader(strings.NewReader(gz.Body))
		if err != nil {
			t.Fatalf("%s, gzipped: %d %v: %v", file, gz.Status, gz.Header, err)
		}
		unzipped, err := io.ReadAll(zr)
		if err != nil || gz.Status != http.StatusOK || gz.Header.Get("Content-Encoding") != "gzip" || gz.Header.Get("Vary") != "Accept-Encoding" ||
			gz.Header.Get("Cache-Control") != "public, max-age=86400" {
			t.Errorf("%s, gzipped: %d %v %v", file, gz.Status, gz.Header, err)
		}
		plain := c.Get(path, "Accept-Encoding: gzip;q=0, identity")
		if plain.Status != http.StatusOK || plain.Header.Get("Content-Encoding") != "" || plain.Body != string(unzipped) ||
			!strings.HasPrefix(plain.Body, start) || len(plain.Body) < 100_000 && file != "swagger-ui.css" {
			t.Errorf("%s: %d %v %.100q", file, plain.Status, plain.Header, plain.Body)
		}
		if ext := file[strings.LastIndex(file, "."):]; plain.Header.Get("Content-Type") != mime.TypeByExtension(ext) || gz.Header.Get("Content-Type") != mime.TypeByExtension(ext) {
			t.Errorf("%s: Content-Type %s, gzipped %s", file, plain.Header.Get("Content-Type"), gz.Header.Get("Content-Type"))
		}
		tag, plainTag := gz.Header.Get("ETag"), plain.Header.Get("ETag")
		if tag == "" || plainTag == "" || tag == plainTag {
			t.Errorf("%s: ETags %s and %s", file, tag, plainTag)
		}
		if r := c.Get(path, "Accept-Encoding: gzip", "If-None-Match: "+tag); r.Status != http.StatusNotModified || r.Body != "" {
			t.Errorf("%s with If-None-Match: %d", file, r.Status)
		}
		if r := c.Get(path, "If-None-Match: "+plainTag); r.Status != http.StatusNotModified {
			t.Errorf("%s with the plain ETag: %d", file, r.Status)
		}
		if r := c.Get(path, "Accept-Encoding: gzip", "If-None-Match: "+plainTag); r.Status != http.StatusOK {
			t.Errorf("%s gzipped with the plain ETag: %d", file, r.Status)
		}
	}
	for licence, want := range map[string]string{
		"swagger-ui.LICENSE": "Apache License", "swagger-ui.NOTICE": "swagger-ui", "swagger-ui-bundle.js.LICENSE.txt": "@license",
		"redoc.LICENSE": "MIT License", "redoc.standalone.js.LICENSE.txt": "@license",
	} {
		if r := c.Get("/schema/assets/" + licence); r.Status != http.StatusOK || !strings.Contains(r.Body, want) || r.Header.Get("Content-Type") != "text/plain; charset=utf-8" {
			t.Errorf("%s: %d %v %.80s", licence, r.Status, r.Header, r.Body)
		}
	}
}

// TestAcceptEncoding: gzip is sent to a client that lists gzip, or "*",
// with a weight above 0, and to no other.
func TestAcceptEncoding(t *testing.T) {
	c := serve(t, apidocs.Pages{})
	for header, gzipped := range map[string]bool{
		"": false, "gzip": true, "GZIP;q=0.5": true, "br, x-gzip": true, "*": true, "deflate, br": false,
		"gzip;q=0": false, "gzip; q=0.000, *": false, "*;q=0": false, "identity, *;q=0.1": true, "br;q=1, gzip;q=0.001": true,
	} {
		r := c.Get("/schema/assets/redoc.standalone.js", "Accept-Encoding: "+header)
		if got := r.Header.Get("Content-Encoding") == "gzip"; got != gzipped || r.Status != http.StatusOK {
			t.Errorf("Accept-Encoding %q: %d, gzipped %v", header, r.Status, got)
		}
	}
}
