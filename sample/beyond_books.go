package sample

import (
	"time"

	"github.com/go-drf/drf/contrib/auth"
	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/generics"
	"github.com/go-drf/drf/framework/idempotency"
	"github.com/go-drf/drf/framework/migrations"
	"github.com/go-drf/drf/framework/request"
)

// beyondMigrations are the tables of /beyond/books/: the leases that
// serialize its conditional writes on SQLite and its idempotency keys.
var beyondMigrations = []migrations.Migration{migrations.Lease, idempotency.Migration}

// beyondBooks are /beyond/books/ and /beyond/books/{id}/, the books as
// /books/ serves them (anyone reads, users write, a new book is its
// creator's) with conditional requests and idempotent creates
// (docs/beyond-drf.md): the item's answers carry an ETag, GET and HEAD
// answer If-None-Match, and PUT, PATCH and DELETE must send If-Match
// (428 without, 412 when stale), checked under the book's lock, which
// every instance on the database shares (generics.DatabaseLocks); a
// POST with an Idempotency-Key is created once and its answer replayed.
func (a *app) beyondBooks() (list, detail framework.View) {
	g := generics.GenericAPIView[Book]{Source: a.books, Serializer: bookSerializer, LookupURLKwarg: "id",
		Conditional: &generics.Conditional{RequireIfMatch: true, Locks: &generics.DatabaseLocks{DB: a.users.DB}}}
	g.Permissions = framework.Permissions(framework.IsAuthenticatedOrReadOnly{})
	g.PerformCreate = func(r *request.Request, b *Book) error {
		b.OwnerID, b.Created = auth.UserOf(r).ID, time.Now()
		return g.InsertObject(r, b)
	}
	g.Name = "Conditional Book List"
	list = generics.ListCreateAPIView(g)
	list.Post = idempotency.Keys{DB: a.users.DB}.Post(list.Post)
	g.Name = "Conditional Book Instance"
	return list, generics.RetrieveUpdateDestroyAPIView(g)
}
