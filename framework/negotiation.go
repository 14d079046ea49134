package framework

import (
	"bytes"
	"cmp"
	"encoding/json"
	"mime"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/go-drf/drf/framework/exceptions"
	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/framework/reverse"
	"github.com/go-drf/drf/internal/pycompat"
	"github.com/go-drf/drf/internal/rawjson"
)

// Renderer turns response data into bytes of one media type, the one
// content negotiation chose it by (request.Renderer).
type Renderer interface {
	request.Renderer
	// Render renders data.
	Render(data any, c *RenderContext) ([]byte, error)
}

// AppendRenderer is a Renderer that appends its rendering to a buffer, as
// encoding.TextAppender does for MarshalText. The framework renders into
// buffers it reuses from one request to the next: AppendRender must
// return dst extended (never another slice), and keep nothing of it.
type AppendRenderer interface {
	Renderer
	AppendRender(dst []byte, data any, c *RenderContext) ([]byte, error)
}

// CharsetRenderer is implemented by renderers whose media type carries a
// charset parameter (DRF's renderer charset), e.g. "utf-8" for HTML.
type CharsetRenderer interface {
	Charset() string
}

// RenderContext is what a renderer may look at besides the data.
type RenderContext struct {
	View      *View
	Request   *request.Request
	Response  *Response
	MediaType string
	// Writer is the answer being written: a renderer may set headers on
	// it (the browsable page sets the CSRF cookie its forms use) but must
	// not write the body.
	Writer http.ResponseWriter
}

// JSONRenderer renders compact UTF-8 JSON, like DRF's JSONRenderer; an
// "indent" parameter of the accepted media type indents it. Data that is a
// json.RawMessage is rendered as is, and data that is a JSONAppender
// appends itself; anything else is encoded by encoding/json without HTML
// escaping.
type JSONRenderer struct {
	// Type overrides the media type, for vendor types such as
	// "application/vnd.example.books+json".
	Type string
}

// JSONAppender is data that writes itself as compact JSON, the way
// encoding/json would encode it without HTML escaping (pagination
// envelopes do), so that JSONRenderer needs no reflection.
type JSONAppender interface {
	// AppendJSON appends the JSON text to b and returns the result.
	AppendJSON(b []byte) ([]byte, error)
}

// MediaType returns application/json unless Type is set.
func (j JSONRenderer) MediaType() string { return cmp.Or(j.Type, "application/json") }

// Format returns "json".
func (JSONRenderer) Format() string { return "json" }

// Render encodes data; nil renders as an empty body.
func (j JSONRenderer) Render(data any, c *RenderContext) ([]byte, error) {
	return j.AppendRender(nil, data, c)
}

// AppendRender appends what Render returns to dst.
func (JSONRenderer) AppendRender(dst []byte, data any, c *RenderContext) ([]byte, error) {
	if data == nil {
		return dst, nil
	}
	indent := 0
	if c != nil {
		indent = indentParam(c.MediaType)
	}
	var b []byte
	switch d := data.(type) {
	case json.RawMessage:
		if len(d) == 0 {
			d = json.RawMessage("null")
		}
		if indent == 0 {
			return append(dst, d...), nil
		}
		b = append(dst, d...)
	case JSONAppender:
		var err error
		if b, err = d.AppendJSON(dst); err != nil {
			return dst, err
		}
	default:
		var err error
		if b, err = rawjson.Append(dst, data); err != nil {
			return dst, err
		}
	}
	if indent == 0 {
		return b, nil
	}
	compact := bytes.Clone(b[len(dst):])
	out := bytes.NewBuffer(b[:len(dst)])
	if err := json.Indent(out, compact, "", strings.Repeat(" ", indent)); err != nil {
		return dst, err
	}
	return out.Bytes(), nil
}

// indentParam is the media type's "indent" parameter when it is 1 to 8,
// else 0.
func indentParam(mediaType string) int {
	if !strings.Contains(mediaType, "indent") {
		return 0
	}
	_, params, err := mime.ParseMediaType(mediaType)
	if err != nil {
		return 0
	}
	if n, err := strconv.Atoi(params["indent"]); err == nil && n > 0 && n <= 8 {
		return n
	}
	return 0
}

// MediaType is a parsed media type of an Accept header.
type MediaType struct {
	Main, Sub string
	Params    map[string]string
}

// ParseMediaType parses one media range of an Accept header, leniently
// as DRF does: a missing subtype is "".
func ParseMediaType(s string) MediaType {
	full, rest, _ := strings.Cut(s, ";")
	m := MediaType{}
	m.Main, m.Sub, _ = strings.Cut(strings.TrimSpace(strings.ToLower(full)), "/")
	for rest != "" {
		var p string
		p, rest, _ = strings.Cut(rest, ";")
		k, val, ok := strings.Cut(p, "=")
		if !ok {
			continue
		}
		if m.Params == nil {
			m.Params = map[string]string{}
		}
		m.Params[strings.ToLower(strings.TrimSpace(k))] = strings.Trim(strings.TrimSpace(val), `"`)
	}
	return m
}

// Precedence ranks media ranges: 3 with parameters (besides q), 2 for
// type/subtype, 1 for type/*, 0 for */*.
func (m MediaType) Precedence() int {
	switch {
	case m.Main == "*":
		return 0
	case m.Sub == "*":
		return 1
	}
	for k := range m.Params {
		if k != "q" {
			return 3
		}
	}
	return 2
}

// Match reports whether m (a renderer's type) satisfies other (a client's range).
func (m MediaType) Match(other MediaType) bool {
	for k, v := range m.Params {
		if k != "q" && other.Params[k] != v {
			return false
		}
	}
	if m.Sub != "*" && other.Sub != "*" && other.Sub != m.Sub {
		return false
	}
	return m.Main == "*" || other.Main == "*" || other.Main == m.Main
}

// acceptRange is one media range of an Accept header: its text, parsed,
// and its precedence.
type acceptRange struct {
	text string
	m    MediaType
	prec int
}

// negotiate picks the renderer as DRF's DefaultContentNegotiation does and
// records it, with the accepted media type, on the request. own holds the
// renderers' parsed media types, parsed once when the view resolves.
func negotiate(r *request.Request, renderers []Renderer, own []MediaType, formatParam string) error {
	if format := formatOverride(r, formatParam); format != "" {
		var matching []Renderer
		var types []MediaType
		for i, rd := range renderers {
			if rd.Format() == format {
				matching = append(matching, rd)
				types = append(types, own[i])
			}
		}
		if len(matching) == 0 {
			return exceptions.NotFound()
		}
		renderers, own = matching, types
	}
	accept := strings.TrimSpace(acceptHeader(r.Header))
	if accept == "*/*" && len(renderers) > 0 {
		// What the loop below gives for */*, without parsing it.
		r.AcceptedRenderer, r.AcceptedMediaType = renderers[0], "*/*"
		if own[0].Precedence() > 0 {
			r.AcceptedMediaType = renderers[0].MediaType()
		}
		return nil
	}
	var buf [8]acceptRange
	ranges := buf[:0]
	for rest, more := accept, true; more; {
		var s string
		s, rest, more = strings.Cut(rest, ",")
		s = strings.TrimSpace(s)
		m := ParseMediaType(s)
		ranges = append(ranges, acceptRange{text: s, m: m, prec: m.Precedence()})
	}
	for prec := 3; prec >= 0; prec-- {
		for j, rd := range renderers {
			for _, ar := range ranges {
				if ar.prec != prec || !own[j].Match(ar.m) {
					continue
				}
				r.AcceptedRenderer = rd
				if own[j].Precedence() > prec {
					r.AcceptedMediaType = joinParams(rd.MediaType(), ar.m.Params)
				} else {
					r.AcceptedMediaType = ar.text
				}
				return nil
			}
		}
	}
	return exceptions.NotAcceptable()
}

// acceptHeader is the Accept header as DRF reads it (HTTP_ACCEPT of the
// WSGI environ): "*/*" when there is none, the lines of a repeated header
// joined by "," as WSGI servers join them. A header present but empty is
// "", which no renderer satisfies (406), as in DRF.
func acceptHeader(h http.Header) string {
	if v, ok := pycompat.HeaderLines(h["Accept"]); ok {
		return v
	}
	return "*/*"
}

// formatOverride returns the format of the URL's format suffix
// (reverse.FormatSuffixParam), else the format query parameter, without
// parsing the query string when the parameter's name cannot be in it, as
// DRF's negotiation prefers the suffix.
func formatOverride(r *request.Request, param string) string {
	if f := r.PathValue(reverse.FormatSuffixParam); f != "" {
		return f
	}
	raw := r.URL.RawQuery
	if raw == "" || !strings.Contains(raw, param) && !strings.ContainsAny(raw, "%+") {
		return ""
	}
	return r.QueryParam(param)
}

func joinParams(mt string, params map[string]string) string {
	if len(params) == 0 {
		return mt
	}
	keys := make([]string, 0, len(params))
	for k := range params {
		keys = append(keys, k)
	}
	// Sorted for a stable header; DRF keeps the client's order.
	slices.Sort(keys)
	var b strings.Builder
	b.WriteString(mt)
	for _, k := range keys {
		b.WriteString(";" + k + "=" + params[k])
	}
	return b.String()
}
