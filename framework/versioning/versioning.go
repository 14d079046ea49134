// Package versioning holds DRF's versioning schemes: each determines the
// API version of a request from its Accept header, URL path, route
// namespace, host name or query string, checks it against the view's
// allowed versions, and, when it lives in the URL, puts it back into the
// URLs that reverse.Reverse builds.
//
// A scheme is set globally (Settings.Versioning) or per view
// (View.Versioning); the view's DefaultVersion, AllowedVersions and
// VersionParam reach it as a request.VersionConfig. A custom scheme
// implements request.Versioner, and reverse.Hook too when it reads the
// URL.
package versioning

import (
	"regexp"
	"strings"

	"github.com/go-chi/chi/v5"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/compat"
	"github.com/go-drf/drf/framework/exceptions"
	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/framework/reverse"
)

// The error details of the schemes, in DRF's wording.
const (
	invalidAcceptVersion    = `Invalid version in "Accept" header.`
	InvalidURLPathVersion   = "Invalid version in URL path."
	invalidNamespaceVersion = "Invalid version in URL path. Does not match any version namespace."
	invalidHostNameVersion  = "Invalid version in hostname."
	InvalidQueryVersion     = "Invalid version in query parameter."
)

// AcceptHeaderVersioning reads the version parameter of the media type
// that content negotiation accepted, as in
// "Accept: application/json; version=v2"; a vendor type such as
// "application/vnd.example.books+json; version=v2" works when a renderer
// serves it. Without the parameter the version is the default; a version
// that is not allowed is 406 `Invalid version in "Accept" header.`.
// Reversed URLs are left alone.
type AcceptHeaderVersioning struct{}

// DetermineVersion returns the accepted media type's version parameter.
func (AcceptHeaderVersioning) DetermineVersion(r *request.Request, c request.VersionConfig) (string, error) {
	version, ok := framework.ParseMediaType(r.AcceptedMediaType).Params[strings.ToLower(c.Param)]
	if !ok {
		version = c.Default
	}
	if !c.IsAllowed(version) {
		return "", exceptions.NotAcceptable(invalidAcceptVersion)
	}
	return version, nil
}

// URLPathVersioning reads the version from the chi URL parameter named by
// the version param, as in "/{version}/books/". A route without that
// parameter gets the default version; a version that is not allowed
// (the default too, when it is none and versions are restricted) is 404
// "Invalid version in URL path.". Reversed URLs get the request's version
// in that parameter, unless the reverse names a version itself (DRF 3.15,
// #7247; at DRF 3.14 level the request's version wins).
type URLPathVersioning struct {
	// legacy: the request's version replaces one the reverse gives.
	legacy bool
}

// WithCompatibility returns the scheme as the release c names reverses
// (registration calls it with Settings.Compatibility).
func (v URLPathVersioning) WithCompatibility(c compat.Level) request.Versioner {
	v.legacy = c == compat.DRF314
	return v
}

// DetermineVersion returns the version URL parameter.
func (URLPathVersioning) DetermineVersion(r *request.Request, c request.VersionConfig) (string, error) {
	version, ok := urlParam(r, c.Param)
	if !ok {
		version = c.Default
	}
	if !c.IsAllowed(version) {
		return "", exceptions.NotFound(InvalidURLPathVersion)
	}
	return version, nil
}

// urlParam returns the last chi URL parameter named key, unescaped.
func urlParam(r *request.Request, key string) (string, bool) {
	rctx := chi.RouteContext(r.Context())
	if rctx == nil {
		return "", false
	}
	for i := len(rctx.URLParams.Keys) - 1; i >= 0; i-- {
		if rctx.URLParams.Keys[i] != key {
			continue
		}
		// The API routes the decoded path: the value is decoded once
		// already, as Django's kwargs are.
		return rctx.URLParams.Values[i], true
	}
	return "", false
}

// ReverseLookup sets the version parameter to the lookup's version,
// unless the parameters name one (at DRF 3.14 level, always).
func (v URLPathVersioning) ReverseLookup(l *reverse.Lookup, r *request.Request) {
	if l.Version == "" {
		return
	}
	if _, given := l.Params[r.VersionParam()]; !given || v.legacy {
		l.Params[r.VersionParam()] = l.Version
	}
}

// NamespaceVersioning reads the version from the namespace of the route
// that matched (reverse.Routes.Route with namespace "v1"): the first part
// of a nested namespace ("api:v1") that is an allowed version. A route
// outside any namespace, or not mounted through reverse.Routes, gets the
// default version; a namespace with no allowed part is 404 "Invalid
// version in URL path. Does not match any version namespace.". Reversed
// names are looked up under the version's namespace ("v1:info").
type NamespaceVersioning struct{}

// DetermineVersion returns the matched route's version namespace.
func (NamespaceVersioning) DetermineVersion(r *request.Request, c request.VersionConfig) (string, error) {
	m, ok := reverse.MatchOf(r.Request)
	if !ok || m.Namespace == "" {
		return c.Default, nil
	}
	for _, ns := range strings.Split(m.Namespace, ":") {
		if c.IsAllowed(ns) {
			return ns, nil
		}
	}
	return "", exceptions.NotFound(invalidNamespaceVersion)
}

// ReverseLookup prefixes the name with the lookup's version namespace.
func (NamespaceVersioning) ReverseLookup(l *reverse.Lookup, r *request.Request) {
	if l.Version != "" {
		l.Name = l.Version + ":" + l.Name
	}
}

// defaultHostPattern is DRF's hostname_regex, compiled once.
var defaultHostPattern = regexp.MustCompile(`^([a-zA-Z0-9]+)\.[a-zA-Z0-9]+\.[a-zA-Z0-9]+$`)

// HostNameVersioning reads the version from the host name, without its
// port: "v1.example.com" is version v1. A host the pattern does not match
// (a bare IP address, a name of two or four labels) gets the default
// version; a version that is not allowed is 404 "Invalid version in
// hostname.". The host is reverse.Host's: X-Forwarded-Host counts only
// when the routes trust forwarded headers. Reversed URLs keep the
// request's host, and so the version; reverse.ReverseVersion puts another
// version into it.
type HostNameVersioning struct {
	// Pattern matches the host name; its first group is the version, or
	// the whole match when it has no group. nil gives DRF's hostname_regex,
	// `^([a-zA-Z0-9]+)\.[a-zA-Z0-9]+\.[a-zA-Z0-9]+$`.
	Pattern *regexp.Regexp
}

// DetermineVersion returns the version named by the host.
func (h HostNameVersioning) DetermineVersion(r *request.Request, c request.VersionConfig) (string, error) {
	pattern := h.Pattern
	if pattern == nil {
		pattern = defaultHostPattern
	}
	hostname, _, _ := strings.Cut(reverse.Host(r.Request), ":")
	m := pattern.FindStringSubmatch(hostname)
	if m == nil {
		return c.Default, nil
	}
	version := m[0]
	if len(m) > 1 {
		version = m[1]
	}
	if !c.IsAllowed(version) {
		return "", exceptions.NotFound(invalidHostNameVersion)
	}
	return version, nil
}

// ReverseLookup keeps the request's host, as DRF does, unless the lookup
// is for another version (reverse.ReverseVersion): then the version in the
// host is replaced by it ("v1.example.com" becomes "v2.example.com"). A
// host that names no version is kept.
func (h HostNameVersioning) ReverseLookup(l *reverse.Lookup, r *request.Request) {
	if l.Version == r.Version() || l.Version == "" {
		return
	}
	pattern := h.Pattern
	if pattern == nil {
		pattern = defaultHostPattern
	}
	host := reverse.Host(r.Request)
	hostname, port, hasPort := strings.Cut(host, ":")
	m := pattern.FindStringSubmatchIndex(hostname)
	if m == nil {
		return
	}
	start, end := m[0], m[1]
	if len(m) > 2 && m[2] >= 0 {
		start, end = m[2], m[3]
	}
	l.Host = hostname[:start] + l.Version + hostname[end:]
	if hasPort {
		l.Host += ":" + port
	}
}

// QueryParameterVersioning reads the version from the query parameter
// named by the version param, as in "/books/?version=v1"; given twice,
// the last value counts. Without it the version is the default; a version
// that is not allowed (an empty one too) is 404 "Invalid version in query
// parameter.". Reversed URLs get "?version=" the request's version.
type QueryParameterVersioning struct{}

// DetermineVersion returns the version query parameter.
func (QueryParameterVersioning) DetermineVersion(r *request.Request, c request.VersionConfig) (string, error) {
	version := c.Default
	if r.QueryParams().Has(c.Param) {
		version = r.QueryParam(c.Param)
	}
	if !c.IsAllowed(version) {
		return "", exceptions.NotFound(InvalidQueryVersion)
	}
	return version, nil
}

// ReverseLookup sets the version query parameter to the lookup's version.
func (QueryParameterVersioning) ReverseLookup(l *reverse.Lookup, r *request.Request) {
	if l.Version != "" {
		l.Query.Set(r.VersionParam(), l.Version)
	}
}
