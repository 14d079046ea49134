package oidc

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/exceptions"
	"github.com/go-drf/drf/framework/request"
)

// HasScope returns the permission that lets through the requests
// authenticated by an access token granted every scope given, e.g.
// oidc.HasScope("books:read"). Anonymous requests are denied as DRF
// denies them (401 with the first scheme's challenge); a token without
// the scopes gets 403 with RFC 6750's `WWW-Authenticate: Bearer
// error="insufficient_scope", scope="..."`; requests authenticated
// otherwise (a session) get 403.
func HasScope(scopes ...string) framework.Permission { return scopeRequired{scopes: scopes} }

// scopeRequired is HasScope's permission.
type scopeRequired struct {
	// scopes must all be granted.
	scopes []string
}

// msgInsufficientScope is the detail of a token without the scopes.
const msgInsufficientScope = "The access token does not grant the scope this action needs."

// HasPermission checks the request's token.
func (s scopeRequired) HasPermission(r *request.Request, _ *framework.View) (bool, error) {
	t, ok := r.Auth().(*Token)
	if !ok {
		return false, nil
	}
	if t.HasScopes(s.scopes...) {
		return true, nil
	}
	e := exceptions.PermissionDenied(msgInsufficientScope)
	e.Header = http.Header{"Www-Authenticate": {`Bearer error="insufficient_scope", scope=` + strconv.Quote(strings.Join(s.scopes, " "))}}
	return false, e
}
