package pycompat

import (
	"encoding/hex"
	"encoding/json"
	"slices"
	"testing"
	"unicode/utf8"

	"github.com/go-drf/drf/internal/drfsuite/pyrun"
)

// golden is Python's and Django's answers, as testdata/golden.py prints
// them.
type golden struct {
	Python  string
	Modules map[string]string
	Lookups []struct {
		Label string
		Name  *string
	}
	Decodes []struct {
		Codec, Hex     string
		Strict, Stream goldenText
		Replace        string
	}
	Queries []struct {
		Encoding, Hex string
		Pairs         [][2]string
	}
	Headers []struct {
		Line, Key string
		Params    map[string]string
	}
	Multiparts []struct {
		ContentType string
		// Body is segments: hex, and how many times it repeats.
		Body   [][2]json.RawMessage
		Answer struct {
			Fields [][2]string
			// Files are field, name, content type, SHA-256 of the content.
			Files [][4]string
			Error string
		}
	}
}

// goldenText is a decoded text or the error's message.
type goldenText struct {
	Text  *string
	Error string
}

// readGolden runs testdata/golden.py with Debian's Python and Django
// (pyrun.Run).
func readGolden(t *testing.T) *golden {
	t.Helper()
	var g golden
	pyrun.Run(t, pyrun.DRF314, "testdata/golden.py", nil, &g)
	return &g
}

func unhexString(t *testing.T, s string) string {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// moduleOf is the module name of a codec implemented here.
func moduleOf(c *Codec) string {
	for name, d := range codecs() {
		if d == c {
			return name
		}
	}
	return ""
}

// TestLookupCodec holds lookupCodec to codecs.lookup() over aliases,
// spellings, codecs Python lacks and labels that are not ASCII.
func TestLookupCodec(t *testing.T) {
	g := readGolden(t)
	names := map[string]string{} // Python's codec name -> module
	for module, name := range g.Modules {
		names[name] = module
	}
	for _, l := range g.Lookups {
		label := unhexString(t, l.Label)
		c, ok := lookupCodec(label)
		switch {
		case l.Name == nil && ok:
			t.Errorf("%q: %s, Python knows no such codec", label, moduleOf(c))
		case l.Name != nil && names[*l.Name] != "" && moduleOf(c) != names[*l.Name]:
			t.Errorf("%q: %q, want %s", label, moduleOf(c), names[*l.Name])
		case l.Name != nil && names[*l.Name] == "" && ok && moduleOf(c) == "":
			t.Errorf("%q: a codec with no name", label)
		}
	}
	for _, c := range []struct {
		charset string
		want    *Codec
	}{
		{"", UTF8}, {"utf-16", codecs()["utf_16"]}, {"shift_jis", UTF8}, {"no-such", UTF8}, {"Latin-1", codecs()["latin_1"]},
	} {
		if got := CodecOf(c.charset); got != c.want {
			t.Errorf("CodecOf(%q) = %s, want %s", c.charset, moduleOf(got), moduleOf(c.want))
		}
	}
}

// TestDecode holds Decode, AppendDecodeReplace and ReadAll to Python's
// bytes.decode(), bytes.decode(errors="replace") and
// codecs.getreader().read().
func TestDecode(t *testing.T) {
	g := readGolden(t)
	for _, d := range g.Decodes {
		c := codecs()[d.Codec]
		b := []byte(unhexString(t, d.Hex))
		s, err := c.Decode(b)
		check(t, d.Codec+" decode", d.Hex, s, err, d.Strict)
		if got := string(c.AppendDecodeReplace([]byte("x"), b)); got != "x"+d.Replace {
			t.Errorf("%s replace %s: %+q, want %+q", d.Codec, d.Hex, got, d.Replace)
		}
		out, err := c.ReadAll(b)
		check(t, d.Codec+" stream", d.Hex, string(out), err, d.Stream)
	}
}

func check(t *testing.T, what, in, got string, err error, want goldenText) {
	t.Helper()
	switch {
	case want.Text == nil && err == nil:
		t.Errorf("%s %s: %+q, want the error %q", what, in, got, want.Error)
	case want.Text == nil && err.Error() != want.Error:
		t.Errorf("%s %s: error %q, want %q", what, in, err, want.Error)
	case want.Text != nil && err != nil:
		t.Errorf("%s %s: error %q, want %+q", what, in, err, *want.Text)
	case want.Text != nil && got != *want.Text:
		t.Errorf("%s %s: %+q, want %+q", what, in, got, *want.Text)
	}
}

// TestParseHeader holds ParseHeader to cgi.parse_header.
func TestParseHeader(t *testing.T) {
	g := readGolden(t)
	for _, h := range g.Headers {
		line := unhexString(t, h.Line)
		key, params := ParseHeader(line)
		want := map[string]string{}
		for k, v := range h.Params {
			want[unhexString(t, k)] = unhexString(t, v)
		}
		if key != unhexString(t, h.Key) || len(params) != len(want) {
			t.Errorf("%q: %q %q, want %q %q", line, key, params, unhexString(t, h.Key), want)
			continue
		}
		for k, v := range want {
			if params[k] != v {
				t.Errorf("%q: %q %q, want %q %q", line, key, params, unhexString(t, h.Key), want)
			}
		}
		for _, name := range []string{"charset", "boundary", "b"} {
			if v, ok := HeaderParam(line, name); v != want[name] || ok != hasKey(want, name) {
				t.Errorf("%q: HeaderParam %s = %q %v, want %q", line, name, v, ok, want[name])
			}
		}
	}
}

func hasKey(m map[string]string, k string) bool {
	_, ok := m[k]
	return ok
}

// FuzzDecode holds the decoders to what Python guarantees: the text is
// UTF-8; a strict decoding that succeeds is the replacing one; the stream
// reader's text begins the strict one's.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{"", "caf\xc3\xa9", "\xff\xfe{\x00", "\x00\xd8a\x00", "\xef\xbb\xbf{}"} {
		f.Add(s, uint8(0))
	}
	modules := make([]string, 0, len(codecs()))
	for m := range codecs() {
		modules = append(modules, m)
	}
	slices.Sort(modules)
	f.Fuzz(func(t *testing.T, in string, which uint8) {
		c := codecs()[modules[int(which)%len(modules)]]
		b := []byte(in)
		replaced := string(c.AppendDecodeReplace(nil, b))
		if !utf8.ValidString(replaced) {
			t.Fatalf("%s %+q: replace gave %+q", moduleOf(c), in, replaced)
		}
		s, err := c.Decode(b)
		if err == nil && s != replaced {
			t.Fatalf("%s %+q: %+q, replace %+q", moduleOf(c), in, s, replaced)
		}
		if out, err2 := c.ReadAll(b); err == nil && err2 == nil && (len(out) > len(s) || s[:len(out)] != string(out)) {
			t.Fatalf("%s %+q: stream %+q, decode %+q", moduleOf(c), in, out, s)
		}
	})
}
