package sample

import (
	"time"

	"github.com/go-drf/drf/contrib/apikey"
	"github.com/go-drf/drf/contrib/auth"
	"github.com/go-drf/drf/contrib/authtoken"
	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/generics"
	"github.com/go-drf/drf/framework/request"
)

// Models are the sample's models as Django's content types know them, in
// the order of the reference's INSTALLED_APPS: Django's own, DRF's
// tokens, the books, simplejwt's blacklist and the API keys. Their
// content types and default permissions ("bookshelf.add_book" ...) are
// created by the last of the Migrations, as Django's post_migrate
// creates them, with the ids the reference's have.
var Models = []auth.Model{
	auth.Models[0], auth.Models[1], auth.Models[2], auth.Models[3],
	{AppLabel: "sessions", Name: "session"},
	authtoken.Models[0], authtoken.Models[1],
	{AppLabel: "bookshelf", Name: "book"},
	{AppLabel: "token_blacklist", Name: "blacklistedtoken", VerboseName: "blacklisted token"},
	{AppLabel: "token_blacklist", Name: "outstandingtoken", VerboseName: "outstanding token"},
	apikey.Model,
}

// ecoMigrations are the API key table of /eco/api-key/, then the content
// types and default permissions of the Models (/eco/perms/).
var ecoMigrations = append(apikey.Migrations[:len(apikey.Migrations):len(apikey.Migrations)],
	auth.PermissionsMigration("bookshelf", "go_default_permissions", Models...))

// bookPermissions are DRF's DjangoModelPermissions on the books:
// bookshelf.add_book to create, change_book to update, delete_book to
// delete; reads need an authenticated user only.
var bookPermissions = framework.DjangoModelPermissions{AppLabel: "bookshelf", ModelName: "book"}

// ecoPermsRoutes mounts /eco/perms/books/ and /eco/perms/books/{pk}/ (pk
// digits only, the reference's <int:pk>; any other is Django's 404 page):
// the books behind Django's model permissions; a new book is the
// requester's.
func (a *app) ecoPermsRoutes(api *framework.API) {
	list := generics.GenericAPIView[Book]{
		View:       framework.View{Name: "Perm Book List", Permissions: framework.Permissions(bookPermissions)},
		Source:     a.books,
		Serializer: bookSerializer,
	}
	list.PerformCreate = func(r *request.Request, b *Book) error {
		b.OwnerID, b.Created = auth.UserOf(r).ID, time.Now()
		return list.InsertObject(r, b)
	}
	api.Handle("/eco/perms/books/", generics.ListCreateAPIView(list))
	api.Handle("/eco/perms/books/{pk:[0-9]+}/", generics.RetrieveUpdateDestroyAPIView(generics.GenericAPIView[Book]{
		View:       framework.View{Name: "Perm Book Detail", Permissions: framework.Permissions(bookPermissions)},
		Source:     a.books,
		Serializer: bookSerializer,
	}))
}
