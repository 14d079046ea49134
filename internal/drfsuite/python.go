package drfsuite

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/go-drf/drf/framework"
)

// run is one script's outcome at one level and input: what it printed,
// or why it could not run.
type run struct {
	once sync.Once
	out  []byte
	skip string
	err  error
}

// runs holds each script's run by level, path and input, so that a test
// binary runs a script once for every item that reads its answers.
var runs sync.Map

// RunDRF runs script (a path from the test's package) with
// /usr/bin/python3 on the DRF of level, Debian's DRF 3.14 or the DRF 3.18
// of conformance/reference/drf318, with in as JSON on its stdin (none
// when in is nil), and decodes the JSON it prints into out. A script runs
// once per test binary for a level and input. A level whose DRF is
// missing skips the test, or fails it when CI_REQUIRE_DJANGO is set.
func RunDRF(t *testing.T, level framework.Compatibility, script string, in, out any) {
	t.Helper()
	var stdin []byte
	if in != nil {
		b, err := json.Marshal(in)
		if err != nil {
			t.Fatal(err)
		}
		stdin = b
	}
	abs, err := filepath.Abs(script)
	if err != nil {
		t.Fatal(err)
	}
	v, _ := runs.LoadOrStore(fmt.Sprint(level, "\x00", abs, "\x00", string(stdin)), &run{})
	r := v.(*run)
	r.once.Do(func() { r.out, r.skip, r.err = runScript(level, script, stdin) })
	switch {
	case r.err != nil:
		t.Fatal(r.err)
	case r.skip != "" && os.Getenv("CI_REQUIRE_DJANGO") != "":
		t.Fatal(r.skip)
	case r.skip != "":
		t.Skip(r.skip)
	}
	if err := json.Unmarshal(r.out, out); err != nil {
		t.Fatalf("%s printed %.500q: %v", script, r.out, err)
	}
}

// runScript runs script on level's DRF with stdin, and returns what it
// printed, or why level's DRF is missing, or the script's failure.
func runScript(level framework.Compatibility, script string, stdin []byte) ([]byte, string, error) {
	version, path := "3.14.", ""
	if level != framework.DRF314 {
		_, file, _, _ := runtime.Caller(0)
		version, path = "3.18.", filepath.Join(filepath.Dir(file), "..", "..", "conformance", "reference", "drf318")
	}
	env := append(os.Environ(), "PYTHONPATH="+path, "PYTHONDONTWRITEBYTECODE=1")
	check := exec.Command("/usr/bin/python3", "-c", "import rest_framework; print(rest_framework.VERSION)")
	check.Env = env
	if got, err := check.CombinedOutput(); err != nil || !strings.HasPrefix(string(got), version) {
		return nil, "no DRF " + version + "x for /usr/bin/python3 (scripts/install-test-deps): " + strings.TrimSpace(string(got)), nil
	}
	c := exec.Command("/usr/bin/python3", script)
	c.Env = env
	if stdin != nil {
		c.Stdin = bytes.NewReader(stdin)
	}
	var stderr bytes.Buffer
	c.Stderr = &stderr
	out, err := c.Output()
	if err != nil {
		return nil, "", fmt.Errorf("%s: %v\n%s", script, err, stderr.String())
	}
	return out, "", nil
}
