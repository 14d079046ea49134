package framework_test

import (
	"fmt"
	"html/template"
	"strings"
	"testing"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/exceptions"
	"github.com/go-drf/drf/framework/request"
)

// htmlView answers data, or DRF's NotFound with ?fail=1.
func htmlView(data any, renderers ...framework.Renderer) framework.View {
	return framework.View{Renderers: framework.Renderers(renderers...), Get: func(v *framework.View, r *request.Request) (*framework.Response, error) {
		if r.QueryParam("fail") != "" {
			return nil, exceptions.NotFound()
		}
		return framework.OK(data), nil
	}}
}

// The answers of DRF 3.14 for a view with renderer_classes =
// [StaticHTMLRenderer] (a Response('<b>hi</b>')) and [TemplateHTMLRenderer]
// (template_name "x.html", "<p>{{ name }}</p>", data {"name": "<a>"}):
// the HTML as is, the template escaped, and for an error without an
// exception template "404 Not Found", all text/html; charset=utf-8.
func TestHTMLRenderers(t *testing.T) {
	templates := template.Must(template.New("x.html").Parse(`<p>{{.name}}</p>`))
	withErrors := template.Must(template.Must(templates.Clone()).New("404.html").Parse(`<h1>{{.StatusCode}} {{.StatusText}}</h1>{{.Data.Detail}}`))
	api := framework.NewAPI(nil, framework.Settings{})
	api.Handle("/static/", htmlView("<b>hi</b>", framework.StaticHTMLRenderer{}))
	api.Handle("/template/", htmlView(map[string]string{"name": "<a>"}, framework.TemplateHTMLRenderer{Templates: templates, TemplateName: "x.html"}))
	api.Handle("/own-errors/", htmlView(map[string]string{"name": "<a>"}, framework.TemplateHTMLRenderer{Templates: withErrors, TemplateName: "x.html"}))
	api.Handle("/response-template/", framework.View{
		Renderers: framework.Renderers(framework.TemplateHTMLRenderer{Templates: withErrors}),
		Get: func(*framework.View, *request.Request) (*framework.Response, error) {
			return &framework.Response{Status: 200, Data: map[string]any{"name": "n"}, TemplateName: "x.html"}, nil
		},
	})
	api.Handle("/not-html/", htmlView(42, framework.StaticHTMLRenderer{}))
	c := apitest.New(t, api)
	for _, tc := range []struct {
		path   string
		status int
		body   string
	}{
		{"/static/", 200, "<b>hi</b>"},
		{"/static/?format=html", 200, "<b>hi</b>"},
		{"/static/?fail=1", 404, "404 Not Found"},
		{"/static/?format=api", 404, "404 Not Found"},
		{"/template/", 200, "<p>&lt;a&gt;</p>"},
		{"/template/?fail=1", 404, "404 Not Found"},
		{"/own-errors/?fail=1", 404, "<h1>404 Not Found</h1>Not found."},
		{"/response-template/", 200, "<p>n</p>"},
		// A renderer that fails raises through DRF to Django: its 500 page.
		{"/not-html/", 500, "\n<!doctype html>\n<html lang=\"en\">\n<head>\n  <title>Server Error (500)</title>\n</head>\n<body>\n  <h1>Server Error (500)</h1><p></p>\n</body>\n</html>\n"},
	} {
		r := c.Get(tc.path)
		allow := "GET, HEAD, OPTIONS"
		if tc.status == 500 {
			allow = ""
		}
		if r.Status != tc.status || r.Body != tc.body || r.Header.Get("Content-Type") != "text/html; charset=utf-8" || r.Header.Get("Allow") != allow {
			t.Errorf("%s: %d %v %q, want %d %q", tc.path, r.Status, r.Header, r.Body, tc.status, tc.body)
		}
	}
}

// A TemplateHTMLRenderer whose template is not there is refused when the
// view is registered, naming the view.
func TestTemplateHTMLRendererSetup(t *testing.T) {
	templates := template.Must(template.New("x.html").Parse(`x`))
	for _, rd := range []framework.TemplateHTMLRenderer{{TemplateName: "x.html"}, {Templates: templates, TemplateName: "y.html"}} {
		msg := func() (msg string) {
			defer func() { msg = fmt.Sprint(recover()) }()
			framework.NewAPI(nil, framework.Settings{}).Handle("/page/", htmlView(nil, rd))
			return ""
		}()
		if !strings.Contains(msg, `the view at "/page/"`) || !strings.Contains(msg, "TemplateHTMLRenderer") {
			t.Errorf("%+v: %q", rd, msg)
		}
	}
}

// preRenderer is an HTML renderer of one's own that prints the data.
type preRenderer struct{}

func (preRenderer) MediaType() string { return "text/html" }
func (preRenderer) Format() string    { return "html" }
func (preRenderer) Render(data any, c *framework.RenderContext) ([]byte, error) {
	if e, ok := data.(framework.ErrorDetail); ok {
		return []byte("<p class=error>" + e.Detail + "</p>"), nil
	}
	return fmt.Appendf(nil, "<pre>%v</pre>", data), nil
}

// An error reaches a renderer of one's own as framework.ErrorDetail, which
// prints as its message: no more "<pre>{Not found.}</pre>".
func TestErrorDetailInOwnRenderer(t *testing.T) {
	c := apitest.New(t, apitest.View(htmlView("ok", preRenderer{})))
	if r := c.Get("/?fail=1"); r.Status != 404 || r.Body != "<p class=error>Not found.</p>" {
		t.Errorf("%d %q", r.Status, r.Body)
	}
	if got := fmt.Sprintf("<pre>%v</pre>", framework.ErrorDetail{Detail: "Not found."}); got != "<pre>Not found.</pre>" {
		t.Errorf("printed: %q", got)
	}
}
