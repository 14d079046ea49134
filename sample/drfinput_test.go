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

// TestBodyCharset: JSON and form bodies are decoded in the Content-Type's
// charset, as DRF decodes them; one Python does not know is ignored.
func TestBodyCharset(t *testing.T) {
	const json, form = "Content-Type: application/json; charset=", "Content-Type: application/x-www-form-urlencoded; charset="
	const creds = `{"username":"alice","password":"x"}`
	const unable = `{"non_field_errors":["Unable to log in with provided credentials."]}`
	const required = `{"username":["This field is required."],"password":["This field is required."]}`
	utf16 := func(s string, bom bool) string {
		var b []byte
		if bom {
			b = append(b, 0xFF, 0xFE)
		}
		for _, c := range []byte(s) {
			b = append(b, c, 0)
		}
		return string(b)
	}
	checkDRF(t, []drfCase{
		{"POST", "/api-token-auth/", `{}`, []string{json + "utf-16"}, 400,
			`{"detail":"JSON parse error - UTF-16 stream does not start with BOM"}`, false},
		{"POST", "/api-token-auth/", utf16(creds, true), []string{json + "utf-16"}, 400, unable, false},
		{"POST", "/api-token-auth/", utf16(creds, false), []string{json + "UTF-16LE"}, 400, unable, false},
		{"POST", "/api-token-auth/", utf16(creds, true), []string{json + "utf-16-le"}, 400,
			`{"detail":"JSON parse error - Unexpected UTF-8 BOM (decode using utf-8-sig): line 1 column 1 (char 0)"}`, false},
		{"POST", "/api-token-auth/", "\xff\xfe{\x00\x00\xdc", []string{json + "utf-16"}, 400,
			`{"detail":"JSON parse error - 'utf-16-le' codec can't decode bytes in position 4-5: illegal encoding"}`, false},
		{"POST", "/api-token-auth/", "{}\x00\x00", []string{json + "utf-32"}, 400,
			`{"detail":"JSON parse error - UTF-32 stream does not start with BOM"}`, false},
		{"POST", "/api-token-auth/", `{"username":"é"}`, []string{json + "ascii"}, 400,
			`{"detail":"JSON parse error - 'ascii' codec can't decode byte 0xc3 in position 13: ordinal not in range(128)"}`, false},
		{"POST", "/api-token-auth/", "{\"username\":\"\x81\"}", []string{json + "cp1252"}, 400,
			`{"detail":"JSON parse error - 'charmap' codec can't decode byte 0x81 in position 13: character maps to <undefined>"}`, false},
		{"POST", "/api-token-auth/", `{"username":"é"}`, []string{json + "latin-1"}, 400, `{"password":["This field is required."]}`, false},
		{"POST", "/api-token-auth/", "\xef\xbb\xbf" + creds, []string{json + "utf-8-sig"}, 400, unable, false},
		{"POST", "/api-token-auth/", creds, []string{json + "nonsense"}, 400, unable, false},
		{"POST", "/api-token-auth/", `{}`, []string{json + "utf_16; charset=utf-8"}, 400, required, false},
		// Without a charset, UTF-8 as Python reads it: a malformed sequence
		// is an error, an incomplete one at the end is left out, a byte
		// order mark is an error.
		{"POST", "/api-token-auth/", "{\"username\":\"al\xffice\"}", nil, 400,
			`{"detail":"JSON parse error - 'utf-8' codec can't decode byte 0xff in position 15: invalid start byte"}`, false},
		{"POST", "/api-token-auth/", creds + "\xe2\x82", nil, 400, unable, false},
		{"POST", "/api-token-auth/", "\xef\xbb\xbf" + creds, nil, 400,
			`{"detail":"JSON parse error - Unexpected UTF-8 BOM (decode using utf-8-sig): line 1 column 1 (char 0)"}`, false},
		// Forms: decoded in the charset, read as ISO-8859-1 when they do
		// not decode (an odd number of bytes in UTF-16).
		{"POST", "/api-token-auth/", "username=alice&password=x", []string{form + "utf-16"}, 400, unable, false},
		{"POST", "/api-token-auth/", "username=alice&password=xy", []string{form + "utf-16"}, 400, required, false},
		{"POST", "/api-token-auth/", utf16("username=alice&password=xy", true), []string{form + "utf-16"}, 400, unable, false},
		{"POST", "/api-token-auth/", "username=%61%62&password=x", []string{form + "utf-16"}, 400, required, false},
	})
}

// TestCustomVersionHeader: /custom/info/ answers the X-API-Version header
// as DRF's request.META has it, even empty.
func TestCustomVersionHeader(t *testing.T) {
	checkDRF(t, []drfCase{
		{"GET", "/custom/info/", "", []string{"X-API-Version:"}, 200, `{"version":"","self":"http://testserver/custom/info/"}`, false},
		{"GET", "/custom/info/", "", []string{"X-API-Version: a", "X-API-Version: b"}, 200,
			`{"version":"a,b","self":"http://testserver/custom/info/"}`, false},
		{"GET", "/custom/info/", "", []string{"X-API-Version: v2"}, 200, `{"version":"v2","self":"http://testserver/custom/info/"}`, false},
		// UTF-8 bytes read as ISO-8859-1 text, as WSGI gives them to Django.
		{"GET", "/custom/info/", "", []string{"X-API-Version: \u00e9"}, 200, `{"version":"Ã©","self":"http://testserver/custom/info/"}`, false},
		{"GET", "/custom/info/", "", nil, 200, `{"version":"v1","self":"http://testserver/custom/info/"}`, false},
	})
}

// TestMultipartAsDjango: multipart bodies are read as Django's
// MultiPartParser reads them, malformed ones too.
func TestMultipartAsDjango(t *testing.T) {
	const mp = "Content-Type: multipart/form-data; boundary=B"
	part := func(name, value string) string {
		return "--B\r\nContent-Disposition: form-data; name=\"" + name + "\"\r\n\r\n" + value + "\r\n"
	}
	good := part("username", "alice") + part("password", "x") + "--B--\r\n"
	const unable = `{"non_field_errors":["Unable to log in with provided credentials."]}`
	const required = `{"username":["This field is required."],"password":["This field is required."]}`
	const parseError = `{"detail":"Multipart form parse error - `
	checkDRF(t, []drfCase{
		// A boundary that never occurs: one part without headers, an empty form.
		{"POST", "/api-token-auth/", "hello", []string{mp}, 400, required, false},
		{"POST", "/api-token-auth/", "--B", []string{mp}, 400, required, false},
		// ... whose headers, when it has some, are read: username is then
		// the rest of the body.
		{"POST", "/api-token-auth/", good, []string{"Content-Type: multipart/form-data; boundary=C"}, 400,
			`{"password":["This field is required."]}`, false},
		{"POST", "/api-token-auth/", good, []string{"Content-Type: multipart/form-data"}, 400, parseError + `Invalid boundary in multipart: None"}`, false},
		{"POST", "/api-token-auth/", good, []string{"Content-Type: multipart/form-data; boundary="}, 400, parseError + `Invalid boundary in multipart: "}`, false},
		{"POST", "/api-token-auth/", good, []string{`Content-Type: multipart/form-data; boundary="B "`}, 400, parseError + `Invalid boundary in multipart: B "}`, false},
		{"POST", "/api-token-auth/", good, []string{"Content-Type: multipart/form-data; boundary=\xe9"}, 400,
			parseError + `Invalid non-ASCII Content-Type in multipart: multipart/form-data; boundary=é"}`, false},
		{"POST", "/api-token-auth/", good, []string{"Content-Type: Multipart/Form-Data; BOUNDARY=B"}, 400,
			parseError + `Invalid Content-Type: Multipart/Form-Data; BOUNDARY=B"}`, false},
		// Django's leniency: no closing boundary, a preamble, a lone "\r"
		// before a boundary, a name with spaces around it.
		{"POST", "/api-token-auth/", part("username", "alice") + part("password", "x"), []string{mp}, 400, unable, false},
		{"POST", "/api-token-auth/", "preamble\r\n" + good, []string{mp}, 400, unable, false},
		{"POST", "/api-token-auth/", "--B\r\nContent-Disposition: form-data; name=\"username\"\r\n\r\nalice\r--B\r\n" +
			"Content-Disposition: form-data; name=\"password\"\r\n\r\nx\n--B--", []string{mp}, 400, unable, false},
		{"POST", "/api-token-auth/", part(" username ", "alice") + part("password", "x") + "--B--", []string{mp}, 400, unable, false},
		// ... and its strictness: headers end with "\r\n\r\n".
		{"POST", "/api-token-auth/", "--B\nContent-Disposition: form-data; name=\"username\"\n\nalice\n--B--", []string{mp}, 400, required, false},
		{"POST", "/api-token-auth/", "xx--B\r\nContent-Disposition: form-data; name=\"password\"\r\n\r\nx--B--", []string{mp}, 400,
			`{"username":["This field is required."]}`, false},
		// base64: a field that does not decode is read as it is decoded
		// leniently, a file that does not is an error.
		{"POST", "/api-token-auth/", "--B\r\nContent-Disposition: form-data; name=\"username\"\r\nContent-Transfer-Encoding: base64\r\n\r\n!!!\r\n" +
			part("password", "x") + "--B--", []string{mp}, 400, `{"username":["This field may not be blank."]}`, false},
		{"POST", "/api-token-auth/", "--B\r\nContent-Disposition: form-data; name=\"username\"; filename=\"a.txt\"\r\n" +
			"Content-Transfer-Encoding: base64\r\n\r\nYWxpY2\r\n--B--", []string{mp}, 400, parseError + `Could not decode base64 data."}`, false},
		{"POST", "/api-token-auth/", "--B\r\nContent-Disposition: form-data; name=\"password\"; filename=\"a.txt\"\r\n\r\nalice\r\n" +
			part("username", "x") + "--B--", []string{mp}, 400, `{"password":["Not a valid string."]}`, false},
	})
}
