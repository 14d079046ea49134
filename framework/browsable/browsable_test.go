package browsable_test

import (
	"html/template"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/browsable"
	"github.com/go-drf/drf/framework/exceptions"
	"github.com/go-drf/drf/framework/request"
)

// user is a test user named by the X-User header.
type user string

func (u user) GetUsername() string                            { return string(u) }
func (user) IsAuthenticated() bool                            { return true }
func (user) IsActive() bool                                   { return true }
func (user) IsStaff() bool                                    { return false }
func (headerAuth) AuthenticateHeader(*request.Request) string { return "X-User" }

// headerAuth authenticates the user named by X-User, and challenges with
// WWW-Authenticate: X-User.
type headerAuth struct{}

func (headerAuth) Authenticate(r *request.Request) (request.User, any, error) {
	if name := r.Header.Get("X-User"); name != "" {
		return user(name), nil, nil
	}
	return nil, nil, nil
}

// page is a page of results that renders pagination controls.
type page struct{ controls template.HTML }

func (page) Items() []any                          { return nil }
func (page) Response(data any) *framework.Response { return framework.OK(data) }
func (p page) HTMLControls() template.HTML         { return p.controls }

// plainPage has no HTML controls.
type plainPage struct{}

func (plainPage) Items() []any                          { return nil }
func (plainPage) Response(data any) *framework.Response { return framework.OK(data) }

var settings = framework.Settings{
	Authentication: framework.Authenticators(headerAuth{}),
	Renderers:      framework.Renderers(framework.JSONRenderer{}, browsable.Renderer{}),
}

// serve serves v compiled with s, by default the settings above.
func serve(t *testing.T, v framework.View, s ...framework.Settings) *httptest.Server {
	t.Helper()
	s = append(s, settings)
	srv := httptest.NewServer(framework.NewAPI(nil, s[0]).Handler(v))
	t.Cleanup(srv.Close)
	return srv
}

// get requests path from srv's handler; header holds names and values in
// turn.
func get(t *testing.T, srv *httptest.Server, path string, header ...string) (*apitest.Response, string) {
	t.Helper()
	var fields []string
	for i := 0; i+1 < len(header); i += 2 {
		fields = append(fields, header[i]+": "+header[i+1])
	}
	r := apitest.New(t, srv.Config.Handler).Get(path, fields...)
	return r, r.Body
}

func html(t *testing.T, srv *httptest.Server, path string, header ...string) string {
	t.Helper()
	resp, body := get(t, srv, path, append([]string{"Accept", "text/html"}, header...)...)
	if ct := resp.Header.Get("Content-Type"); ct != "text/html; charset=utf-8" {
		t.Fatalf("GET %s: Content-Type %q, want text/html; charset=utf-8\n%s", path, ct, body)
	}
	return body
}

func mustContain(t *testing.T, body string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(body, w) {
			t.Errorf("page lacks %q:\n%s", w, body)
		}
	}
}

func mustNotContain(t *testing.T, body string, unwanted ...string) {
	t.Helper()
	for _, w := range unwanted {
		if strings.Contains(body, w) {
			t.Errorf("page contains %q:\n%s", w, body)
		}
	}
}

func books() framework.View {
	return framework.View{
		Name:        "Book List",
		Description: "All the books.",
		Get: func(v *framework.View, r *request.Request) (*framework.Response, error) {
			resp := framework.OK(map[string]any{"count": 2, "results": []string{"a", "b"}})
			resp.Header = http.Header{"Link": {`<http://x/books/?page=2>; rel="next"`}}
			return resp, nil
		},
		Post: func(v *framework.View, r *request.Request) (*framework.Response, error) {
			return framework.Created(map[string]string{"title": "new"}), nil
		},
	}
}

func TestNegotiation(t *testing.T) {
	srv := serve(t, books())
	for _, tc := range []struct {
		name, path, accept, want string
	}{
		{"accept html", "/", "text/html", "text/html; charset=utf-8"},
		{"browser accept", "/", "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8", "text/html; charset=utf-8"},
		{"format api", "/?format=api", "*/*", "text/html; charset=utf-8"},
		{"any", "/", "*/*", "application/json"},
		{"no accept", "/", "", "application/json"},
		{"accept json", "/", "application/json", "application/json"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var header []string
			if tc.accept != "" { // present but empty is 406, as in DRF
				header = []string{"Accept", tc.accept}
			}
			resp, body := get(t, srv, tc.path, header...)
			if resp.Status != http.StatusOK {
				t.Fatalf("status %d, want 200", resp.Status)
			}
			if ct := resp.Header.Get("Content-Type"); ct != tc.want {
				t.Fatalf("Content-Type %q, want %q", ct, tc.want)
			}
			if tc.want == "application/json" && body != `{"count":2,"results":["a","b"]}` {
				t.Fatalf("JSON body %s", body)
			}
		})
	}
}

func TestPageShowsTheAnswer(t *testing.T) {
	srv := serve(t, books())
	body := html(t, srv, "/?x=1&y=%3Cb%3E")
	mustContain(t, body,
		"<title>Book List · REST API</title>",
		"<h1>Book List</h1>",
		`<p class="description">All the books.</p>`,
		"<b>GET</b> /?x=1&amp;y=%3Cb%3E",
		"<b>HTTP 200 OK</b>",
		"<b>Allow:</b> GET, POST, HEAD, OPTIONS\n",
		"<b>Content-Type:</b> application/json\n",
		"<b>Vary:</b> Accept\n",
		"<b>Link:</b> &lt;http://x/books/?page=2&gt;; rel=&#34;next&#34;\n",
		"{\n    &#34;count&#34;: 2,\n    &#34;results&#34;: [\n        &#34;a&#34;,\n        &#34;b&#34;\n    ]\n}</pre>",
	)
	// Headers appear sorted, as the JSON answer would carry them.
	if strings.Index(body, "<b>Allow:") > strings.Index(body, "<b>Content-Type:") ||
		strings.Index(body, "<b>Link:") > strings.Index(body, "<b>Vary:") {
		t.Errorf("headers are not sorted:\n%s", body)
	}
	mustContain(t, body,
		`<a href="/?format=json&amp;x=1&amp;y=%3Cb%3E" rel="nofollow">json</a>`,
		`<a href="/?format=api&amp;x=1&amp;y=%3Cb%3E" rel="nofollow">api</a>`)
}

func TestVendorRendererShownAsContentType(t *testing.T) {
	srv := serve(t, framework.View{
		Renderers: framework.Renderers(browsable.Renderer{}, framework.JSONRenderer{Type: "application/vnd.books+json"}),
		Get: func(v *framework.View, r *request.Request) (*framework.Response, error) {
			return framework.OK([]int{1}), nil
		},
	}, framework.Settings{})
	body := html(t, srv, "/")
	mustContain(t, body, "<b>Content-Type:</b> application/vnd.books&#43;json\n", "[\n    1\n]</pre>")
}

func TestRawFormOnlyWhenPOSTAllowed(t *testing.T) {
	withPost := html(t, serve(t, books()), "/?format=api&page=2")
	mustContain(t, withPost,
		`<form class="send raw" id="post-raw-form">`,
		`<option>application/json</option><option>application/x-www-form-urlencoded</option><option>multipart/form-data</option>`,
		`<textarea id="post-raw-content" name="content"`,
		`<button type="submit" name="method" value="POST">POST</button>`,
		// The form posts to the same URL without the format parameter.
		`data-url="/?page=2"`,
		`<script src="/static/rest_framework/js/ajax-form.js"></script>`,
	)
	mustNotContain(t, withPost, `value="PUT"`, `id="delete-form"`)

	// A view without a body method has no edit form, only OPTIONS.
	readOnly := html(t, serve(t, framework.View{Get: books().Get}), "/")
	mustNotContain(t, readOnly, `id="send"`, "<textarea", `id="delete-form"`)
	mustContain(t, readOnly, `<form class="send" id="options-form"><button type="submit" name="method" value="OPTIONS"`, `<script src="/static/rest_framework/js/ajax-form.js"></script>`)

	detail := html(t, serve(t, framework.View{
		Get:    books().Get,
		Put:    books().Post,
		Patch:  books().Post,
		Delete: books().Post,
	}), "/")
	mustContain(t, detail, `value="PUT">PUT</button>`, `value="PATCH">PATCH</button>`, `id="delete-form"`)
	mustNotContain(t, detail, `value="POST"`)
}

func TestFormOnNotAllowedMethodPage(t *testing.T) {
	srv := serve(t, framework.View{Name: "Csrf Check", Post: books().Post})
	resp, body := get(t, srv, "/", "Accept", "text/html")
	if resp.Status != http.StatusMethodNotAllowed {
		t.Fatalf("status %d, want 405", resp.Status)
	}
	mustContain(t, body,
		"<b>HTTP 405 Method Not Allowed</b>",
		"<b>Allow:</b> POST, OPTIONS\n",
		`&#34;detail&#34;: &#34;Method \&#34;GET\&#34; not allowed.&#34;`,
		`value="POST">POST</button>`)
	mustNotContain(t, body, `class="formats"`)
}

func TestLoginLinkOrUsername(t *testing.T) {
	srv := serve(t, books())
	anon := html(t, srv, "/?page=3")
	mustContain(t, anon, `<a id="login" href="/api-auth/login/?next=%2F">Log in</a>`)
	mustNotContain(t, anon, "Log out")

	alice := html(t, srv, "/", "X-User", "alice", "Cookie", "csrftoken=cookie-token")
	mustContain(t, alice,
		`<span id="username">alice</span>`,
		`<form id="logout-form" method="post" action="/api-auth/logout/?next=%2F">`,
		`<input type="hidden" name="csrfmiddlewaretoken" value="cookie-token">`,
		`"csrfToken": "cookie-token"`)
	mustNotContain(t, alice, "Log in")
}

func TestConfiguredURLsAndToken(t *testing.T) {
	rd := browsable.Renderer{
		LoginURL:  "/accounts/login/?from=api",
		LogoutURL: "/accounts/logout/",
		CSRFToken: func(w http.ResponseWriter, r *http.Request) string {
			http.SetCookie(w, &http.Cookie{Name: "csrftoken", Value: "minted"})
			return "minted-for-" + r.URL.Path
		},
	}
	srv := serve(t, books(), framework.Settings{
		Authentication: framework.Authenticators(headerAuth{}),
		Renderers:      framework.Renderers(framework.JSONRenderer{}, rd),
	})
	mustContain(t, html(t, srv, "/"), `href="/accounts/login/?from=api&amp;next=%2F"`, `"csrfToken": "minted-for-/"`)
	mustContain(t, html(t, srv, "/", "X-User", "bob", "Cookie", "csrftoken=ignored"),
		`action="/accounts/logout/?next=%2F"`, `value="minted-for-/"`)
	req, _ := http.NewRequest("GET", srv.URL+"/", nil)
	req.Header.Set("Accept", "text/html")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if got := resp.Header.Get("Set-Cookie"); got != "csrftoken=minted" {
		t.Fatalf("the page's token function could not set its cookie: %q", got)
	}
}

func TestErrorPages(t *testing.T) {
	srv := serve(t, framework.View{
		Permissions: framework.Permissions(framework.IsAuthenticated{}),
		Get: func(v *framework.View, r *request.Request) (*framework.Response, error) {
			return nil, exceptions.NotFound()
		},
	})
	resp, body := get(t, srv, "/secret/", "Accept", "text/html")
	if resp.Status != http.StatusUnauthorized || resp.Header.Get("WWW-Authenticate") != "X-User" {
		t.Fatalf("status %d, WWW-Authenticate %q; want 401 X-User", resp.Status, resp.Header.Get("WWW-Authenticate"))
	}
	mustContain(t, body,
		"<b>HTTP 401 Unauthorized</b>",
		"<b>WWW-Authenticate:</b> X-User\n",
		"&#34;detail&#34;: &#34;Authentication credentials were not provided.&#34;",
		`<a id="login" href="/api-auth/login/?next=%2Fsecret%2F">Log in</a>`)

	resp, body = get(t, srv, "/secret/", "Accept", "text/html", "X-User", "carol")
	if resp.Status != http.StatusNotFound {
		t.Fatalf("status %d, want 404", resp.Status)
	}
	mustContain(t, body, "<b>HTTP 404 Not Found</b>", "&#34;detail&#34;: &#34;Not found.&#34;", `<span id="username">carol</span>`)
}

func TestPaginationControls(t *testing.T) {
	controls := template.HTML(`<ul><li><a href="http://x/?page=2">next</a></li></ul>`)
	srv := serve(t, framework.View{
		Get: func(v *framework.View, r *request.Request) (*framework.Response, error) {
			var p framework.Page = plainPage{}
			if r.QueryParams().Get("controls") != "" {
				p = page{controls}
			}
			resp := p.Response([]int{1, 2})
			resp.Page = p
			return resp, nil
		},
	})
	mustContain(t, html(t, srv, "/?controls=1"), `<nav id="controls" aria-label="pages">`+string(controls)+`</nav>`)
	mustNotContain(t, html(t, srv, "/"), `id="controls"`)
}

func TestEverythingIsEscaped(t *testing.T) {
	srv := serve(t, framework.View{
		Name:        "<script>alert('name')</script>",
		Description: `<img src=x onerror="alert(1)">`,
		Get: func(v *framework.View, r *request.Request) (*framework.Response, error) {
			resp := framework.OK(map[string]string{
				"title": "<script>alert('title')</script>",
				"url":   "javascript:alert(1)",
			})
			resp.Header = http.Header{"X-Note": {"<script>alert('header')</script>"}}
			return resp, nil
		},
	})
	body := html(t, srv, "/?q=%3Cscript%3Ealert(1)%3C/script%3E", "X-User", "<script>alert('user')</script>")
	mustNotContain(t, body, "<script>alert", "<img", `href="javascript:`)
	mustContain(t, body,
		"&lt;script&gt;alert(&#39;title&#39;)&lt;/script&gt;",
		"&lt;script&gt;alert(&#39;name&#39;)&lt;/script&gt;",
		"&lt;script&gt;alert(&#39;header&#39;)&lt;/script&gt;",
		"&lt;img src=x onerror=&#34;alert(1)&#34;&gt;",
		`<span id="username">&lt;script&gt;alert(&#39;user&#39;)&lt;/script&gt;</span>`)
}

func TestURLsInTheBodyAreLinks(t *testing.T) {
	srv := serve(t, framework.View{
		Get: func(v *framework.View, r *request.Request) (*framework.Response, error) {
			return framework.OK(map[string]any{
				"next":     "http://127.0.0.1/books/?page=3&page_size=2",
				"previous": nil,
				"quoted":   `http://x/"bad`,
			}), nil
		},
	})
	body := html(t, srv, "/")
	mustContain(t, body,
		`&#34;next&#34;: &#34;<a href="http://127.0.0.1/books/?page=3&amp;page_size=2" rel="nofollow">http://127.0.0.1/books/?page=3&amp;page_size=2</a>&#34;,`,
		`&#34;previous&#34;: null,`,
		`&#34;quoted&#34;: &#34;http://x/\&#34;bad&#34;`)
}

func TestRenderNeedsItsContext(t *testing.T) {
	if _, err := (browsable.Renderer{}).Render(map[string]int{"a": 1}, nil); err == nil {
		t.Fatal("Render without a context succeeded")
	}
}
