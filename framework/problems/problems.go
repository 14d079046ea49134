// Package problems answers API errors as problem details (RFC 9457):
// application/problem+json bodies with type, title, status, detail and
// instance, and a validation error's messages by field in an "errors"
// extension member. It is opt-in: set Handler{}.Handle as the API's
// Settings.ExceptionHandler (or call it from one, for some routes only);
// DRF's {"detail": ...} stays the default.
package problems

import (
	"encoding/json"
	"errors"
	"net/http"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/exceptions"
	"github.com/go-drf/drf/framework/request"
)

// mediaType is the media type of problem details in JSON.
const mediaType = "application/problem+json"

// problem is a problem details object (RFC 9457, section 3).
type problem struct {
	// Type is a URI naming the kind of problem: Handler.TypeBase followed
	// by the error's code, or "about:blank" (the problem is what the
	// status says).
	Type string `json:"type"`
	// Title is the status's reason phrase ("Not Found").
	Title string `json:"title"`
	// Status is the HTTP status of the answer.
	Status int `json:"status"`
	// Detail is DRF's detail ("Not found."); a validation error's is
	// "Invalid input.", its messages are in Errors.
	Detail string `json:"detail"`
	// Instance is the path of the request that failed.
	Instance string `json:"instance"`
	// Code is DRF's code of the error ("not_found", "invalid").
	Code string `json:"code,omitempty"`
	// Errors are a validation error's messages, as DRF's body would hold
	// them ({"title": ["This field is required."]}).
	Errors json.RawMessage `json:"errors,omitempty"`
}

// invalidInput is the detail of a validation error's problem (DRF's
// ValidationError.default_detail).
const invalidInput = "Invalid input."

// Handler is an exception handler that answers problem details.
type Handler struct {
	// TypeBase, when set, makes each problem's type TypeBase followed by
	// the error's code ("https://api.example.com/problems/" gives
	// "https://api.example.com/problems/not_found"); a page there should
	// explain the problem. Empty gives "about:blank".
	TypeBase string
}

// Handle answers an API error as a problem, with the error's headers
// (WWW-Authenticate, Retry-After). The body is application/problem+json
// when the answer would be JSON; a browsable page shows the problem as
// it shows any body. Other errors are nil, as for
// framework.DefaultExceptionHandler: the view logs them and answers 500.
func (h Handler) Handle(err error, v *framework.View, r *request.Request) *framework.Response {
	var api *exceptions.APIException
	if !errors.As(err, &api) {
		return nil
	}
	p := problem{Type: "about:blank", Title: http.StatusText(api.Status), Status: api.Status,
		Instance: r.URL.Path, Code: api.Code}
	if h.TypeBase != "" && api.Code != "" {
		p.Type = h.TypeBase + api.Code
	}
	if s, ok := api.Detail.(string); ok {
		p.Detail = s
	} else {
		p.Detail = invalidInput
		b, err := json.Marshal(api.Detail)
		if err != nil {
			return nil
		}
		p.Errors = b
	}
	// The renderer the answer gets: the negotiated one, else (406) the
	// view's first.
	rd, _ := r.AcceptedRenderer.(framework.Renderer)
	if rd == nil {
		if items := v.Renderers.Items(); len(items) > 0 {
			rd = items[0]
		}
	}
	if rd != nil && rd.MediaType() == "application/json" {
		r.AcceptedRenderer = framework.JSONRenderer{Type: mediaType}
	}
	return &framework.Response{Status: api.Status, Data: p, Header: api.Header.Clone(), Exception: true}
}
