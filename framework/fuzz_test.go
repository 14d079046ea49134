package framework_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"mime"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"sort"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/internal/pycompat"
)

// The fuzz targets of body parsing; their seed corpora are in
// testdata/fuzz/<target>/.

// fuzzBodyLimit is the body limit of the fuzzed view, small enough for the
// fuzzer to reach 413.
const fuzzBodyLimit = 4096

// echoView answers a POST with the parsed body: JSON values as they are,
// form fields as strings and uploaded files as "file:<name>:<size>".
func echoView() http.Handler {
	return apitest.View(framework.View{
		Post: func(v *framework.View, r *request.Request) (*framework.Response, error) {
			data, err := r.Data()
			if err != nil {
				return nil, err
			}
			if m, ok := data.(map[string]any); ok {
				out := make(map[string]any, len(m))
				for k, val := range m {
					if fh, ok := val.(*multipart.FileHeader); ok {
						val = fmt.Sprintf("file:%s:%d", fh.Filename, fh.Size)
					}
					out[k] = val
				}
				data = out
			}
			return framework.OK(map[string]any{"data": data}), nil
		},
	}, framework.Settings{MaxBodyBytes: fuzzBodyLimit})
}

// post sends body with Content-Type ct to h as a server would hand it over
// (an empty body is http.NoBody) and returns the status and the decoded
// JSON answer. Every answer must be JSON: a panic would fail the fuzz run,
// a 500 fails the check.
func post(t *testing.T, h http.Handler, ct string, body []byte) (int, map[string]any) {
	t.Helper()
	req := httptest.NewRequest(http.MethodPost, "/echo/", bytes.NewReader(body))
	if len(body) == 0 {
		req.Body = http.NoBody
	}
	if ct != "" {
		req.Header.Set("Content-Type", ct)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	var answer map[string]any
	dec := json.NewDecoder(rec.Body)
	dec.UseNumber()
	if err := dec.Decode(&answer); err != nil {
		t.Fatalf("Content-Type %q body %q: %d with a body that is not a JSON object: %v", ct, body, rec.Code, err)
	}
	if rec.Code >= 500 {
		t.Fatalf("Content-Type %q body %q: %d %v", ct, body, rec.Code, answer)
	}
	return rec.Code, answer
}

// detail returns the answer's "detail", failing when it has none.
func detail(t *testing.T, answer map[string]any) string {
	t.Helper()
	d, ok := answer["detail"].(string)
	if !ok {
		t.Fatalf("error answer without a detail: %v", answer)
	}
	return d
}

// checkTooLarge fails unless a 413 comes from a body over the limit, with
// DRF-style wording.
func checkTooLarge(t *testing.T, body []byte, answer map[string]any) {
	t.Helper()
	if len(body) <= fuzzBodyLimit {
		t.Fatalf("413 for a body of %d bytes, under the limit of %d", len(body), fuzzBodyLimit)
	}
	if d := detail(t, answer); d != "Request body is too large." {
		t.Fatalf("413 detail %q", d)
	}
}

// FuzzJSONBody posts any bytes as application/json: the answer is 200 with
// the value decoded when the body is valid JSON once decoded as DRF
// decodes it (UTF-8, an incomplete character at the end left out, no byte
// order mark; or empty, which is no data, as in DRF), 413 when the body
// is over the limit, and otherwise 400 "JSON parse error - ...".
func FuzzJSONBody(f *testing.F) {
	h := echoView()
	f.Fuzz(func(t *testing.T, body []byte) {
		status, answer := post(t, h, "application/json", body)
		text, err := pycompat.UTF8.ReadAll(body)
		valid := err == nil && !bytes.HasPrefix(text, []byte("\uFEFF")) && json.Valid(text)
		switch {
		case status == http.StatusOK:
			if len(body) > fuzzBodyLimit || len(body) > 0 && !valid {
				t.Fatalf("body %q accepted", body)
			}
			var want any
			if len(body) > 0 {
				// As Python reads it (a lone surrogate kept, in WTF-8),
				// and as the renderer writes that (U+FFFD for each
				// byte that is not UTF-8).
				loaded, err := pycompat.JSONLoads(text)
				if err != nil {
					t.Fatal(err)
				}
				rendered, err := json.Marshal(loaded)
				if err != nil {
					t.Fatal(err)
				}
				dec := json.NewDecoder(bytes.NewReader(rendered))
				dec.UseNumber()
				if err := dec.Decode(&want); err != nil {
					t.Fatal(err)
				}
			}
			if got := answer["data"]; !reflect.DeepEqual(got, want) {
				t.Fatalf("body %q echoed as %#v, want %#v", body, got, want)
			}
		case status == http.StatusRequestEntityTooLarge:
			checkTooLarge(t, body, answer)
		case status == http.StatusBadRequest:
			if len(body) == 0 || valid && len(body) <= fuzzBodyLimit {
				t.Fatalf("valid body %q rejected: %v", body, answer)
			}
			if d := detail(t, answer); !strings.HasPrefix(d, "JSON parse error - ") {
				t.Fatalf("400 detail %q", d)
			}
		default:
			t.Fatalf("body %q: status %d %v", body, status, answer)
		}
	})
}

// FuzzFormBody posts any bytes as application/x-www-form-urlencoded. As a
// Django QueryDict, the parser never rejects a form for its syntax: the
// answer is 200 (413 over the size limit, 400 over 1000 fields), each
// field with its last value; where Go's strict url.ParseQuery also reads
// the body, the two agree.
func FuzzFormBody(f *testing.F) {
	h := echoView()
	f.Fuzz(func(t *testing.T, body []byte) {
		status, answer := post(t, h, "application/x-www-form-urlencoded", body)
		switch status {
		case http.StatusOK:
			if len(body) > fuzzBodyLimit {
				t.Fatalf("body of %d bytes accepted", len(body))
			}
		case http.StatusRequestEntityTooLarge:
			checkTooLarge(t, body, answer)
			return
		case http.StatusBadRequest:
			// 1000: Django's DATA_UPLOAD_MAX_NUMBER_FIELDS.
			if bytes.Count(body, []byte("&")) < 1000 || detail(t, answer) != tooManyFields {
				t.Fatalf("body %q: 400 %v", body, answer)
			}
			return
		default:
			t.Fatalf("body %q: status %d %v", body, status, answer)
		}
		// Django reads a body that is not UTF-8 as ISO-8859-1.
		vals, err := url.ParseQuery(string(body))
		if err != nil || !utf8.Valid(body) || !isUTF8(vals) {
			return
		}
		want := map[string]any{}
		for k, v := range vals {
			want[k] = v[len(v)-1]
		}
		got, _ := answer["data"].(map[string]any)
		if len(body) == 0 {
			got = map[string]any{}
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("body %q read as %#v, want %#v", body, got, want)
		}
	})
}

func isUTF8(vals url.Values) bool {
	for k, vs := range vals {
		if !utf8.ValidString(k) {
			return false
		}
		for _, v := range vs {
			if !utf8.ValidString(v) {
				return false
			}
		}
	}
	return true
}

// fuzzBoundary is the boundary of the fuzzed multipart bodies.
const fuzzBoundary = "fuzzboundary"

// multipartBody encodes fields (name, value pairs) as multipart/form-data
// with fuzzBoundary.
func multipartBody(fields []string) []byte {
	var b bytes.Buffer
	w := multipart.NewWriter(&b)
	_ = w.SetBoundary(fuzzBoundary)
	for i := 0; i+1 < len(fields); i += 2 {
		_ = w.WriteField(fields[i], fields[i+1])
	}
	_ = w.Close()
	return b.Bytes()
}

// FuzzMultipartBody posts any bytes as multipart/form-data: the answer is
// 200, 413 over the limit, or 400 "Multipart form parse error - ...". What
// is accepted round-trips: its fields, encoded again, read the same, when
// their names have none of the characters that Go's multipart.Writer
// escapes otherwise than Django's parse_header reads them back.
func FuzzMultipartBody(f *testing.F) {
	h := echoView()
	ct := mime.FormatMediaType("multipart/form-data", map[string]string{"boundary": fuzzBoundary})
	f.Fuzz(func(t *testing.T, body []byte) {
		status, answer := post(t, h, ct, body)
		switch status {
		case http.StatusOK:
		case http.StatusRequestEntityTooLarge:
			checkTooLarge(t, body, answer)
			return
		case http.StatusBadRequest:
			if d := detail(t, answer); !strings.HasPrefix(d, "Multipart form parse error - ") {
				t.Fatalf("400 detail %q", d)
			}
			return
		default:
			t.Fatalf("body %q: status %d %v", body, status, answer)
		}
		if len(body) == 0 {
			return
		}
		got, _ := answer["data"].(map[string]any)
		var fields []string
		names := make([]string, 0, len(got))
		for k := range got {
			names = append(names, k)
		}
		sort.Strings(names)
		for _, k := range names {
			if strings.ContainsAny(k, "\"\\\r\n") {
				return
			}
			s, _ := got[k].(string)
			fields = append(fields, k, s)
		}
		again := multipartBody(fields)
		if len(again) > fuzzBodyLimit {
			return
		}
		status2, answer2 := post(t, h, ct, again)
		if status2 != http.StatusOK || !reflect.DeepEqual(answer2["data"], answer["data"]) {
			t.Fatalf("fields %v encoded again read as %d %v", got, status2, answer2)
		}
	})
}

// FuzzContentType posts a body with any Content-Type. As in DRF, the type
// is what precedes the first ";", in any case, whatever the parameters,
// and a "*" in it matches any parser's main or sub type: a type no parser
// accepts is 415 `Unsupported media type "<Content-Type as sent>" in
// request.`, the others are parsed (200, or 400 for a malformed body).
func FuzzContentType(f *testing.F) {
	h := echoView()
	f.Fuzz(func(t *testing.T, ct string, body []byte) {
		if len(body) == 0 {
			return
		}
		req := httptest.NewRequest(http.MethodPost, "/echo/", bytes.NewReader(body))
		req.Header["Content-Type"] = []string{ct}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		var answer map[string]any
		if err := json.Unmarshal(rec.Body.Bytes(), &answer); err != nil {
			t.Fatalf("Content-Type %q: %d with a body that is not a JSON object: %q", ct, rec.Code, rec.Body.String())
		}
		base, _, _ := strings.Cut(ct, ";")
		main, sub, _ := strings.Cut(strings.ToLower(strings.TrimSpace(base)), "/")
		known := false
		for _, parser := range []string{"application/json", "application/x-www-form-urlencoded", "multipart/form-data"} {
			pm, ps, _ := strings.Cut(parser, "/")
			known = known || (main == "*" || main == pm) && (sub == "*" || sub == ps)
		}
		switch rec.Code {
		case http.StatusUnsupportedMediaType:
			if known {
				t.Fatalf("Content-Type %q refused", ct)
			}
			if want := jsonString(`Unsupported media type "` + ct + `" in request.`); answer["detail"] != want {
				t.Fatalf("415 detail %q, want %q", answer["detail"], want)
			}
		case http.StatusOK, http.StatusBadRequest, http.StatusRequestEntityTooLarge:
			if !known {
				t.Fatalf("Content-Type %q parsed: %d %v", ct, rec.Code, answer)
			}
		default:
			t.Fatalf("Content-Type %q: %d %v", ct, rec.Code, answer)
		}
	})
}

// jsonString is s as it reads after a JSON round trip (invalid UTF-8
// replaced).
func jsonString(s string) string {
	b, _ := json.Marshal(s)
	var out string
	_ = json.Unmarshal(b, &out)
	return out
}
