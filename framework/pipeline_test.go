package framework_test

import (
	"strings"
	"testing"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/request"
)

// An Accept header that is there but names nothing satisfies no renderer:
// DRF reads it as one empty media range and answers 406 before it
// authenticates, where no Accept header at all is */*. Repeated Accept
// lines are one header, joined by "," as WSGI servers join them.
func TestEmptyAcceptIsNotAcceptable(t *testing.T) {
	api := framework.NewAPI(nil, framework.Settings{
		Renderers: framework.Renderers(framework.JSONRenderer{}, benchHTML{}),
	})
	api.Handle("/who/", framework.View{
		Authentication: framework.Authenticators(challengeScheme{headerScheme{challenge: "X-User"}}),
		Get: func(v *framework.View, r *request.Request) (*framework.Response, error) {
			return framework.OK(map[string]string{"user": r.User().GetUsername()}), nil
		},
	})
	c := apitest.New(t, api)
	notAcceptable := answer{406, []string{"Content-Type: application/json", "Vary: Accept", "Allow: GET, HEAD, OPTIONS", "WWW-Authenticate:"},
		`{"detail":"Could not satisfy the request Accept header."}`}
	for _, header := range [][]string{
		{"Accept:"}, {"Accept: \t "}, {"Accept: ,"}, {"Accept: , "}, {"Accept: ;q=1"},
		{"Accept:", "X-User: bad"},
	} {
		notAcceptable.check(t, strings.Join(header, ", "), c.Get("/who/", header...))
	}
	notAcceptable.check(t, "?format=json, Accept:", c.Get("/who/?format=json", "Accept:"))
	for _, header := range [][]string{
		nil, {"Accept: */*"}, {"Accept: text/html", "Accept: application/json"}, {"Accept:", "Accept: application/json"},
	} {
		answer{200, []string{"Content-Type: application/json", "Vary: Accept"}, `{"user":""}`}.check(t, strings.Join(header, ", "), c.Get("/who/", header...))
	}
}
