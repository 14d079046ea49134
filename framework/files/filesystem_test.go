package files_test

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	"github.com/go-drf/drf/framework/files"
)

// TestFileSystemStorage: a saved file lands under MEDIA_ROOT, in the
// directories its name gives, with mode 0o644; it is opened, sized,
// found, served back at its URL through Media, and deleted.
func TestFileSystemStorage(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	s := files.FileSystemStorage{Location: root, BaseURL: "/media"}
	name, err := s.Save(ctx, "covers/2024/a b.png", strings.NewReader("PNG!"), 100)
	if err != nil || name != "covers/2024/a b.png" {
		t.Fatalf("Save = %q, %v", name, err)
	}
	st, err := os.Stat(filepath.Join(root, "covers", "2024", "a b.png"))
	if err != nil || st.Mode().Perm() != 0o644 {
		t.Fatalf("on disk: %v %v", st, err)
	}
	if n, err := s.Size(ctx, name); n != 4 || err != nil {
		t.Errorf("Size = %d, %v", n, err)
	}
	u, _ := s.URL(ctx, name)
	if u != "/media/covers/2024/a%20b.png" {
		t.Errorf("URL = %q", u)
	}
	srv := httptest.NewServer(http.StripPrefix("/media/", files.Media(root)))
	defer srv.Close()
	resp, err := http.Get(srv.URL + u)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || string(body) != "PNG!" || resp.Header.Get("Content-Type") != "image/png" {
		t.Errorf("GET %s: %d %q %q", u, resp.StatusCode, resp.Header.Get("Content-Type"), body)
	}
	req, _ := http.NewRequest("GET", srv.URL+u, nil)
	req.Header.Set("If-Modified-Since", time.Now().Add(time.Hour).UTC().Format(http.TimeFormat))
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != http.StatusNotModified {
		t.Errorf("If-Modified-Since: %v %v", resp.StatusCode, err)
	}
	if err := s.Delete(ctx, name); err != nil {
		t.Fatal(err)
	}
	if ok, err := s.Exists(ctx, name); ok || err != nil {
		t.Errorf("Exists after Delete = %v, %v", ok, err)
	}
	if err := s.Delete(ctx, name); err != nil {
		t.Errorf("Delete of a missing file: %v", err)
	}
	if _, err := s.Open(ctx, name); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Open of a missing file: %v", err)
	}
}

// TestSaveFailedReadLeavesNoFile: content that fails half-way leaves no
// file behind; the name is free again.
func TestSaveFailedReadLeavesNoFile(t *testing.T) {
	root := t.TempDir()
	s := files.FileSystemStorage{Location: root}
	broken := io.MultiReader(strings.NewReader("half"), iotest.ErrReader(errors.New("client gone")))
	if _, err := s.Save(context.Background(), "f.txt", broken, 0); err == nil {
		t.Fatal("Save of a failing reader succeeded")
	}
	if entries, _ := os.ReadDir(root); len(entries) != 0 {
		t.Errorf("left behind: %v", entries)
	}
}

// TestMediaRefuses: no directory listings, no path out of the root, no
// writes.
func TestMediaRefuses(t *testing.T) {
	parent := t.TempDir()
	root := filepath.Join(parent, "media")
	if err := os.MkdirAll(filepath.Join(root, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(parent, "secret.txt"), []byte("secret"), 0o644); err != nil {
		t.Fatal(err)
	}
	h := http.StripPrefix("/media/", files.Media(root))
	for _, c := range []struct {
		method, target string
		status         int
	}{
		{"GET", "/media/sub/", 404},
		{"GET", "/media/", 404},
		{"GET", "/media/../secret.txt", 404},
		{"GET", "/media/%2e%2e/secret.txt", 404},
		{"GET", "/media/sub/..%2f..%2fsecret.txt", 404},
		{"POST", "/media/sub/x", 405},
	} {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest(c.method, c.target, nil))
		if w.Code != c.status || strings.Contains(w.Body.String(), "secret") {
			t.Errorf("%s %s: %d %q, want %d", c.method, c.target, w.Code, w.Body, c.status)
		}
	}
}
