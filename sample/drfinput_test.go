package sample_test

import (
	"strings"
	"testing"
)

// drfCase is a request and DRF's answer to it (the reference, DRF 3.14 on
// Django 3.2 and Python 3.11): the status and the body, or the body's
// beginning when prefix is set.
type drfCase struct {
	method, path, body string
	header             []string
	status             int
	want               string
	prefix             bool
}

func checkDRF(t *testing.T, cases []drfCase) {
	t.Helper()
	c := serve(t, newDB(t))
	for _, tc := range cases {
		r := c.Do(tc.method, tc.path, tc.body, tc.header...)
		if r.Status != tc.status || !tc.prefix && r.Body != tc.want || tc.prefix && !strings.HasPrefix(r.Body, tc.want) {
			t.Errorf("%s %s %q %q: %d %s\nwant %d %s", tc.method, tc.path, tc.header, tc.body, r.Status, r.Body, tc.status, tc.want)
		}
	}
}

// TestQueryStringAsDjango: query strings are read as Django's QueryDict
// reads them, in the request's charset, and links as DRF builds them.
func TestQueryStringAsDjango(t *testing.T) {
	const utf16, latin1 = "Content-Type: text/plain; charset=utf-16", "Content-Type: text/plain; charset=latin-1"
	checkDRF(t, []drfCase{
		// A broken escape stays as it is: an unknown format, a bad version.
		{"GET", "/whoami/?format=%zz", "", nil, 404, `{"detail":"Not found."}`, false},
		{"GET", "/query/info/?version=v2%zz", "", nil, 404, `{"detail":"Invalid version in query parameter."}`, false},
		// ";" is text, not a separator.
		{"GET", "/query/info/?version=v2;x=1", "", nil, 404, `{"detail":"Invalid version in query parameter."}`, false},
		{"GET", "/query/info/?x=1&version=v%32", "", nil, 200,
			`{"version":"v2","self":"http://testserver/query/info/?version=v2"}`, false},
		// Django decodes the query string in the Content-Type's charset:
		// in UTF-16 "page=2" is one name, so this is page 1 ...
		{"GET", "/pages/page-number/?page=2", "", []string{utf16}, 200,
			`{"count":10,"next":"http://testserver/pages/page-number/?page=2","previous":null,`, true},
		{"GET", "/query/info/?version=v%32", "", []string{latin1}, 200,
			`{"version":"v2","self":"http://testserver/query/info/?version=v2"}`, false},
		// ... while DRF's links read the query in UTF-8, from its bytes as
		// ISO-8859-1.
		{"GET", "/pages/limit-offset/?limit=2&x=%E9", "", []string{latin1}, 200,
			`{"count":10,"next":"http://testserver/pages/limit-offset/?limit=2&offset=2&x=%EF%BF%BD","previous":null,`, true},
		{"GET", "/pages/page-number/?x=\xc3\xa9", "", nil, 200,
			`{"count":10,"next":"http://testserver/pages/page-number/?page=2&x=%C3%83%C2%A9","previous":null,`, true},
		{"GET", "/pages/page-number/?x=\xe9&y=%zz+1", "", nil, 200,
			`{"count":10,"next":"http://testserver/pages/page-number/?page=2&x=%C3%A9&y=%25zz+1","previous":null,`, true},
	})
}
