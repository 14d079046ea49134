package browsable_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	nethtml "golang.org/x/net/html"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/browsable"
)

// serveWithStatic serves books() at /books/ and the page's files under
// the default static URL, at the given level.
func serveWithStatic(t *testing.T, level framework.Compatibility) *apitest.Client {
	t.Helper()
	s := settings
	s.Compatibility = level
	api := framework.NewAPI(nil, s)
	api.Handle("/books/", books())
	browsable.HandleStatic(api, "")
	return apitest.New(t, api)
}

// element is an element of a parsed page: its tag, attributes and text.
type element struct {
	tag   string
	attrs map[string]string
	text  string
}

// elements parses page and lists its elements.
func elements(t *testing.T, page string) []element {
	t.Helper()
	doc, err := nethtml.Parse(strings.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	var out []element
	var walk func(n *nethtml.Node)
	walk = func(n *nethtml.Node) {
		if n.Type == nethtml.ElementNode {
			e := element{tag: n.Data, attrs: map[string]string{}}
			for _, a := range n.Attr {
				e.attrs[a.Key] = a.Val
			}
			for c := n.FirstChild; c != nil; c = c.NextSibling {
				if c.Type == nethtml.TextNode {
					e.text += c.Data
				}
			}
			out = append(out, e)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	return out
}

// At the current level (DRF 3.18's CSP-compatible templates, #8784,
// #7016) the page has no inline script, style element, style attribute or
// event handler: what the scripts need is data (the JSON of #drf_csrf, as
// DRF 3.18 renders it, and #page's data- attributes), and the style sheet
// and scripts it loads are served.
func TestPageNeedsNoInlineScriptOrStyle(t *testing.T) {
	c := serveWithStatic(t, framework.DRF318)
	page := c.Get("/books/", "Accept: text/html", "Cookie: csrftoken=cookie-token")
	var files []string
	var config *element
	for _, e := range elements(t, page.Body) {
		for name := range e.attrs {
			if name == "style" || strings.HasPrefix(name, "on") {
				t.Errorf("<%s> has an inline %s attribute", e.tag, name)
			}
		}
		switch e.tag {
		case "style":
			t.Errorf("the page has a <style> element: %s", e.text)
		case "script":
			switch {
			case e.attrs["src"] != "" && strings.TrimSpace(e.text) == "":
				files = append(files, e.attrs["src"])
			case e.attrs["type"] == "application/json" && e.attrs["id"] == "drf_csrf":
				config = &e
			default:
				t.Errorf("the page has an inline script %v: %s", e.attrs, e.text)
			}
		case "link":
			if e.attrs["rel"] == "stylesheet" {
				files = append(files, e.attrs["href"])
			}
		}
	}
	want := []string{"/static/rest_framework/css/default.css", "/static/rest_framework/js/csrf.js",
		"/static/rest_framework/js/ajax-form.js", "/static/rest_framework/js/default.js", "/static/rest_framework/js/load-ajax-form.js"}
	if strings.Join(files, " ") != strings.Join(want, " ") {
		t.Errorf("the page loads %q, want %q", files, want)
	}
	if config == nil {
		t.Fatalf("no #drf_csrf configuration:\n%s", page.Body)
	}
	var csrf struct{ CSRFHeaderName, CSRFToken string }
	if err := json.Unmarshal([]byte(config.text), &csrf); err != nil || csrf.CSRFHeaderName != "X-CSRFTOKEN" || csrf.CSRFToken != "cookie-token" {
		t.Errorf("#drf_csrf: %q: %+v, %v", config.text, csrf, err)
	}
	mustContain(t, page.Body, `<main id="page" data-url="/books/" data-accept="application/json" data-form-type="application/x-www-form-urlencoded">`)

	for _, f := range want {
		r := c.Get(f)
		ct := "text/javascript; charset=utf-8"
		if strings.HasSuffix(f, ".css") {
			ct = "text/css; charset=utf-8"
		}
		if r.Status != http.StatusOK || r.Header.Get("Content-Type") != ct || len(r.Body) < 50 || r.Header.Get("ETag") == "" {
			t.Errorf("GET %s: %d %v %d bytes; want 200 %s", f, r.Status, r.Header, len(r.Body), ct)
			continue
		}
		if again := c.Get(f, "If-None-Match: "+r.Header.Get("ETag")); again.Status != http.StatusNotModified || again.Body != "" {
			t.Errorf("GET %s again: %d %q, want 304", f, again.Status, again.Body)
		}
	}
	if r := c.Get("/static/rest_framework/js/jquery.min.js"); r.Status != http.StatusNotFound {
		t.Errorf("a file the page does not have: %d, want 404", r.Status)
	}
	// What the scripts read: the form script the CSRF configuration
	// csrf.js makes of #drf_csrf, load-ajax-form.js starts the forms.
	mustContain(t, c.Get("/static/rest_framework/js/csrf.js").Body, `document.getElementById("drf_csrf")`, "window.drf =")
	mustContain(t, c.Get("/static/rest_framework/js/ajax-form.js").Body, "window.drf.csrfHeaderName", "page.dataset.url", "window.drf.ajaxForms = function")
	mustContain(t, c.Get("/static/rest_framework/js/load-ajax-form.js").Body, "window.drf.ajaxForms();")
}

// At DRF 3.14 level the page sets its CSRF configuration and starts its
// forms in inline scripts, as DRF 3.14's does (window.drf, then
// $('form').ajaxForm() there), and loads the same files otherwise.
func TestPageAt314SetsItsConfigurationInline(t *testing.T) {
	c := serveWithStatic(t, framework.DRF314)
	page := c.Get("/books/", "Accept: text/html", "Cookie: csrftoken=cookie-token").Body
	mustContain(t, page,
		`<link rel="stylesheet" href="/static/rest_framework/css/default.css">`,
		"<script>\n  window.drf = {\n    csrfHeaderName: \"X-CSRFTOKEN\",\n    csrfToken: \"cookie-token\"\n  };\n</script>",
		`<script src="/static/rest_framework/js/csrf.js"></script>`,
		`<script src="/static/rest_framework/js/ajax-form.js"></script>`,
		"<script>\n  window.drf.ajaxForms();\n</script>")
	mustNotContain(t, page, "drf_csrf", "load-ajax-form.js", "<style")
}

// The page loads its files from Renderer.StaticURL, where HandleStatic
// serves them.
func TestStaticURL(t *testing.T) {
	api := framework.NewAPI(nil, framework.Settings{
		Renderers: framework.Renderers(framework.JSONRenderer{}, browsable.Renderer{StaticURL: "/assets/drf/"}),
	})
	api.Handle("/books/", books())
	browsable.HandleStatic(api, "/assets/drf/")
	c := apitest.New(t, api)
	page := c.Get("/books/", "Accept: text/html").Body
	mustContain(t, page, `href="/assets/drf/css/default.css"`, `<script src="/assets/drf/js/load-ajax-form.js"></script>`)
	mustNotContain(t, page, "/static/")
	if r := c.Get("/assets/drf/js/ajax-form.js"); r.Status != http.StatusOK {
		t.Errorf("ajax-form.js: %d", r.Status)
	}
}

// The CSRF token is data in the JSON configuration, escaped for it.
func TestCSRFConfigurationIsEscaped(t *testing.T) {
	srv := serve(t, framework.View{Get: books().Get, Post: books().Post}, framework.Settings{
		Renderers: framework.Renderers(framework.JSONRenderer{}, browsable.Renderer{
			CSRFToken: func(http.ResponseWriter, *http.Request) string { return `</script><script>alert("x")</script>` },
		}),
	})
	body := html(t, srv, "/")
	mustNotContain(t, body, "<script>alert")
	for _, e := range elements(t, body) {
		if e.attrs["id"] == "drf_csrf" {
			var csrf struct{ CSRFToken string }
			if err := json.Unmarshal([]byte(e.text), &csrf); err != nil || csrf.CSRFToken != `</script><script>alert("x")</script>` {
				t.Errorf("#drf_csrf %q: %+v %v", e.text, csrf, err)
			}
		}
	}
}
