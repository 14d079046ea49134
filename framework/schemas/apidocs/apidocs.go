// Package apidocs serves the interactive documentation pages of an API's
// OpenAPI documents, as drf-spectacular's SpectacularSwaggerView and
// SpectacularRedocView do: Swagger UI (with its "Authorize" box for the
// document's security schemes, and "Try it out") and Redoc, one document
// per version, from files embedded in the binary, so that the pages make
// no request beyond the server that serves them.
//
// Every build has the files, with no install step: Swagger UI 5.29.1 from
// the Go module github.com/swaggest/swgui (go.mod pins it), which ships it
// gzipped, and npm's Redoc 2.5.4 bundle, which no maintained Go module
// ships, gzipped in this package's assets/ folder with both projects'
// licences (scripts/update-docs-assets rewrites them when upgrading). They
// are served gzipped to the browsers that take it, as they are stored.
package apidocs

import (
	"bytes"
	"cmp"
	"compress/gzip"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"errors"
	"fmt"
	"html/template"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"path"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	swaggerui "github.com/swaggest/swgui/v5/static"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/internal/mediatype"
)

// embedded holds assets/: Redoc's bundle and the licences.
//
//go:embed assets
var embedded embed.FS

// ContentSecurityPolicy is the pages' Content-Security-Policy: they load
// nothing from elsewhere (Redoc's footer would fetch its maker's logo
// from cdn.redoc.ly), and no document from another server either.
const ContentSecurityPolicy = "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; " +
	"img-src 'self' data:; font-src 'self' data:; worker-src 'self' blob:; connect-src 'self'"

// Files the pages load, besides the document.
var (
	swaggerFiles = []string{"swagger-ui.css", "swagger-ui-bundle.js", "swagger-ui-standalone-preset.js"}
	redocFiles   = []string{"redoc.standalone.js"}
	// licenceFiles are the licences of the files, served when present.
	licenceFiles = []string{"swagger-ui.LICENSE", "swagger-ui.NOTICE", "swagger-ui-bundle.js.LICENSE.txt",
		"redoc.LICENSE", "redoc.standalone.js.LICENSE.txt"}
)

// Pages are the documentation pages of one schema view.
type Pages struct {
	// SchemaPath is the path of the schema view (schemas.Generator.View)
	// the pages load the documents from, "/schema/" by default.
	SchemaPath string
	// Versions lists the API versions with a document of their own
	// (schemas.Generator.Versions), read when a page is served; nil: only
	// the document of the whole API.
	Versions func() []string
	// Title is the pages' title; "API" by default.
	Title string
	// CSRFCookie is the name of the cookie whose value Swagger UI sends as
	// the X-CSRFToken header of unsafe requests, so that a logged-in
	// session may try them: "csrftoken" by default.
	CSRFCookie string
	// Files holds the files the pages load, each as NAME or gzipped as
	// NAME.gz, and their licences; nil gives the embedded ones. Assets
	// panics when one the pages load is missing, or a NAME.gz is not gzip.
	Files fs.FS
}

// Register mounts the pages on api under prefix (which ends in "/"):
// prefix+"swagger-ui/", prefix+"redoc/" and their files under
// prefix+"assets/", named "swagger-ui", "redoc" and "docs-assets". Like
// Assets, it panics, before mounting anything, when Files lacks a file.
func (p Pages) Register(api *framework.API, prefix string) {
	files := p.Assets()
	api.HandleHTTP(prefix+"swagger-ui/", p.SwaggerUI(prefix+"assets/"), framework.Named("swagger-ui"))
	api.HandleHTTP(prefix+"redoc/", p.Redoc(prefix+"assets/"), framework.Named("redoc"))
	api.HandleHTTP(prefix+"assets/{file}", files, framework.Named("docs-assets"))
}

// asset is one file served, as stored: gzipped or not.
type asset struct {
	name, contentType string
	content           []byte
	// etag is the ETag of content.
	etag string
	// plain, for a gzipped file, is its content decompressed, once, for
	// the clients that do not take gzip, and plainETag its ETag; nil for a
	// file stored as is.
	plain     func() []byte
	plainETag string
}

// serve answers the file, gzipped when it is stored so and r takes gzip,
// with its type, an ETag, and 304 to a request whose If-None-Match has it.
func (a *asset) serve(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Type", a.contentType)
	h.Set("Cache-Control", "public, max-age=86400")
	content, etag := a.content, a.etag
	if a.plain != nil {
		h.Add("Vary", "Accept-Encoding")
		if acceptsGzip(r.Header.Values("Accept-Encoding")) {
			h.Set("Content-Encoding", "gzip")
		} else {
			content, etag = a.plain(), a.plainETag
		}
	}
	h.Set("ETag", etag)
	http.ServeContent(w, r, a.name, time.Time{}, bytes.NewReader(content))
}

// embeddedAssets are the embedded files, read once.
var embeddedAssets = sync.OnceValues(func() (map[string]*asset, error) {
	sub, err := fs.Sub(embedded, "assets")
	if err != nil {
		return nil, err
	}
	return readAssets(swaggerui.FS, sub)
})

// assets reads the files Assets serves: Files', or the embedded ones.
func (p Pages) assets() (map[string]*asset, error) {
	if p.Files != nil {
		files, err := readAssets(p.Files)
		if err != nil {
			return nil, fmt.Errorf("Pages.Files: %w", err)
		}
		return files, nil
	}
	return embeddedAssets()
}

// readAssets reads the files the pages load, and the licences there are,
// each from the first of sources that has it, as NAME.gz or NAME.
func readAssets(sources ...fs.FS) (map[string]*asset, error) {
	out := map[string]*asset{}
	for _, name := range slices.Concat(swaggerFiles, redocFiles, licenceFiles) {
		a, err := readAsset(sources, name)
		if errors.Is(err, fs.ErrNotExist) && slices.Contains(licenceFiles, name) {
			continue
		}
		if err != nil {
			return nil, err
		}
		out[name] = a
	}
	return out, nil
}

// readAsset reads name from the first of sources that has it.
func readAsset(sources []fs.FS, name string) (*asset, error) {
	a := &asset{name: name, contentType: cmp.Or(mediatype.Of(path.Ext(name)), "text/plain; charset=utf-8")}
	for _, src := range sources {
		var err error
		if a.content, err = fs.ReadFile(src, name+".gz"); err == nil {
			size, err := gunzippedSize(a.content)
			if err != nil {
				return nil, fmt.Errorf("%s.gz: %w", name, err)
			}
			a.etag, a.plainETag = etag(a.content, "-gzip"), etag(a.content, "")
			a.plain = sync.OnceValue(func() []byte {
				zr, _ := gzip.NewReader(bytes.NewReader(a.content)) // read whole by gunzippedSize
				b := make([]byte, size)
				_, _ = io.ReadFull(zr, b)
				return b
			})
			return a, nil
		}
		if a.content, err = fs.ReadFile(src, name); err == nil {
			a.etag = etag(a.content, "")
			return a, nil
		}
	}
	return nil, fmt.Errorf("%s: %w", name, fs.ErrNotExist)
}

// gunzippedSize reads gzipped content whole, and returns its size.
func gunzippedSize(content []byte) (int64, error) {
	zr, err := gzip.NewReader(bytes.NewReader(content))
	if err != nil {
		return 0, err
	}
	return io.Copy(io.Discard, zr)
}

// etag is a strong ETag of content, its digest followed by suffix.
func etag(content []byte, suffix string) string {
	sum := sha256.Sum256(content)
	return `"` + hex.EncodeToString(sum[:8]) + suffix + `"`
}

// acceptsGzip reports whether the Accept-Encoding values take gzip (RFC
// 9110, 12.5.3): gzip, or else "*", listed with a weight above 0.
func acceptsGzip(values []string) bool {
	gz, star := -1.0, -1.0
	for _, v := range values {
		for item := range strings.SplitSeq(v, ",") {
			coding, params, _ := strings.Cut(item, ";")
			q := 1.0
			if k, w, ok := strings.Cut(params, "="); ok && strings.EqualFold(strings.TrimSpace(k), "q") {
				if f, err := strconv.ParseFloat(strings.TrimSpace(w), 64); err == nil {
					q = f
				}
			}
			switch strings.ToLower(strings.TrimSpace(coding)) {
			case "gzip", "x-gzip":
				gz = q
			case "*":
				star = q
			}
		}
	}
	if gz >= 0 {
		return gz > 0
	}
	return star > 0
}

// document is one document a page offers.
type document struct {
	URL  string `json:"url"`
	Name string `json:"name"`
}

// allVersions names the document of the whole API.
const allVersions = "All versions"

// documents lists the whole API's document, then each version's (JSON).
func (p Pages) documents() []document {
	schema := cmp.Or(p.SchemaPath, "/schema/")
	docs := []document{{URL: schema + "?format=openapi-json", Name: allVersions}}
	if p.Versions != nil {
		for _, v := range p.Versions() {
			docs = append(docs, document{URL: schema + "?" + url.Values{"format": {"openapi-json"}, "version": {v}}.Encode(), Name: v})
		}
	}
	return docs
}

// chosen returns the document ?version= names (the whole API's without
// it), and false for a version without a document.
func (p Pages) chosen(r *http.Request) (document, bool) {
	docs := p.documents()
	v := r.URL.Query().Get("version")
	if v == "" {
		return docs[0], true
	}
	i := slices.IndexFunc(docs[1:], func(d document) bool { return d.Name == v })
	if i < 0 {
		return document{}, false
	}
	return docs[i+1], true
}

// page is what the templates show.
type page struct {
	Title     string
	Assets    string
	Documents []document
	Current   document
	Config    swaggerConfig
}

// swaggerConfig is Swagger UI's configuration.
type swaggerConfig struct {
	URLs        []document `json:"urls"`
	PrimaryName string     `json:"urls.primaryName"`
	// ValidatorURL null: no badge fetched from validator.swagger.io.
	ValidatorURL *string `json:"validatorUrl"`
	DeepLinking  bool    `json:"deepLinking"`
	CSRFCookie   string  `json:"csrfCookie"`
}

// readOnly answers 405 to a request other than GET and HEAD, and
// reports whether r is one of them.
func readOnly(w http.ResponseWriter, r *http.Request) bool {
	if r.Method == http.MethodGet || r.Method == http.MethodHead {
		return true
	}
	w.Header().Set("Allow", "GET, HEAD")
	http.Error(w, "405 method not allowed", http.StatusMethodNotAllowed)
	return false
}

// serve renders t for the page, or answers 405 or 404.
func (p Pages) serve(w http.ResponseWriter, r *http.Request, t *template.Template, assets string) {
	if !readOnly(w, r) {
		return
	}
	cur, ok := p.chosen(r)
	if !ok {
		http.NotFound(w, r)
		return
	}
	docs := p.documents()
	data := page{Title: cmp.Or(p.Title, "API"), Assets: assets, Documents: docs, Current: cur,
		Config: swaggerConfig{URLs: docs, PrimaryName: cur.Name, DeepLinking: true, CSRFCookie: cmp.Or(p.CSRFCookie, "csrftoken")}}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-cache")
	w.Header().Set("Content-Security-Policy", ContentSecurityPolicy)
	_ = t.Execute(w, data)
}

// SwaggerUI is the Swagger UI page; assets is the path Assets serves.
// ?version=V opens version V's document; a list at the top switches.
func (p Pages) SwaggerUI(assets string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p.serve(w, r, swaggerPage(), assets)
	})
}

// Redoc is the Redoc page; assets is the path Assets serves. ?version=V
// shows version V's document; links at the top switch.
func (p Pages) Redoc(assets string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p.serve(w, r, redocPage(), assets)
	})
}

// Assets serves the pages' files and their licences: the route's {file}
// parameter, or the path's last segment. They are cached for a day. It
// reads them once, and panics naming the file when Files lacks one the
// pages load or holds a NAME.gz that is not gzip.
func (p Pages) Assets() http.Handler {
	files, err := p.assets()
	if err != nil {
		panic("apidocs: " + err.Error())
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !readOnly(w, r) {
			return
		}
		a, ok := files[cmp.Or(r.PathValue("file"), path.Base(r.URL.Path))]
		if !ok {
			http.NotFound(w, r)
			return
		}
		a.serve(w, r)
	})
}

// swaggerPage is the Swagger UI page's template, parsed when first served.
var swaggerPage = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("swagger").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}} – Swagger UI</title>
<link rel="stylesheet" href="{{.Assets}}swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="{{.Assets}}swagger-ui-bundle.js"></script>
<script src="{{.Assets}}swagger-ui-standalone-preset.js"></script>
<script>
(function () {
  const config = {{.Config}};
  const csrfToken = function () {
    const prefix = config.csrfCookie + "=";
    const c = document.cookie.split("; ").find(function (c) { return c.startsWith(prefix); });
    return c ? decodeURIComponent(c.slice(prefix.length)) : "";
  };
  window.ui = SwaggerUIBundle(Object.assign({}, config, {
    dom_id: "#swagger-ui",
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
    plugins: [SwaggerUIBundle.plugins.DownloadUrl],
    layout: "StandaloneLayout",
    // A logged-in session's unsafe requests carry the CSRF token.
    requestInterceptor: function (req) {
      if (!/^(GET|HEAD|OPTIONS|TRACE)$/i.test(req.method || "GET")) {
        const token = csrfToken();
        if (token) { req.headers["X-CSRFToken"] = token; }
      }
      return req;
    },
  }));
})();
</script>
</body>
</html>
`))
})

// redocPage is the Redoc page's template, parsed when first served.
var redocPage = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("redoc").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}} – Redoc</title>
<style>body { margin: 0; padding: 0; } nav#versions { font: 14px sans-serif; padding: 6px 12px; background: #f4f4f4; } nav#versions a, nav#versions strong { margin-right: 12px; }</style>
</head>
<body>
{{if gt (len .Documents) 1}}<nav id="versions">{{range .Documents}}{{if eq .Name $.Current.Name}}<strong>{{.Name}}</strong>{{else if eq .Name "All versions"}}<a href="?">{{.Name}}</a>{{else}}<a href="?version={{.Name}}">{{.Name}}</a>{{end}}{{end}}</nav>{{end}}
<redoc spec-url="{{.Current.URL}}"></redoc>
<script src="{{.Assets}}redoc.standalone.js"></script>
</body>
</html>
`))
})
