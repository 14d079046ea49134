package s3_test

import (
	"bytes"
	"encoding/json"
	"image"
	"image/png"
	"io/fs"
	"mime/multipart"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/contrib/storages/s3"
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

// bucket is a storage the test points at its own S3 server: a model's
// Meta is read once, the server is the test's.
type bucket struct{ files.Storage }

// signed keeps documents (signed URLs), cdn the covers (custom-domain
// URLs), both without overwriting, as a model field's storage should.
var signed, cdn = &bucket{}, &bucket{}

// s3Book keeps its document and its cover in the bucket.
type s3Book struct {
	ID    int64       `db:"id" json:"id"`
	Title string      `db:"title" json:"title" model:"max_length=20"`
	Doc   files.File  `db:"doc" json:"doc" model:"upload_to=docs/"`
	Cover *files.File `db:"cover" json:"cover" model:"field=ImageField,upload_to=covers/,blank"`
}

func (s3Book) Meta() models.Meta {
	return models.Meta{App: "shelf", Name: "Book", Storage: map[string]files.Storage{"doc": signed, "cover": cdn}}
}

// objects lists the bucket's objects, by key.
func objects(t *testing.T, dir string) []string {
	var keys []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			keys = append(keys, filepath.ToSlash(rel))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(keys)
	return keys
}

// createBooks creates s3Book's table.
func createBooks(db *sqlx.DB) {
	id := "integer NOT NULL PRIMARY KEY AUTOINCREMENT"
	if store.DialectOf(db) == store.PostgreSQL {
		id = "bigserial NOT NULL PRIMARY KEY"
	}
	db.MustExec(`CREATE TABLE "shelf_book" ("id" ` + id + `, "title" varchar(20) NOT NULL UNIQUE, ` +
		`"doc" varchar(100) NOT NULL, "cover" varchar(100) NULL)`)
}

// form is a multipart/form-data body of fields and of files (each
// "name=filename" to its content), and its Content-Type header.
func form(t *testing.T, fields map[string]string, uploads map[string][]byte) (string, string) {
	var b bytes.Buffer
	w := multipart.NewWriter(&b)
	for k, v := range fields {
		_ = w.WriteField(k, v)
	}
	for k, content := range uploads {
		name, filename, _ := strings.Cut(k, "=")
		part, err := w.CreateFormFile(name, filename)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = part.Write(content)
	}
	_ = w.Close()
	return b.String(), "Content-Type: " + w.FormDataContentType()
}

// TestS3FileFields: a model's FileField and ImageField on S3 storages,
// through generic views, on SQLite and PostgreSQL: the uploads become
// objects under AWS_LOCATION and upload_to, the answer gives the
// document's signed URL, which serves it back, and the cover's URL on
// AWS_S3_CUSTOM_DOMAIN; a second upload of a name gets Django's
// available name; an invalid image or a row the database refuses leaves
// no object; PATCH replaces the document.
func TestS3FileFields(t *testing.T) {
	_, dir, settings := server(t)
	settings.NoFileOverwrite = true
	st, err := s3.New(settings)
	if err != nil {
		t.Fatal(err)
	}
	settings.CustomDomain = "cdn.example.com"
	onCDN, err := s3.New(settings)
	if err != nil {
		t.Fatal(err)
	}
	signed.Storage, cdn.Storage = st, onCDN
	var img bytes.Buffer
	if err := png.Encode(&img, image.NewRGBA(image.Rect(0, 0, 2, 2))); err != nil {
		t.Fatal(err)
	}
	testservers.Dialects(t, func(t *testing.T, db *sqlx.DB) {
		t.Cleanup(func() { _ = os.RemoveAll(filepath.Join(dir, "uploads")) })
		createBooks(db)
		api := framework.NewAPI(nil, framework.Settings{})
		g := generics.GenericAPIView[s3Book]{Source: queryset.MustSQL[s3Book](db, queryset.SQLConfig{}), Serializer: serializers.MustNew[s3Book]()}
		api.Handle("/books/", generics.ListCreateAPIView(g))
		api.Handle("/books/{pk}/", generics.RetrieveUpdateAPIView(g))
		c := apitest.New(t, api)

		body, ctype := form(t, map[string]string{"title": "dune"}, map[string][]byte{"doc=notes 1.txt": []byte("hello"), "cover=c.png": img.Bytes()})
		r := c.Post("/books/", body, ctype)
		var got struct {
			Doc, Cover *string
		}
		if err := json.Unmarshal([]byte(r.Body), &got); r.Status != 201 || err != nil || got.Doc == nil || got.Cover == nil {
			t.Fatalf("POST: %d %s", r.Status, r.Body)
		}
		doc, err := url.Parse(*got.Doc)
		if err != nil || doc.Path != "/media/uploads/docs/notes_1.txt" || doc.Query().Get("X-Amz-Signature") == "" {
			t.Errorf("doc's URL %s", *got.Doc)
		}
		if status, content := get(t, *got.Doc); status != 200 || string(content) != "hello" {
			t.Errorf("GET the doc's URL: %d %q", status, content)
		}
		if *got.Cover != "https://cdn.example.com/uploads/covers/c.png" {
			t.Errorf("cover's URL %s", *got.Cover)
		}
		var docName, coverName string
		db.QueryRow(`SELECT "doc", "cover" FROM "shelf_book"`).Scan(&docName, &coverName)
		if docName != "docs/notes_1.txt" || coverName != "covers/c.png" {
			t.Errorf("columns: %q %q", docName, coverName)
		}

		body, ctype = form(t, map[string]string{"title": "emma"}, map[string][]byte{"doc=notes 1.txt": []byte("again")})
		if r := c.Post("/books/", body, ctype); r.Status != 201 || !strings.Contains(r.Body, "/media/uploads/docs/notes_1_") {
			t.Errorf("POST of a taken name: %d %s", r.Status, r.Body)
		}
		before := objects(t, dir)
		if len(before) != 3 {
			t.Fatalf("objects: %v", before)
		}

		body, ctype = form(t, map[string]string{"title": "x"}, map[string][]byte{"doc=a.txt": []byte("a"), "cover=c.png": []byte("no image")})
		if r := c.Post("/books/", body, ctype); r.Status != 400 || !strings.Contains(r.Body, "Upload a valid image.") {
			t.Errorf("POST of no image: %d %s", r.Status, r.Body)
		}
		body, ctype = form(t, map[string]string{"title": "dune"}, map[string][]byte{"doc=b.txt": []byte("b"), "cover=d.png": img.Bytes()})
		if r := c.Post("/books/", body, ctype); r.Status < 400 {
			t.Errorf("POST of a taken title: %d %s", r.Status, r.Body)
		}
		if after := objects(t, dir); !slices.Equal(after, before) {
			t.Errorf("objects after the failed writes: %v, were %v", after, before)
		}

		body, ctype = form(t, nil, map[string][]byte{"doc=new.txt": []byte("new")})
		r = c.Do("PATCH", "/books/1/", body, ctype)
		if err := json.Unmarshal([]byte(r.Body), &got); r.Status != 200 || err != nil || got.Doc == nil {
			t.Fatalf("PATCH: %d %s", r.Status, r.Body)
		}
		if status, content := get(t, *got.Doc); status != 200 || string(content) != "new" {
			t.Errorf("GET the new doc's URL: %d %q", status, content)
		}
	})
}

// TestS3OverwrittenKept: with AWS_S3_FILE_OVERWRITE's default, an upload
// of a taken name replaces the object, and a write that then fails leaves
// it (another row names it) rather than delete it.
func TestS3OverwrittenKept(t *testing.T) {
	_, dir, settings := server(t)
	st, err := s3.New(settings)
	if err != nil {
		t.Fatal(err)
	}
	signed.Storage, cdn.Storage = st, st
	testservers.Dialects(t, func(t *testing.T, db *sqlx.DB) {
		t.Cleanup(func() { _ = os.RemoveAll(filepath.Join(dir, "uploads")) })
		createBooks(db)
		api := framework.NewAPI(nil, framework.Settings{})
		api.Handle("/books/", generics.ListCreateAPIView(generics.GenericAPIView[s3Book]{
			Source: queryset.MustSQL[s3Book](db, queryset.SQLConfig{}), Serializer: serializers.MustNew[s3Book]()}))
		c := apitest.New(t, api)
		body, ctype := form(t, map[string]string{"title": "dune"}, map[string][]byte{"doc=a.txt": []byte("first")})
		if r := c.Post("/books/", body, ctype); r.Status != 201 {
			t.Fatalf("POST: %d %s", r.Status, r.Body)
		}
		body, ctype = form(t, map[string]string{"title": "dune"}, map[string][]byte{"doc=a.txt": []byte("second")})
		if r := c.Post("/books/", body, ctype); r.Status < 400 {
			t.Errorf("POST of a taken title: %d %s", r.Status, r.Body)
		}
		if b, err := os.ReadFile(filepath.Join(dir, "uploads", "docs", "a.txt")); err != nil || string(b) != "second" {
			t.Errorf("the object: %q %v", b, err)
		}
	})
}
