package authtoken

import (
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"strings"

	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/framework/throttling"
)

// LoginAttemptThrottle limits, beyond DRF, the attempts to obtain a token
// as one user from one client, at the rate of the "login" scope
// (ThrottleRates["login"], or the returned throttle's Rate). It counts
// every POST whose body names a username and a password, as the view
// reads them, under the client's address and that username, whoever sends
// it: DRF's AnonRateThrottle counts no request that authenticates, so any
// user may otherwise guess other users' passwords without limit.
//
// The username is read from the body the view parses once (Request.Data),
// trimmed as the view trims it and compared case-insensitively, so that
// "Alice" and " alice" are attempts on alice too. A body the view refuses
// without checking a password (no username or no password, unparsable)
// is not counted, nor is a method other than POST. Keying by the client
// as well keeps a third party from locking a user out from everywhere;
// auth.Lockout (Users.Lockout) is the limit on one username from every
// client.
func LoginAttemptThrottle() throttling.RateThrottle {
	return throttling.RateThrottle{Scope: "login", Key: loginAttempt}
}

// loginAttempt is the key of a login attempt: the client's address and a
// digest of the lower-cased username, of a fixed size however long the
// username sent; "" for a request that is not one.
func loginAttempt(r *request.Request, ident string) string {
	username := AttemptedUsername(r)
	if username == "" {
		return ""
	}
	sum := sha256.Sum256([]byte(strings.ToLower(username)))
	return ident + "_" + hex.EncodeToString(sum[:16])
}

// AttemptedUsername is the username a request to the obtain view attempts
// to log in as: that of a POST whose body has a username and a password,
// as the view reads them (trimmed; the body parsed once, for the view
// too); "" for other requests, which the view refuses before it checks a
// password. It is what LoginAttemptThrottle counts by; a throttle of your
// own (a throttling.RateThrottle's Key) may count by it too.
func AttemptedUsername(r *request.Request) string {
	if r.Method != http.MethodPost {
		return ""
	}
	username, _, err := credentials(r)
	if err != nil {
		return "" // the view answers the same error
	}
	return username
}
