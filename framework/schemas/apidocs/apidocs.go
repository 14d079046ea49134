// Package apidocs serves the interactive documentation pages of an API's
// OpenAPI documents, as drf-spectacular's SpectacularSwaggerView and
// SpectacularRedocView do: Swagger UI (with its "Authorize" box for the
// document's security schemes, and "Try it out") and Redoc, one document
// per version, from files embedded in the binary, so that the pages make
// no request beyond the server that serves them.
//
// The files are npm's swagger-ui-dist and redoc, pinned by
// tools/apidocs/package-lock.json and copied into this package's assets/
// folder by scripts/install-docs-assets before the build. A binary built
// without them still runs: its pages answer 503 naming that command.
package apidocs

import (
	"cmp"
	"embed"
	"html/template"
	"io/fs"
	"net/http"
	"net/url"
	"path"
	"slices"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/internal/rawjson"
)

// embedded holds assets/: the placeholder README.md, and the files the
// install step adds.
//
//go:embed assets
var embedded embed.FS

// InstallCommand installs the files the pages need, from the repository's root.
const InstallCommand = "scripts/install-docs-assets"

// ContentSecurityPolicy is the pages' Content-Security-Policy: they load
// nothing from elsewhere (Redoc's footer would fetch its maker's logo
// from cdn.redoc.ly), and no document from another server either.
const ContentSecurityPolicy = "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; " +
	"img-src 'self' data:; font-src 'self' data:; worker-src 'self' blob:; connect-src 'self'"

// Files the pages load, besides the document.
var (
	swaggerFiles = []string{"swagger-ui.css", "swagger-ui-bundle.js", "swagger-ui-standalone-preset.js"}
	redocFiles   = []string{"redoc.standalone.js"}
	// licenceFiles are the licences of the files, served too.
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
	// Files holds the files the pages load; nil gives the embedded ones.
	Files fs.FS
}

// Register mounts the pages on api under prefix (which ends in "/"):
// prefix+"swagger-ui/", prefix+"redoc/" and their files under
// prefix+"assets/", named "swagger-ui", "redoc" and "docs-assets".
func (p Pages) Register(api *framework.API, prefix string) {
	api.HandleHTTP(prefix+"swagger-ui/", p.SwaggerUI(prefix+"assets/"), framework.Named("swagger-ui"))
	api.HandleHTTP(prefix+"redoc/", p.Redoc(prefix+"assets/"), framework.Named("redoc"))
	api.HandleHTTP(prefix+"assets/{file}", p.Assets(), framework.Named("docs-assets"))
}

// files is the folder of the assets.
func (p Pages) files() fs.FS {
	if p.Files != nil {
		return p.Files
	}
	sub, err := fs.Sub(embedded, "assets")
	if err != nil {
		panic(err) // assets/ is embedded: it exists
	}
	return sub
}

// missing returns the first of names that the files lack, "" when none.
func (p Pages) missing(names []string) string {
	for _, n := range names {
		if _, err := fs.Stat(p.files(), n); err != nil {
			return n
		}
	}
	return ""
}

// unavailable answers 503 naming what is missing and the command that
// installs it.
func unavailable(w http.ResponseWriter, what string) {
	body, _ := rawjson.Marshal(map[string]string{"detail": what + " is not installed in this binary: run " + InstallCommand + ", then build again."})
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusServiceUnavailable)
	_, _ = w.Write(body)
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

// serve renders t for the page, or answers 503 or 404.
func (p Pages) serve(w http.ResponseWriter, r *http.Request, t *template.Template, name, assets string, files []string) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "405 method not allowed", http.StatusMethodNotAllowed)
		return
	}
	if f := p.missing(files); f != "" {
		unavailable(w, name+" ("+f+")")
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
		p.serve(w, r, swaggerPage, "Swagger UI", assets, swaggerFiles)
	})
}

// Redoc is the Redoc page; assets is the path Assets serves. ?version=V
// shows version V's document; links at the top switch.
func (p Pages) Redoc(assets string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p.serve(w, r, redocPage, "Redoc", assets, redocFiles)
	})
}

// Assets serves the pages' files and their licences: the route's {file}
// parameter, or the path's last segment. They are cached for a day.
func (p Pages) Assets() http.Handler {
	served := slices.Concat(swaggerFiles, redocFiles, licenceFiles)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name := cmp.Or(r.PathValue("file"), path.Base(r.URL.Path))
		if !slices.Contains(served, name) {
			http.NotFound(w, r)
			return
		}
		if p.missing([]string{name}) != "" {
			unavailable(w, name)
			return
		}
		w.Header().Set("Cache-Control", "public, max-age=86400")
		http.ServeFileFS(w, r, p.files(), name)
	})
}

var swaggerPage = template.Must(template.New("swagger").Parse(`<!DOCTYPE html>
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

var redocPage = template.Must(template.New("redoc").Parse(`<!DOCTYPE html>
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
