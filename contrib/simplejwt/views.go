package simplejwt

import (
	"encoding/json"
	"errors"
	"net/http"

	"github.com/go-drf/drf/contrib/auth"
	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/exceptions"
	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/framework/serializers"
)

// realm is the scheme of simplejwt's token views: it authenticates no one
// (the views have no authentication classes) and only supplies their
// WWW-Authenticate value, so that their failures are 401 with it, as
// TokenViewBase.get_authenticate_header does.
type realm struct{ header string }

// Authenticate does not attempt.
func (realm) Authenticate(*request.Request) (request.User, any, error) { return nil, nil, nil }

// AuthenticateHeader returns `Bearer realm="api"`.
func (r realm) AuthenticateHeader(*request.Request) string { return r.header }

// tokenView is simplejwt's TokenViewBase: no authentication (but the
// challenge), no permissions; renderers, parsers and throttles are the
// settings'. A *TokenError from post is InvalidToken. OPTIONS lists the
// serializer's fields, as DRF's SimpleMetadata does.
func (j *JWT) tokenView(name, description string, fields json.RawMessage, post framework.HandlerFunc) framework.View {
	actions := map[string]json.RawMessage{http.MethodPost: fields}
	return framework.View{
		Name:           name,
		Description:    description,
		Authentication: framework.Authenticators(realm{j.authenticateHeader()}),
		Permissions:    framework.Permissions(),
		Post: func(v *framework.View, r *request.Request) (*framework.Response, error) {
			resp, err := post(v, r)
			var te *TokenError
			if errors.As(err, &te) {
				return nil, InvalidToken(te.Message)
			}
			return resp, err
		},
		Options: func(v *framework.View, r *request.Request) (*framework.Response, error) {
			return framework.OK(framework.MetadataWithActions(v, r, actions)), nil
		},
	}
}

// The fields of simplejwt's serializers: CharFields, required, trimmed
// (the password too: simplejwt's PasswordField trims).
type (
	obtainFields struct {
		Username string `json:"username" drf:"required,write_only"`
		Password string `json:"password" drf:"required,write_only"`
	}
	refreshFields struct {
		Refresh string `json:"refresh" drf:"required,write_only"`
		Access  string `json:"access" drf:"read_only"`
	}
	verifyFields struct {
		Token string `json:"token" drf:"required,write_only"`
	}
	blacklistFields struct {
		Refresh string `json:"refresh" drf:"required,write_only"`
	}
)

var (
	obtainSerializer    = serializers.MustNew[obtainFields]()
	refreshSerializer   = serializers.MustNew[refreshFields]()
	verifySerializer    = serializers.MustNew[verifyFields]()
	blacklistSerializer = serializers.MustNew[blacklistFields]()
)

// validate reads the request's data into in with s, as a serializer's
// is_valid(raise_exception=True).
func validate[T any](s *serializers.Serializer[T], r *request.Request, in *T) error {
	data, err := serializers.RequestData(r)
	if err != nil {
		return err
	}
	return s.Validate(data, in, false, &serializers.Context{Request: r})
}

// obtainAnswer is {"refresh", "access"}.
type obtainAnswer struct {
	Refresh string `json:"refresh"`
	Access  string `json:"access"`
}

// refreshAnswer is {"access"} or, rotating, {"access", "refresh"}.
type refreshAnswer struct {
	Access  string `json:"access"`
	Refresh string `json:"refresh,omitempty"`
}

// empty is {}.
type empty struct{}

// ObtainPairView is TokenObtainPairView: POST a username and a password,
// get {"refresh", "access"}. Wrong credentials and inactive users get 401
// {"detail": "No active account found with the given credentials"}. A
// username that the users' Lockout (auth.Lockout) holds locked gets 429
// {"detail": "Request was throttled. Expected available in N seconds."}
// with Retry-After, whatever the password.
func (j *JWT) ObtainPairView() framework.View {
	return j.tokenView("Token Obtain Pair", "Takes a set of user credentials and returns an access and refresh JSON web\n"+
		"token pair to prove the authentication of those credentials.", obtainSerializer.FieldInfo(), func(_ *framework.View, r *request.Request) (*framework.Response, error) {
		var in obtainFields
		if err := validate(obtainSerializer, r, &in); err != nil {
			return nil, err
		}
		u, err := j.users.Authenticate(r.Context(), in.Username, in.Password)
		if locked, ok := errors.AsType[*auth.LockedOutError](err); ok {
			return nil, exceptions.Throttled(locked.Wait)
		}
		if errors.Is(err, auth.ErrInvalidCredentials) {
			return nil, exceptions.AuthenticationFailed(msgNoActiveAccount)
		}
		if err != nil {
			return nil, err
		}
		p, err := j.Obtain(r.Context(), u)
		if err != nil {
			return nil, err
		}
		return framework.OK(obtainAnswer{Refresh: p.Refresh, Access: p.Access}), nil
	})
}

// RefreshView is TokenRefreshView: POST {"refresh"}, get {"access"}, and a
// new "refresh" when RotateRefreshTokens (the one sent blacklisted with
// BlacklistAfterRotation). A token that cannot be used is 401
// {"detail": MESSAGE, "code": "token_not_valid"}; so is, "Token is
// blacklisted", each but one of the requests that race to rotate one token
// or to log it out (JWT.Refresh). From simplejwt 5.5 on
// (Settings.Compatibility), the token of an inactive user is 401
// {"detail": "No active account found for the given token."}.
func (j *JWT) RefreshView() framework.View {
	return j.tokenView("Token Refresh", "Takes a refresh type JSON web token and returns an access type JSON web\n"+
		"token if the refresh token is valid.", refreshSerializer.FieldInfo(), func(_ *framework.View, r *request.Request) (*framework.Response, error) {
		var in refreshFields
		if err := validate(refreshSerializer, r, &in); err != nil {
			return nil, err
		}
		p, err := j.Refresh(r.Context(), in.Refresh)
		if errors.Is(err, ErrNoActiveAccount) {
			return nil, exceptions.AuthenticationFailed(msgNoActiveAccountForToken)
		}
		if err != nil {
			return nil, err
		}
		return framework.OK(refreshAnswer{Access: p.Access, Refresh: p.Refresh}), nil
	})
}

// VerifyView is TokenVerifyView: POST {"token"} of any type, get {} when it
// can be used; with BlacklistAfterRotation a blacklisted one is 400
// {"non_field_errors": ["Token is blacklisted"]}.
func (j *JWT) VerifyView() framework.View {
	return j.tokenView("Token Verify", "Takes a token and indicates if it is valid.  This view provides no\n"+
		"information about a token's fitness for a particular use.", verifySerializer.FieldInfo(), func(_ *framework.View, r *request.Request) (*framework.Response, error) {
		var in verifyFields
		if err := validate(verifySerializer, r, &in); err != nil {
			return nil, err
		}
		err := j.Verify(r.Context(), in.Token)
		if errors.Is(err, ErrBlacklisted) {
			var errs exceptions.ValidationErrors
			errs.Add(exceptions.NonFieldErrors, msgBlacklisted)
			return nil, exceptions.ValidationError(errs)
		}
		if err != nil {
			return nil, err
		}
		return framework.OK(empty{}), nil
	})
}

// BlacklistView is TokenBlacklistView: POST {"refresh"}, get {}; the token
// can no longer be used. A token a racing refresh rotated first is 401
// "Token is blacklisted", as after that refresh (JWT.Blacklist). It needs
// TokenBlacklist (New's settings), and panics without it: register it
// only with the blacklist installed.
func (j *JWT) BlacklistView() framework.View {
	if !j.settings.TokenBlacklist {
		panic("simplejwt: BlacklistView needs Settings.TokenBlacklist (the blacklist's Migrations applied)")
	}
	return j.tokenView("Token Blacklist", "Takes a token and blacklists it. Must be used with the\n"+
		"`rest_framework_simplejwt.token_blacklist` app installed.", blacklistSerializer.FieldInfo(), func(_ *framework.View, r *request.Request) (*framework.Response, error) {
		var in blacklistFields
		if err := validate(blacklistSerializer, r, &in); err != nil {
			return nil, err
		}
		if err := j.Blacklist(r.Context(), in.Refresh); err != nil {
			return nil, err
		}
		return framework.OK(empty{}), nil
	})
}
