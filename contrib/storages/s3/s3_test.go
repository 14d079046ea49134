package s3_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/go-drf/drf/contrib/storages/s3"
	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/files"
	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/internal/testservers"
)

func TestMain(m *testing.M) { os.Exit(testservers.Main(m)) }

// server starts versitygw with a bucket "media" and returns it, the
// directory of the bucket's objects, and settings for it.
func server(t *testing.T) (*testservers.S3, string, s3.Settings) {
	srv := testservers.StartS3(t)
	dir := srv.Bucket(t, "media")
	return srv, dir, s3.Settings{BucketName: "media", EndpointURL: srv.Endpoint, RegionName: srv.Region,
		AccessKeyID: srv.AccessKey, SecretAccessKey: srv.SecretKey, Location: "uploads"}
}

func get(t *testing.T, u string) (int, []byte) {
	t.Helper()
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, b
}

// TestS3Storage: a saved file is an object under AWS_LOCATION, in the
// server's directory; its signed URL serves it back for
// AWS_QUERYSTRING_EXPIRE and a tampered one does not; the default
// overwrites a name, AWS_S3_FILE_OVERWRITE = False gives Django's
// available name; Exists, Size, Open and Delete are the object's.
func TestS3Storage(t *testing.T) {
	ctx := context.Background()
	_, dir, settings := server(t)
	settings.QuerystringExpire = 10 * time.Minute
	st, err := s3.New(settings)
	if err != nil {
		t.Fatal(err)
	}
	name, err := st.Save(ctx, "covers/a b.png", strings.NewReader("first"), 100)
	if err != nil || name != "covers/a b.png" {
		t.Fatalf("Save = %q, %v", name, err)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "uploads", "covers", "a b.png")); err != nil || string(b) != "first" {
		t.Fatalf("object on disk: %q %v", b, err)
	}
	u, err := st.URL(ctx, name)
	if err != nil {
		t.Fatal(err)
	}
	parsed, _ := url.Parse(u)
	if q := parsed.Query(); q.Get("X-Amz-Expires") != "600" || q.Get("X-Amz-Signature") == "" || parsed.Path != "/media/uploads/covers/a b.png" {
		t.Errorf("signed URL %s", u)
	}
	if status, body := get(t, u); status != 200 || string(body) != "first" {
		t.Errorf("GET signed URL: %d %q", status, body)
	}
	if status, _ := get(t, strings.Replace(u, "X-Amz-Signature=", "X-Amz-Signature=0", 1)); status != http.StatusForbidden {
		t.Errorf("GET tampered URL: %d", status)
	}
	// AWS_S3_FILE_OVERWRITE's default: the same name, the new content.
	if again, err := st.Save(ctx, "covers/a b.png", strings.NewReader("second"), 100); err != nil || again != name {
		t.Errorf("Save over = %q, %v", again, err)
	}
	if status, body := get(t, u); status != 200 || string(body) != "second" {
		t.Errorf("GET after overwrite: %d %q", status, body)
	}
	// Cut to max_length, as get_available_overwrite_name cuts.
	if cut, err := st.Save(ctx, "covers/abcdef.png", strings.NewReader("x"), 14); err != nil || cut != "covers/abc.png" {
		t.Errorf("Save with max_length 14 = %q, %v", cut, err)
	}
	var sus *files.SuspiciousFileOperation
	if _, err := st.Save(ctx, "covers/abcdef.png", strings.NewReader("x"), 11); !errors.As(err, &sus) ||
		sus.Message != `Storage tried to truncate away entire filename "covers/abcdef.png". Please make sure that the corresponding file field allows sufficient "max_length".` {
		t.Errorf("Save with max_length 11: %v", err)
	}
	for _, bad := range []string{"../x.png", "/x.png", "a/../../x.png"} {
		if _, err := st.Save(ctx, bad, strings.NewReader("x"), 0); !errors.As(err, &sus) {
			t.Errorf("Save(%q): %v", bad, err)
		}
	}
	keep := settings
	keep.NoFileOverwrite = true
	kst, err := s3.New(keep)
	if err != nil {
		t.Fatal(err)
	}
	other, err := kst.Save(ctx, "covers/a b.png", strings.NewReader("third"), 100)
	if err != nil || !regexp.MustCompile(`^covers/a b_[a-zA-Z0-9]{7}\.png$`).MatchString(other) {
		t.Errorf("Save without overwrite = %q, %v", other, err)
	}
	if n, err := st.Size(ctx, other); n != 5 || err != nil {
		t.Errorf("Size = %d, %v", n, err)
	}
	r, err := st.Open(ctx, other)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(r)
	_ = r.Close()
	if string(b) != "third" {
		t.Errorf("Open: %q", b)
	}
	if err := st.Delete(ctx, other); err != nil {
		t.Fatal(err)
	}
	if ok, err := st.Exists(ctx, other); ok || err != nil {
		t.Errorf("Exists after Delete = %v, %v", ok, err)
	}
	if err := st.Delete(ctx, other); err != nil {
		t.Errorf("Delete of a missing object: %v", err)
	}
	if _, err := st.Open(ctx, other); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Open of a missing object: %v", err)
	}
	if _, err := st.Size(ctx, other); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Size of a missing object: %v", err)
	}
}

// TestS3URLs: django-storages' URLs on a custom domain and unsigned.
func TestS3URLs(t *testing.T) {
	ctx := context.Background()
	base := s3.Settings{BucketName: "media", EndpointURL: "http://127.0.0.1:9", AccessKeyID: "k", SecretAccessKey: "s", Location: "/uploads/"}
	for _, c := range []struct {
		edit func(*s3.Settings)
		want string
	}{
		{func(s *s3.Settings) { s.CustomDomain = "cdn.example.com" }, "https://cdn.example.com/uploads/dir/%C3%BC%20%23.png"},
		{func(s *s3.Settings) { s.CustomDomain, s.URLProtocol = "cdn.example.com", "http:" }, "http://cdn.example.com/uploads/dir/%C3%BC%20%23.png"},
		{func(s *s3.Settings) { s.NoQuerystringAuth = true }, "http://127.0.0.1:9/media/uploads/dir/%C3%BC%20%23.png"},
	} {
		s := base
		c.edit(&s)
		st, err := s3.New(s)
		if err != nil {
			t.Fatal(err)
		}
		if got, err := st.URL(ctx, "dir/ü #.png"); got != c.want || err != nil {
			t.Errorf("URL = %q, %v, want %q", got, err, c.want)
		}
	}
}

// TestS3Misconfigured: a setting missing or malformed fails at New,
// named.
func TestS3Misconfigured(t *testing.T) {
	for _, c := range []struct {
		s    s3.Settings
		want string
	}{
		{s3.Settings{}, "AWS_STORAGE_BUCKET_NAME"},
		{s3.Settings{BucketName: "b", EndpointURL: "127.0.0.1:7070"}, "AWS_S3_ENDPOINT_URL"},
		{s3.Settings{BucketName: "b", AccessKeyID: "k"}, "AWS_S3_SECRET_ACCESS_KEY"},
	} {
		if _, err := s3.New(c.s); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("New(%+v) = %v, want an error naming %s", c.s, err, c.want)
		}
	}
}

// TestS3Upload: a file uploaded to a view (3 MB, so through a temporary
// file) is saved to the bucket, and its URL serves it back.
func TestS3Upload(t *testing.T) {
	_, _, settings := server(t)
	t.Setenv("TMPDIR", t.TempDir())
	st, err := s3.New(settings)
	if err != nil {
		t.Fatal(err)
	}
	h := apitest.View(framework.View{Post: func(v *framework.View, r *request.Request) (*framework.Response, error) {
		data, err := r.Data()
		if err != nil {
			return nil, err
		}
		fh := data.(map[string]any)["cover"].(*multipart.FileHeader)
		f, err := fh.Open()
		if err != nil {
			return nil, err
		}
		defer f.Close()
		name, err := st.Save(r.Context(), "covers/"+fh.Filename, f, 100)
		if err != nil {
			return nil, err
		}
		u, err := st.URL(r.Context(), name)
		return framework.Created(map[string]string{"cover": u}), err
	}})
	content := bytes.Repeat([]byte("JPEG"), 3<<20/4)
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	part, _ := mw.CreateFormFile("cover", "photo.jpg")
	_, _ = part.Write(content)
	_ = mw.Close()
	req := httptest.NewRequest("POST", "/books/1/cover/", &body)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	var answer map[string]string
	if err := json.Unmarshal(rec.Body.Bytes(), &answer); err != nil || rec.Code != http.StatusCreated {
		t.Fatalf("%d %s", rec.Code, rec.Body)
	}
	if status, got := get(t, answer["cover"]); status != 200 || !bytes.Equal(got, content) {
		t.Errorf("GET %s: %d, %d bytes", answer["cover"], status, len(got))
	}
	if entries, _ := os.ReadDir(os.Getenv("TMPDIR")); len(entries) != 0 {
		t.Errorf("temporary files left: %v", entries)
	}
}
