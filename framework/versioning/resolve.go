package versioning

import (
	"net/url"
	"strings"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/exceptions"
	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/framework/reverse"
	"github.com/go-drf/drf/internal/pycompat"
)

// invalidURL is the detail of the 400 Resolve answers for a URL that
// does not parse: the words of Django's URLValidator, which DRF's
// URLField answers.
const invalidURL = "Enter a valid URL."

// Resolution is a URL traced back to its route (not in DRF, #2489): the
// name, parameters and query to reverse it by in any version
// (reverse.ReverseVersion), and the version it is for.
type Resolution struct {
	// Name is the route's name without its version namespace ("info" for
	// "v1:info").
	Name string
	// Params are the route's parameters without the version parameter.
	Params map[string]string
	// Query is the URL's query, read as Django reads one
	// (pycompat.ParseQuery), without the version parameter.
	Query url.Values
	// Version is the URL's version as the view's scheme reads it.
	Version string
	// Route is the route as it matched.
	Route *reverse.Resolved
}

// Resolve traces rawURL, absolute or relative to the request's URL, back
// to the named route that serves it among the routes that served r, and
// reads its version as v's versioning scheme reads a request's: from the
// URL path parameter, the namespace, the query parameter or the host name
// (AcceptHeaderVersioning finds no version in a URL: the default one).
// The version is then taken out of the route's name (a leading version
// namespace) and parameters, so that Name and Params reverse the route in
// any version:
//
//	res, err := versioning.Resolve("https://api.example.com/v1/books/5/", v, r)
//	// res.Name "book-detail", res.Params {"pk": "5"}, res.Version "v1"
//	v2, err := reverse.ReverseVersion("v2", res.Name, res.Params, res.Query, r)
//
// A URL that does not parse (a control character, a broken escape, an
// unclosed "[") is 400 "Enter a valid URL."; a URL no named route matches is a
// *reverse.NoResolveMatch; a version the view does not allow is the
// scheme's error (404 "Invalid version in URL path." and the like).
func Resolve(rawURL string, v *framework.View, r *request.Request) (*Resolution, error) {
	u, err := r.URL.Parse(rawURL)
	if err != nil {
		return nil, exceptions.ParseError(invalidURL)
	}
	if u.Host == "" {
		u.Host = r.Host
	}
	m, ok := reverse.MatchOf(r.Request)
	if !ok {
		return nil, &reverse.NoResolveMatch{Path: u.EscapedPath()}
	}
	route, err := m.Routes().Resolve(u.EscapedPath())
	if err != nil {
		return nil, err
	}
	res := &Resolution{Name: route.Name, Params: route.Params, Query: pycompat.ParseQuery(u.RawQuery, pycompat.UTF8), Route: route}
	c := v.VersionConfig()
	if v.Versioning != nil {
		vr := request.New(route.Request(r.Context(), u), request.Config{VersionParam: c.Param})
		if res.Version, err = v.Versioning.DetermineVersion(vr, c); err != nil {
			return nil, err
		}
	}
	if res.Version == "" {
		return res, nil
	}
	res.Name = strings.TrimPrefix(res.Name, res.Version+":")
	if res.Params[c.Param] == res.Version {
		delete(res.Params, c.Param)
	}
	if res.Query.Get(c.Param) == res.Version {
		res.Query.Del(c.Param)
	}
	return res, nil
}
