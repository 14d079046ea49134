package problems_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/authentication"
	"github.com/go-drf/drf/framework/exceptions"
	"github.com/go-drf/drf/framework/problems"
	"github.com/go-drf/drf/framework/request"
)

// client serves a view that fails with err under the problem handler.
func client(t *testing.T, h problems.Handler, v framework.View) *apitest.Client {
	return apitest.New(t, apitest.View(v, framework.Settings{ExceptionHandler: h.Handle}))
}

func failing(err error) framework.View {
	return framework.View{Name: "Failing", Get: func(*framework.View, *request.Request) (*framework.Response, error) { return nil, err }}
}

func TestProblems(t *testing.T) {
	var invalid exceptions.ValidationErrors
	invalid.Add("title", "This field is required.")
	invalid.Add("non_field_errors", "Bad pair.")
	cases := []struct {
		name    string
		handler problems.Handler
		view    framework.View
		header  []string
		status  int
		ctype   string
		body    string
	}{
		{"not found", problems.Handler{}, failing(exceptions.NotFound()), nil, 404, "application/problem+json",
			`{"type":"about:blank","title":"Not Found","status":404,"detail":"Not found.","instance":"/books/999/","code":"not_found"}`},
		{"type base", problems.Handler{TypeBase: "https://api.example.com/problems/"}, failing(exceptions.PermissionDenied()), nil, 403, "application/problem+json",
			`{"type":"https://api.example.com/problems/permission_denied","title":"Forbidden","status":403,"detail":"You do not have permission to perform this action.","instance":"/books/999/","code":"permission_denied"}`},
		{"validation", problems.Handler{}, failing(exceptions.ValidationError(invalid)), nil, 400, "application/problem+json",
			`{"type":"about:blank","title":"Bad Request","status":400,"detail":"Invalid input.","instance":"/books/999/","code":"invalid","errors":{"title":["This field is required."],"non_field_errors":["Bad pair."]}}`},
		{"indented", problems.Handler{}, failing(exceptions.NotFound("No Book matches the given query.")), []string{"Accept: application/json; indent=1"}, 404, "application/problem+json",
			"{\n \"type\": \"about:blank\",\n \"title\": \"Not Found\",\n \"status\": 404,\n \"detail\": \"No Book matches the given query.\",\n \"instance\": \"/books/999/\",\n \"code\": \"not_found\"\n}"},
		// Content negotiation failed: the view's first renderer, JSON.
		{"not acceptable", problems.Handler{}, failing(nil), []string{"Accept: text/csv"}, 406, "application/problem+json",
			`{"type":"about:blank","title":"Not Acceptable","status":406,"detail":"Could not satisfy the request Accept header.","instance":"/books/999/","code":"not_acceptable"}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := client(t, c.handler, c.view).Get("/books/999/", c.header...)
			if r.Status != c.status || r.Header.Get("Content-Type") != c.ctype || r.Body != c.body {
				t.Errorf("%d %s\n%s\nwant %d %s\n%s", r.Status, r.Header.Get("Content-Type"), r.Body, c.status, c.ctype, c.body)
			}
		})
	}
}

// noUsers matches no credentials: the test needs Basic's challenge only.
type noUsers struct{}

func (noUsers) CheckPassword(context.Context, string, string) (request.User, error) { return nil, nil }

// TestProblemHeaders: the error's own headers stay, a challenge among them.
func TestProblemHeaders(t *testing.T) {
	v := failing(nil)
	v.Authentication = framework.Authenticators(authentication.Basic{Users: noUsers{}})
	v.Permissions = framework.Permissions(framework.IsAuthenticated{})
	r := client(t, problems.Handler{}, v).Get("/private/")
	if r.Status != http.StatusUnauthorized || r.Header.Get("WWW-Authenticate") != `Basic realm="api"` || r.Header.Get("Content-Type") != "application/problem+json" {
		t.Errorf("%d %v %s", r.Status, r.Header, r.Body)
	}
	if d := r.JSON(); d["detail"] != "Authentication credentials were not provided." || d["instance"] != "/private/" || d["status"] != float64(401) {
		t.Errorf("%s", r.Body)
	}
}

// TestDefaultUnchanged: without the handler, DRF's body.
func TestDefaultUnchanged(t *testing.T) {
	r := apitest.New(t, apitest.View(failing(exceptions.NotFound()))).Get("/books/999/")
	if r.Status != http.StatusNotFound || r.Header.Get("Content-Type") != "application/json" || r.Body != `{"detail":"Not found."}` {
		t.Errorf("%d %s %s", r.Status, r.Header.Get("Content-Type"), r.Body)
	}
}

// TestServerError: an error that is no API error stays the framework's 500.
func TestServerError(t *testing.T) {
	r := client(t, problems.Handler{}, failing(http.ErrHandlerTimeout)).Get("/x/")
	if r.Status != http.StatusInternalServerError {
		t.Errorf("%d %s", r.Status, r.Body)
	}
}
