package authtoken

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/go-drf/drf/contrib/auth"
	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/exceptions"
	"github.com/go-drf/drf/framework/request"
)

// Messages of the obtain-token endpoint, in DRF's wording.
const (
	MsgRequired           = "This field is required."
	MsgBlank              = "This field may not be blank."
	MsgNull               = "This field may not be null."
	MsgNotString          = "Not a valid string."
	MsgNoData             = "No data provided"
	MsgUnableToLogIn      = "Unable to log in with provided credentials."
	msgExpectedDictionary = "Invalid data. Expected a dictionary, but got %s."
)

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
// setting, as DRF does, so a bad Authorization header still fails. Set the
// view's Settings, and its Throttles to throttle it (failed attempts count).
func (o ObtainToken) View() *framework.View {
	return &framework.View{
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
	if errors.Is(err, auth.ErrInvalidCredentials) {
		var errs exceptions.ValidationErrors
		errs.Add(exceptions.NonFieldErrors, MsgUnableToLogIn)
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

// credentials validates the body as DRF's AuthTokenSerializer does: both
// fields required, strings (numbers are taken as their text), not null,
// not blank; the username is trimmed, the password is not.
func credentials(r *request.Request) (username, password string, err error) {
	data, err := r.Data()
	if err != nil {
		return "", "", err
	}
	var errs exceptions.ValidationErrors
	fields, ok := data.(map[string]any)
	switch {
	case data == nil && r.ContentLength != 0 && r.Header.Get("Content-Type") != "":
		errs.Add(exceptions.NonFieldErrors, MsgNoData)
	case data != nil && !ok:
		errs.Add(exceptions.NonFieldErrors, fmt.Sprintf(msgExpectedDictionary, pythonType(data)))
	}
	if errs != nil {
		return "", "", exceptions.ValidationError(errs)
	}
	username = stringField(fields, "username", true, &errs)
	password = stringField(fields, "password", false, &errs)
	if errs != nil {
		return "", "", exceptions.ValidationError(errs)
	}
	return username, password, nil
}

// stringField reads one CharField, adding its error to errs.
func stringField(fields map[string]any, name string, trim bool, errs *exceptions.ValidationErrors) string {
	v, present := fields[name]
	var s string
	switch x := v.(type) {
	case nil:
		if !present {
			errs.Add(name, MsgRequired)
		} else {
			errs.Add(name, MsgNull)
		}
		return ""
	case string:
		s = x
	case json.Number:
		s = x.String()
	default:
		errs.Add(name, MsgNotString)
		return ""
	}
	if trim {
		s = strings.TrimSpace(s)
	}
	if s == "" {
		errs.Add(name, MsgBlank)
	}
	return s
}

// pythonType names a parsed JSON value's type as Python does.
func pythonType(v any) string {
	switch x := v.(type) {
	case []any:
		return "list"
	case string:
		return "str"
	case bool:
		return "bool"
	case json.Number:
		if strings.ContainsAny(x.String(), ".eE") {
			return "float"
		}
		return "int"
	}
	return "object"
}

// obtainMetadata is the OPTIONS answer of the endpoint, with DRF's actions.
type obtainMetadata struct {
	Name        string                       `json:"name"`
	Description string                       `json:"description"`
	Renders     []string                     `json:"renders"`
	Parses      []string                     `json:"parses"`
	Actions     map[string]obtainFieldsOrder `json:"actions"`
}

type fieldInfo struct {
	Type     string `json:"type"`
	Required bool   `json:"required"`
	ReadOnly bool   `json:"read_only"`
	Label    string `json:"label"`
}

type obtainFieldsOrder struct {
	Username fieldInfo `json:"username"`
	Password fieldInfo `json:"password"`
	Token    fieldInfo `json:"token"`
}

func obtainOptions(v *framework.View, r *request.Request) (*framework.Response, error) {
	m := obtainMetadata{
		Name:        v.Name,
		Description: v.Description,
		Renders:     []string{},
		Parses:      []string{},
		Actions: map[string]obtainFieldsOrder{http.MethodPost: {
			Username: fieldInfo{Type: "string", Required: true, Label: "Username"},
			Password: fieldInfo{Type: "string", Required: true, Label: "Password"},
			Token:    fieldInfo{Type: "string", ReadOnly: true, Label: "Token"},
		}},
	}
	for _, rd := range v.Renderers.Items() {
		m.Renders = append(m.Renders, rd.MediaType())
	}
	for _, p := range v.Parsers.Items() {
		m.Parses = append(m.Parses, p.MediaType())
	}
	return framework.OK(m), nil
}
