package sample

import (
	"github.com/go-drf/drf/contrib/apikey"
	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/generics"
)

// ecoAPIKeyRoutes mounts /eco/api-key/books/: the book list for
// requests that carry a valid API key (djangorestframework-api-key's
// HasAPIKey, "Authorization: Api-Key KEY"), whoever is logged in; keys
// are hashed with the service's password hashers, as the package hashes
// them with Django's.
func (a *app) ecoAPIKeyRoutes(api *framework.API) {
	keys := &apikey.Keys{DB: a.users.DB, Hashers: a.users.Hashers}
	api.Handle("/eco/api-key/books/", generics.ListAPIView(generics.GenericAPIView[Book]{
		View:       framework.View{Name: "Api Key Book List", Permissions: framework.Permissions(apikey.HasAPIKey{Keys: keys, Compatibility: a.compat})},
		Source:     a.books,
		Serializer: bookSerializer,
	}))
}
