package sample

import (
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/contrib/auth"
	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/files"
	"github.com/go-drf/drf/framework/generics"
	"github.com/go-drf/drf/framework/migrations"
	"github.com/go-drf/drf/framework/models"
	"github.com/go-drf/drf/framework/queryset"
	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/framework/serializers"
	"github.com/go-drf/drf/framework/versioning"
)

// Book is a book of the shelf, declared as the reference's Django model:
// its columns, their options and its owner, a foreign key to auth_user
// whose username the source joins in. The drf tags add what DRF's
// BookSerializer declares beyond the model.
type Book struct {
	ID      int       `db:"id" json:"id" drf:"read_only"`
	Title   string    `db:"title" json:"title" model:"max_length=200" drf:"required,max_length=200"`
	Author  string    `db:"author" json:"author" model:"max_length=200" drf:"required,max_length=200"`
	Rating  int       `db:"rating" json:"rating" drf:"required,min_value=1,max_value=5"`
	Created time.Time `db:"created" json:"created" model:"db_index" drf:"read_only"`
	OwnerID int64     `db:"owner_id" json:"-" model:"foreign_key=auth_user,on_delete=cascade,related_name=books"`
	// Owner is the owner's username (DRF's ReadOnlyField(source='owner.username')).
	Owner string `json:"owner" drf:"source=owner.username"`
	// Cover is the book's cover image, outside the book's JSON: its
	// route is /books/{pk}/cover/ (cover.go).
	Cover *files.File `db:"cover" json:"-" model:"field=ImageField,upload_to=covers/,blank"`
}

// Meta is the reference's Meta: the books table, ordered by id.
func (Book) Meta() models.Meta {
	return models.Meta{App: "bookshelf", Table: "books", Ordering: []string{"id"},
		Defaults: map[string]models.Default{"created": models.DefaultFunc(time.Now)}}
}

// App is the bookshelf app: its model, and its migrations, which
// makemigrations wrote (migration_*.go): the books table exactly as the
// reference's Django migration "bookshelf 0001_initial" creates it on
// SQLite and on PostgreSQL.
var App = migrations.NewApp("bookshelf", Book{})

// booksSource is every book with its owner's name, as Book declares it.
// Pages with EstimatedCount (/beyond/pages/estimated/) read the planner's
// statistic on PostgreSQL, a count cached for a minute on SQLite.
func booksSource(db *sqlx.DB) (*queryset.SQLSource[Book], error) {
	return queryset.NewSQL[Book](db, queryset.SQLConfig{Estimator: queryset.TableEstimate("books", time.Minute)})
}

// The serializers of books: every field; v1 of the versioned list (id and
// title); v2 (adds author, rating and the item's version-aware URL).
var (
	bookSerializer   = serializers.MustNew[Book]()
	bookV1Serializer = serializers.MustNew[Book](serializers.Fields("id", "title"))
	bookV2Serializer = serializers.MustNew[Book](
		serializers.HyperlinkedIdentity{Name: "url", Route: "url-book-detail"},
		serializers.Fields("id", "title", "author", "rating", "url"),
	)
)

// versionedSerializer picks the serializer of the request's version.
func versionedSerializer(_ *framework.View, r *request.Request) *serializers.Serializer[Book] {
	if r.Version() == "v2" {
		return bookV2Serializer
	}
	return bookV1Serializer
}

// bookViewSet is the books' model viewset, mounted by the router at
// /books/ and /books/{pk}/: anyone reads, authenticated users write, and
// a new book belongs to whoever creates it, created now.
func (a *app) bookViewSet() *generics.ModelViewSet[Book] {
	vs := &generics.ModelViewSet[Book]{}
	vs.Permissions = framework.Permissions(framework.IsAuthenticatedOrReadOnly{})
	vs.Source, vs.Serializer = a.books, bookSerializer
	vs.PerformCreate = func(r *request.Request, b *Book) error {
		b.OwnerID, b.Created = auth.UserOf(r).ID, time.Now()
		return vs.InsertObject(r, b)
	}
	return vs
}

// versionedBooks is the list or detail view of /url/{version}/books/:
// the serializer depends on the version in the URL.
func (a *app) versionedBooks(name string, as func(generics.GenericAPIView[Book]) framework.View) framework.View {
	return as(generics.GenericAPIView[Book]{
		View:          framework.View{Name: name, Versioning: versioning.URLPathVersioning{}, Pagination: fivePerPage},
		Source:        a.books,
		SerializerFor: versionedSerializer,
	})
}
