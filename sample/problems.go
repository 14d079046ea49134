package sample

import (
	"time"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/generics"
	"github.com/go-drf/drf/framework/problems"
	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/framework/reverse"
	"github.com/go-drf/drf/framework/routers"
	"github.com/go-drf/drf/framework/versioning"
)

// Two more opt-in features of the /beyond/ routes (docs/beyond-drf.md):
// problem details for errors, and deprecation signals per version.

// problemsNamespace holds the routes whose errors are problem details.
const problemsNamespace = "problems"

// problemHandler answers errors as problem details (RFC 9457).
var problemHandler = problems.Handler{}

// exceptionHandler is the API's EXCEPTION_HANDLER: problem details for the
// routes of /beyond/problems/, DRF's {"detail": ...} everywhere else.
func exceptionHandler(err error, v *framework.View, r *request.Request) *framework.Response {
	if m, ok := reverse.MatchOf(r.Request); ok && m.Namespace == problemsNamespace {
		return problemHandler.Handle(err, v, r)
	}
	return framework.DefaultExceptionHandler(err, v, r)
}

// isProblemRoute reports the routes whose errors are problem details, for
// the OpenAPI document.
func isProblemRoute(e framework.Endpoint) bool { return e.Namespace == problemsNamespace }

// problemRoutes mounts the books' viewset again at /beyond/problems/books/:
// /beyond/problems/books/999/ is a 404 problem, a POST without a title a
// 400 problem whose "errors" hold the field's messages.
func (a *app) problemRoutes(api *framework.API) {
	api.Route("/beyond/problems", problemsNamespace, func(api *framework.API) {
		var router routers.SimpleRouter
		router.Register("books", a.bookViewSet(), "book")
		router.Mount(api)
	})
}

// v1Deprecation is what the answers of /beyond/url/v1/books/ announce:
// v1 deprecated since 2026, gone at the end of 2027, v2 its successor.
var v1Deprecation = versioning.Deprecation{
	Since:     time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC),
	Sunset:    time.Date(2027, 12, 31, 23, 59, 59, 0, time.UTC),
	Successor: "v2",
}

// deprecatingBooks is versionedBooks whose v1 answers carry Deprecation,
// Sunset and a Link to the same page in v2.
func (a *app) deprecatingBooks(name string, as func(generics.GenericAPIView[Book]) framework.View) framework.View {
	v := a.versionedBooks(name, as)
	v.Versioning = versioning.Lifecycle{Scheme: v.Versioning, Deprecated: map[string]versioning.Deprecation{"v1": v1Deprecation}}
	return v
}

// deprecationRoutes mounts /beyond/url/{version}/books/ and its items.
func (a *app) deprecationRoutes(api *framework.API) {
	api.Handle("/beyond/url/{version}/books/", a.deprecatingBooks("Deprecating Book List", generics.ListAPIView[Book]), framework.Named("beyond-url-book-list"))
	api.Handle("/beyond/url/{version}/books/{pk}/", a.deprecatingBooks("Deprecating Book Detail", generics.RetrieveAPIView[Book]), framework.Named("beyond-url-book-detail"))
}
