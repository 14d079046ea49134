package browsable

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"time"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/internal/mediatype"
)

// defaultStaticURL is where the page loads its style sheet and scripts
// from unless Renderer.StaticURL says otherwise: Django's STATIC_URL,
// "/static/", and DRF's folder of them, "rest_framework/".
const defaultStaticURL = "/static/rest_framework/"

// static holds the page's style sheet (css/default.css) and scripts
// (js/csrf.js, js/ajax-form.js, js/default.js, js/load-ajax-form.js).
//
//go:embed static
var static embed.FS

// HandleStatic mounts the page's style sheet and scripts on api under
// prefix, a pattern relative to api's prefix ending in "/" ("" gives
// "/static/rest_framework/"), one route a file, so that any other path under it is
// the API's not-found page. Renderer.StaticURL must be where they end up.
// Each file is answered with its Content-Type, Content-Length and an
// ETag, and 304 to a request whose If-None-Match has it.
func HandleStatic(api *framework.API, prefix string) {
	if prefix == "" {
		prefix = defaultStaticURL
	}
	err := fs.WalkDir(static, "static", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		content, err := static.ReadFile(name)
		if err != nil {
			return err
		}
		rel := name[len("static/"):]
		api.HandleHTTP(prefix+rel, staticFile(rel, content))
		return nil
	})
	if err != nil {
		panic(err) // static is embedded: it can be read
	}
}

// staticFile answers content, the file name, with its type and an ETag
// of its content.
func staticFile(name string, content []byte) http.Handler {
	sum := sha256.Sum256(content)
	etag := `"` + hex.EncodeToString(sum[:8]) + `"`
	contentType := mediatype.Of(path.Ext(name))
	if contentType == "" {
		contentType = mime.TypeByExtension(path.Ext(name))
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Type", contentType)
		h.Set("ETag", etag)
		http.ServeContent(w, r, name, time.Time{}, bytes.NewReader(content))
	})
}
