package framework_test

import (
	"bytes"
	"fmt"
	"mime/multipart"
	"strings"
	"testing"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/request"
)

// tooManyFields is Django's wording for more fields than
// DATA_UPLOAD_MAX_NUMBER_FIELDS.
const tooManyFields = "The number of GET/POST parameters exceeded settings.DATA_UPLOAD_MAX_NUMBER_FIELDS."

// fields returns n fields "f0=v&f1=v&...".
func fields(n int) string {
	parts := make([]string, n)
	for i := range parts {
		parts[i] = fmt.Sprintf("f%d=v", i)
	}
	return strings.Join(parts, "&")
}

// multipartFields returns a multipart body of n fields and one file, and
// its content type.
func multipartFields(t *testing.T, n int) (string, string) {
	t.Helper()
	var b bytes.Buffer
	w := multipart.NewWriter(&b)
	for i := range n {
		if err := w.WriteField(fmt.Sprintf("f%d", i), "v"); err != nil {
			t.Fatal(err)
		}
	}
	f, err := w.CreateFormFile("upload", "a.txt")
	if err != nil {
		t.Fatal(err)
	}
	_, _ = f.Write([]byte("file"))
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.String(), w.FormDataContentType()
}

// TestMaxNumberFields: a query string, a form body or a multipart body of
// more fields than MaxNumberFields (1000 by default, counted as Django
// does: blank fields too, files not) is 400 with Django's wording, before
// the view runs; at the limit it is served. A multipart body over Go's own
// cap of 1000 parts is refused with the same answer.
func TestMaxNumberFields(t *testing.T) {
	echo := func(v *framework.View, r *request.Request) (*framework.Response, error) {
		data, err := r.Data()
		if err != nil {
			return nil, err
		}
		m, _ := data.(map[string]any)
		return framework.OK(map[string]int{"fields": len(m)}), nil
	}
	list := func(v *framework.View, r *request.Request) (*framework.Response, error) {
		return framework.OK(map[string]int{"params": len(r.QueryParams())}), nil
	}
	var defaults framework.Settings
	small := framework.Settings{MaxNumberFields: 3}
	unlimited := framework.Settings{MaxNumberFields: -1}
	mp999, ct := multipartFields(t, 999)
	mp1001, ct1001 := multipartFields(t, 1001)
	mp3, ct3 := multipartFields(t, 3)
	mp4, ct4 := multipartFields(t, 4)
	form := map[string]string{"Content-Type": "application/x-www-form-urlencoded"}
	for _, c := range []struct {
		name     string
		settings framework.Settings
		method   string
		query    string
		header   map[string]string
		body     string
		status   int
	}{
		{"query at the default limit", defaults, "GET", fields(1000), nil, "", 200},
		{"query over the default limit", defaults, "GET", fields(1001), nil, "", 400},
		{"blank fields count", defaults, "GET", "a=1" + strings.Repeat("&", 1000), nil, "", 400},
		{"query over a set limit", small, "GET", "a&b&c&d", nil, "", 400},
		{"query at a set limit", small, "GET", "a&b&c", nil, "", 200},
		{"no limit", unlimited, "GET", fields(5000), nil, "", 200},
		{"form at the default limit", defaults, "POST", "", form, fields(1000), 200},
		{"form over the default limit", defaults, "POST", "", form, fields(1001), 400},
		{"form over a set limit", small, "POST", "", form, "a=1&b=2&c=3&d=4", 400},
		{"form, no limit", unlimited, "POST", "", form, fields(5000), 200},
		{"multipart of 1000 parts", defaults, "POST", "", map[string]string{"Content-Type": ct}, mp999, 200},
		{"multipart over the default limit", defaults, "POST", "", map[string]string{"Content-Type": ct1001}, mp1001, 400},
		{"multipart at a set limit", small, "POST", "", map[string]string{"Content-Type": ct3}, mp3, 200},
		{"multipart over a set limit", small, "POST", "", map[string]string{"Content-Type": ct4}, mp4, 400},
	} {
		t.Run(c.name, func(t *testing.T) {
			v := apitest.View(framework.View{Get: list, Post: echo}, c.settings)
			resp, body := do(t, v, c.method, "/?"+c.query, c.header, c.body)
			if resp.Status != c.status {
				t.Fatalf("%d %v, want %d", resp.Status, body, c.status)
			}
			if c.status == 400 && body["detail"] != tooManyFields {
				t.Errorf("detail %q, want %q", body["detail"], tooManyFields)
			}
		})
	}
}

// TestParsersBoundFieldsOutsideViews: called directly, the form and
// multipart parsers apply Django's default of 1000 fields.
func TestParsersBoundFieldsOutsideViews(t *testing.T) {
	if _, err := (framework.FormParser{}).Parse(strings.NewReader(fields(1001)), nil); err == nil || err.Error() != tooManyFields {
		t.Errorf("form of 1001 fields: %v", err)
	}
	if _, err := (framework.FormParser{}).Parse(strings.NewReader(fields(1000)), nil); err != nil {
		t.Errorf("form of 1000 fields: %v", err)
	}
	body, ct := multipartFields(t, 1001)
	_, params, _ := strings.Cut(ct, "boundary=")
	if _, err := (framework.MultiPartParser{}).Parse(strings.NewReader(body), map[string]string{"boundary": params}); err == nil || err.Error() != tooManyFields {
		t.Errorf("multipart of 1001 fields: %v", err)
	}
	var _ request.FieldsParser = framework.FormParser{}
	var _ request.FieldsParser = framework.MultiPartParser{}
}
