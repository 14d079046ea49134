package routers_test

import (
	"strings"
	"testing"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/generics"
	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/framework/routers"
	"github.com/go-drf/drf/framework/serializers"
	qt "github.com/go-drf/drf/internal/querysettest"
)

// snippets is a viewset with the tutorial's highlight action.
type snippets struct{ plain }

func (s *snippets) Retrieve(v *framework.View, r *request.Request) (*framework.Response, error) {
	return framework.OK(map[string]string{"pk": r.PathValue("pk")}), nil
}

func (s *snippets) Highlight(v *framework.View, r *request.Request) (*framework.Response, error) {
	return framework.OK("<p>" + r.PathValue("pk") + "</p>"), nil
}

func (s *snippets) Echo(v *framework.View, r *request.Request) (*framework.Response, error) {
	data, err := r.Data()
	if err != nil {
		return nil, err
	}
	return framework.OK(data), nil
}

// An extra action's own policies replace the viewset's, as DRF's
// @action(renderer_classes=[StaticHTMLRenderer]) in the tutorial: the
// answers of DRF 3.14 for the same viewset.
func TestActionPolicies(t *testing.T) {
	vs := &snippets{}
	var router routers.DefaultRouter
	router.Register("snippets", vs, "snippet",
		routers.Action{Name: "Highlight", Handler: vs.Highlight, Detail: true, Renderers: framework.Renderers(framework.StaticHTMLRenderer{})},
		routers.Action{Name: "Echo", Handler: vs.Echo, HTTPMethods: []string{"POST"}, Parsers: framework.Parsers(framework.JSONParser{})},
		routers.Action{Name: "Mine", Handler: vs.Echo, Permissions: framework.Permissions(framework.IsAuthenticated{})},
	)
	api := framework.NewAPI(nil, framework.Settings{Renderers: framework.Renderers(framework.JSONRenderer{}, framework.StaticHTMLRenderer{})})
	router.Mount(api)
	c := apitest.New(t, api)

	for _, tc := range []struct {
		method, path, body, ctype string
		status                    int
		contentType, vary, want   string
	}{
		{"GET", "/snippets/1/highlight/", "", "", 200, "text/html; charset=utf-8", "", "<p>1</p>"},
		{"GET", "/snippets/1/highlight/?format=json", "", "", 404, "text/html; charset=utf-8", "", "404 Not Found"},
		{"GET", "/snippets/1/", "", "", 200, "application/json", "Accept", `{"pk":"1"}`},
		{"POST", "/snippets/echo/", `{"a":1}`, "application/json", 200, "application/json", "Accept", `{"a":1}`},
		{"POST", "/snippets/echo/", "a=1", "application/x-www-form-urlencoded", 415, "application/json", "Accept", `{"detail":"Unsupported media type \"application/x-www-form-urlencoded\" in request."}`},
		// DefaultRouter's format suffixes, as DRF's.
		{"GET", "/snippets/1.json", "", "", 200, "application/json", "Accept", `{"pk":"1"}`},
		{"GET", "/snippets/1.json/", "", "", 200, "application/json", "Accept", `{"pk":"1"}`},
		{"GET", "/snippets/1.xyz", "", "", 404, "application/json", "Accept", `{"detail":"Not found."}`},
		{"GET", "/snippets/1/highlight.html", "", "", 200, "text/html; charset=utf-8", "", "<p>1</p>"},
		{"GET", "/.json", "", "", 200, "application/json", "Accept", `{"snippets":"http://testserver/snippets.json"}`},
		{"GET", "/", "", "", 200, "application/json", "Accept", `{"snippets":"http://testserver/snippets/"}`},
		{"GET", "/snippets/mine/", "", "", 403, "application/json", "Accept", `{"detail":"You do not have permission to perform this action."}`},
	} {
		var header []string
		if tc.ctype != "" {
			header = append(header, "Content-Type: "+tc.ctype)
		}
		r := c.Do(tc.method, tc.path, tc.body, header...)
		if r.Status != tc.status || r.Header.Get("Content-Type") != tc.contentType || r.Header.Get("Vary") != tc.vary || r.Body != tc.want {
			t.Errorf("%s %s: %d %v %q, want %d %s %q", tc.method, tc.path, r.Status, r.Header, r.Body, tc.status, tc.contentType, tc.want)
		}
	}
}

// SimpleRouter, and a DefaultRouter told so, mount no format suffixes, as
// DRF's SimpleRouter and include_format_suffixes = False.
func TestNoFormatSuffixes(t *testing.T) {
	var simple routers.SimpleRouter
	simple.Register("snippets", &snippets{}, "snippet")
	def := routers.DefaultRouter{NoFormatSuffixes: true}
	def.Register("snippets", &snippets{}, "snippet")
	for name, mount := range map[string]func(*framework.API){"SimpleRouter": simple.Mount, "DefaultRouter": def.Mount} {
		api := framework.NewAPI(nil, framework.Settings{})
		mount(api)
		c := apitest.New(t, api)
		if r := c.Get("/snippets/1/"); r.Status != 200 {
			t.Errorf("%s: %d %s", name, r.Status, r.Body)
		}
		if r := c.Get("/snippets/1.json"); r.Status != 404 {
			t.Errorf("%s has format suffixes: %d %s", name, r.Status, r.Body)
		}
	}
}

// An action's Describer is its serializer (DRF's @action(serializer_class=
// ...)): its OPTIONS lists that serializer's fields, where the viewset's
// routes list the viewset's.
func TestActionSerializer(t *testing.T) {
	f := qt.Open(t, 2)
	vs := bookViewSet(f)
	rating := &generics.GenericAPIView[qt.Book]{Source: f.Books, Serializer: serializers.MustNew[qt.Book](serializers.Fields("rating"))}
	rate := func(v *framework.View, r *request.Request) (*framework.Response, error) {
		return framework.OK(nil), nil
	}
	var router routers.SimpleRouter
	router.Register("books", vs, "book", routers.Action{Name: "Rate", Handler: rate, Detail: true, HTTPMethods: []string{"PUT"}, Describer: rating})
	a := api(f)
	router.Mount(a)
	c := apitest.New(t, a)
	const ratingFields = `{"rating":{"type":"integer","required":true,"read_only":false,"label":"Rating","min_value":1,"max_value":5}}`
	if r := c.Do("OPTIONS", "/books/1/rate/", "", "X-User: alice"); r.Status != 200 || !strings.HasSuffix(r.Body, `"actions":{"PUT":`+ratingFields+`}}`) {
		t.Errorf("the action's OPTIONS: %d %s", r.Status, r.Body)
	}
	if r := c.Do("OPTIONS", "/books/", "", "X-User: alice"); r.Status != 200 || !strings.HasSuffix(r.Body, `"actions":{"POST":`+bookFields+`}}`) {
		t.Errorf("the viewset's OPTIONS: %d %s", r.Status, r.Body)
	}
}
