package pycompat_test

import (
	"encoding/json"
	"math/rand"
	"os/exec"
	"strings"
	"testing"

	"github.com/go-drf/drf/internal/pycompat"
)

// jsonLoadsCases are texts and the ValueError Python 3.11 words for them
// (json.loads with DRF's strict_constant), "" for one it parses. They are
// checked against /usr/bin/python3 too when it is there.
var jsonLoadsCases = []struct{ text, want string }{
	{"", "Expecting value: line 1 column 1 (char 0)"},
	{" ", "Expecting value: line 1 column 2 (char 1)"},
	{"\n\n  ", "Expecting value: line 3 column 3 (char 4)"},
	{"{", "Expecting property name enclosed in double quotes: line 1 column 2 (char 1)"},
	{"[", "Expecting value: line 1 column 2 (char 1)"},
	{"{\"a\"", "Expecting ':' delimiter: line 1 column 5 (char 4)"},
	{"{\"a\":", "Expecting value: line 1 column 6 (char 5)"},
	{"{\"a\": ", "Expecting value: line 1 column 7 (char 6)"},
	{"{\"a\":1", "Expecting ',' delimiter: line 1 column 7 (char 6)"},
	{"{\"a\":1,", "Expecting property name enclosed in double quotes: line 1 column 8 (char 7)"},
	{"[1", "Expecting ',' delimiter: line 1 column 3 (char 2)"},
	{"[1,", "Expecting value: line 1 column 4 (char 3)"},
	{"\"abc", "Unterminated string starting at: line 1 column 1 (char 0)"},
	{"tru", "Expecting value: line 1 column 1 (char 0)"},
	{"nul", "Expecting value: line 1 column 1 (char 0)"},
	{"fals", "Expecting value: line 1 column 1 (char 0)"},
	{"-", "Expecting value: line 1 column 1 (char 0)"},
	{"-Infinit", "Expecting value: line 1 column 1 (char 0)"},
	{"NaN", "Out of range float values are not JSON compliant: 'NaN'"},
	{"Infinity", "Out of range float values are not JSON compliant: 'Infinity'"},
	{"-Infinity", "Out of range float values are not JSON compliant: '-Infinity'"},
	{"[1, NaN]", "Out of range float values are not JSON compliant: 'NaN'"},
	{"{\"x\": -Infinity}", "Out of range float values are not JSON compliant: '-Infinity'"},
	{"Na", "Expecting value: line 1 column 1 (char 0)"},
	{"{a:1}", "Expecting property name enclosed in double quotes: line 1 column 2 (char 1)"},
	{"{'a':1}", "Expecting property name enclosed in double quotes: line 1 column 2 (char 1)"},
	{"{\"a\" 1}", "Expecting ':' delimiter: line 1 column 6 (char 5)"},
	{"{\"a\":1 \"b\":2}", "Expecting ',' delimiter: line 1 column 8 (char 7)"},
	{"[1 2]", "Expecting ',' delimiter: line 1 column 4 (char 3)"},
	{"[1,]", "Expecting value: line 1 column 4 (char 3)"},
	{"{\"a\":1,}", "Expecting property name enclosed in double quotes: line 1 column 8 (char 7)"},
	{"[,1]", "Expecting value: line 1 column 2 (char 1)"},
	{"{,}", "Expecting property name enclosed in double quotes: line 1 column 2 (char 1)"},
	{"]", "Expecting value: line 1 column 1 (char 0)"},
	{"}", "Expecting value: line 1 column 1 (char 0)"},
	{"x", "Expecting value: line 1 column 1 (char 0)"},
	{"+1", "Expecting value: line 1 column 1 (char 0)"},
	{".5", "Expecting value: line 1 column 1 (char 0)"},
	{"01", "Extra data: line 1 column 2 (char 1)"},
	{"1.", "Extra data: line 1 column 2 (char 1)"},
	{"[1.]", "Expecting ',' delimiter: line 1 column 3 (char 2)"},
	{"1e", "Extra data: line 1 column 2 (char 1)"},
	{"1e+", "Extra data: line 1 column 2 (char 1)"},
	{"[1e+]", "Expecting ',' delimiter: line 1 column 3 (char 2)"},
	{"-x", "Expecting value: line 1 column 1 (char 0)"},
	{"--1", "Expecting value: line 1 column 1 (char 0)"},
	{"[-]", "Expecting value: line 1 column 2 (char 1)"},
	{"1.5e", "Extra data: line 1 column 4 (char 3)"},
	{"True", "Expecting value: line 1 column 1 (char 0)"},
	{"None", "Expecting value: line 1 column 1 (char 0)"},
	{"nulll", "Extra data: line 1 column 5 (char 4)"},
	{"[nulll]", "Expecting ',' delimiter: line 1 column 6 (char 5)"},
	{"\"a\tb\"", "Invalid control character at: line 1 column 3 (char 2)"},
	{"\"a\nb\"", "Invalid control character at: line 1 column 3 (char 2)"},
	{"\"\u0000\"", "Invalid control character at: line 1 column 2 (char 1)"},
	{"\"\u001f\"", "Invalid control character at: line 1 column 2 (char 1)"},
	{"\"\"", ""},
	{"\"\\x\"", "Invalid \\escape: line 1 column 2 (char 1)"},
	{"\"\\a\"", "Invalid \\escape: line 1 column 2 (char 1)"},
	{"\"\\", "Unterminated string starting at: line 1 column 1 (char 0)"},
	{"\"\\\"", "Unterminated string starting at: line 1 column 1 (char 0)"},
	{"\"\\u\"", "Invalid \\uXXXX escape: line 1 column 3 (char 2)"},
	{"\"\\u12\"", "Invalid \\uXXXX escape: line 1 column 3 (char 2)"},
	{"\"\\u12g4\"", "Invalid \\uXXXX escape: line 1 column 3 (char 2)"},
	{"\"\\u1234", "Invalid \\uXXXX escape: line 1 column 3 (char 2)"},
	{"\"\\u1234\"", ""},
	{"\"\\ud800\"", ""},
	{"\"\\ud800\\u\"", "Invalid \\uXXXX escape: line 1 column 9 (char 8)"},
	{"\"\\ud800\\uzzzz\"", "Invalid \\uXXXX escape: line 1 column 9 (char 8)"},
	{"\"\\ud800\\udc00\"", ""},
	{"\"\\ud800\\u0041\"", ""},
	{"{\"a\\qb\":1}", "Invalid \\escape: line 1 column 4 (char 3)"},
	{"{\"k\u0001\":1}", "Invalid control character at: line 1 column 4 (char 3)"},
	{"\"\\u00e9\\u", "Invalid \\uXXXX escape: line 1 column 9 (char 8)"},
	{"\"\\U0041\"", "Invalid \\escape: line 1 column 2 (char 1)"},
	{"{} {}", "Extra data: line 1 column 4 (char 3)"},
	{"1 2", "Extra data: line 1 column 3 (char 2)"},
	{"[] x", "Extra data: line 1 column 4 (char 3)"},
	{"\"a\" \"b\"", "Extra data: line 1 column 5 (char 4)"},
	{"{}}", "Extra data: line 1 column 3 (char 2)"},
	{"[]]", "Extra data: line 1 column 3 (char 2)"},
	{"null,", "Extra data: line 1 column 5 (char 4)"},
	{"1 \n 2", "Extra data: line 2 column 2 (char 4)"},
	{"{\"a\":{\"b\":[1,2,{\"c\":}]}}", "Expecting value: line 1 column 21 (char 20)"},
	{"[[[[]]]", "Expecting ',' delimiter: line 1 column 8 (char 7)"},
	{"{\"a\":[1,2}", "Expecting ',' delimiter: line 1 column 10 (char 9)"},
	{"[{\"a\":1]", "Expecting ',' delimiter: line 1 column 8 (char 7)"},
	{"{\"a\":{\"b\":1}", "Expecting ',' delimiter: line 1 column 13 (char 12)"},
	{"[[1],[2,]]", "Expecting value: line 1 column 9 (char 8)"},
	{"{\"a\":\"\\z\"}", "Invalid \\escape: line 1 column 7 (char 6)"},
	{"[{\"a\":1},{\"b\"}]", "Expecting ':' delimiter: line 1 column 14 (char 13)"},
	{"[[[NaN]]]", "Out of range float values are not JSON compliant: 'NaN'"},
	{"{\n  \"a\": 1,\n  \"b\": \n}", "Expecting value: line 4 column 1 (char 20)"},
	{"[\n1,\n2\n3]", "Expecting ',' delimiter: line 4 column 1 (char 7)"},
	{"{\r\n\"a\":1\r\n,}", "Expecting property name enclosed in double quotes: line 3 column 2 (char 11)"},
	{"\n\n\n}", "Expecting value: line 4 column 1 (char 3)"},
	{"{\n\"a\":\n\"b\nc\"}", "Invalid control character at: line 3 column 3 (char 9)"},
	{"[\n\t1,\n\t\"x\\y\"\n]", "Invalid \\escape: line 3 column 4 (char 9)"},
	{"{\"é\": x}", "Expecting value: line 1 column 7 (char 6)"},
	{"[\"日本語\", }", "Expecting value: line 1 column 9 (char 8)"},
	{"{\"名前\": \"値\",}", "Expecting property name enclosed in double quotes: line 1 column 12 (char 11)"},
	{"\"😀😀\" x", "Extra data: line 1 column 6 (char 5)"},
	{"[\"é\",\n \"ü\", nul]", "Expecting value: line 2 column 7 (char 12)"},
	{"{\"ключ\": \"значение\" \"x\": 1}", "Expecting ',' delimiter: line 1 column 21 (char 20)"},
	{"[\"😀\", \"\\q\"]", "Invalid \\escape: line 1 column 8 (char 7)"},
	{"\"é\u0001\"", "Invalid control character at: line 1 column 3 (char 2)"},
	{"[\"ß\", 1e+]", "Expecting ',' delimiter: line 1 column 8 (char 7)"},
	{"{\"\u2028\": 1 2}", "Expecting ',' delimiter: line 1 column 9 (char 8)"},
	{"\f1", "Expecting value: line 1 column 1 (char 0)"},
	{"\u00a01", "Expecting value: line 1 column 1 (char 0)"},
	{"1\u00a0", "Extra data: line 1 column 2 (char 1)"},
	{"[1,\u30002]", "Expecting value: line 1 column 4 (char 3)"},
	{"\ufeff{}", "Unexpected UTF-8 BOM (decode using utf-8-sig): line 1 column 1 (char 0)"},
	{"\ufeff", "Unexpected UTF-8 BOM (decode using utf-8-sig): line 1 column 1 (char 0)"},
	{"{}", ""},
	{"[]", ""},
	{" {\"a\": [1, 2.5e-3, \"x\\u00e9\", true, false, null]} ", ""},
	{"1E400", ""},
	{"-0", ""},
	{"\"\\ud800\"", ""},
	// Integers past Python's int conversion limit, which Go's decoder takes.
	{strings.Repeat("1", 4301), "Exceeds the limit (4300 digits) for integer string conversion: value has 4301 digits; use sys.set_int_max_str_digits() to increase the limit"},
	{"-" + strings.Repeat("2", 4301), "Exceeds the limit (4300 digits) for integer string conversion: value has 4301 digits; use sys.set_int_max_str_digits() to increase the limit"},
	{"[" + strings.Repeat("3", 5000) + "]", "Exceeds the limit (4300 digits) for integer string conversion: value has 5000 digits; use sys.set_int_max_str_digits() to increase the limit"},
	{strings.Repeat("1", 4301) + ".0", ""},
	{strings.Repeat("1", 4301) + "e1", ""},
	{strings.Repeat("1", 4300), ""},
	{"[1," + strings.Repeat("9", 5000) + ", x]", "Exceeds the limit (4300 digits) for integer string conversion: value has 5000 digits; use sys.set_int_max_str_digits() to increase the limit"},
	{"[x," + strings.Repeat("9", 5000) + "]", "Expecting value: line 1 column 2 (char 1)"},
}

func jsonLoadsError(text string) string {
	if err := pycompat.JSONLoadsError([]byte(text)); err != nil {
		return err.Error()
	}
	return ""
}

func TestJSONLoadsError(t *testing.T) {
	for _, c := range jsonLoadsCases {
		if got := jsonLoadsError(c.text); got != c.want {
			t.Errorf("JSONLoadsError(%.80q) = %q; Python's %q", c.text, got, c.want)
		}
	}
}

// pythonJSONErrors runs json.loads (with DRF's strict_constant) over the
// texts in one python3, giving str() of each ValueError, "" where it
// parses. It skips the test without python3.
func pythonJSONErrors(t *testing.T, texts []string) []string {
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
    raise ValueError('Out of range float values are not JSON compliant: ' + repr(o))
out = []
for s in json.load(sys.stdin):
    try:
        json.loads(s, parse_constant=strict_constant)
        out.append("")
    except ValueError as e:
        out.append(str(e))
json.dump(out, sys.stdout)`)
	cmd.Stdin = strings.NewReader(string(in))
	raw, err := cmd.Output()
	if err != nil {
		t.Fatalf("python3: %v", err)
	}
	var out []string
	if err := json.Unmarshal(raw, &out); err != nil || len(out) != len(texts) {
		t.Fatalf("python3 answered %d of %d: %v", len(out), len(texts), err)
	}
	return out
}

func TestJSONLoadsCasesArePythons(t *testing.T) {
	texts := make([]string, len(jsonLoadsCases))
	for i, c := range jsonLoadsCases {
		texts[i] = c.text
	}
	for i, want := range pythonJSONErrors(t, texts) {
		if c := jsonLoadsCases[i]; c.want != want {
			t.Errorf("the table has %.80q as %q; Python says %q", c.text, c.want, want)
		}
	}
}

// TestJSONLoadsErrorMatchesPython mutates valid documents at random and
// compares every mutant with Python.
func TestJSONLoadsErrorMatchesPython(t *testing.T) {
	seeds := []string{
		`{"name": "Zoë", "tags": ["a", "b\n\u00e9\ud83d\ude00"], "n": -12.5e+3, "ok": true, "none": null}`,
		"[\n  {\"id\": 1, \"v\": [1, 2, 3]},\n  {\"id\": 2, \"v\": {\"日本\": \"語\"}}\n]",
		`"\\\"\/\b\f\n\r\t\u0041\ud800\udc00"`,
		`[0, -0, 1e5, 1E-5, 0.5, false, {}, [], ""]`,
	}
	pieces := []string{"", "{", "}", "[", "]", ",", ":", `"`, `\`, `\u`, `\ud800`, `\udc00`, "u", "0", "1", "-", "+",
		".", "e", "E", " ", "\n", "\t", "\r", "\x00", "\x1f", "é", "😀", "NaN", "Infinity", "-Infinity", "null", "nul", "tru", "x"}
	rng := rand.New(rand.NewSource(40))
	var texts []string
	for len(texts) < 4000 {
		s := []rune(seeds[rng.Intn(len(seeds))])
		for n := rng.Intn(3) + 1; n > 0; n-- {
			i := rng.Intn(len(s) + 1)
			switch rng.Intn(3) {
			case 0: // truncate
				s = s[:i]
			case 1: // delete a few
				j := min(len(s), i+rng.Intn(3)+1)
				s = append(s[:i:i], s[j:]...)
			default: // insert
				s = append(s[:i:i], append([]rune(pieces[rng.Intn(len(pieces))]), s[i:]...)...)
			}
		}
		texts = append(texts, string(s))
	}
	bad := 0
	for i, want := range pythonJSONErrors(t, texts) {
		if got := jsonLoadsError(texts[i]); got != want {
			if bad++; bad <= 20 {
				t.Errorf("JSONLoadsError(%q) = %q; Python's %q", texts[i], got, want)
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d differ", bad, len(texts))
	}
}

func TestHasLongDigitRun(t *testing.T) {
	for text, want := range map[string]bool{
		strings.Repeat("1", 4300):       false,
		strings.Repeat("1", 4301):       true,
		"[" + strings.Repeat("7", 4301): true,
		strings.Repeat("12 ", 3000):     false,
	} {
		if got := pycompat.HasLongDigitRun([]byte(text)); got != want {
			t.Errorf("HasLongDigitRun(%.20q…) = %v", text, got)
		}
	}
}
