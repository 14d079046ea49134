package sample

import (
	"errors"

	"github.com/go-drf/drf/contrib/auth"
	"github.com/go-drf/drf/contrib/authtoken"
	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/authentication"
	"github.com/go-drf/drf/framework/exceptions"
	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/framework/schemas"
	"github.com/go-drf/drf/framework/throttling"
)

// XUsername is a custom authentication scheme that trusts the X-Username
// header to name the user. Without the header it does not attempt; an
// unknown name fails. It supplies no WWW-Authenticate value, so denied
// requests are 403.
type XUsername struct {
	// Users is where the named users are looked up.
	Users *auth.Users
}

// Authenticate looks the named user up.
func (s XUsername) Authenticate(r *request.Request) (request.User, any, error) {
	name := authentication.HeaderValue(r.Header, "X-Username")
	if name == "" {
		return nil, nil, nil
	}
	u, err := s.Users.GetByUsername(r.Context(), name)
	if errors.Is(err, auth.ErrNotFound) {
		return nil, nil, exceptions.AuthenticationFailed("No such user")
	}
	if err != nil {
		return nil, nil, err
	}
	return u, nil, nil
}

// SecurityScheme documents the scheme in the OpenAPI document: the user's
// name in the X-Username header (schemas.SecurityDescriber).
func (XUsername) SecurityScheme() (string, *schemas.SecurityScheme) {
	return "usernameHeader", &schemas.SecurityScheme{Type: "apiKey", In: "header", Name: "X-Username",
		Description: "The user's name, trusted as it is: the sample's custom scheme."}
}

// XUsernameChallenge is XUsername with a challenge: denied anonymous or
// failed requests are 401 with `WWW-Authenticate: X-Username`.
type XUsernameChallenge struct{ XUsername }

// AuthenticateHeader returns the challenge.
func (XUsernameChallenge) AuthenticateHeader(*request.Request) string { return "X-Username" }

// tokenExtra is the answer of /api-token-auth-extra/.
type tokenExtra struct {
	Token  string `json:"token"`
	UserID int64  `json:"user_id"`
	Email  string `json:"email"`
}

// obtainToken is the token-obtain view: POST a username and password, get
// {"token": KEY}. answer, when not nil, builds a different answer.
func (a *app) obtainToken(name string, answer func(t *authtoken.Token, u *auth.User) any) framework.View {
	v := authtoken.ObtainToken{Users: a.users, Tokens: a.tokens, Answer: answer}.View()
	v.Name = name
	return v
}

// withExtra answers the token with the user's id and e-mail.
func withExtra(t *authtoken.Token, u *auth.User) any {
	return tokenExtra{Token: t.Key, UserID: u.ID, Email: u.Email}
}

// loginAttemptRate is the rate of the obtain view's attempts on one
// username from one client: above what the contract's requests reach (the
// conformance fuzzer's longest documented run makes at most 19 on one
// username, over minutes), so that the view answers them as DRF's, which
// has no such limit.
const loginAttemptRate = "20/minute"

// obtainTokenThrottled is the token-obtain view with an anonymous rate
// limit (the "anon" rate of the settings) and, beyond DRF, a limit of the
// attempts on one username from one client, authenticated or not
// (docs/beyond-drf.md).
func (a *app) obtainTokenThrottled() framework.View {
	v := a.obtainToken("Throttled Obtain Auth Token", nil)
	login := authtoken.LoginAttemptThrottle()
	login.Rate = loginAttemptRate
	v.Throttles = framework.Throttles(throttling.AnonRateThrottle(), login)
	return v
}

// whoAmI is the answer of /whoami/.
type whoAmI struct {
	Username *string `json:"username"`
	Auth     *string `json:"auth"`
	Version  *string `json:"version"`
}

// whoAmI tells who the default schemes say the caller is, and by which.
func (a *app) whoAmI() framework.View {
	return framework.View{
		Name: "Who Am I",
		Get: func(v *framework.View, r *request.Request) (*framework.Response, error) {
			var scheme string
			switch r.SuccessfulAuthenticator().(type) {
			case authentication.Session:
				scheme = "session"
			case authentication.Token:
				scheme = "token"
			case authentication.Basic:
				scheme = "basic"
			}
			return framework.OK(whoAmI{Username: usernameOf(r), Auth: nullable(scheme), Version: nullable(r.Version())}), nil
		},
	}
}

// username is the answer of the /auth/ routes.
type username struct {
	Username *string `json:"username"`
}

// onlyUsers answers the caller's name to callers its schemes authenticate
// and its permission lets through: each /auth/ route is one of these.
func (a *app) onlyUsers(name string, perm framework.Permission, schemes ...request.Authenticator) framework.View {
	return framework.View{
		Name:           name,
		Authentication: framework.Authenticators(schemes...),
		Permissions:    framework.Permissions(perm),
		Get: func(v *framework.View, r *request.Request) (*framework.Response, error) {
			return framework.OK(username{usernameOf(r)}), nil
		},
	}
}

// csrfCheck accepts POSTs from anyone through the session scheme alone,
// so a logged-in caller needs a CSRF token.
func (a *app) csrfCheck() framework.View {
	return framework.View{
		Name:           "Csrf Check",
		Authentication: framework.Authenticators(a.sessionAuth()),
		Post: func(v *framework.View, r *request.Request) (*framework.Response, error) {
			return framework.OK(username{usernameOf(r)}), nil
		},
	}
}

// remoteUser is the RemoteUser scheme: the server in front names the user
// (see TrustRemoteUserHeader), who is created when unknown.
func (a *app) remoteUser() request.Authenticator {
	return authentication.RemoteUser{Users: auth.RemoteUserBackend{Users: a.users}}
}

// usernameOf is the caller's name, nil when anonymous.
func usernameOf(r *request.Request) *string {
	if u := r.User(); u.IsAuthenticated() {
		return nullable(u.GetUsername())
	}
	return nil
}
