package drfsuite

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/go-drf/drf/framework"
)

// RunDRF runs script (a path from the test's package) with
// /usr/bin/python3 on the DRF of level, Debian's DRF 3.14 or the DRF 3.18
// of conformance/reference/drf318, and decodes the JSON it prints into
// out. A level whose DRF is missing skips the test, or fails it when
// CI_REQUIRE_DJANGO is set.
func RunDRF(t *testing.T, level framework.Compatibility, script string, out any) {
	t.Helper()
	version, path := "3.14.", ""
	if level != framework.DRF314 {
		_, file, _, _ := runtime.Caller(0)
		version, path = "3.18.", filepath.Join(filepath.Dir(file), "..", "..", "conformance", "reference", "drf318")
	}
	env := append(os.Environ(), "PYTHONPATH="+path, "PYTHONDONTWRITEBYTECODE=1")
	check := exec.Command("/usr/bin/python3", "-c", "import rest_framework; print(rest_framework.VERSION)")
	check.Env = env
	if got, err := check.CombinedOutput(); err != nil || !strings.HasPrefix(string(got), version) {
		why := "no DRF " + version + "x for /usr/bin/python3 (scripts/install-references): " + strings.TrimSpace(string(got))
		if os.Getenv("CI_REQUIRE_DJANGO") != "" {
			t.Fatal(why)
		}
		t.Skip(why)
	}
	c := exec.Command("/usr/bin/python3", script)
	c.Env = env
	var stderr bytes.Buffer
	c.Stderr = &stderr
	b, err := c.Output()
	if err != nil {
		t.Fatalf("%s: %v\n%s", script, err, stderr.String())
	}
	if err := json.Unmarshal(b, out); err != nil {
		t.Fatalf("%s printed %q: %v", script, b, err)
	}
}
