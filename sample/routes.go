package sample

import (
	"net/http"
	"strings"

	"github.com/go-chi/chi/v5"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/authentication"
	"github.com/go-drf/drf/framework/reverse"
	"github.com/go-drf/drf/framework/routers"
	"github.com/go-drf/drf/framework/versioning"
)

// routes mounts every route of the contract, in the order of its tables.
// Names given to rt are what reverse.Reverse looks up.
func (a *app) routes() http.Handler {
	r := chi.NewRouter()
	rt := reverse.New()

	// Authentication.
	rt.Handle(r, "/api-token-auth/", "", a.obtainToken("Obtain Auth Token", nil))
	rt.Handle(r, "/api-token-auth-extra/", "", a.obtainToken("Obtain Auth Token Extra", withExtra))
	rt.Handle(r, "/api-token-auth-throttled/", "", a.obtainTokenThrottled())
	rt.Route(r, "/api-auth", "rest_framework", func(r chi.Router, rt *reverse.Routes) {
		rt.Handle(r, "/login/", "login", a.sessions.LoginPage())
		rt.Handle(r, "/logout/", "logout", a.sessions.LogoutPage())
	})
	rt.Handle(r, "/whoami/", "", a.whoAmI())
	authenticated, admin := framework.IsAuthenticated{}, framework.IsAdminUser{}
	rt.Handle(r, "/auth/token-first/", "", a.onlyUsers("Token First", authenticated, a.tokenAuth(), a.basicAuth()))
	rt.Handle(r, "/auth/basic-first/", "", a.onlyUsers("Basic First", authenticated, a.basicAuth(), a.tokenAuth()))
	rt.Handle(r, "/auth/session-first/", "", a.onlyUsers("Session First", authenticated, a.sessionAuth(), a.tokenAuth()))
	rt.Handle(r, "/auth/header/", "", a.onlyUsers("Header Scheme", authenticated, XUsername{a.users}))
	rt.Handle(r, "/auth/header-challenge/", "", a.onlyUsers("Header Challenge Scheme", authenticated, XUsernameChallenge{XUsername{a.users}}))
	rt.Handle(r, "/auth/admin-only/", "", a.onlyUsers("Admin Only", admin, a.tokenAuth(), a.basicAuth()))
	var remote http.Handler = a.onlyUsers("Remote User", authenticated, a.remoteUser())
	if a.remoteUserHeader != "" {
		remote = authentication.TrustedHeader(a.remoteUserHeader)(remote)
	}
	rt.Handle(r, "/auth/remote-user/", "", remote)
	rt.Handle(r, "/auth/csrf/", "", a.csrfCheck())

	// Pagination.
	var router routers.SimpleRouter
	router.Register("books", a.bookViewSet(), "book")
	router.Mount(r, rt)
	rt.Handle(r, "/pages/page-number/", "", a.bookList("Page Number List", pageNumberStyle))
	rt.Handle(r, "/pages/limit-offset/", "", a.bookList("Limit Offset List", limitOffsetStyle))
	rt.Handle(r, "/pages/cursor/", "", a.bookList("Cursor List", cursorStyle))
	rt.Handle(r, "/pages/cursor-rating/", "", a.bookList("Rating Cursor List", ratingCursor))
	rt.Handle(r, "/pages/cursor-orderable/", "", a.bookList("Orderable Cursor List", orderableCursor, byTitleCreatedOrID))
	rt.Handle(r, "/pages/off/", "", a.bookList("Unpaginated List", framework.NoPagination))
	rt.Handle(r, "/pages/manual/", "", a.manualPage())
	rt.Handle(r, "/pages/link-header/", "", a.bookList("Link Header List", linkHeaderStyle))
	rt.Handle(r, "/pages/nested-links/", "", a.bookList("Nested Links List", nestedLinksStyle))

	// Versioning.
	rt.Handle(r, "/url/{version}/info/", "url-info", a.versionInfo("Url Path Info", versioning.URLPathVersioning{}))
	for _, ns := range []string{"v1", "v2"} {
		rt.Route(r, "/ns/"+ns, ns, func(r chi.Router, rt *reverse.Routes) {
			rt.Handle(r, "/info/", "info", a.versionInfo("Namespace Info", versioning.NamespaceVersioning{}))
		})
	}
	// Any other /ns/X/ is in a namespace that is not a version, so that
	// the scheme answers its own 404.
	rt.Route(r, "/ns/{other}", "other", func(r chi.Router, rt *reverse.Routes) {
		rt.Handle(r, "/info/", "info", a.versionInfo("Namespace Info", versioning.NamespaceVersioning{}))
	})
	rt.Handle(r, "/query/info/", "query-info", a.versionInfo("Query Parameter Info", versioning.QueryParameterVersioning{}))
	rt.Handle(r, "/accept/info/", "accept-info", a.versionInfo("Accept Header Info", versioning.AcceptHeaderVersioning{}))
	rt.Handle(r, "/host/info/", "host-info", a.versionInfo("Host Name Info", versioning.HostNameVersioning{}))
	rt.Handle(r, "/custom/info/", "custom-info", a.versionInfo("Custom Header Info", XAPIVersion{}))
	list, detail := a.versionedBooks()
	rt.Handle(r, "/url/{version}/books/", "url-book-list", list)
	rt.Handle(r, "/url/{version}/books/{pk}/", "url-book-detail", detail)

	r.NotFound(appendSlash(r, notFound))
	return framework.SecurityHeaders(r)
}

// appendSlash redirects (301) a path without its final slash to the route
// with it, as Django's APPEND_SLASH does; other misses go to next.
func appendSlash(mux *chi.Mux, next http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if p := r.URL.Path; !strings.HasSuffix(p, "/") && mux.Match(chi.NewRouteContext(), r.Method, p+"/") {
			target := p + "/"
			if r.URL.RawQuery != "" {
				target += "?" + r.URL.RawQuery
			}
			w.Header().Set("Location", target)
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.WriteHeader(http.StatusMovedPermanently)
			return
		}
		next(w, r)
	}
}

// notFound answers paths no route matches with a small HTML page.
func notFound(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "text/html")
	w.WriteHeader(http.StatusNotFound)
	_, _ = w.Write([]byte("<!doctype html>\n<title>Not Found</title>\n<h1>Not Found</h1>\n<p>No page has this address.</p>\n"))
}
