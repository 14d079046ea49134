// Package browsable is the browsable API: an HTML renderer, chosen by
// content negotiation (Accept: text/html or ?format=api), that shows a
// view's answer as a readable page with its request line, status, headers
// and pretty-printed body, the pagination controls, a log in or log out
// link, and a form that sends a raw JSON body with the CSRF token.
//
// Add it after the JSON renderer so that JSON stays the default, and mount
// the page's style sheet and scripts (HandleStatic):
//
//	framework.Renderers(framework.JSONRenderer{}, browsable.Renderer{})
//	browsable.HandleStatic(api, "")
//
// As DRF 3.18's templates, the page has no inline script or style, so that
// it works under a Content-Security-Policy of default-src 'self': the
// scripts read their data from the page's data- attributes and from the
// JSON of its #drf_csrf element. At DRF 3.14 level
// (Settings.Compatibility) the page sets its CSRF configuration and starts
// its forms in inline scripts, and breaks a long header with <br>, as DRF
// 3.14's templates do.
package browsable

import (
	"bytes"
	"cmp"
	_ "embed"
	"errors"
	"fmt"
	"html/template"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/go-chi/chi/v5"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/compat"
	"github.com/go-drf/drf/framework/pagination"
	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/framework/reverse"
	"github.com/go-drf/drf/internal/pycompat"
)

//go:embed page.html
var pageHTML string

// page is parsed once, when the first page is rendered: a server that
// answers only JSON does not keep its tree in the heap, where the
// garbage collector would scan it on every cycle.
var page = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("page").Parse(pageHTML))
})

// Default addresses of the session login and logout views.
const (
	defaultLoginURL  = "/api-auth/login/"
	defaultLogoutURL = "/api-auth/logout/"
)

// cSRFCookieName is the cookie the page reads the CSRF token from when the
// Renderer has no CSRFToken function.
const cSRFCookieName = "csrftoken"

// Renderer renders answers as HTML pages for people using a browser. Its
// zero value is ready to use.
type Renderer struct {
	// LoginURL is the log in page linked from the page, with ?next= set
	// to the current path; "" gives
	// "/api-auth/login/".
	LoginURL string
	// LogoutURL is where the log out form posts; "" gives
	// "/api-auth/logout/".
	LogoutURL string
	// StaticURL is the URL path the page loads its style sheet and scripts
	// from, where HandleStatic serves them; "" gives
	// "/static/rest_framework/".
	StaticURL string
	// CSRFToken returns the CSRF token the page's forms send, setting the
	// CSRF cookie on w when the client has none, as Django's {% csrf_token %}
	// does (contrib/sessions/csrf's Protection.Token); nil sends the value
	// of the csrftoken cookie.
	CSRFToken func(w http.ResponseWriter, r *http.Request) string
}

// MediaType returns "text/html".
func (Renderer) MediaType() string { return "text/html" }

// Format returns "api", the ?format= value that selects the page.
func (Renderer) Format() string { return "api" }

// Charset returns "utf-8".
func (Renderer) Charset() string { return "utf-8" }

// errNoContext is returned when Render is called without the view,
// request and response the page describes.
var errNoContext = errors.New("browsable: Render needs the view, request and response")

// Render renders the page of one answer. The body is rendered by the
// view's first renderer that is not a browsable one, indented by 4; the
// headers shown are those that renderer's answer would carry. A 204
// answer (a DELETE's) becomes 200 with the page, as in DRF.
func (rd Renderer) Render(data any, c *framework.RenderContext) ([]byte, error) {
	if c == nil || c.View == nil || c.Request == nil || c.Response == nil {
		return nil, errNoContext
	}
	v, r, resp := c.View, c.Request, c.Response
	level := v.Compatibility()
	renderers := v.Renderers
	plain := defaultRenderer(renderers.Items())
	body, err := plain.Render(data, &framework.RenderContext{View: v, Request: r, Response: resp,
		MediaType: plain.MediaType() + "; indent=4"})
	if err != nil {
		return nil, err
	}
	allowed := v.AllowedMethods()
	formatParam := r.FormatParam()
	p := pageData{
		Title:       v.Name,
		Description: v.Description,
		Method:      r.Method,
		Path:        fullPath(r.URL),
		Status:      statusLine(resp.Status),
		Headers:     shownHeaders(resp, allowed, len(renderers.Items()) > 1, plain, level),
		Body:        linkify(string(body)),
		SendURL:     withQuery(r.URL, formatParam, ""),
		SendAccept:  plain.MediaType(),
		CSRFToken:   rd.csrfToken(c.Writer, r.Request),
		StaticURL:   cmp.Or(rd.StaticURL, defaultStaticURL),
		Inline:      level == compat.DRF314,
	}
	if p.Title == "" {
		p.Title = r.URL.Path
	}
	if ctl, ok := resp.Page.(pagination.Controls); ok {
		p.Controls = ctl.HTMLControls()
	}
	if slices.Contains(allowed, http.MethodGet) {
		p.GetURL = p.SendURL
		for _, x := range renderers.Items() {
			p.Formats = append(p.Formats, link{Text: x.Format(), URL: withQuery(r.URL, formatParam, x.Format())})
		}
	}
	if u := r.User(); u != nil && u.IsAuthenticated() {
		p.Username = u.GetUsername()
		p.LogoutURL = withNext(cmp.Or(rd.LogoutURL, defaultLogoutURL), r.URL.Path)
	} else {
		p.LoginURL = withNext(cmp.Or(rd.LoginURL, defaultLoginURL), r.URL.Path)
	}
	p.Breadcrumbs = breadcrumbs(v, r, formatParam)
	if resp.Status != http.StatusUnauthorized && resp.Status != http.StatusForbidden {
		p.ExtraActions = extraActions(v, r)
	}
	if err := p.addForms(v, r, resp, body); err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if err := page().Execute(&b, &p); err != nil {
		return nil, err
	}
	if resp.Status == http.StatusNoContent {
		// A 204 has no body: the page is answered with 200, and shows
		// the 204 (DRF's renderer munges the status so).
		resp.Status = http.StatusOK
	}
	return b.Bytes(), nil
}

// extraActions links the view's extra actions, reversed with r's URL
// parameters in r's namespace; an action they do not reverse is left out
// (DRF's get_extra_action_url_map).
func extraActions(v *framework.View, r *request.Request) []link {
	if len(v.ExtraActions) == 0 {
		return nil
	}
	ns := ""
	if m, ok := reverse.MatchOf(r.Request); ok && m.Namespace != "" {
		ns = m.Namespace + ":"
	}
	var params map[string]string
	if rc := chi.RouteContext(r.Context()); rc != nil && len(rc.URLParams.Keys) > 0 {
		params = make(map[string]string, len(rc.URLParams.Keys))
		for i, k := range rc.URLParams.Keys {
			params[k] = rc.URLParams.Values[i]
		}
	}
	var links []link
	for _, a := range v.ExtraActions {
		if u, err := reverse.Reverse(ns+a.Route, params, r); err == nil {
			links = append(links, link{Text: a.Name, URL: u})
		}
	}
	return links
}

// pageData is what page.html shows.
type pageData struct {
	Title, Description string
	// Breadcrumbs name the views of the path's prefixes, the page's last.
	Breadcrumbs []link
	// Method and Path are the request line.
	Method, Path string
	// GetURL is the GET button's target, "" when the view has no GET;
	// Formats the format menu beside it.
	GetURL   string
	Formats  []link
	Controls template.HTML
	Status   string
	Headers  []header
	Body     []link
	// Username is set when the user is authenticated; LoginURL otherwise.
	Username, LoginURL, LogoutURL string
	// ExtraActions is the Extra Actions menu: the view's extra actions.
	ExtraActions []link
	// Options and Delete show the OPTIONS and DELETE buttons.
	Options, Delete bool
	// Forms are the edit forms the user may use.
	Forms []editForm
	// MediaTypes are what the raw data forms may send (the view's parsers).
	MediaTypes []string
	// SendURL, SendAccept, FormType and CSRFToken are what the forms'
	// script sends: the URL, the Accept header, the Content-Type of HTML
	// forms, the CSRF token.
	SendURL, SendAccept, FormType, CSRFToken string
	// StaticURL is where the style sheet and scripts are.
	StaticURL string
	// Inline sets the CSRF configuration and starts the forms in inline
	// scripts, as DRF 3.14's page does; else they are data and files.
	Inline bool
}

// link is a piece of text, a hyperlink when URL is set; Current marks the
// page's own breadcrumb.
type link struct {
	Text, URL string
	Current   bool
}

// header is a header shown: its value alone in Parts or, when Broken, the
// value split at its commas, which the page shows as DRF 3.14's
// break_long_headers does: "<br> " before the first part, ", <br>"
// between two.
type header struct {
	Name   string
	Parts  []string
	Broken bool
}

// longHeader is the length (in characters) beyond which DRF 3.14's page
// breaks a header value at its commas (its break_long_headers filter).
const longHeader = 160

// newHeader is the header name: value as the page of level shows it:
// DRF 3.14 breaks a value longer than longHeader characters that has a
// comma ("a, b" is shown "<br> a, <br> b"); DRF 3.18 does not (#9435,
// #9438). The parts stay escaped at both levels, where DRF 3.14 left a
// broken value unescaped (CVE-2024-21520, fixed in DRF 3.15.2).
func newHeader(name, value string, level compat.Level) header {
	if level == compat.DRF314 && utf8.RuneCountInString(value) > longHeader && strings.Contains(value, ",") {
		return header{Name: name, Parts: strings.Split(value, ","), Broken: true}
	}
	return header{Name: name, Parts: []string{value}}
}

// defaultRenderer is the first renderer that is not a browsable one, the
// renderer whose answer the page shows.
func defaultRenderer(rs []framework.Renderer) framework.Renderer {
	for _, x := range rs {
		switch x.(type) {
		case Renderer, *Renderer:
			continue
		}
		return x
	}
	return framework.JSONRenderer{}
}

func (rd Renderer) csrfToken(w http.ResponseWriter, r *http.Request) string {
	if rd.CSRFToken != nil && w != nil {
		return rd.CSRFToken(w, r)
	}
	if c, err := r.Cookie(cSRFCookieName); err == nil {
		return c.Value
	}
	return ""
}

func statusLine(code int) string {
	if text := http.StatusText(code); text != "" {
		return fmt.Sprintf("HTTP %d %s", code, text)
	}
	return fmt.Sprintf("HTTP %d", code)
}

// shownHeaders are the headers the answer would carry when rendered by
// plain: the response's own, Allow, Vary and Content-Type, sorted by name,
// as the page of level shows them.
func shownHeaders(resp *framework.Response, allowed []string, vary bool, plain framework.Renderer, level compat.Level) []header {
	h := resp.Header.Clone()
	if h == nil {
		h = http.Header{}
	}
	h.Set("Allow", strings.Join(allowed, ", "))
	if vary {
		h.Add("Vary", "Accept")
	}
	ct := plain.MediaType()
	if cs, ok := plain.(framework.CharsetRenderer); ok && cs.Charset() != "" {
		ct += "; charset=" + cs.Charset()
	}
	h.Set("Content-Type", ct)
	out := make([]header, 0, len(h))
	for name, values := range h {
		if name == "Www-Authenticate" {
			name = "WWW-Authenticate"
		}
		out = append(out, newHeader(name, strings.Join(values, ", "), level))
	}
	slices.SortFunc(out, func(a, b header) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// fullPath is Django's request.get_full_path() of u: its decoded path
// escaped again by escape_uri_path ("/pages/page%2Dnumber/" is shown as
// "/pages/page-number/"), then its query string through iri_to_uri.
func fullPath(u *url.URL) string {
	p := escapePath(u)
	if u.RawQuery != "" {
		p += "?" + pycompat.IRIToURI(u.RawQuery)
	}
	return p
}

// escapePath is u's decoded path as Django writes it back into a URL.
func escapePath(u *url.URL) string {
	return pycompat.EscapeRequestPath(u.Path)
}

// withQuery is u's path and query with param set to value, or removed
// when value is "".
func withQuery(u *url.URL, param, value string) string {
	q := u.Query()
	if value == "" {
		q.Del(param)
	} else {
		q.Set(param, value)
	}
	if len(q) == 0 {
		return escapePath(u)
	}
	return escapePath(u) + "?" + q.Encode()
}

// withNext adds ?next=path to target.
func withNext(target, path string) string {
	sep := "?"
	if strings.Contains(target, "?") {
		sep = "&"
	}
	return target + sep + "next=" + url.QueryEscape(path)
}

// quotedURL matches a JSON string that is one http or https URL.
var quotedURL = regexp.MustCompile(`"https?://[^"\\\s]+"`)

// linkify splits the rendered body into text and the URLs it holds, so
// that the page can make them links.
func linkify(body string) []link {
	var out []link
	last := 0
	for _, m := range quotedURL.FindAllStringIndex(body, -1) {
		start, end := m[0]+1, m[1]-1
		out = append(out, link{Text: body[last:start]}, link{Text: body[start:end], URL: body[start:end]})
		last = end
	}
	return append(out, link{Text: body[last:]})
}
