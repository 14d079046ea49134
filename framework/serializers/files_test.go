package serializers_test

import (
	"bytes"
	"encoding/json"
	"image"
	"image/png"
	"io/fs"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/files"
	"github.com/go-drf/drf/framework/generics"
	"github.com/go-drf/drf/framework/models"
	"github.com/go-drf/drf/framework/queryset"
	"github.com/go-drf/drf/framework/serializers"
	"github.com/go-drf/drf/framework/store"
	"github.com/go-drf/drf/internal/testservers"
)

// coverBook is a book with a FileField and a nullable ImageField, whose
// files go to the test's media directory (mediaRoot).
type coverBook struct {
	ID         int64       `db:"id" json:"id"`
	Title      string      `db:"title" json:"title" model:"max_length=20"`
	Attachment files.File  `db:"attachment" json:"attachment" model:"upload_to=files/%Y/"`
	Cover      *files.File `db:"cover" json:"cover" model:"field=ImageField,blank"`
}

var mediaRoot string

func (coverBook) Meta() models.Meta {
	return models.Meta{App: "shelf", Name: "Book",
		Storage:  map[string]files.Storage{"attachment": files.FileSystemStorage{Location: mediaRoot, BaseURL: "/media/"}, "cover": files.FileSystemStorage{Location: mediaRoot, BaseURL: "/media/"}},
		UploadTo: map[string]func(any, string) string{"cover": func(obj any, name string) string { return "covers/" + obj.(*coverBook).Title + "/" + name }}}
}

// multipartBody is a multipart/form-data body of fields and of files
// (each "name=filename" to its content), and its Content-Type header.
func multipartBody(t *testing.T, fields map[string]string, uploads map[string][]byte) (string, string) {
	var b bytes.Buffer
	w := multipart.NewWriter(&b)
	for k, v := range fields {
		if err := w.WriteField(k, v); err != nil {
			t.Fatal(err)
		}
	}
	for k, content := range uploads {
		name, filename, _ := strings.Cut(k, "=")
		part, err := w.CreateFormFile(name, filename)
		if err != nil {
			t.Fatal(err)
		}
		part.Write(content)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.String(), "Content-Type: " + w.FormDataContentType()
}

// mediaFiles lists the files under the media directory.
func mediaFiles(t *testing.T, root string) []string {
	var names []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(root, p)
			names = append(names, filepath.ToSlash(rel))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(names)
	return names
}

// TestFileFieldsSave creates and updates books through generic views on
// SQLite and PostgreSQL: the uploads land in the storage under upload_to
// (a strftime pattern, a Meta.UploadTo function), their names in the
// columns, their URLs in the answers, and Media serves them back; a
// taken name gets Django's suffix; PATCH clears the nullable image with
// ""; an invalid image, or a row the database refuses, leaves no file.
func TestFileFieldsSave(t *testing.T) {
	// The model's Meta, read once, keeps the first mediaRoot.
	if mediaRoot == "" {
		mediaRoot = t.TempDir()
	}
	testservers.Dialects(t, func(t *testing.T, db *sqlx.DB) {
		t.Cleanup(func() {
			entries, _ := os.ReadDir(mediaRoot)
			for _, e := range entries {
				os.RemoveAll(filepath.Join(mediaRoot, e.Name()))
			}
		})
		id := "integer NOT NULL PRIMARY KEY AUTOINCREMENT"
		if store.DialectOf(db) == store.PostgreSQL {
			id = "bigserial NOT NULL PRIMARY KEY"
		}
		db.MustExec(`CREATE TABLE "shelf_book" ("id" ` + id + `, "title" varchar(20) NOT NULL UNIQUE, ` +
			`"attachment" varchar(100) NOT NULL, "cover" varchar(100) NULL)`)
		api := framework.NewAPI(nil, framework.Settings{})
		g := generics.GenericAPIView[coverBook]{Source: queryset.MustSQL[coverBook](db, queryset.SQLConfig{}), Serializer: serializers.MustNew[coverBook]()}
		api.Handle("/books/", generics.ListCreateAPIView(g))
		api.Handle("/books/{pk}/", generics.RetrieveUpdateAPIView(g))
		api.Router().Handle("/media/*", http.StripPrefix("/media/", files.Media(mediaRoot)))
		c := apitest.New(t, api)

		var img bytes.Buffer
		if err := png.Encode(&img, image.NewRGBA(image.Rect(0, 0, 3, 2))); err != nil {
			t.Fatal(err)
		}
		year := time.Now().Format("2006")
		body, ctype := multipartBody(t, map[string]string{"title": "dune"},
			map[string][]byte{"attachment=notes 1.txt": []byte("hello"), "cover=c.png": img.Bytes()})
		r := c.Post("/books/", body, ctype)
		want := `{"id":1,"title":"dune","attachment":"http://` + apitest.Host + `/media/files/` + year + `/notes_1.txt",` +
			`"cover":"http://` + apitest.Host + `/media/covers/dune/c.png"}`
		if r.Status != 201 || !sameJSON(t, []byte(r.Body), []byte(want)) {
			t.Fatalf("POST: %d %s\nwant %s", r.Status, r.Body, want)
		}
		var attachment, cover string
		db.QueryRow(`SELECT "attachment", "cover" FROM "shelf_book"`).Scan(&attachment, &cover)
		if attachment != "files/"+year+"/notes_1.txt" || cover != "covers/dune/c.png" {
			t.Errorf("columns: %q %q", attachment, cover)
		}
		if r := c.Get("/media/files/" + year + "/notes_1.txt"); r.Status != 200 || r.Body != "hello" {
			t.Errorf("GET the attachment: %d %q", r.Status, r.Body)
		}

		// The same name again gets Django's suffix.
		body, ctype = multipartBody(t, map[string]string{"title": "emma"}, map[string][]byte{"attachment=notes 1.txt": []byte("again")})
		r = c.Post("/books/", body, ctype)
		var got map[string]any
		json.Unmarshal([]byte(r.Body), &got)
		if url, _ := got["attachment"].(string); r.Status != 201 || !strings.Contains(url, "/media/files/"+year+"/notes_1_") || got["cover"] != nil {
			t.Errorf("POST again: %d %s", r.Status, r.Body)
		}
		before := mediaFiles(t, mediaRoot)
		if len(before) != 3 {
			t.Fatalf("media: %v", before)
		}

		// A validation error, or a title the database refuses (UNIQUE,
		// which no validator checks), stores nothing.
		body, ctype = multipartBody(t, map[string]string{"title": "x"},
			map[string][]byte{"attachment=a.txt": []byte("a"), "cover=c.png": []byte("no image")})
		if r := c.Post("/books/", body, ctype); r.Status != 400 || !strings.Contains(r.Body, "Upload a valid image.") {
			t.Errorf("POST of no image: %d %s", r.Status, r.Body)
		}
		body, ctype = multipartBody(t, map[string]string{"title": "dune"},
			map[string][]byte{"attachment=b.txt": []byte("b"), "cover=d.png": img.Bytes()})
		if r := c.Post("/books/", body, ctype); r.Status < 400 {
			t.Errorf("POST of a taken title: %d %s", r.Status, r.Body)
		}
		if after := mediaFiles(t, mediaRoot); !slices.Equal(after, before) {
			t.Errorf("media after the failed writes: %v, was %v", after, before)
		}

		// PATCH replaces the attachment, and clears the cover with "".
		body, ctype = multipartBody(t, map[string]string{"cover": ""}, map[string][]byte{"attachment=new.txt": []byte("new")})
		r = c.Do("PATCH", "/books/1/", body, ctype)
		want = `{"id":1,"title":"dune","attachment":"http://` + apitest.Host + `/media/files/` + year + `/new.txt","cover":null}`
		if r.Status != 200 || !sameJSON(t, []byte(r.Body), []byte(want)) {
			t.Errorf("PATCH: %d %s\nwant %s", r.Status, r.Body, want)
		}
		var nullCover *string
		db.QueryRow(`SELECT "cover" FROM "shelf_book" WHERE "id" = 1`).Scan(&nullCover)
		if nullCover != nil {
			t.Errorf("cover after PATCH: %q", *nullCover)
		}
		if _, err := os.Stat(filepath.Join(mediaRoot, "files", year, "new.txt")); err != nil {
			t.Error(err)
		}
	})
}
