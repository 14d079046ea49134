package files_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/go-drf/drf/framework/compat"
	"github.com/go-drf/drf/framework/files"
	"github.com/go-drf/drf/internal/drfsuite/pyrun"
)

// djangoCases are the inputs given to Django and to the package alike.
type djangoCases struct {
	Saved []struct {
		Name      string `json:"name"`
		MaxLength int    `json:"max_length"`
	} `json:"saved"`
	Overwrite []struct {
		Name      string `json:"name"`
		MaxLength int    `json:"max_length"`
	} `json:"overwrite"`
	URLs     []string `json:"urls"`
	Validate []struct {
		Name     string `json:"name"`
		Relative bool   `json:"relative"`
	} `json:"validate"`
	Valid    []string `json:"valid"`
	Uploaded []string `json:"uploaded"`
	Serve    []string `json:"serve"`
	// Generated are FileField.generate_filename's upload_to and name.
	Generated []generated `json:"generated"`
}

type generated struct {
	UploadTo string `json:"upload_to"`
	Name     string `json:"name"`
}

type djangoResult struct {
	OK    *string `json:"ok"`
	Error string  `json:"error"`
}

type djangoAnswers struct {
	Saved []djangoResult `json:"saved"`
	// Overwrite is Django 5.1's allow_overwrite, nil before.
	Overwrite []djangoResult `json:"overwrite"`
	URLs      []string       `json:"urls"`
	Validate  []djangoResult `json:"validate"`
	Valid     []djangoResult `json:"valid"`
	Uploaded  []djangoResult `json:"uploaded"`
	Generated []djangoResult `json:"generated"`
	Serve     []struct {
		Status      int     `json:"status"`
		Type        string  `json:"type"`
		Disposition *string `json:"disposition"`
		Body        string  `json:"body"`
	} `json:"serve"`
}

func cases() djangoCases {
	var c djangoCases
	save := func(name string, maxLength int) {
		c.Saved = append(c.Saved, struct {
			Name      string `json:"name"`
			MaxLength int    `json:"max_length"`
		}{name, maxLength})
	}
	for _, n := range []string{"a.txt", "x.tar.gz", "sub/dir/photo.jpg", ".bashrc", "a.b.c.", "..x.tar", "sp ace/ü ñ.txt", "noext", `back\slash.txt`} {
		save(n, 0)
		save(n, 0)
	}
	save("long_name.txt", 0)
	save("long_name.txt", 15)
	save("verylongfilename.txt", 20)
	save("a.txt", 10)
	for _, n := range []string{"", "../x.txt", "/abs.txt", "a/../b.txt", "dir/..", "dir/.", `a\..\b.txt`} {
		save(n, 0)
	}
	for _, o := range []struct {
		name      string
		maxLength int
	}{{"a.txt", 0}, {"a.txt", 0}, {"long_name.tar.gz", 12}, {"dir/abc.txt", 7}, {"../x", 0}} {
		c.Overwrite = append(c.Overwrite, struct {
			Name      string `json:"name"`
			MaxLength int    `json:"max_length"`
		}{o.name, o.maxLength})
	}
	c.URLs = []string{"a b.txt", "ü/#?%&+=;:@$,~!*()'.txt", "/lead.txt", `a\b.txt`, "dir/x.tar.gz", "100%.png"}
	for _, v := range []struct {
		name     string
		relative bool
	}{{"a/b", false}, {"a/b", true}, {"/a", true}, {`a\..\b`, true}, {"..", false}, {"", true}, {"ok.txt", false}, {"a/./b", true}} {
		c.Validate = append(c.Validate, struct {
			Name     string `json:"name"`
			Relative bool   `json:"relative"`
		}{v.name, v.relative})
	}
	c.Valid = []string{"john's portrait in 2004.jpg", " spaced name .txt ", "ü ñ.jpg", "e\u0301.txt", "$%^", "..", "a\tb c", "x-y_z.1"}
	c.Uploaded = []string{"a/b/c.txt", `x\y.txt`, strings.Repeat("n", 300) + ".txt", "", ".", "plain.bin", strings.Repeat("é", 260)}
	c.Generated = []generated{{"covers/", "a b.png"}, {"covers/%Y/%m/%d/%H%M%S.%f", "x.png"}, {"%y-%j-%b-%B-%a-%A-%I%p-%%", "x"},
		{"", "ü ñ.txt"}, {"dir", "john's.jpg"}, {"/abs/", "x"}, {"a/../", "x"}, {"../up", "x"}, {"covers/", ".."},
		{"covers/", "$%^"}, {"a//b/./", "c.txt"}, {"%Q/", "x"}}
	c.Serve = []string{"/media/dir/a%20b.txt", "/media/dir/%C3%BC.txt", "/media/dir/", "/media/dir", "/media/missing.txt"}
	return c
}

// askDjango runs testdata/django_files.py on Debian's Django 3.2 and on
// conformance/reference/drf318's Django 5.2, each in a subtest
// (pyrun.Levels); a Django that is missing skips its subtest, or fails it
// with CI_REQUIRE_DJANGO.
func askDjango(t *testing.T, in djangoCases, fn func(t *testing.T, level compat.Level, out djangoAnswers)) {
	pyrun.Levels(t, "", func(t *testing.T, level pyrun.Level) {
		raw := pyrun.Exec(t, level, in, filepath.Join("testdata", "django_files.py"))
		var out djangoAnswers
		if err := json.Unmarshal(raw, &out); err != nil {
			t.Fatalf("Django %s answered %q: %v", level.Django, raw, err)
		}
		fn(t, level.Compat, out)
	})
}

// matches reports whether got is Django's answer want, in which the
// random suffix Django drew is "AbC1234" (fixed by the script).
func matches(got, want string) bool {
	pattern := strings.ReplaceAll(regexp.QuoteMeta(want), "AbC1234", "[a-zA-Z0-9]{7}")
	return regexp.MustCompile("^" + pattern + "$").MatchString(got)
}

func result(s string, err error) djangoResult {
	if err != nil {
		var sus *files.SuspiciousFileOperation
		if !errors.As(err, &sus) {
			return djangoResult{Error: "not a SuspiciousFileOperation: " + err.Error()}
		}
		return djangoResult{Error: sus.Message}
	}
	return djangoResult{OK: &s}
}

func sameResult(got, want djangoResult) bool {
	if want.OK == nil || got.OK == nil {
		return want.OK == got.OK && matches(got.Error, want.Error)
	}
	return matches(*got.OK, *want.OK)
}

func (r djangoResult) String() string {
	if r.OK != nil {
		return "ok " + *r.OK
	}
	return "error " + r.Error
}

// TestNamesAndURLsAsDjango: the names FileSystemStorage.Save picks (taken
// names, extensions, max_length, refused paths), URLs, the name rules and
// what Media answers are Django's, at 3.2 and at 5.2.
func TestNamesAndURLsAsDjango(t *testing.T) {
	in := cases()
	askDjango(t, in, func(t *testing.T, level compat.Level, out djangoAnswers) {
		ctx := context.Background()
		media := t.TempDir()
		s := files.FileSystemStorage{Location: media, BaseURL: "/media/", Compatibility: level}
		for i, c := range in.Saved {
			got := result(s.Save(ctx, c.Name, strings.NewReader("x"), c.MaxLength))
			if !sameResult(got, out.Saved[i]) {
				t.Errorf("Save(%q, max_length %d) = %v, Django %v", c.Name, c.MaxLength, got, out.Saved[i])
			}
		}
		if out.Overwrite != nil {
			o := files.FileSystemStorage{Location: t.TempDir(), AllowOverwrite: true, Compatibility: level}
			for i, c := range in.Overwrite {
				got := result(o.Save(ctx, c.Name, strings.NewReader("x"), c.MaxLength))
				if !sameResult(got, out.Overwrite[i]) {
					t.Errorf("AllowOverwrite: Save(%q, max_length %d) = %v, Django %v", c.Name, c.MaxLength, got, out.Overwrite[i])
				}
			}
		}
		for i, name := range in.URLs {
			if got, _ := s.URL(ctx, name); got != out.URLs[i] {
				t.Errorf("URL(%q) = %q, Django %q", name, got, out.URLs[i])
			}
		}
		for i, c := range in.Validate {
			got := result(c.Name, files.ValidateFileName(c.Name, c.Relative))
			if !sameResult(got, out.Validate[i]) {
				t.Errorf("ValidateFileName(%q, %v) = %v, Django %v", c.Name, c.Relative, got, out.Validate[i])
			}
		}
		for i, name := range in.Valid {
			if got := result(files.ValidFilename(name)); !sameResult(got, out.Valid[i]) {
				t.Errorf("ValidFilename(%q) = %v, Django %v", name, got, out.Valid[i])
			}
		}
		for i, name := range in.Uploaded {
			if got := result(files.UploadedName(name)); !sameResult(got, out.Uploaded[i]) {
				t.Errorf("UploadedName(%q) = %v, Django %v", name, got, out.Uploaded[i])
			}
		}
		now := time.Date(2024, 3, 5, 7, 8, 9, 12345000, time.UTC)
		for i, c := range in.Generated {
			if got := result(files.GenerateFilename(c.UploadTo, c.Name, now)); !sameResult(got, out.Generated[i]) {
				t.Errorf("GenerateFilename(%q, %q) = %v, Django %v", c.UploadTo, c.Name, got, out.Generated[i])
			}
		}
		if err := os.MkdirAll(filepath.Join(media, "dir"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(media, "dir", "a b.txt"), []byte("hello"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(media, "dir", "ü.txt"), []byte("umlaut"), 0o644); err != nil {
			t.Fatal(err)
		}
		srv := httptest.NewServer(http.StripPrefix("/media/", files.Media(media)))
		defer srv.Close()
		for i, p := range in.Serve {
			resp, err := http.Get(srv.URL + p)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			want := out.Serve[i]
			if resp.StatusCode != want.Status {
				t.Errorf("GET %s: %d, Django %d", p, resp.StatusCode, want.Status)
				continue
			}
			if want.Status != http.StatusOK {
				continue
			}
			if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, want.Type) {
				t.Errorf("GET %s: Content-Type %q, Django %q", p, ct, want.Type)
			}
			if d := resp.Header.Get("Content-Disposition"); want.Disposition == nil || d != *want.Disposition {
				t.Errorf("GET %s: Content-Disposition %q, Django %v", p, d, want.Disposition)
			}
			if string(body) != want.Body {
				t.Errorf("GET %s: %q, Django %q", p, body, want.Body)
			}
		}
	})
}
