package framework_test

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/framework/reverse"
)

// A route mounted with FormatSuffixes answers "/links.json" and
// "/links.json/" too, the suffix choosing the renderer before ?format=,
// an unknown suffix 404, as DRF 3.14's format_suffix_patterns; reversed
// with a format, the name gives the suffixed URL; the request's ?format=
// is kept by reversed URLs, as DRF's reverse keeps it.
// notFoundPage is Django's page for a path no route matches.
const notFoundPage = "\n<!doctype html>\n<html lang=\"en\">\n<head>\n  <title>Not Found</title>\n</head>\n<body>\n  <h1>Not Found</h1><p>The requested resource was not found on this server.</p>\n</body>\n</html>\n"

func TestFormatSuffixes(t *testing.T) {
	api := framework.NewAPI(nil, framework.Settings{})
	links := framework.View{
		Renderers: framework.Renderers(framework.JSONRenderer{}, framework.StaticHTMLRenderer{}),
		Get: func(v *framework.View, r *request.Request) (*framework.Response, error) {
			if r.AcceptedMediaType == "text/html" {
				return framework.OK("<p>links</p>"), nil
			}
			plain, err := reverse.Reverse("links", nil, r)
			if err != nil {
				return nil, err
			}
			html, err := reverse.Reverse("links", map[string]string{reverse.FormatSuffixParam: "html"}, r)
			if err != nil {
				return nil, err
			}
			return framework.OK(map[string]string{"plain": plain, "html": html}), nil
		},
	}
	api.Handle("/links/", links, framework.Named("links"), framework.FormatSuffixes())
	api.Handle("/only/", links, framework.FormatSuffixes("json", "api"))
	c := apitest.New(t, api)
	for _, tc := range []struct {
		path, status, ctype, body string
	}{
		{"/links/", "200", "application/json", `{"html":"http://testserver/links.html","plain":"http://testserver/links/"}`},
		{"/links.json", "200", "application/json", `{"html":"http://testserver/links.html","plain":"http://testserver/links/"}`},
		{"/links.json/", "200", "application/json", `{"html":"http://testserver/links.html","plain":"http://testserver/links/"}`},
		{"/links.json?format=html", "200", "application/json", `{"html":"http://testserver/links.html?format=html","plain":"http://testserver/links/?format=html"}`},
		{"/links.html", "200", "text/html; charset=utf-8", "<p>links</p>"},
		{"/links/?format=html", "200", "text/html; charset=utf-8", "<p>links</p>"},
		{"/links.xyz", "404", "application/json", `{"detail":"Not found."}`},
		{"/only.json", "200", "application/json", `{"html":"http://testserver/links.html","plain":"http://testserver/links/"}`},
		{"/only.html", "404", "text/html; charset=utf-8", notFoundPage},
	} {
		r := c.Get(tc.path)
		if got := r.Header.Get("Content-Type"); strconv.Itoa(r.Status) != tc.status || got != tc.ctype || r.Body != tc.body {
			t.Errorf("%s: %d %s %q, want %s %s %q", tc.path, r.Status, got, r.Body, tc.status, tc.ctype, tc.body)
		}
	}
	if eps := api.Endpoints(); len(eps) != 2 {
		t.Errorf("the schema's endpoints: %+v", eps)
	}
}

// A wildcard route cannot take a suffix: refused at registration.
func TestFormatSuffixesRefuseAWildcard(t *testing.T) {
	defer func() {
		if msg := fmt.Sprint(recover()); !strings.Contains(msg, `the route at "/files/*": a wildcard route takes no format suffix`) {
			t.Errorf("panic: %s", msg)
		}
	}()
	framework.NewAPI(nil, framework.Settings{}).HandleHTTP("/files/*", http.NotFoundHandler(), framework.FormatSuffixes())
}
