package authentication

import (
	"context"
	"net/http"
	"os"

	"github.com/go-drf/drf/framework/exceptions"
	"github.com/go-drf/drf/framework/request"
)

// RemoteUser is DRF's RemoteUserAuthentication: the web server in front of
// the service has authenticated the client and names the user. The name
// travels in the request's context, put there by a middleware the deployer
// installs: TrustedHeader for a proxy that sets a header, CGIRemoteUser
// under net/http/cgi, or WithRemoteUser from their own code. Users the
// store does not know are created unless NoCreate is set; inactive users
// are not authenticated. Denied anonymous requests are 403 (no challenge).
type RemoteUser struct {
	// Users finds and creates the named users.
	Users RemoteUserStore
	// NoCreate leaves unknown names unauthenticated instead of creating
	// their users (Django's create_unknown_user = False).
	NoCreate bool
}

// msgRemoteUserRepeated is the detail of the authentication failure of a
// request that carried TrustedHeader's header more than once.
const msgRemoteUserRepeated = "Invalid remote user header. It was sent more than once."

// CheckAuthenticator refuses, at registration, a RemoteUser without Users
// (request.AuthenticatorChecker), and runs the store's own check.
func (s RemoteUser) CheckAuthenticator() error {
	return checkStore(s.Users, "Users", "the store that finds and creates the named users")
}

// Authenticate does not attempt without a remote user in the context, and
// fails when TrustedHeader found its header more than once.
func (s RemoteUser) Authenticate(r *request.Request) (request.User, any, error) {
	if _, repeated := r.Context().Value(remoteUserKey{}).(repeatedHeader); repeated {
		return nil, nil, exceptions.AuthenticationFailed(msgRemoteUserRepeated)
	}
	name := remoteUserFrom(r.Context())
	if name == "" {
		return nil, nil, nil
	}
	u, err := s.Users.RemoteUser(r.Context(), name, !s.NoCreate)
	if err != nil || u == nil || !u.IsActive() {
		return nil, nil, err
	}
	return u, nil, nil
}

type remoteUserKey struct{}

// repeatedHeader is what the context carries instead of a name when the
// trusted header came more than once: which copy the proxy set is unknown.
type repeatedHeader struct{}

// WithRemoteUser returns ctx carrying the name of the user the server
// authenticated (REMOTE_USER).
func WithRemoteUser(ctx context.Context, username string) context.Context {
	return context.WithValue(ctx, remoteUserKey{}, username)
}

// remoteUserFrom returns the remote user carried by ctx, "" when none.
func remoteUserFrom(ctx context.Context) string {
	name, _ := ctx.Value(remoteUserKey{}).(string)
	return name
}

// TrustedHeader returns a middleware that takes the remote user from the
// request header name (e.g. "X-Remote-User"). Install it only behind a
// proxy that authenticates every request and always sets or removes that
// header itself: a client able to reach the service directly, or through a
// proxy that forwards the client's own header, could name any user. A
// request carrying the header more than once (a proxy that adds its copy
// to the client's) names no one: RemoteUser refuses it with
// "Invalid remote user header. It was sent more than once."
func TrustedHeader(name string) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			switch vals := r.Header.Values(name); {
			case len(vals) > 1:
				r = r.WithContext(context.WithValue(r.Context(), remoteUserKey{}, repeatedHeader{}))
			case len(vals) == 1 && vals[0] != "":
				r = r.WithContext(WithRemoteUser(r.Context(), vals[0]))
			}
			next.ServeHTTP(w, r)
		})
	}
}

// CGIRemoteUser is a middleware for a service run by net/http/cgi: it takes
// the remote user from the REMOTE_USER variable that the web server sets in
// the environment of each CGI process.
func CGIRemoteUser(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if user := os.Getenv("REMOTE_USER"); user != "" {
			r = r.WithContext(WithRemoteUser(r.Context(), user))
		}
		next.ServeHTTP(w, r)
	})
}
