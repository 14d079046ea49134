package browsable_test

import (
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/files"
	"github.com/go-drf/drf/framework/generics"
	"github.com/go-drf/drf/framework/models"
	"github.com/go-drf/drf/framework/queryset"
	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/framework/routers"
	"github.com/go-drf/drf/framework/serializers"
)

// Upload is a model with a file and an image.
type Upload struct {
	ID    int64       `db:"id" json:"id" drf:"read_only"`
	Title string      `db:"title" json:"title" model:"max_length=20"`
	Doc   files.File  `db:"doc" json:"doc"`
	Photo *files.File `db:"photo" json:"photo" model:"field=ImageField,blank"`
}

func (Upload) Meta() models.Meta { return models.Meta{App: "media"} }

// A FileField and an ImageField are file inputs, as DRF's
// HTMLFormRenderer renders them, in forms sent as multipart/form-data
// (enctype); a form of no file field keeps the urlencoded body.
func TestFormsOfFileFields(t *testing.T) {
	api := framework.NewAPI(nil, settings)
	vs := &generics.ModelViewSet[Upload]{}
	vs.Source = queryset.MustSlice([]Upload{{ID: 1, Title: "t", Doc: files.File{Name: "a.txt"}}})
	vs.Serializer = serializers.MustNew[Upload]()
	keep := func(*request.Request, *Upload) error { return nil }
	vs.PerformCreate, vs.PerformUpdate, vs.PerformDestroy = keep, keep, keep
	var router routers.SimpleRouter
	router.Register("uploads", vs, "upload")
	router.Mount(api)
	srv := httptest.NewServer(api)
	t.Cleanup(srv.Close)

	for _, path := range []string{"/uploads/", "/uploads/1/"} {
		page := html(t, srv, path, "X-User", "alice")
		id := "post"
		if path != "/uploads/" {
			id = "put"
		}
		mustContain(t, page,
			`data-form-type="multipart/form-data"`,
			`<form class="send html" id="`+id+`-html-form" role="tabpanel" enctype="multipart/form-data" novalidate>`,
			`<label for="`+id+`-doc">Doc *</label><input type="file" id="`+id+`-doc" name="doc">`,
			`<label for="`+id+`-photo">Photo</label><input type="file" id="`+id+`-photo" name="photo">`,
		)
	}
	if notes := html(t, notes(t), "/notes/", "X-User", "alice"); strings.Contains(notes, "enctype") ||
		!strings.Contains(notes, `data-form-type="application/x-www-form-urlencoded"`) {
		t.Error("a form of no file is not urlencoded")
	}
}
