package authtoken

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

// msgUnableToLogIn is the obtain-token endpoint's answer to wrong
// credentials, in DRF's wording; the fields' messages are the serializers
// package's.
const msgUnableToLogIn = "Unable to log in with provided credentials."

// ObtainToken is DRF's ObtainAuthToken: POST a username and a password
// (JSON, form or multipart), get the user's token, created when missing.
type ObtainToken struct {
	// Users checks the credentials (inactive users are refused).
	Users *auth.Users
	// Tokens stores the tokens.
	Tokens *Tokens
	// Answer builds the response body from the token and its user; nil
	// gives {"token": KEY}. Return a struct to keep the fields in order,
	// e.g. to add "user_id" and "email".
	Answer func(t *Token, u *auth.User) any
}

// TokenAnswer is the default answer, {"token": KEY}.
type TokenAnswer struct {
	// Token is the key.
	Token string `json:"token"`
}

// View returns the endpoint as a view, DRF's defaults set: renderer JSON
// only (Accept: text/html alone is 406), parsers form, multipart and JSON,
// no permissions and no throttles. Authentication is left to the global
// setting, as DRF does, so a bad Authorization header still fails. Set
// its Throttles to throttle it (failed attempts count); DRF's
// AnonRateThrottle counts no caller that authenticates, and
// LoginAttemptThrottle counts every attempt on one username from one
// client. Users.Lockout (auth.Lockout) counts the failures on one username
// from every client: a locked-out username is answered as a throttled
// request, 429 {"detail": "Request was throttled. Expected available in N
// seconds."} with Retry-After, whatever the password.
func (o ObtainToken) View() framework.View {
	op := framework.OperationSchema{Request: authTokenDescription}
	if o.Answer == nil {
		op.Responses = map[int]framework.ResponseSchema{200: {Serializer: tokenAnswerDescription}}
	}
	return framework.View{
		Schema:      map[string]framework.OperationSchema{http.MethodPost: op},
		Name:        "Obtain Auth Token",
		Renderers:   framework.Renderers(framework.JSONRenderer{}),
		Parsers:     framework.Parsers(framework.FormParser{}, framework.MultiPartParser{}, framework.JSONParser{}),
		Permissions: framework.Permissions(),
		Throttles:   framework.Throttles(),
		Post:        o.post,
		Options:     obtainOptions,
	}
}

func (o ObtainToken) post(_ *framework.View, r *request.Request) (*framework.Response, error) {
	username, password, err := credentials(r)
	if err != nil {
		return nil, err
	}
	u, err := o.Users.Authenticate(r.Context(), username, password)
	if locked, ok := errors.AsType[*auth.LockedOutError](err); ok {
		return nil, exceptions.Throttled(locked.Wait)
	}
	if errors.Is(err, auth.ErrInvalidCredentials) {
		var errs exceptions.ValidationErrors
		errs.Add(exceptions.NonFieldErrors, msgUnableToLogIn)
		return nil, exceptions.ValidationError(errs)
	}
	if err != nil {
		return nil, err
	}
	tok, _, err := o.Tokens.GetOrCreate(r.Context(), u.ID)
	if err != nil {
		return nil, err
	}
	if o.Answer != nil {
		return framework.OK(o.Answer(tok, u)), nil
	}
	return framework.OK(TokenAnswer{Token: tok.Key}), nil
}

// authTokenFields are the fields of DRF's AuthTokenSerializer: a username
// (trimmed) and a password (not trimmed), both required, and the token,
// read-only, which OPTIONS lists.
type authTokenFields struct {
	Username string `json:"username" drf:"required,write_only"`
	Password string `json:"password" drf:"required,write_only,no_trim"`
	Token    string `json:"token" drf:"read_only"`
}

var authTokenSerializer = serializers.MustNew[authTokenFields]()

// authTokenDescription describes AuthTokenSerializer in OpenAPI documents,
// under DRF's name: the body posted and its 400's fields.
var authTokenDescription = func() *framework.SerializerDescription {
	d := *authTokenSerializer.Description()
	d.Model = "AuthToken"
	return &d
}()

// tokenAnswerDescription describes the default answer, {"token": KEY}:
// the serializer's read-only field (a schema that requires the
// write-only ones would refuse the answer).
var tokenAnswerDescription = func() *framework.SerializerDescription {
	d := &framework.SerializerDescription{Model: "AuthTokenAnswer"}
	for _, f := range authTokenDescription.Fields {
		if f.ReadOnly {
			d.Fields = append(d.Fields, f)
		}
	}
	return d
}()

// credentials validates the body as DRF's AuthTokenSerializer does.
func credentials(r *request.Request) (username, password string, err error) {
	data, err := serializers.RequestData(r)
	if err != nil {
		return "", "", err
	}
	var in authTokenFields
	if err := authTokenSerializer.Validate(data, &in, false, &serializers.Context{Request: r}); err != nil {
		return "", "", err
	}
	return in.Username, in.Password, nil
}

// obtainMetadata is the OPTIONS answer of the endpoint, with DRF's actions.
type obtainMetadata struct {
	Name        string                     `json:"name"`
	Description string                     `json:"description"`
	Renders     []string                   `json:"renders"`
	Parses      []string                   `json:"parses"`
	Actions     map[string]json.RawMessage `json:"actions"`
}

func obtainOptions(v *framework.View, r *request.Request) (*framework.Response, error) {
	m := obtainMetadata{
		Name:        v.Name,
		Description: v.Description,
		Renders:     []string{},
		Parses:      []string{},
		Actions:     map[string]json.RawMessage{http.MethodPost: authTokenSerializer.FieldInfo()},
	}
	for _, rd := range v.Renderers.Items() {
		m.Renders = append(m.Renders, rd.MediaType())
	}
	for _, p := range v.Parsers.Items() {
		m.Parses = append(m.Parses, p.MediaType())
	}
	return framework.OK(m), nil
}
