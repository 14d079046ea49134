package files_test

import (
	"bytes"
	"encoding/json"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/files"
	"github.com/go-drf/drf/framework/request"
)

// TestUploadToMediaRoot: a file uploaded to a view (3 MB, so through a
// temporary file), saved to FileSystemStorage, lands under MEDIA_ROOT and
// is served back at its URL by Media; a second upload of the same name
// gets Django's suffix; no temporary file is left.
func TestUploadToMediaRoot(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	root := t.TempDir()
	storage := files.FileSystemStorage{Location: root, BaseURL: "/media/"}
	api := framework.NewAPI(nil, framework.Settings{})
	api.Handle("/covers/", framework.View{Post: func(v *framework.View, r *request.Request) (*framework.Response, error) {
		data, err := r.Data()
		if err != nil {
			return nil, err
		}
		fh := data.(map[string]any)["cover"].(*multipart.FileHeader)
		f, err := fh.Open()
		if err != nil {
			return nil, err
		}
		defer f.Close()
		name, err := storage.Save(r.Context(), "covers/"+fh.Filename, f, 100)
		if err != nil {
			return nil, err
		}
		u, err := storage.URL(r.Context(), name)
		return framework.Created(map[string]string{"name": name, "url": u}), err
	}})
	mux := http.NewServeMux()
	mux.Handle("/media/", http.StripPrefix("/media/", files.Media(root)))
	mux.Handle("/", api.Router())
	srv := httptest.NewServer(mux)
	defer srv.Close()

	content := bytes.Repeat([]byte("PNG."), 3<<20/4)
	var names []string
	for range 2 {
		var body bytes.Buffer
		mw := multipart.NewWriter(&body)
		part, _ := mw.CreateFormFile("cover", "my cover.png")
		_, _ = part.Write(content)
		_ = mw.Close()
		resp, err := http.Post(srv.URL+"/covers/", mw.FormDataContentType(), &body)
		if err != nil {
			t.Fatal(err)
		}
		var answer map[string]string
		err = json.NewDecoder(resp.Body).Decode(&answer)
		resp.Body.Close()
		if err != nil || resp.StatusCode != http.StatusCreated {
			t.Fatalf("%d %v %v", resp.StatusCode, answer, err)
		}
		names = append(names, answer["name"])
		if b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(answer["name"]))); err != nil || !bytes.Equal(b, content) {
			t.Errorf("%s on disk: %d bytes, %v", answer["name"], len(b), err)
		}
		got, err := http.Get(srv.URL + answer["url"])
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(got.Body)
		got.Body.Close()
		if got.StatusCode != 200 || !bytes.Equal(b, content) || got.Header.Get("Content-Type") != "image/png" {
			t.Errorf("GET %s: %d %q, %d bytes", answer["url"], got.StatusCode, got.Header.Get("Content-Type"), len(b))
		}
	}
	if names[0] != "covers/my cover.png" || !matches(names[1], "covers/my cover_AbC1234.png") {
		t.Errorf("names %q", names)
	}
	if entries, _ := os.ReadDir(os.Getenv("TMPDIR")); len(entries) != 0 {
		t.Errorf("temporary files left: %v", entries)
	}
}
