package files

import (
	"io"
	"mime"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/go-drf/drf/internal/pycompat"
)

// Media serves the files under root in development, as Django's
// static(MEDIA_URL, document_root=MEDIA_ROOT) serves them
// (django.views.static.serve): mount it at MEDIA_URL with the prefix
// stripped,
//
//	r.Handle("/media/*", http.StripPrefix("/media/", files.Media(settings.MediaRoot)))
//
// A file is answered with the type its extension gives
// (application/octet-stream when none), Django's "inline; filename=..."
// Content-Disposition, Last-Modified, and 304 to an
// If-Modified-Since not older than it; a directory (no listings), a
// missing file, or a path that would leave root is 404. Like Django's,
// it is for development: production serves MEDIA_ROOT from the web
// server or a storage's own URLs.
func Media(root string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, http.StatusText(http.StatusMethodNotAllowed), http.StatusMethodNotAllowed)
			return
		}
		// Clean of a rooted path drops every ".." that would climb out.
		name := path.Clean("/" + r.URL.Path)
		f, err := os.Open(filepath.Join(root, filepath.FromSlash(name)))
		if err != nil {
			http.NotFound(w, r)
			return
		}
		defer f.Close()
		st, err := f.Stat()
		if err != nil || !st.Mode().IsRegular() {
			http.NotFound(w, r)
			return
		}
		modified := st.ModTime().UTC().Truncate(time.Second)
		if since, err := http.ParseTime(r.Header.Get("If-Modified-Since")); err == nil && !modified.After(since) {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		ct := mime.TypeByExtension(path.Ext(name))
		if ct == "" {
			ct = "application/octet-stream"
		}
		h := w.Header()
		h.Set("Content-Type", ct)
		h.Set("Content-Length", strconv.FormatInt(st.Size(), 10))
		h.Set("Content-Disposition", inlineDisposition(path.Base(name)))
		h.Set("Last-Modified", modified.Format(http.TimeFormat))
		if r.Method == http.MethodHead {
			return
		}
		_, _ = io.Copy(w, f)
	})
}

// inlineDisposition is the Content-Disposition Django's FileResponse gives
// a file it serves inline: filename="..." with "\" and `"` escaped, or
// RFC 5987's filename* in UTF-8, percent-encoded, for a name that is not
// ASCII.
func inlineDisposition(name string) string {
	if pycompat.IsASCII(name) {
		return `inline; filename="` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(name) + `"`
	}
	return "inline; filename*=utf-8''" + pycompat.Quote(name)
}
