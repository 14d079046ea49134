package pycompat

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// recordedFiles records the files ParseMultipart hands over, as Django's
// FILES holds them.
type recordedFiles struct {
	kept    [][4]string
	current [3]string
	content []byte
}

func (f *recordedFiles) NewFile(field, filename, contentType string) error {
	f.current, f.content = [3]string{field, filename, contentType}, nil
	return nil
}

func (f *recordedFiles) Write(p []byte) (int, error) {
	f.content = append(f.content, p...)
	return len(p), nil
}

func (f *recordedFiles) Complete() error {
	sum := sha256.Sum256(f.content)
	f.kept = append(f.kept, [4]string{f.current[0], f.current[1], f.current[2], hex.EncodeToString(sum[:])})
	return nil
}

// TestParseMultipartIsDjangos holds MultipartBoundary and ParseMultipart
// to Django's MultiPartParser over the golden bodies: malformed ones,
// boundaries that never occur, parts of 64 KiB and more, base64, limits.
func TestParseMultipartIsDjangos(t *testing.T) {
	g := readGolden(t)
	if len(g.Multiparts) == 0 {
		t.Fatal("no multipart bodies in the golden file")
	}
	for _, m := range g.Multiparts {
		ct := unhexString(t, m.ContentType)
		var body strings.Builder
		for _, seg := range m.Body {
			var h string
			var n int
			if err := json.Unmarshal(seg[0], &h); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(seg[1], &n); err != nil {
				t.Fatal(err)
			}
			body.WriteString(strings.Repeat(unhexString(t, h), n))
		}
		what := ct + " " + body.String()[:min(body.Len(), 80)]
		var errText string
		var files recordedFiles
		var fields []QueryPair
		boundary, err := MultipartBoundary(ct)
		if err == nil {
			charset, _ := HeaderParam(ct, "charset")
			fields, err = ParseMultipart(strings.NewReader(body.String()), boundary, CodecOf(charset), 1000, 100, -1, &files)
		}
		var djangoErr MultipartError
		switch {
		case errors.As(err, &djangoErr):
			errText = "MultiPartParserError: " + err.Error()
		case errors.Is(err, ErrTooManyFields):
			errText = "TooManyFieldsSent: " + err.Error()
		case errors.Is(err, ErrTooManyFiles):
			errText = "TooManyFilesSent: " + err.Error()
		case err != nil:
			t.Fatalf("%q: %v", what, err)
		}
		if errText != m.Answer.Error {
			t.Errorf("%q: error %q, want %q", what, errText, m.Answer.Error)
			continue
		}
		want := make([]QueryPair, len(m.Answer.Fields))
		for i, f := range m.Answer.Fields {
			want[i] = QueryPair{f[0], f[1]}
		}
		if err == nil && (!slices.Equal(grouped(fields), want) || !slices.Equal(groupedFiles(files.kept), m.Answer.Files)) {
			t.Errorf("%q: fields %q files %q\nwant %q %q", what, fields, files.kept, want, m.Answer.Files)
		}
	}
}

// groupedFiles orders files as MultiValueDict.lists() lists them.
func groupedFiles(files [][4]string) [][4]string {
	var out [][4]string
	done := map[string]bool{}
	for _, f := range files {
		if !done[f[0]] {
			done[f[0]] = true
			for _, g := range files {
				if g[0] == f[0] {
					out = append(out, g)
				}
			}
		}
	}
	return out
}

// FuzzParseMultipart reads any body with the boundary "B": it ends, with
// fields in UTF-8, or with one of Django's errors.
func FuzzParseMultipart(f *testing.F) {
	for _, s := range []string{"--B\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n1\r\n--B--", "hello", "--B--B",
		"--B\r\nContent-Disposition: form-data; name=\"f\"; filename=\"x\"\r\nContent-Transfer-Encoding: base64\r\n\r\nYQ=\r\n--B\r\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		var files recordedFiles
		fields, err := ParseMultipart(strings.NewReader(body), "B", UTF8, 1000, 100, -1, &files)
		var djangoErr MultipartError
		if err != nil && !errors.As(err, &djangoErr) && !errors.Is(err, ErrTooManyFields) && !errors.Is(err, ErrTooManyFiles) {
			t.Fatalf("%q: %v", body, err)
		}
		for _, p := range fields {
			if !utf8.ValidString(p.Key) || !utf8.ValidString(p.Value) {
				t.Fatalf("%q: field %q", body, p)
			}
		}
	})
}
