package framework_test

import (
	"encoding/base64"
	"io"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/request"
)

// fileView answers each field of a multipart body, a file as
// "name|type|content".
func fileView() http.Handler {
	return apitest.View(framework.View{
		Post: func(v *framework.View, r *request.Request) (*framework.Response, error) {
			data, err := r.Data()
			if err != nil {
				return nil, err
			}
			out := map[string]string{}
			for k, val := range data.(map[string]any) {
				if fh, ok := val.(*multipart.FileHeader); ok {
					f, err := fh.Open()
					if err != nil {
						return nil, err
					}
					b, _ := io.ReadAll(f)
					_ = f.Close()
					val = fh.Filename + "|" + fh.Header.Get("Content-Type") + "|" + string(b)
				}
				out[k] = val.(string)
			}
			return framework.OK(out), nil
		},
	})
}

// TestMultipartFiles: files arrive as *multipart.FileHeader with Django's
// name, type and content, base64 decoded; a file no part follows is not
// kept, as in Django.
func TestMultipartFiles(t *testing.T) {
	big := strings.Repeat("0123456789", 20000)
	body := "--B\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n1\r\n" +
		"--B\r\nContent-Disposition: form-data; name=\"big\"; filename=\"dir/big.txt\"\r\nContent-Type: Text/Plain\r\n\r\n" + big + "\r\n" +
		"--B\r\nContent-Disposition: form-data; name=\"b64\"; filename=\"x &amp; y\"\r\nContent-Transfer-Encoding: base64\r\n\r\n" +
		base64.StdEncoding.EncodeToString([]byte("decoded")) + "\r\n" +
		"--B\r\nContent-Disposition: form-data; name=\"last\"; filename=\"last\"\r\n\r\nnever complete\r\n--B"
	status, answer := post(t, fileView(), "multipart/form-data; boundary=B", []byte(body))
	want := map[string]any{"a": "1", "big": "big.txt|text/plain|" + big, "b64": "x & y||decoded"}
	if status != http.StatusOK || len(answer) != len(want) {
		t.Fatalf("%d %.200v", status, answer)
	}
	for k, v := range want {
		if answer[k] != v {
			t.Errorf("%s = %.100q, want %.100q", k, answer[k], v)
		}
	}
}
