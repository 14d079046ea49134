package pycompat_test

import (
	"testing"

	"github.com/go-drf/drf/internal/pycompat"
)

func TestJSONDumpsIsPythons(t *testing.T) {
	for _, c := range []struct {
		v    any
		want string
	}{
		// python3 -c 'import json; print(json.dumps(V, separators=(",", ":")))'
		{map[string]any{"name": "Zoë 😀 <&>", "n": 1}, `{"n":1,"name":"Zo\u00eb \ud83d\ude00 <&>"}`},
		{[]string{"\u2028", "tab\there", `"q"`}, `["\u2028","tab\there","\"q\""]`},
		{"plain", `"plain"`},
	} {
		got, err := pycompat.JSONDumps(c.v)
		if err != nil || string(got) != c.want {
			t.Errorf("JSONDumps(%v) = %s, %v; Python's %s", c.v, got, err, c.want)
		}
	}
}

func TestLatin1(t *testing.T) {
	if got := string(pycompat.Latin1([]byte("caf\xe9"))); got != "café" {
		t.Errorf("Latin1 = %q", got)
	}
	if got := string(pycompat.Latin1([]byte("ascii"))); got != "ascii" {
		t.Errorf("Latin1 = %q", got)
	}
}

func TestURLSafeB64Decode(t *testing.T) {
	for s, want := range map[string]string{
		// python3 -c 'import base64; print(base64.urlsafe_b64decode(S))'
		"-_8=":     "\xfb\xff",
		"+/8=":     "\xfb\xff",
		"aGk=":     "hi",
		"a G\nk=":  "hi",
		"aGk=junk": "hi",
	} {
		got, ok := pycompat.URLSafeB64Decode(s)
		if !ok || string(got) != want {
			t.Errorf("URLSafeB64Decode(%q) = %q, %v; want %q", s, got, ok, want)
		}
	}
	if _, ok := pycompat.URLSafeB64Decode("aGk"); ok {
		t.Error("an incomplete quantum decoded")
	}
}
