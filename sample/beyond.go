package sample

import (
	"errors"
	"time"

	"github.com/go-drf/drf/contrib/hashedtoken"
	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/authentication"
	"github.com/go-drf/drf/framework/exceptions"
	"github.com/go-drf/drf/framework/pagination"
	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/framework/reverse"
	"github.com/go-drf/drf/framework/versioning"
)

// The /beyond/ routes show what DRF's users have asked for and DRF lacks,
// each opt-in (docs/beyond-drf.md). They are not in the contract.

// DeviceTokens is the configuration of the sample's hashed tokens (without
// their database): ten hours, extended on use for up to thirty days, ten
// devices a user. `manage hashedtoken` uses it too.
var DeviceTokens = hashedtoken.Tokens{TTL: 10 * time.Hour, Refresh: true, MaxAge: 30 * 24 * time.Hour, Limit: 10}

// Pagination styles of /beyond/pages/: a keyset cursor over a rating with
// ties, and the page-number and limit/offset styles that do not count
// every item.
var (
	estimatedStyle = &pagination.PageNumberPagination{PageSize: 5, Count: pagination.EstimatedCount}
	noCountStyle   = &pagination.LimitOffsetPagination{DefaultLimit: 5, MaxLimit: 20, Count: pagination.NoCount}
)

// keysetStyle orders by rating (many ties), then title, then id, with
// cursors signed by the SECRET_KEY (so every instance reads them).
func (a *app) keysetStyle() *pagination.KeysetPagination {
	return &pagination.KeysetPagination{PageSize: 5, Ordering: []string{"-rating", "title"},
		PageSizeQueryParam: "page_size", MaxPageSize: 20, Secret: []byte(a.sessions.SecretKey)}
}

// bearerAuth accepts the hashed device tokens as "Authorization: Bearer <key>".
func (a *app) bearerAuth() authentication.Token {
	return authentication.Token{Tokens: a.devices, Keyword: "Bearer"}
}

// deviceViews are the endpoints of the device tokens: log in with Basic
// or a session, then use the token itself (Bearer).
func (a *app) deviceViews() hashedtoken.Views {
	return hashedtoken.Views{Tokens: a.devices,
		Authentication: framework.Authenticators(a.bearerAuth(), a.basicAuth(), a.sessionAuth())}
}

// resolved is the answer of /beyond/url/{version}/resolve/.
type resolved struct {
	Name    string            `json:"name"`
	Params  map[string]string `json:"params"`
	Version string            `json:"version"`
	// In is the same route in the version ?to= asks for (the request's
	// by default).
	In string `json:"in"`
}

// resolveView traces ?url= (a URL of the /url/{version}/ routes, any
// version) back to its route and version, and reverses it into ?to=.
func resolveView() framework.View {
	return framework.View{
		Name:       "Resolve",
		Versioning: versioning.URLPathVersioning{},
		Get: func(v *framework.View, r *request.Request) (*framework.Response, error) {
			q := r.QueryParams()
			if q.Get("url") == "" {
				return nil, exceptions.ParseError(`Give the URL to resolve as "url".`)
			}
			res, err := versioning.Resolve(q.Get("url"), v, r)
			var none *reverse.NoResolveMatch
			if errors.As(err, &none) {
				return nil, exceptions.NotFound()
			}
			if err != nil {
				return nil, err
			}
			to := r.Version()
			if t := q.Get("to"); t != "" {
				if !v.VersionConfig().IsAllowed(t) {
					return nil, exceptions.NotFound(versioning.InvalidURLPathVersion)
				}
				to = t
			}
			in, err := reverse.ReverseVersion(to, res.Name, res.Params, res.Query, r)
			if err != nil {
				return nil, err
			}
			return framework.OK(resolved{Name: res.Name, Params: res.Params, Version: res.Version, In: in}), nil
		},
	}
}

// beyondRoutes mounts the /beyond/ routes.
func (a *app) beyondRoutes(api *framework.API) {
	api.Route("/beyond", "", func(api *framework.API) {
		api.Handle("/pages/keyset/", a.bookList("Keyset List", a.keysetStyle()))
		api.Handle("/pages/estimated/", a.bookList("Estimated Count List", estimatedStyle))
		api.Handle("/pages/no-count/", a.bookList("Uncounted List", noCountStyle))
		api.Route("/devices", "", a.deviceViews().Register)
		api.Handle("/auth/bearer/", a.onlyUsers("Bearer", framework.IsAuthenticated{}, a.bearerAuth()))
		api.Handle("/auth/session-401/", a.onlyUsers("Session 401", framework.IsAuthenticated{},
			authentication.Session{Sessions: a.sessions, Realm: "api"}))
		api.Handle("/url/{version}/resolve/", resolveView())
		api.Handle("/ratelimit/", rateLimited())
		books, book := a.beyondBooks()
		api.Handle("/books/", books)
		api.Handle("/books/{id}/", book)
	})
}
