package framework_test

import (
	"bufio"
	"bytes"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/request"
)

// repeated reads buf over and over.
type repeated struct{ buf []byte }

func (r repeated) Read(p []byte) (int, error) { return copy(p, r.buf), nil }

// peakRSS returns the process's peak resident set (VmHWM), in bytes.
func peakRSS(b *testing.B) int64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		b.Skip("no /proc/self/status:", err)
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		if rest, ok := strings.CutPrefix(s.Text(), "VmHWM:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			return kb << 10
		}
	}
	b.Skip("no VmHWM in /proc/self/status")
	return 0
}

// BenchmarkMultipartUpload1GB sends a 1 GB file through a real HTTP
// server to a view that reads it whole, and reports the process's peak
// RSS, which must stay under 64 MB: the file streams to a temporary file
// and back. Run it with
//
//	go test ./framework -run '^$' -bench MultipartUpload1GB -benchtime 1x
func BenchmarkMultipartUpload1GB(b *testing.B) {
	const size = 1 << 30
	b.Setenv("TMPDIR", b.TempDir())
	view := framework.View{Post: func(v *framework.View, r *request.Request) (*framework.Response, error) {
		data, err := r.Data()
		if err != nil {
			return nil, err
		}
		f, err := data.(map[string]any)["file"].(*multipart.FileHeader).Open()
		if err != nil {
			return nil, err
		}
		defer f.Close()
		n, err := io.Copy(io.Discard, f)
		return framework.OK(map[string]int64{"size": n}), err
	}}
	srv := httptest.NewServer(apitest.View(view))
	defer srv.Close()
	chunk := bytes.Repeat([]byte("0123456789abcdef"), 4096)
	for b.Loop() {
		pr, pw := io.Pipe()
		mw := multipart.NewWriter(pw)
		go func() {
			part, err := mw.CreateFormFile("file", "big.bin")
			if err == nil {
				_, err = io.Copy(part, io.LimitReader(repeated{chunk}, size))
			}
			if err == nil {
				err = mw.Close()
			}
			pw.CloseWithError(err)
		}()
		resp, err := http.Post(srv.URL, mw.FormDataContentType(), pr)
		if err != nil {
			b.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || strings.TrimSpace(string(body)) != `{"size":1073741824}` {
			b.Fatalf("%d %s", resp.StatusCode, body)
		}
	}
	peak := peakRSS(b)
	b.ReportMetric(float64(peak)/(1<<20), "peak-RSS-MB")
	if peak > 64<<20 {
		b.Errorf("peak RSS %d MB, over 64 MB", peak>>20)
	}
}
