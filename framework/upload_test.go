package framework_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/request"
)

// uploadView answers each file of the body as "name|type|size|on disk",
// after checking its content is sent's; fail makes it end with an error
// once it has read the body.
func uploadView(t *testing.T, parsers framework.List[request.Parser], want map[string][]byte, fail bool) framework.View {
	return framework.View{
		Parsers: parsers,
		Post: func(v *framework.View, r *request.Request) (*framework.Response, error) {
			data, err := r.Data()
			if err != nil {
				return nil, err
			}
			out := map[string]any{}
			for k, val := range data.(map[string]any) {
				fh, ok := val.(*multipart.FileHeader)
				if !ok {
					out[k] = val
					continue
				}
				f, err := fh.Open()
				if err != nil {
					return nil, err
				}
				_, onDisk := f.(*os.File)
				b, _ := io.ReadAll(f)
				_ = f.Close()
				if w, ok := want[k]; ok && !bytes.Equal(b, w) {
					t.Errorf("%s: content of %d bytes differs from the %d sent", k, len(b), len(w))
				}
				out[k] = fmt.Sprintf("%s|%s|%d|%v", fh.Filename, fh.Header.Get("Content-Type"), fh.Size, onDisk)
			}
			if fail {
				return nil, errors.New("the view failed")
			}
			return framework.OK(out), nil
		},
	}
}

// tempFiles points $TMPDIR, where uploads spill, at a directory of the
// test's and returns a function counting the files in it.
func tempFiles(t *testing.T) func() int {
	dir := t.TempDir()
	t.Setenv("TMPDIR", dir)
	return func() int {
		entries, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		return len(entries)
	}
}

func uploadBody(t *testing.T, fields map[string]string, files map[string][]byte) (string, []byte) {
	var b bytes.Buffer
	w := multipart.NewWriter(&b)
	for k, v := range fields {
		if err := w.WriteField(k, v); err != nil {
			t.Fatal(err)
		}
	}
	for k, content := range files {
		part, err := w.CreateFormFile(k, k+".bin")
		if err != nil {
			t.Fatal(err)
		}
		_, _ = part.Write(content)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return w.FormDataContentType(), b.Bytes()
}

func send(h http.Handler, method, ct string, body io.Reader, header ...string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(method, "/upload/", body)
	req.Header.Set("Content-Type", ct)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

// TestMultipartUploadSpillsToTemporaryFile: a body larger than
// FILE_UPLOAD_MAX_MEMORY_SIZE is accepted though it is over MaxBodyBytes
// (which bounds the fields only), its files are temporary files while the
// view runs, and none is left once it has answered; a small body stays in
// memory.
func TestMultipartUploadSpillsToTemporaryFile(t *testing.T) {
	count := tempFiles(t)
	big := bytes.Repeat([]byte("0123456789abcdef"), 3<<20/16) // 3 MB
	small := []byte("tiny")
	var during int
	v := uploadView(t, framework.List[request.Parser]{}, map[string][]byte{"big": big, "small": small}, false)
	post := v.Post
	v.Post = func(v *framework.View, r *request.Request) (*framework.Response, error) {
		resp, err := post(v, r)
		during = count()
		return resp, err
	}
	h := apitest.View(v)
	ct, body := uploadBody(t, map[string]string{"title": "cover"}, map[string][]byte{"big": big, "small": small})
	rec := send(h, "POST", ct, bytes.NewReader(body))
	if rec.Code != http.StatusOK {
		t.Fatalf("%d %s", rec.Code, rec.Body)
	}
	want := fmt.Sprintf(`{"big":"big.bin|application/octet-stream|%d|true","small":"small.bin|application/octet-stream|4|true","title":"cover"}`, len(big))
	if got := strings.TrimSpace(rec.Body.String()); got != want {
		t.Errorf("answer %s\nwant   %s", got, want)
	}
	if during == 0 {
		t.Error("no temporary file while the view ran")
	}
	if n := count(); n != 0 {
		t.Errorf("%d temporary files left after the answer", n)
	}
	// A body within FILE_UPLOAD_MAX_MEMORY_SIZE: files in memory.
	ct, body = uploadBody(t, nil, map[string][]byte{"small": small})
	rec = send(h, "POST", ct, bytes.NewReader(body))
	if got := strings.TrimSpace(rec.Body.String()); rec.Code != 200 || got != `{"small":"small.bin|application/octet-stream|4|false"}` {
		t.Errorf("small body: %d %s", rec.Code, got)
	}
}

// TestMultipartUploadFieldsLimit: DATA_UPLOAD_MAX_MEMORY_SIZE counts the
// fields as Django does (value, name and two), not the files.
func TestMultipartUploadFieldsLimit(t *testing.T) {
	tempFiles(t)
	h := apitest.View(uploadView(t, framework.List[request.Parser]{}, nil, false), framework.Settings{MaxBodyBytes: 100})
	for _, c := range []struct {
		value  int
		status int
	}{{97, 200}, {98, 413}} {
		ct, body := uploadBody(t, map[string]string{"a": strings.Repeat("x", c.value)}, map[string][]byte{"f": bytes.Repeat([]byte("y"), 1000)})
		if rec := send(h, "POST", ct, bytes.NewReader(body)); rec.Code != c.status {
			t.Errorf("field of %d bytes: %d %s, want %d", c.value, rec.Code, rec.Body, c.status)
		}
	}
	// Other bodies keep the whole-body cap.
	if rec := send(h, "POST", "application/json", strings.NewReader(`{"a":"`+strings.Repeat("x", 200)+`"}`)); rec.Code != 413 {
		t.Errorf("JSON over MaxBodyBytes: %d", rec.Code)
	}
}

// cutBody is a body whose client goes away after n bytes.
type cutBody struct {
	r io.Reader
}

func (f *cutBody) Read(p []byte) (int, error) {
	n, err := f.r.Read(p)
	if err == io.EOF {
		return n, errors.New("connection reset by peer")
	}
	return n, err
}

// TestFailedUploadLeavesNoTemporaryFile: whether the client goes away in
// the middle of a file, or the view fails once it has the files, no
// temporary file is left.
func TestFailedUploadLeavesNoTemporaryFile(t *testing.T) {
	count := tempFiles(t)
	big := bytes.Repeat([]byte("z"), 4<<20)
	ct, body := uploadBody(t, nil, map[string][]byte{"a": big, "b": big})
	cut := &cutBody{bytes.NewReader(body[:len(body)-len(big)/2])}
	if rec := send(apitest.View(uploadView(t, framework.List[request.Parser]{}, nil, false)), "POST", ct, cut); rec.Code != 400 {
		t.Errorf("client gone: %d %s", rec.Code, rec.Body)
	}
	if n := count(); n != 0 {
		t.Errorf("client gone: %d temporary files left", n)
	}
	rec := send(apitest.View(uploadView(t, framework.List[request.Parser]{}, nil, true)), "POST", ct, bytes.NewReader(body))
	if rec.Code != 500 {
		t.Errorf("view failed: %d", rec.Code)
	}
	if n := count(); n != 0 {
		t.Errorf("view failed: %d temporary files left", n)
	}
	raw := apitest.View(uploadView(t, framework.Parsers(framework.FileUploadParser{}), nil, false))
	cut = &cutBody{bytes.NewReader(big[:3<<20])}
	if rec := send(raw, "POST", "image/png", cut, "Content-Disposition", `attachment; filename="a.png"`, "Content-Length", fmt.Sprint(len(big))); rec.Code != 400 {
		t.Errorf("raw upload, client gone: %d %s", rec.Code, rec.Body)
	}
	if n := count(); n != 0 {
		t.Errorf("raw upload, client gone: %d temporary files left", n)
	}
}

// TestFileUploadParser: the body is one file named by the URL's filename
// or the Content-Disposition, with DRF's error without one.
func TestFileUploadParser(t *testing.T) {
	count := tempFiles(t)
	content := bytes.Repeat([]byte("P"), 3<<20)
	v := uploadView(t, framework.Parsers(framework.FileUploadParser{}), nil, false)
	api := framework.NewAPI(nil, framework.Settings{})
	api.Handle("/upload/", v)
	api.Handle("/upload/{filename}", v)
	h := api.Router()
	for _, c := range []struct {
		path, disposition string
		body              []byte
		status            int
		answer            string
	}{
		{"/upload/", `attachment; filename="dir/cover.png"`, content, 200, fmt.Sprintf(`{"file":"cover.png|image/png|%d|true"}`, len(content))},
		{"/upload/", `attachment; filename*=utf-8''caf%C3%A9.png`, []byte("x"), 200, `{"file":"café.png|image/png|1|false"}`},
		{"/upload/from-url.png", "", []byte("x"), 200, `{"file":"from-url.png|image/png|1|false"}`},
		{"/upload/", "", []byte("x"), 400, `{"detail":"Missing filename. Request should include a Content-Disposition header with a filename parameter."}`},
		{"/upload/", `attachment; filename=".."`, []byte("x"), 400, `{"detail":"Could not derive file name from '..'"}`},
	} {
		req := httptest.NewRequest("POST", c.path, bytes.NewReader(c.body))
		req.Header.Set("Content-Type", "image/png")
		if c.disposition != "" {
			req.Header.Set("Content-Disposition", c.disposition)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if got := strings.TrimSpace(rec.Body.String()); rec.Code != c.status || got != c.answer {
			t.Errorf("%s %s: %d %s\nwant %d %s", c.path, c.disposition, rec.Code, got, c.status, c.answer)
		}
	}
	if n := count(); n != 0 {
		t.Errorf("%d temporary files left", n)
	}
}
