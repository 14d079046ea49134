package sample

import (
	"slices"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/filters"
	"github.com/go-drf/drf/framework/generics"
	"github.com/go-drf/drf/framework/query"
)

// bookFilter is the reference's BookFilter: django-filter's FilterSet of
// Meta.fields {rating: exact gte lte in, title: exact icontains, author:
// exact in, created: gte lte (ISO 8601), owner__username: exact} and the
// declared created__date.
var bookFilter = filters.FilterSet{Filters: slices.Concat(
	filters.Lookups("rating", filters.Number, query.Exact, query.GTE, query.LTE, query.In),
	filters.Lookups("title", filters.Text, query.Exact, query.IContains),
	filters.Lookups("author", filters.Text, query.Exact, query.In),
	filters.Lookups("created", filters.DateTime, query.GTE, query.LTE),
	[]filters.Filter{
		{Param: "owner__username", Field: "owner__username"},
		{Param: "created__date", Field: "created", Lookup: query.Date, Value: filters.Date},
	},
)}

// ecoBooksRoutes mounts /eco/books/: the book list filtered by the
// FilterSet (DjangoFilterBackend), then ordered (rating, created, id) and
// searched (title, author), as the reference's FilteredBookList.
func (a *app) ecoBooksRoutes(api *framework.API) {
	fs := bookFilter
	fs.Compatibility = a.compat // django-filter 25.1 on Django 5.2 by default, 23.1 on 3.2 at DRF 3.14
	api.Handle("/eco/books/", generics.ListAPIView(generics.GenericAPIView[Book]{
		View:       framework.View{Name: "Filtered Book List"},
		Source:     a.books,
		Serializer: bookSerializer,
		FilterBackends: framework.FilterBackends(
			fs,
			filters.OrderingFilter{Fields: []string{"rating", "created", "id"}},
			filters.SearchFilter{Fields: []string{"title", "author"}},
		),
	}))
}
