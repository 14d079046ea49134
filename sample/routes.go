package sample

import (
	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/authentication"
	"github.com/go-drf/drf/framework/browsable"
	"github.com/go-drf/drf/framework/generics"
	"github.com/go-drf/drf/framework/health"
	"github.com/go-drf/drf/framework/routers"
	"github.com/go-drf/drf/framework/schemas/apidocs"
	"github.com/go-drf/drf/framework/versioning"
)

// routes mounts every route of the contract, in the order of its tables,
// like Django's urls.py. Named routes are what reverse looks up.
func (a *app) routes(api *framework.API) {
	// Authentication.
	api.Handle("/api-token-auth/", a.obtainToken("Obtain Auth Token", nil))
	api.Handle("/api-token-auth-extra/", a.obtainToken("Obtain Auth Token Extra", withExtra))
	api.Handle("/api-token-auth-throttled/", a.obtainTokenThrottled())
	api.Route("/api-auth", "rest_framework", func(api *framework.API) {
		api.HandleHTTP("/login/", a.sessions.LoginPage(), framework.Named("login"))
		api.HandleHTTP("/logout/", a.sessions.LogoutPage(), framework.Named("logout"))
	})
	api.Handle("/whoami/", a.whoAmI())
	authenticated, admin := framework.IsAuthenticated{}, framework.IsAdminUser{}
	api.Handle("/auth/token-first/", a.onlyUsers("Token First", authenticated, a.tokenAuth(), a.basicAuth()))
	api.Handle("/auth/basic-first/", a.onlyUsers("Basic First", authenticated, a.basicAuth(), a.tokenAuth()))
	api.Handle("/auth/session-first/", a.onlyUsers("Session First", authenticated, a.sessionAuth(), a.tokenAuth()))
	api.Handle("/auth/header/", a.onlyUsers("Header Scheme", authenticated, XUsername{a.users}))
	api.Handle("/auth/header-challenge/", a.onlyUsers("Header Challenge Scheme", authenticated, XUsernameChallenge{XUsername{a.users}}))
	api.Handle("/auth/admin-only/", a.onlyUsers("Admin Only", admin, a.tokenAuth(), a.basicAuth()))
	var trusted []framework.RouteOption
	if a.remoteUserHeader != "" {
		trusted = append(trusted, framework.WithMiddleware(authentication.TrustedHeader(a.remoteUserHeader)))
	}
	api.Handle("/auth/remote-user/", a.onlyUsers("Remote User", authenticated, a.remoteUser()), trusted...)
	api.Handle("/auth/csrf/", a.csrfCheck())

	// Pagination.
	var router routers.SimpleRouter
	router.Register("books", a.bookViewSet(), "book")
	router.Mount(api)
	// A book's cover, and the media it is served from (cover.go).
	api.Handle("/books/{pk}/cover/", a.bookCoverView(), framework.Named("book-cover"))
	mediaRoutes(api)
	api.Handle("/pages/page-number/", a.bookList("Page Number List", pageNumberStyle))
	api.Handle("/pages/limit-offset/", a.bookList("Limit Offset List", limitOffsetStyle))
	api.Handle("/pages/cursor/", a.bookList("Cursor List", cursorStyle))
	api.Handle("/pages/cursor-rating/", a.bookList("Rating Cursor List", ratingCursor))
	api.Handle("/pages/cursor-orderable/", a.bookList("Orderable Cursor List", orderableCursor, byTitleCreatedOrID))
	api.Handle("/pages/off/", a.bookList("Unpaginated List", framework.NoPagination))
	api.Handle("/pages/manual/", a.manualPage())
	api.Handle("/pages/link-header/", a.bookList("Link Header List", linkHeaderStyle))
	api.Handle("/pages/nested-links/", a.bookList("Nested Links List", nestedLinksStyle))

	// Versioning.
	api.Handle("/url/{version}/info/", versionInfo("Url Path Info", versioning.URLPathVersioning{}), framework.Named("url-info"))
	// Any /ns/X/ other than v1 and v2 is in the namespace "other", not a
	// version, so that the scheme answers its own 404.
	for _, ns := range [][2]string{{"v1", "v1"}, {"v2", "v2"}, {"{other}", "other"}} {
		api.Route("/ns/"+ns[0], ns[1], func(api *framework.API) {
			api.Handle("/info/", versionInfo("Namespace Info", versioning.NamespaceVersioning{}), framework.Named("info"))
		})
	}
	api.Handle("/query/info/", versionInfo("Query Parameter Info", versioning.QueryParameterVersioning{}), framework.Named("query-info"))
	api.Handle("/accept/info/", versionInfo("Accept Header Info", versioning.AcceptHeaderVersioning{}), framework.Named("accept-info"))
	api.Handle("/host/info/", versionInfo("Host Name Info", versioning.HostNameVersioning{}), framework.Named("host-info"))
	api.Handle("/custom/info/", versionInfo("Custom Header Info", XAPIVersion{}), framework.Named("custom-info"))
	api.Handle("/url/{version}/books/", a.versionedBooks("Versioned Book List", generics.ListAPIView[Book]), framework.Named("url-book-list"))
	api.Handle("/url/{version}/books/{pk}/", a.versionedBooks("Versioned Book Detail", generics.RetrieveAPIView[Book]), framework.Named("url-book-detail"))

	// Beyond DRF: opt-in features, outside the contract (beyond.go,
	// problems.go).
	a.beyondRoutes(api)
	a.problemRoutes(api)
	a.deprecationRoutes(api)

	// Ecosystem packages imitated (eco_*.go).
	a.ecoJWTRoutes(api)
	a.ecoAPIKeyRoutes(api)
	a.ecoPermsRoutes(api)
	a.ecoBooksRoutes(api)

	// Health: /livez and /readyz, for load balancers and orchestrators.
	health.Mount(api, a.health())

	// The OpenAPI document: the whole API, or ?version=v1 or v2's routes;
	// Swagger UI and Redoc show it at /schema/swagger-ui/ and /schema/redoc/.
	gen := Schema(api)
	api.Handle("/schema/", gen.View(), framework.Named("schema"))
	apidocs.Pages{SchemaPath: "/schema/", Versions: gen.Versions, Title: gen.Info.Title}.Register(api, "/schema/")

	// The browsable pages' style sheet and scripts, under /static/rest_framework/.
	browsable.HandleStatic(api, "")
}
