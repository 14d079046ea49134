package sample

import (
	"net/http"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/files"
	"github.com/go-drf/drf/framework/generics"
	"github.com/go-drf/drf/framework/models"
	"github.com/go-drf/drf/framework/serializers"
)

// mediaRoot and mediaURL are Django's MEDIA_ROOT and MEDIA_URL of the
// sample: covers are saved under "media" in the working directory, as
// db.sqlite3 is, and served at /media/.
const (
	mediaRoot = "media"
	mediaURL  = "/media/"
)

// media is the storage of the covers.
var media = files.FileSystemStorage{Location: mediaRoot, BaseURL: mediaURL}

// bookCover is a book's cover, an ImageField that may be null (Book's
// Cover), on a route of its own, /books/{pk}/cover/, so that the book's
// own JSON stays the contract's: {"id", "cover"}, the cover's absolute
// URL or null.
type bookCover struct {
	ID    int         `db:"id" json:"id" drf:"read_only"`
	Cover *files.File `db:"cover" json:"cover" model:"field=ImageField,upload_to=covers/,blank"`
}

// Meta is Book's table and name, with the covers' storage.
func (bookCover) Meta() models.Meta {
	return models.Meta{App: "bookshelf", Name: "Book", Table: "books", Storage: map[string]files.Storage{"cover": media}}
}

var coverSerializer = serializers.MustNew[bookCover]()

// bookCoverView is /books/{pk}/cover/: anyone reads a book's cover, an
// authenticated user replaces it (PUT or PATCH, multipart/form-data with
// the image as "cover") or clears it (null in JSON, an empty "cover" in a
// form).
func (a *app) bookCoverView() framework.View {
	return generics.RetrieveUpdateAPIView(generics.GenericAPIView[bookCover]{
		View: framework.View{
			Name:        "Book Cover",
			Permissions: framework.Permissions(framework.IsAuthenticatedOrReadOnly{}),
		},
		Source:     a.covers,
		Serializer: coverSerializer,
	})
}

// mediaRoutes serves the covers at MEDIA_URL, as Django's
// static(MEDIA_URL, document_root=MEDIA_ROOT) serves them in development.
func mediaRoutes(api *framework.API) {
	api.Router().Handle(mediaURL+"*", http.StripPrefix(mediaURL, files.Media(mediaRoot)))
}
