package framework

import (
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// Response is a view's answer before rendering: status, data for the
// negotiated renderer, and extra headers.
type Response struct {
	Status int
	// Data is rendered by the accepted renderer; nil gives an empty body.
	Data   any
	Header http.Header
	// Page is the page that produced the answer, for the browsable
	// pagination controls; nil when the answer is not a page.
	Page Page
	// Exception marks answers built from an error.
	Exception bool
	// TemplateName names the template TemplateHTMLRenderer renders the
	// answer with, over the renderer's own (DRF's Response(template_name=)).
	TemplateName string
}

// OK is a 200 answer with data.
func OK(data any) *Response { return &Response{Status: http.StatusOK, Data: data} }

// Created is a 201 answer with data.
func Created(data any) *Response { return &Response{Status: http.StatusCreated, Data: data} }

// NoContent is a 204 answer.
func NoContent() *Response { return &Response{Status: http.StatusNoContent} }

// finalize renders resp with the accepted renderer (the first one when
// negotiation failed) and writes it with DRF's default headers.
func (c *handler) finalize(w http.ResponseWriter, x *exchange, resp *Response) {
	v, r := &c.view, &x.req
	if resp == nil {
		resp = &Response{Status: http.StatusNoContent}
	}
	if resp.Status == 0 {
		resp.Status = http.StatusOK
	}
	renderer, _ := r.AcceptedRenderer.(Renderer)
	mediaType := r.AcceptedMediaType
	if renderer == nil {
		renderer = v.Renderers.items[0]
		mediaType = renderer.MediaType()
	}
	// The body follows the accepted media type (indent=4); the header
	// names the renderer's own type, as DRF's does.
	h := w.Header()
	for k, vs := range resp.Header {
		h[k] = vs
	}
	for k, vs := range r.AnswerHeader() {
		h[k] = vs
	}
	x.rc = RenderContext{View: v, Request: r, Response: resp, MediaType: mediaType, Writer: w}
	vals := append(x.vals[:0], c.allow)
	h["Allow"] = vals[0:1:1]
	buf := bodies.Get().(*[]byte)
	defer bodies.put(buf)
	body, err := render(renderer, buf, resp.Data, &x.rc)
	if err != nil {
		if resp = c.handleException(r, err); resp == nil {
			c.serverError(w, r)
			return
		}
		renderer = v.Renderers.items[0]
		mediaType = renderer.MediaType()
		x.rc.Response, x.rc.MediaType = resp, mediaType
		body, _ = render(renderer, buf, resp.Data, &x.rc)
	}
	// Vary: the answer's own, Accept when there is a choice of renderers,
	// and what the request's policies read (the session cookie).
	if c.vary || len(r.VaryHeaders()) > 0 {
		vals = append(vals, varyValue(h["Vary"], c.vary, r.VaryHeaders()))
		h["Vary"] = vals[len(vals)-1 : len(vals) : len(vals)]
	}
	if len(body) > 0 || resp.Data != nil {
		ct := renderer.MediaType()
		if c, ok := renderer.(CharsetRenderer); ok && c.Charset() != "" {
			ct += "; charset=" + c.Charset()
		}
		vals = append(vals, ct)
		h["Content-Type"] = vals[len(vals)-1 : len(vals) : len(vals)]
	}
	if lengthByServer(r.Request, len(body)) {
		delete(h, "Content-Length") // one the view's headers carried
	} else {
		vals = append(vals, strconv.Itoa(len(body)))
		h["Content-Length"] = vals[len(vals)-1 : len(vals) : len(vals)]
	}
	w.WriteHeader(resp.Status)
	if r.Method != http.MethodHead {
		_, _ = w.Write(body)
	}
}

// serverBuffered is what net/http's server holds of an answer's body
// before it sends the header (its bufferBeforeChunkingSize).
const serverBuffered = 2048

// lengthByServer reports whether net/http's server will send the answer's
// Content-Length itself: it does, with the value DRF sends, when the
// handler returns having written the whole body (n bytes, not for HEAD)
// into its buffer. Left to the server, the header stays out of the
// answer's header map, which then holds eight names with runserver's
// X-Request-ID; a ninth makes it a table, and net/http copies and sorts
// the map for every answer (docs/performance.md). Outside a server (an
// httptest.ResponseRecorder) the header is set.
func lengthByServer(r *http.Request, n int) bool {
	return n <= serverBuffered && r.Method != http.MethodHead && r.Context().Value(http.ServerContextKey) != nil
}

// varyValue is the one Vary line Django's patch_vary_headers leaves: the
// answer's own names, then Accept (when accept) and the names the
// request's policies read, each unless already there (case-insensitively);
// "*" if any name is "*".
func varyValue(own []string, accept bool, read []string) string {
	switch { // the usual lines, without building them
	case len(own) == 0 && accept && len(read) == 0:
		return "Accept"
	case len(own) == 0 && accept && len(read) == 1 && read[0] == "Cookie":
		return "Accept, Cookie"
	case len(own) == 0 && !accept && len(read) == 1 && read[0] != "*":
		return read[0]
	}
	var names []string
	for _, v := range own {
		for n := range strings.SplitSeq(v, ",") {
			if n = strings.TrimSpace(n); n != "" {
				names = append(names, n)
			}
		}
	}
	add := func(n string) {
		if !slices.ContainsFunc(names, func(x string) bool { return strings.EqualFold(x, n) }) {
			names = append(names, n)
		}
	}
	if accept {
		add("Accept")
	}
	for _, n := range read {
		add(n)
	}
	if slices.Contains(names, "*") {
		return "*"
	}
	return strings.Join(names, ", ")
}

// render renders data with rd, into *buf when rd is an AppendRenderer
// (keeping the grown buffer there for the next request).
func render(rd Renderer, buf *[]byte, data any, c *RenderContext) ([]byte, error) {
	ar, ok := rd.(AppendRenderer)
	if !ok {
		return rd.Render(data, c)
	}
	b, err := ar.AppendRender((*buf)[:0], data, c)
	if err == nil {
		*buf = b
	}
	return b, err
}

// bodyPool holds the buffers answers are rendered into; a buffer grown
// past maxPooledBody is left to the collector rather than kept.
type bodyPool struct{ sync.Pool }

const maxPooledBody = 64 << 10

var bodies = bodyPool{sync.Pool{New: func() any { b := make([]byte, 0, 2048); return &b }}}

func (p *bodyPool) put(b *[]byte) {
	if cap(*b) <= maxPooledBody {
		*b = (*b)[:0]
		p.Put(b)
	}
}
