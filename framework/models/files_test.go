package models_test

import (
	"strings"
	"testing"

	"github.com/go-drf/drf/framework/files"
	"github.com/go-drf/drf/framework/models"
)

type fileModel struct {
	ID    int64       `db:"id"`
	Doc   files.File  `db:"doc" model:"upload_to=docs/%Y/"`
	Photo *files.File `db:"photo" model:"field=ImageField,max_length=200"`
}

func (fileModel) Meta() models.Meta {
	return models.Meta{App: "shelf", Storage: map[string]files.Storage{"photo": files.FileSystemStorage{BaseURL: "/m/"}}}
}

type fileOnString struct {
	ID  int64  `db:"id"`
	Doc string `db:"doc" model:"field=FileField"`
}

type uploadToOnText struct {
	ID  int64  `db:"id"`
	Doc string `db:"doc" model:"max_length=10,upload_to=x/"`
}

type sizeOfFile struct {
	ID    int64      `db:"id"`
	Doc   files.File `db:"doc" model:"width_field=w"`
	Width int        `db:"w"`
}

type sizeInText struct {
	ID    int64      `db:"id"`
	Photo files.File `db:"photo" model:"field=ImageField,height_field=h"`
	H     string     `db:"h" model:"max_length=5"`
}

type sizeOfNoField struct {
	ID    int64      `db:"id"`
	Photo files.File `db:"photo" model:"field=ImageField,width_field=width"`
}

type sizedImage struct {
	ID     int64       `db:"id"`
	Photo  *files.File `db:"photo" model:"field=ImageField,width_field=w,height_field=h"`
	Width  *uint32     `db:"w"`
	Height int64       `db:"h"`
}

type fileAsChar struct {
	ID  int64      `db:"id"`
	Doc files.File `db:"doc" model:"field=CharField,max_length=10"`
}

type storageOfText struct {
	ID    int64  `db:"id"`
	Title string `db:"title" model:"max_length=10"`
}

func (storageOfText) Meta() models.Meta {
	return models.Meta{Storage: map[string]files.Storage{"title": files.FileSystemStorage{}}}
}

// TestFileFields: a files.File column is a FileField (field=ImageField
// makes it an ImageField) of Django's max_length 100 unless told, with
// its upload_to and Meta.Storage; a file field that is no files.File,
// upload_to off a file field, Meta.Storage of another field, and a
// width_field or height_field off an ImageField or naming no integer
// field of the model fail at setup, naming the field.
func TestFileFields(t *testing.T) {
	d, err := models.Of[fileModel]()
	if err != nil {
		t.Fatal(err)
	}
	doc, photo := d.Field("doc"), d.Field("photo")
	if doc.Kind != models.FileField || doc.MaxLength != 100 || doc.UploadTo != "docs/%Y/" || doc.Null {
		t.Errorf("doc: %+v", doc)
	}
	if photo.Kind != models.ImageField || photo.MaxLength != 200 || !photo.Null || photo.Storage != (files.FileSystemStorage{BaseURL: "/m/"}) {
		t.Errorf("photo: %+v", photo)
	}
	sized, err := models.Of[sizedImage]()
	if err != nil {
		t.Fatal(err)
	}
	if p := sized.Field("photo"); p.WidthField != "w" || p.HeightField != "h" {
		t.Errorf("photo: %+v", p)
	}
	for _, c := range []struct {
		err  error
		want string
	}{
		{errOf[fileOnString](), "doc: a FileField or an ImageField is a files.File"},
		{errOf[uploadToOnText](), "doc: upload_to needs a FileField or an ImageField"},
		{errOf[fileAsChar](), "doc: a FileField or an ImageField is a files.File"},
		{errOf[storageOfText](), `Meta.Storage names "title"`},
		{errOf[sizeOfFile](), "doc: width_field and height_field need an ImageField"},
		{errOf[sizeInText](), `photo: height_field names "h", which is no integer field of the model`},
		{errOf[sizeOfNoField](), `photo: width_field names "width", which is no integer field of the model`},
	} {
		if c.err == nil || !strings.Contains(c.err.Error(), c.want) {
			t.Errorf("error %v, want %q", c.err, c.want)
		}
	}
}

func errOf[T any]() error {
	_, err := models.Of[T]()
	return err
}
