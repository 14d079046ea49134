package versioning

import (
	"maps"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/framework/reverse"
)

// Deprecation is what the answers of a deprecated version announce.
type Deprecation struct {
	// Since is when the version was, or will be, deprecated: the
	// Deprecation field (RFC 9745), "@" and the Unix time. Zero sends none.
	Since time.Time
	// Sunset is when the version will stop answering: the Sunset field
	// (RFC 8594), an HTTP-date. Zero sends none.
	Sunset time.Time
	// Successor is the version that replaces this one: a Link field to
	// the same route in Successor, rel="successor-version", reversed as
	// reverse.ReverseVersion reverses (the route must be named). Empty
	// sends none.
	Successor string
	// Policy is the URL of a page on the deprecation: a Link field with
	// rel="deprecation" (RFC 9745, section 3). Empty sends none.
	Policy string
}

// Lifecycle is a versioning scheme whose deprecated versions say so on
// every answer, successes and errors alike: Scheme determines the
// version, and the answers of a version in Deprecated carry its fields.
//
//	v.Versioning = versioning.Lifecycle{Scheme: versioning.URLPathVersioning{},
//		Deprecated: map[string]versioning.Deprecation{"v1": {Since: since, Sunset: sunset, Successor: "v2"}}}
//
// The schemas package describes the view as it describes Scheme, and
// marks the operations of a deprecated version's document deprecated.
type Lifecycle struct {
	// Scheme determines the version (URLPathVersioning, ...).
	Scheme request.Versioner
	// Deprecated maps versions to what their answers announce.
	Deprecated map[string]Deprecation
}

// Unwrap returns the scheme that determines the version.
func (l Lifecycle) Unwrap() request.Versioner { return l.Scheme }

// Scheme returns the scheme that determines versions for s: s itself, or
// the scheme a Lifecycle (or any scheme with an Unwrap method) wraps.
func Scheme(s request.Versioner) request.Versioner {
	for {
		u, ok := s.(interface{ Unwrap() request.Versioner })
		if !ok {
			return s
		}
		s = u.Unwrap()
	}
}

// DetermineVersion asks Scheme, then adds the version's fields to the answer.
func (l Lifecycle) DetermineVersion(r *request.Request, c request.VersionConfig) (string, error) {
	version, err := l.Scheme.DetermineVersion(r, c)
	if err != nil {
		return "", err
	}
	d, ok := l.Deprecated[version]
	if !ok {
		return version, nil
	}
	if !d.Since.IsZero() {
		r.AddAnswerHeader("Deprecation", "@"+strconv.FormatInt(d.Since.Unix(), 10))
	}
	if !d.Sunset.IsZero() {
		r.AddAnswerHeader("Sunset", d.Sunset.UTC().Format(http.TimeFormat))
	}
	if d.Successor != "" {
		if link, ok := l.successor(r, c, version, d.Successor); ok {
			r.AddAnswerHeader("Link", "<"+link+`>; rel="successor-version"`)
		}
	}
	if d.Policy != "" {
		r.AddAnswerHeader("Link", "<"+d.Policy+`>; rel="deprecation"; type="text/html"`)
	}
	return version, nil
}

// successor is the URL of r's route in version to, with r's parameters
// and query but the version's; false when the route cannot be reversed.
func (l Lifecycle) successor(r *request.Request, c request.VersionConfig, version, to string) (string, bool) {
	m, ok := reverse.MatchOf(r.Request)
	if !ok || m.Name == "" {
		return "", false
	}
	params := map[string]string{}
	if rctx := chi.RouteContext(r.Context()); rctx != nil {
		for i, k := range rctx.URLParams.Keys {
			if k != c.Param && k != "*" {
				params[k] = rctx.URLParams.Values[i]
			}
		}
	}
	query := url.Values(maps.Clone(r.QueryParams()))
	if query.Get(c.Param) == version {
		query.Del(c.Param)
	}
	// Reversed as the wrapped scheme reverses; the view sets the scheme
	// again once the version is known.
	r.SetVersion(version, l.Scheme)
	link, err := reverse.ReverseVersion(to, m.Name, params, query, r)
	return link, err == nil
}

// ReverseLookup reverses as Scheme does, when it reads the URL.
func (l Lifecycle) ReverseLookup(lk *reverse.Lookup, r *request.Request) {
	if h, ok := l.Scheme.(reverse.Hook); ok {
		h.ReverseLookup(lk, r)
	}
}
