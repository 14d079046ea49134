package hashedtoken

import (
	"encoding/json"
	"errors"
	"strconv"

	"github.com/go-chi/chi/v5"

	"github.com/go-drf/drf/contrib/auth"
	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/exceptions"
	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/framework/serializers"
)

// Answers of the views, in django-rest-knox's wording where it has one.
const (
	msgLimit      = "Maximum amount of tokens allowed per user exceeded."
	msgNotByToken = "This request was not authenticated with a token."
)

// Views are the endpoints of the tokens, for the users who own them. All
// need an authenticated user (contrib/auth's *auth.User); which schemes
// authenticate is the API's settings' (or Authentication's) choice:
// Login is usually reached with Basic or a session, the others with the
// token itself.
//
//	POST   login/       {"name": "laptop"} (optional) → 200 {"token": KEY, "id", "name", "prefix", "created", "expiry"}
//	GET    tokens/      → 200 the user's live tokens, newest first, "current" marking the request's own
//	DELETE tokens/{id}/ → 204, or 404 when the user has no such token
//	POST   logout/      → 204, the request's token revoked
//	POST   logoutall/   → 204, every token of the user revoked
type Views struct {
	// Tokens is the store.
	Tokens *Tokens
	// Authentication, when set, replaces the API's schemes.
	Authentication framework.List[request.Authenticator]
}

// tokenSerializer writes a token; "current" says whether it is the one
// the request presented.
var tokenSerializer = serializers.MustNew[Token](serializers.Computed("current", func(t *Token, c *serializers.Context) (any, error) {
	cur, ok := c.Request.Auth().(*Token)
	return ok && cur.ID == t.ID, nil
}))

// issuedSerializer writes a new token, before its key is added.
var issuedSerializer = serializers.MustNew[Token](serializers.Fields("id", "name", "prefix", "created", "expiry"))

func (v Views) view(name string) framework.View {
	return framework.View{
		Name:           name,
		Authentication: v.Authentication,
		Permissions:    framework.Permissions(framework.IsAuthenticated{}),
	}
}

// Login creates a token for the request's user and answers its key, the
// only time it is shown; 403 "Maximum amount of tokens allowed per user
// exceeded." when the user holds Limit tokens.
func (v Views) Login() framework.View {
	view := v.view("Login")
	view.Post = func(_ *framework.View, r *request.Request) (*framework.Response, error) {
		u, err := owner(r)
		if err != nil {
			return nil, err
		}
		data, err := serializers.RequestData(r)
		if err != nil {
			return nil, err
		}
		var in Token
		sc := &serializers.Context{Request: r}
		if err := issuedSerializer.Validate(data, &in, true, sc); err != nil {
			return nil, err
		}
		key, tok, err := v.Tokens.Create(r.Context(), u.ID, in.Name)
		if errors.Is(err, ErrLimit) {
			return nil, exceptions.PermissionDenied(msgLimit)
		}
		if err != nil {
			return nil, err
		}
		body, err := issuedSerializer.Data(tok, sc)
		if err != nil {
			return nil, err
		}
		// {"token": KEY, then the token's fields.
		k, _ := json.Marshal(key)
		out := append(append(append([]byte(`{"token":`), k...), ','), body[1:]...)
		return framework.OK(json.RawMessage(out)), nil
	}
	return view
}

// List answers the request's user's live tokens, newest first.
func (v Views) List() framework.View {
	view := v.view("Tokens")
	view.Get = func(_ *framework.View, r *request.Request) (*framework.Response, error) {
		u, err := owner(r)
		if err != nil {
			return nil, err
		}
		toks, err := v.Tokens.ForUser(r.Context(), u.ID)
		if err != nil {
			return nil, err
		}
		data, err := tokenSerializer.Many(toks, &serializers.Context{Request: r})
		if err != nil {
			return nil, err
		}
		return framework.OK(data), nil
	}
	return view
}

// Revoke deletes the token of the route's {id} parameter when it is the
// request's user's (204), else answers 404 "Not found.".
func (v Views) Revoke() framework.View {
	view := v.view("Token")
	view.Delete = func(_ *framework.View, r *request.Request) (*framework.Response, error) {
		u, err := owner(r)
		if err != nil {
			return nil, err
		}
		id, err := strconv.ParseInt(chi.URLParam(r.Request, "id"), 10, 64)
		if err != nil {
			return nil, exceptions.NotFound()
		}
		if err := v.Tokens.Revoke(r.Context(), u.ID, id); errors.Is(err, ErrNotFound) {
			return nil, exceptions.NotFound()
		} else if err != nil {
			return nil, err
		}
		return framework.NoContent(), nil
	}
	return view
}

// Logout revokes the token that authenticated the request (204); a
// request authenticated otherwise is 403 "This request was not
// authenticated with a token."
func (v Views) Logout() framework.View {
	view := v.view("Logout")
	view.Post = func(_ *framework.View, r *request.Request) (*framework.Response, error) {
		tok, ok := r.Auth().(*Token)
		if !ok {
			return nil, exceptions.PermissionDenied(msgNotByToken)
		}
		if err := v.Tokens.Revoke(r.Context(), tok.UserID, tok.ID); err != nil && !errors.Is(err, ErrNotFound) {
			return nil, err
		}
		return framework.NoContent(), nil
	}
	return view
}

// LogoutAll revokes every token of the request's user (204).
func (v Views) LogoutAll() framework.View {
	view := v.view("Logout All")
	view.Post = func(_ *framework.View, r *request.Request) (*framework.Response, error) {
		u, err := owner(r)
		if err != nil {
			return nil, err
		}
		if _, err := v.Tokens.RevokeAll(r.Context(), u.ID); err != nil {
			return nil, err
		}
		return framework.NoContent(), nil
	}
	return view
}

// Register mounts the views on api (a Route child for a prefix) at
// login/, logout/, logoutall/, tokens/ and tokens/{id}/, named
// hashedtoken-login, -logout, -logoutall, -list and -detail.
//
//	api.Route("/auth/devices", "", hashedtoken.Views{Tokens: devices}.Register)
func (v Views) Register(api *framework.API) {
	api.Handle("/login/", v.Login(), framework.Named("hashedtoken-login"))
	api.Handle("/logout/", v.Logout(), framework.Named("hashedtoken-logout"))
	api.Handle("/logoutall/", v.LogoutAll(), framework.Named("hashedtoken-logoutall"))
	api.Handle("/tokens/", v.List(), framework.Named("hashedtoken-list"))
	api.Handle("/tokens/{id}/", v.Revoke(), framework.Named("hashedtoken-detail"))
}

// owner is the request's user as a contrib/auth user; another kind of
// user cannot hold tokens (403).
func owner(r *request.Request) (*auth.User, error) {
	u := auth.UserOf(r)
	if u == nil {
		return nil, exceptions.PermissionDenied()
	}
	return u, nil
}
