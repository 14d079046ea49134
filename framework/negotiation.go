package framework

import (
	"bytes"
	"encoding/json"
	"mime"
	"slices"
	"strconv"
	"strings"

	"github.com/go-drf/drf/framework/exceptions"
	"github.com/go-drf/drf/framework/request"
)

// Renderer turns response data into bytes of one media type.
type Renderer interface {
	// MediaType is what the renderer produces, e.g. "application/json".
	MediaType() string
	// Format is its short name for ?format=, e.g. "json" or "api".
	Format() string
	// Render renders data.
	Render(data any, c *RenderContext) ([]byte, error)
}

// RenderContext is what a renderer may look at besides the data.
type RenderContext struct {
	View      *View
	Request   *request.Request
	Response  *Response
	MediaType string
}

// JSONRenderer renders compact UTF-8 JSON, like DRF's JSONRenderer; an
// "indent" parameter of the accepted media type indents it.
type JSONRenderer struct {
	// Type overrides the media type, for vendor types such as
	// "application/vnd.example.books+json".
	Type string
}

// MediaType returns application/json unless Type is set.
func (j JSONRenderer) MediaType() string { return firstNonEmpty(j.Type, "application/json") }

// Format returns "json".
func (JSONRenderer) Format() string { return "json" }

// Render encodes data; nil renders as an empty body.
func (JSONRenderer) Render(data any, c *RenderContext) ([]byte, error) {
	if data == nil {
		return nil, nil
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if c != nil {
		if _, params, err := mime.ParseMediaType(c.MediaType); err == nil {
			if n, err := strconv.Atoi(params["indent"]); err == nil && n > 0 && n <= 8 {
				enc.SetIndent("", strings.Repeat(" ", n))
			}
		}
	}
	if err := enc.Encode(data); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
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
	for _, p := range strings.Split(rest, ";") {
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

// negotiate picks the renderer as DRF's DefaultContentNegotiation does and
// records it, with the accepted media type, on the request.
func negotiate(r *request.Request, renderers []Renderer, formatParam string) error {
	if format := r.QueryParams().Get(formatParam); format != "" {
		var matching []Renderer
		for _, rd := range renderers {
			if rd.Format() == format {
				matching = append(matching, rd)
			}
		}
		if len(matching) == 0 {
			return exceptions.NotFound()
		}
		renderers = matching
	}
	accept := r.Header.Get("Accept")
	if strings.TrimSpace(accept) == "" {
		accept = "*/*"
	}
	ranges := strings.Split(accept, ",")
	parsed := make([]MediaType, len(ranges))
	for i, s := range ranges {
		ranges[i] = strings.TrimSpace(s)
		parsed[i] = ParseMediaType(ranges[i])
	}
	for prec := 3; prec >= 0; prec-- {
		for _, rd := range renderers {
			own := ParseMediaType(rd.MediaType())
			for i, m := range parsed {
				if m.Precedence() != prec || !own.Match(m) {
					continue
				}
				r.AcceptedRenderer = rd
				if own.Precedence() > prec {
					r.AcceptedMediaType = joinParams(rd.MediaType(), m.Params)
				} else {
					r.AcceptedMediaType = ranges[i]
				}
				return nil
			}
		}
	}
	return exceptions.NotAcceptable()
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
