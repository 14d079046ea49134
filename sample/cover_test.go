package sample_test

import (
	"bytes"
	"image"
	"image/png"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-drf/drf/framework/apitest"
)

// coverForm is a multipart/form-data body with content as the file
// "cover" named name, and its Content-Type header.
func coverForm(t *testing.T, name string, content []byte) (string, string) {
	var b bytes.Buffer
	w := multipart.NewWriter(&b)
	part, err := w.CreateFormFile("cover", name)
	if err != nil {
		t.Fatal(err)
	}
	part.Write(content)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.String(), "Content-Type: " + w.FormDataContentType()
}

// TestBookCover: /books/{pk}/cover/ reads a book's cover (null at first),
// refuses an anonymous upload, takes alice's PNG, saved under MEDIA_ROOT
// (media/covers/ in the working directory) and served back at its
// absolute MEDIA_URL; a file that is no image is DRF's 400; null clears
// it; a missing book is 404; and /books/{pk}/ answers as before, without
// the cover.
func TestBookCover(t *testing.T) {
	t.Chdir(t.TempDir())
	c := serve(t, newDB(t))
	alice := "Authorization: Basic YWxpY2U6YWxpY2UtcGFzcw=="
	book := c.Get("/books/1/")
	if r := c.Get("/books/1/cover/"); r.Status != http.StatusOK || r.Body != `{"id":1,"cover":null}` {
		t.Errorf("GET the cover: %d %s", r.Status, r.Body)
	}
	var img bytes.Buffer
	if err := png.Encode(&img, image.NewGray(image.Rect(0, 0, 4, 3))); err != nil {
		t.Fatal(err)
	}
	body, ctype := coverForm(t, "front page.png", img.Bytes())
	if r := c.Do("PUT", "/books/1/cover/", body, ctype); r.Status != http.StatusForbidden ||
		r.Body != `{"detail":"Authentication credentials were not provided."}` {
		t.Errorf("anonymous PUT: %d %s", r.Status, r.Body)
	}
	r := c.Do("PUT", "/books/1/cover/", body, ctype, alice)
	want := `{"id":1,"cover":"http://` + apitest.Host + `/media/covers/front_page.png"}`
	if r.Status != http.StatusOK || r.Body != want {
		t.Fatalf("PUT the cover: %d %s\nwant %s", r.Status, r.Body, want)
	}
	if b, err := os.ReadFile(filepath.Join("media", "covers", "front_page.png")); err != nil || !bytes.Equal(b, img.Bytes()) {
		t.Errorf("the file under MEDIA_ROOT: %v", err)
	}
	if r := c.Get("/media/covers/front_page.png"); r.Status != http.StatusOK || r.Body != img.String() || r.Header.Get("Content-Type") != "image/png" {
		t.Errorf("GET the cover's URL: %d %s", r.Status, r.Header.Get("Content-Type"))
	}
	if r := c.Get("/books/1/cover/"); r.Body != want {
		t.Errorf("GET the cover after PUT: %s", r.Body)
	}
	if r := c.Get("/books/1/"); r.Status != book.Status || r.Body != book.Body {
		t.Errorf("GET the book: %d %s\nwas %d %s", r.Status, r.Body, book.Status, book.Body)
	}

	body, ctype = coverForm(t, "notes.png", []byte("no image"))
	if r := c.Do("PATCH", "/books/1/cover/", body, ctype, alice); r.Status != http.StatusBadRequest ||
		r.Body != `{"cover":["Upload a valid image. The file you uploaded was either not an image or a corrupted image."]}` {
		t.Errorf("PATCH of no image: %d %s", r.Status, r.Body)
	}
	if _, err := os.Stat(filepath.Join("media", "covers", "notes.png")); err == nil {
		t.Error("the refused file was saved")
	}
	if r := c.Do("PATCH", "/books/1/cover/", `{"cover":null}`, "Content-Type: application/json", alice); r.Status != http.StatusOK ||
		r.Body != `{"id":1,"cover":null}` {
		t.Errorf("PATCH null: %d %s", r.Status, r.Body)
	}
	if r := c.Get("/books/99/cover/"); r.Status != http.StatusNotFound || !strings.HasPrefix(r.Body, `{"detail":`) {
		t.Errorf("GET the cover of no book: %d %s", r.Status, r.Body)
	}
}
