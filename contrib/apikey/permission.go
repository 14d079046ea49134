package apikey

import (
	"strings"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/authentication"
	"github.com/go-drf/drf/framework/compat"
	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/internal/pycompat"
)

// HasAPIKey is the package's HasAPIKey permission: the request must carry
// a valid key (Keys.IsValid) in "Authorization: Api-Key KEY", or in
// Header when set (the API_KEY_CUSTOM_HEADER setting). It does not
// authenticate a user: the request stays anonymous unless a scheme
// authenticates it, so a request without a valid key gets 403
// "Authentication credentials were not provided." from a view whose first
// scheme sends no challenge, and 403 "You do not have permission to
// perform this action." once a user is logged in. On objects it answers
// as on the request.
type HasAPIKey struct {
	// Keys holds the keys.
	Keys *Keys
	// Header, when set, is the header that carries the bare key instead
	// of Authorization, e.g. "X-Api-Key".
	Header string
	// Compatibility is the release of the package whose KeyParser reads
	// the Authorization header: the zero value (compat.Current) 3.1, beside
	// DRF 3.18, compat.DRF314 2.0, beside DRF 3.14 (Key). The sample sets
	// it from framework.Settings.Compatibility.
	Compatibility compat.Level
}

// Key returns the request's key as the package's KeyParser reads it, ""
// when there is none. In 3.1 the Authorization header is split at its
// first space: the word before it must be "Api-Key" in any case, and the
// rest is the key ("api-key KEY" is read, "XApi-Key KEY" is not). In 2.0
// (compat.DRF314) the header split on "Api-Key " must give exactly two
// parts, the second being the key ("XApi-Key KEY" is read, "api-key KEY"
// is not).
func (p HasAPIKey) Key(r *request.Request) string {
	if p.Header != "" {
		return pycompat.HeaderText(authentication.HeaderValue(r.Header, p.Header))
	}
	authorization := pycompat.HeaderText(authentication.HeaderValue(r.Header, "Authorization"))
	if p.Compatibility != compat.DRF314 {
		keyword, key, found := strings.Cut(authorization, " ")
		if !found || strings.ToLower(keyword) != "api-key" {
			return ""
		}
		return key
	}
	if parts := strings.Split(authorization, "Api-Key "); len(parts) == 2 {
		return parts[1]
	}
	return ""
}

// HasPermission reports whether the request carries a valid key.
func (p HasAPIKey) HasPermission(r *request.Request, _ *framework.View) (bool, error) {
	key := p.Key(r)
	if key == "" {
		return false, nil
	}
	return p.Keys.IsValid(r.Context(), key)
}

// HasObjectPermission answers as HasPermission.
func (p HasAPIKey) HasObjectPermission(r *request.Request, v *framework.View, _ any) (bool, error) {
	return p.HasPermission(r, v)
}

// CheckPermission refuses a HasAPIKey without its keys at registration.
func (p HasAPIKey) CheckPermission() error {
	if p.Keys == nil || p.Keys.DB == nil {
		return errNoKeys
	}
	return nil
}
