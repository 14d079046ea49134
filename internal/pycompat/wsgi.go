package pycompat

import (
	"net/http"
	"net/url"
	"strings"
)

// HeaderValue is the request header name as a WSGI server puts it in
// Django's request.META: the lines of a repeated header joined by ","
// (gunicorn's join), and whether the request has the header at all. One
// line is returned as it is, without allocating.
func HeaderValue(h http.Header, name string) (string, bool) {
	return HeaderLines(h.Values(name))
}

// HeaderLines is HeaderValue of a header's lines that the caller looked
// up itself, as h[key] with key in its canonical form
// (textproto.CanonicalMIMEHeaderKey): a header read on every request
// then costs no canonicalization of its name.
func HeaderLines(vs []string) (string, bool) {
	switch len(vs) {
	case 0:
		return "", false
	case 1:
		return vs[0], true
	default:
		return strings.Join(vs, ","), true
	}
}

// HeaderText is a request.META value as Python code sees it: text whose
// characters are the header's bytes, decoded as ISO-8859-1 (PEP 3333), so
// that UTF-8 "é" reads as "Ã©".
func HeaderText(v string) string { return string(Latin1([]byte(v))) }

// RequestGET is Django's request.GET: r's query string read as a QueryDict
// (ParseQuery) in the charset of its Content-Type.
func RequestGET(r *http.Request) url.Values {
	charset, _ := HeaderParam(r.Header.Get("Content-Type"), "charset")
	return ParseQuery(r.URL.RawQuery, CodecOf(charset))
}
