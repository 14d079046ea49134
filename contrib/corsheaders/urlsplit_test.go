package corsheaders

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"slices"
	"testing"
)

// TestURLSplitAsPythons compares urlsplit with Python's
// urllib.parse.urlsplit (Debian's /usr/bin/python3, whose urlsplit
// django-cors-headers calls) on origins and settings values: the five
// parts, or whether it raises ValueError.
func TestURLSplitAsPythons(t *testing.T) {
	inputs := []string{
		"https://example.com", "HTTPS://Example.com:443", "http://localhost:8000", "null", "file://", "",
		"example.com", "localhost:8000", "//example.com", "https://example.com/", "https://example.com/a?b=1#c",
		"https://example.com?x", "https://example.com#f", "https://u:p@example.com", "1http://x", "h-t.t+p://x",
		"ht_tp://x", "\x01 \thttps://a\tb\r\n.com", " https://example.com", "https:example.com", "https:///x",
		"http://[::1]", "http://[::1]:8000", "http://[::1]x", "http://[::1", "http://::1]", "http://[1.2.3.4]",
		"http://[v1.fe]", "http://[v1]", "http://[vz.x]", "http://x[::1]", "http://[a]@example.com",
		"http://u@[::1]:80", "http://[fe80::1%25eth0]", "http://[::ffff:1.2.3.4]", "http://[:::]", "é://x",
	}
	prog := `import json, sys
from urllib.parse import urlsplit
out = []
for s in json.load(sys.stdin):
    try:
        out.append(list(urlsplit(s)))
    except ValueError:
        out.append(None)
json.dump(out, sys.stdout)`
	if _, err := os.Stat("/usr/bin/python3"); err != nil {
		if os.Getenv("CI_REQUIRE_DJANGO") != "" {
			t.Fatal("no /usr/bin/python3")
		}
		t.Skip("no /usr/bin/python3")
	}
	in, err := json.Marshal(inputs)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("/usr/bin/python3", "-c", prog)
	cmd.Stdin = bytes.NewReader(in)
	b, err := cmd.Output()
	if err != nil {
		t.Fatalf("python3: %v", err)
	}
	var want [][]string
	if err := json.Unmarshal(b, &want); err != nil {
		t.Fatal(err)
	}
	for i, s := range inputs {
		u, err := urlsplit(s)
		got := []string{u.scheme, u.netloc, u.path, u.query, u.fragment}
		if err != nil {
			got = nil
		}
		if (got == nil) != (want[i] == nil) || got != nil && !slices.Equal(got, want[i]) {
			t.Errorf("urlsplit(%q): %q (%v), Python's %q", s, got, err, want[i])
		}
	}
}
