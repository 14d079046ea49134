package framework

import (
	"bytes"
	"errors"
	"fmt"
	"html/template"
	"net/http"
	"strconv"
	"strings"
	"unicode"
)

// ErrorDetail is the body of an error answer that is one message, DRF's
// {"detail": ...}: what the exception handler answers for every error but
// a validation error (whose body is its field map). A renderer of its
// own (an HTML page) finds the message in Detail.
type ErrorDetail struct {
	Detail string `json:"detail"`
}

// String returns the message.
func (e ErrorDetail) String() string { return e.Detail }

// RendererChecker is implemented by renderers that can tell at
// registration that they cannot work (TemplateHTMLRenderer: a template
// that is not there); the view's registration fails with the error.
type RendererChecker interface {
	CheckRenderer() error
}

// checkRenderers runs the view's renderers' checks.
func checkRenderers(renderers []Renderer) error {
	for _, rd := range renderers {
		if c, ok := rd.(RendererChecker); ok {
			if err := c.CheckRenderer(); err != nil {
				return fmt.Errorf("renderer %T: %w", rd, err)
			}
		}
	}
	return nil
}

// StaticHTMLRenderer is DRF's StaticHTMLRenderer: it renders data that is
// already HTML (a string, []byte or template.HTML) as is, as text/html;
// charset=utf-8, for ?format=html. An error answer is "404 Not Found"
// (the status and its text), as DRF renders one without an exception
// template. Other data is a server error.
type StaticHTMLRenderer struct{}

// MediaType returns "text/html".
func (StaticHTMLRenderer) MediaType() string { return "text/html" }

// Format returns "html".
func (StaticHTMLRenderer) Format() string { return "html" }

// Charset returns "utf-8".
func (StaticHTMLRenderer) Charset() string { return "utf-8" }

// Render returns the HTML.
func (StaticHTMLRenderer) Render(data any, c *RenderContext) ([]byte, error) {
	if c != nil && c.Response != nil && c.Response.Exception {
		return []byte(statusLine(c.Response.Status)), nil
	}
	return staticHTML(data)
}

// staticHTML is data that is HTML already, as bytes.
func staticHTML(data any) ([]byte, error) {
	switch d := data.(type) {
	case nil:
		return nil, nil
	case string:
		return []byte(d), nil
	case template.HTML:
		return []byte(d), nil
	case []byte:
		return d, nil
	}
	return nil, fmt.Errorf("framework: StaticHTMLRenderer renders a string, []byte or template.HTML, not %T", data)
}

// statusLine is DRF's fallback page of an error: the status code and its
// text in title case ("404 Not Found").
func statusLine(status int) string {
	text := []rune(strings.ToLower(http.StatusText(status)))
	for i, r := range text {
		if i == 0 || !unicode.IsLetter(text[i-1]) {
			text[i] = unicode.ToUpper(r)
		}
	}
	return strconv.Itoa(status) + " " + string(text)
}

// TemplateHTMLRenderer is DRF's TemplateHTMLRenderer on html/template:
// the response's data is executed by a named template of Templates, as
// text/html; charset=utf-8, for ?format=html. The template is the
// Response's TemplateName, else the renderer's (DRF's template_name: a
// renderer value per view names the view's template). An error answer is
// executed by the first of ExceptionTemplateNames that Templates defines,
// with an HTMLError, else it is DRF's fallback ("404 Not Found").
// Registration fails when Templates is nil or lacks TemplateName.
type TemplateHTMLRenderer struct {
	// Templates holds the templates, parsed once.
	Templates *template.Template
	// TemplateName is the template of the answers whose Response names
	// none.
	TemplateName string
	// ExceptionTemplateNames are tried, in order, for an error answer;
	// "{status}" in a name is the status code. nil gives DRF's
	// "{status}.html", "api_exception.html".
	ExceptionTemplateNames []string
}

// HTMLError is what TemplateHTMLRenderer's exception templates execute
// with: the status, its text and the error's body (an ErrorDetail, or a
// validation error's field map).
type HTMLError struct {
	StatusCode int
	StatusText string
	Data       any
}

// MediaType returns "text/html".
func (TemplateHTMLRenderer) MediaType() string { return "text/html" }

// Format returns "html".
func (TemplateHTMLRenderer) Format() string { return "html" }

// Charset returns "utf-8".
func (TemplateHTMLRenderer) Charset() string { return "utf-8" }

// CheckRenderer refuses a renderer without templates, or whose
// TemplateName is not among them.
func (t TemplateHTMLRenderer) CheckRenderer() error {
	if t.Templates == nil {
		return errors.New("no Templates")
	}
	if t.TemplateName != "" && t.Templates.Lookup(t.TemplateName) == nil {
		return fmt.Errorf("no template %q in Templates (defined: %s)", t.TemplateName, strings.TrimPrefix(t.Templates.DefinedTemplates(), "; defined templates are: "))
	}
	return nil
}

// Render executes the template.
func (t TemplateHTMLRenderer) Render(data any, c *RenderContext) ([]byte, error) {
	var resp *Response
	if c != nil {
		resp = c.Response
	}
	if resp != nil && resp.Exception {
		return t.renderError(data, resp.Status)
	}
	name := t.TemplateName
	if resp != nil && resp.TemplateName != "" {
		name = resp.TemplateName
	}
	if name == "" || t.Templates == nil || t.Templates.Lookup(name) == nil {
		return nil, fmt.Errorf("framework: TemplateHTMLRenderer has no template %q: set the renderer's TemplateName or the Response's", name)
	}
	var b bytes.Buffer
	if err := t.Templates.ExecuteTemplate(&b, name, data); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

func (t TemplateHTMLRenderer) renderError(data any, status int) ([]byte, error) {
	names := t.ExceptionTemplateNames
	if names == nil {
		names = []string{"{status}.html", "api_exception.html"}
	}
	for _, n := range names {
		n = strings.ReplaceAll(n, "{status}", strconv.Itoa(status))
		if t.Templates == nil || t.Templates.Lookup(n) == nil {
			continue
		}
		var b bytes.Buffer
		e := HTMLError{StatusCode: status, StatusText: http.StatusText(status), Data: data}
		if err := t.Templates.ExecuteTemplate(&b, n, e); err != nil {
			return nil, err
		}
		return b.Bytes(), nil
	}
	return []byte(statusLine(status)), nil
}
