package framework_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/internal/drfsuite"
)

// uploadCase is one request given to DRF and to the framework alike.
type uploadCase struct {
	Parser      string            `json:"parser"` // "multipart" or "fileupload"
	ContentType string            `json:"content_type"`
	Body        []byte            `json:"body"`
	Headers     map[string]string `json:"headers,omitempty"`
	Filename    string            `json:"filename,omitempty"` // the URL's
	DataMax     int64             `json:"data_max,omitempty"` // DATA_UPLOAD_MAX_MEMORY_SIZE
}

type uploadAnswer struct {
	Data   map[string]string `json:"data"`
	Error  string            `json:"error"`
	Detail string            `json:"detail"`
}

func uploadCases() []uploadCase {
	form := func(fields [][2]string, files [][3]string) []byte {
		var b strings.Builder
		for _, f := range fields {
			fmt.Fprintf(&b, "--B\r\nContent-Disposition: form-data; name=%q\r\n\r\n%s\r\n", f[0], f[1])
		}
		for _, f := range files {
			fmt.Fprintf(&b, "--B\r\nContent-Disposition: form-data; name=%q; filename=%q\r\nContent-Type: image/png\r\n\r\n%s\r\n", f[0], f[1], f[2])
		}
		b.WriteString("--B--\r\n")
		return []byte(b.String())
	}
	mp := "multipart/form-data; boundary=B"
	y := strings.Repeat("y", 1000)
	raw := func(disposition string) uploadCase {
		c := uploadCase{Parser: "fileupload", ContentType: "image/png", Body: []byte("abc")}
		if disposition != "" {
			c.Headers = map[string]string{"Content-Disposition": disposition}
		}
		return c
	}
	cases := []uploadCase{
		{Parser: "multipart", ContentType: mp, Body: form([][2]string{{"a", strings.Repeat("x", 97)}}, [][3]string{{"f", "f.png", y}}), DataMax: 100},
		{Parser: "multipart", ContentType: mp, Body: form([][2]string{{"a", strings.Repeat("x", 98)}}, [][3]string{{"f", "f.png", y}}), DataMax: 100},
		{Parser: "multipart", ContentType: mp, Body: form([][2]string{{"ab", "1"}, {"é", strings.Repeat("x", 5)}}, nil), DataMax: 13},
		{Parser: "multipart", ContentType: mp, Body: form([][2]string{{"ab", "1"}, {"é", strings.Repeat("x", 6)}}, nil), DataMax: 13},
		{Parser: "multipart", ContentType: mp, Body: form(nil, [][3]string{{"f", strings.Repeat("n", 300) + ".png", "y"}})},
		raw(`attachment; filename="dir/cover.png"`),
		raw(`attachment; filename*=utf-8''caf%C3%A9.png`),
		raw(""),
		raw(`attachment; filename=""`),
		raw(`attachment; filename=".."`),
	}
	url := raw("")
	url.Filename = "from-url.png"
	return append(cases, url)
}

// drfUploads runs testdata/drf_uploads.py on DRF 3.14 (Debian's) and DRF
// 3.18 (conformance/reference/drf318), each in a subtest; a DRF that is
// missing skips its subtest, or fails it with CI_REQUIRE_DJANGO.
func drfUploads(t *testing.T, cases []uploadCase, fn func(t *testing.T, answers []uploadAnswer)) {
	for _, level := range []framework.Compatibility{framework.DRF314, framework.DRF318} {
		t.Run(fmt.Sprint(level), func(t *testing.T) {
			var answers []uploadAnswer
			drfsuite.RunDRF(t, level, filepath.Join("testdata", "drf_uploads.py"), cases, &answers)
			if len(answers) != len(cases) {
				t.Fatalf("DRF answered %d cases of %d", len(answers), len(cases))
			}
			fn(t, answers)
		})
	}
}

// TestUploadsAsDRF: what MultiPartParser and FileUploadParser make of
// each request is DRF's: the fields, the files' names, types and sizes,
// DATA_UPLOAD_MAX_MEMORY_SIZE counted on the fields as Django counts it
// (413 where Django raises RequestDataTooBig), FileUploadParser's file
// names and its error; a name Django finds suspicious is 400 with
// Django's words.
func TestUploadsAsDRF(t *testing.T) {
	tempFiles(t)
	cases := uploadCases()
	drfUploads(t, cases, func(t *testing.T, answers []uploadAnswer) {
		for i, c := range cases {
			parser := request.Parser(framework.MultiPartParser{})
			if c.Parser == "fileupload" {
				parser = framework.FileUploadParser{}
			}
			view := framework.View{Parsers: framework.Parsers(parser), Post: func(v *framework.View, r *request.Request) (*framework.Response, error) {
				data, err := r.Data()
				if err != nil {
					return nil, err
				}
				out := map[string]any{}
				for k, val := range data.(map[string]any) {
					if fh, ok := val.(*multipart.FileHeader); ok {
						val = fmt.Sprintf("%s|%s|%d", fh.Filename, fh.Header.Get("Content-Type"), fh.Size)
					}
					out[k] = val
				}
				return framework.OK(out), nil
			}}
			api := framework.NewAPI(nil, framework.Settings{MaxBodyBytes: c.DataMax})
			api.Handle("/upload/", view)
			api.Handle("/upload/{filename}", view)
			req := httptest.NewRequest("POST", "/upload/"+c.Filename, bytes.NewReader(c.Body))
			req.Header.Set("Content-Type", c.ContentType)
			for k, v := range c.Headers {
				req.Header.Set(k, v)
			}
			rec := httptest.NewRecorder()
			api.Router().ServeHTTP(rec, req)
			var got map[string]string
			_ = json.Unmarshal(rec.Body.Bytes(), &got)
			want := answers[i]
			switch want.Error {
			case "":
				if rec.Code != http.StatusOK || fmt.Sprint(got) != fmt.Sprint(want.Data) {
					t.Errorf("case %d: %d %.300v, DRF %.300v", i, rec.Code, got, want.Data)
				}
			case "RequestDataTooBig":
				if rec.Code != http.StatusRequestEntityTooLarge {
					t.Errorf("case %d: %d %v, DRF RequestDataTooBig", i, rec.Code, got)
				}
			default: // ParseError; SuspiciousOperation, Django's 400
				if rec.Code != http.StatusBadRequest || got["detail"] != want.Detail {
					t.Errorf("case %d: %d %v, DRF %s %q", i, rec.Code, got, want.Error, want.Detail)
				}
			}
		}
	})
}
