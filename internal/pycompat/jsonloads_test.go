package pycompat_test

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"math/rand"
	"os/exec"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/go-drf/drf/internal/pycompat"
)

// canonical is a loaded value as pythonLoads prints one: a string as
// "s:" and the hex of its UTF-8 (WTF-8 for a lone surrogate), a number
// as "n:" and its text, objects keyed by their keys' form.
func canonical(v any) any {
	switch x := v.(type) {
	case string:
		return "s:" + hex.EncodeToString([]byte(x))
	case json.Number:
		return "n:" + string(x)
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = canonical(e)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out["s:"+hex.EncodeToString([]byte(k))] = canonical(e)
		}
		return out
	}
	return v
}

// pythonLoads runs json.loads over the texts in one python3, giving the
// canonical form of each value, nil where Python refuses the text. It
// skips the test without python3.
func pythonLoads(t *testing.T, texts []string) []json.RawMessage {
	t.Helper()
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3 to check against: ", err)
	}
	in, err := json.Marshal(texts)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(python, "-c", `import json, sys
def strict_constant(o):
    raise ValueError(o)
def canon(v):
    if isinstance(v, str):
        return "s:" + v.encode("utf-8", "surrogatepass").hex()
    if isinstance(v, tuple):
        return "n:" + v[1]
    if isinstance(v, list):
        return [canon(e) for e in v]
    if isinstance(v, dict):
        return {canon(k): canon(e) for k, e in v.items()}
    return v
num = lambda s: ("n", s)
out = []
for s in json.load(sys.stdin):
    try:
        out.append(canon(json.loads(s, parse_constant=strict_constant, parse_int=num, parse_float=num)))
    except ValueError:
        out.append(None)
json.dump(out, sys.stdout)`)
	cmd.Stdin = strings.NewReader(string(in))
	raw, err := cmd.Output()
	if err != nil {
		t.Fatalf("python3: %v", err)
	}
	var out []json.RawMessage
	if err := json.Unmarshal(raw, &out); err != nil || len(out) != len(texts) {
		t.Fatalf("python3 answered %d of %d: %v", len(out), len(texts), err)
	}
	return out
}

// TestJSONLoadsIsPythons: JSONLoads reads what Python's json.loads reads,
// lone surrogates kept (in WTF-8), over hand-picked texts and mutants of
// them; where a text has no lone surrogate, it reads what Go's decoder
// reads.
func TestJSONLoadsIsPythons(t *testing.T) {
	texts := []string{
		`"\ud800"`, `"a\udfffb\ud800"`, `"\ud83d\ude00"`, `"\uD83D\uDE00\uDE00"`, `"\ud83d\u0041"`,
		`"\ud800\ud800"`, `{"\udc00": ["\\ud800", "\\\ud800"]}`, `[1, -0.5e3, true, false, null, {}, []]`,
		`{"a": 1, "a": 2}`, `"\"\\\/\b\f\n\r\t\u00e9é"`, ` {"k" : [ "x" , 2 ] } `,
	}
	rng := rand.New(rand.NewSource(41))
	pieces := []string{`\ud800`, `\udbff`, `\udc00`, `\uDFFF`, `\ud83d\ude00`, `\u0041`, `\\`, "é", "😀", `\n`}
	for len(texts) < 2000 {
		var b strings.Builder
		b.WriteString(`{"k`)
		for n := rng.Intn(6); n > 0; n-- {
			b.WriteString(pieces[rng.Intn(len(pieces))])
		}
		b.WriteString(`": ["`)
		for n := rng.Intn(6); n > 0; n-- {
			b.WriteString(pieces[rng.Intn(len(pieces))])
		}
		b.WriteString(`", 1]}`)
		texts = append(texts, b.String())
	}
	lone := 0
	for i, want := range pythonLoads(t, texts) {
		text := []byte(texts[i])
		v, err := pycompat.JSONLoads(text)
		if err != nil {
			t.Errorf("JSONLoads(%q): %v", text, err)
			continue
		}
		got, _ := json.Marshal(canonical(v))
		var w any
		if err := json.Unmarshal(want, &w); err != nil {
			t.Fatal(err)
		}
		if wantJSON, _ := json.Marshal(w); !bytes.Equal(got, wantJSON) {
			t.Errorf("JSONLoads(%q) = %s; Python's %s", text, got, wantJSON)
		}
		if pycompat.HasLoneSurrogate(text) {
			lone++
			continue
		}
		if !utf8.Valid(text) {
			return
		}
		dec := json.NewDecoder(bytes.NewReader(text))
		dec.UseNumber()
		var g any
		if err := dec.Decode(&g); err != nil || !reflect.DeepEqual(g, v) {
			t.Errorf("JSONLoads(%q) = %#v; Go's decoder %#v (%v)", text, v, g, err)
		}
	}
	if lone == 0 || lone == len(texts) {
		t.Errorf("%d of %d texts have a lone surrogate", lone, len(texts))
	}
}

func TestHasLoneSurrogate(t *testing.T) {
	for text, want := range map[string]bool{
		`"\ud800"`: true, `"\udc00"`: true, `"\ud83d\ude00"`: false, `"\\ud800"`: false, `"\\\ud800"`: true,
		`"\ud83d\ude00\ude00"`: true, `"\u0041\ud800x"`: true, `"abc"`: false, `"\ud83d\u0041"`: true,
	} {
		if got := pycompat.HasLoneSurrogate([]byte(text)); got != want {
			t.Errorf("HasLoneSurrogate(%s) = %v", text, got)
		}
	}
}

// FuzzJSONLoads: for any UTF-8 text (a body once decoded) both Go's
// decoder and Python's scanner take, JSONLoads reads it, as Go's decoder
// does when it has no lone surrogate.
func FuzzJSONLoads(f *testing.F) {
	for _, s := range []string{`{"a": "\ud800"}`, `["\ud83d\ude00", "\udc00x"]`, `"\\ud800"`, `{"k": [1, -2.5e3, true, null]}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, text []byte) {
		if !utf8.Valid(text) {
			return
		}
		dec := json.NewDecoder(bytes.NewReader(text))
		dec.UseNumber()
		var g any
		if err := dec.Decode(&g); err != nil || dec.More() || pycompat.JSONLoadsError(text) != nil {
			return
		}
		v, err := pycompat.JSONLoads(text)
		if err != nil {
			t.Fatalf("JSONLoads(%q): %v", text, err)
		}
		if !pycompat.HasLoneSurrogate(text) && !reflect.DeepEqual(g, v) {
			t.Fatalf("JSONLoads(%q) = %#v; Go's decoder %#v", text, v, g)
		}
	})
}
