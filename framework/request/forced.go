package request

import (
	"context"
	"net/http"
)

// forcedKey is the context key of a request's forced authentication.
type forcedKey struct{}

// forced is DRF's ForcedAuthentication: the one scheme of a request that
// ForceAuthenticate marked, answering its user and token without
// reading any credentials.
type forced struct {
	// User is the user the request authenticates as.
	User User
	// Token is the request's auth (request.auth), nil for none.
	Token any
}

// Authenticate returns the forced user and token.
func (f *forced) Authenticate(*Request) (User, any, error) { return f.User, f.Token, nil }

// ForceAuthenticate returns r marked to authenticate as user with token,
// whatever the view's schemes, as DRF's force_authenticate does for its
// test requests: the Request built from it has one scheme, DRF's
// ForcedAuthentication, answering user and token. It is for tests
// (apitest.Client.ForceAuthenticate); a nil user returns r unchanged.
func ForceAuthenticate(r *http.Request, user User, token any) *http.Request {
	if user == nil {
		return r
	}
	return r.WithContext(context.WithValue(r.Context(), forcedKey{}, &forced{User: user, Token: token}))
}

// forcedScheme is the forced scheme of r, nil when r is not forced.
func forcedScheme(r *http.Request) *forced {
	f, _ := r.Context().Value(forcedKey{}).(*forced)
	return f
}
