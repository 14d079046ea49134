// Package pyrun runs the repository's oracles, small Python scripts under
// testdata/ that print, as JSON, what real Django and DRF answer, on
// Debian's /usr/bin/python3. drfsuite.RunDRF runs them by compatibility
// level; a package that drfsuite's imports reach (internal/pycompat) runs
// its own here.
package pyrun

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
)

// Level is the Django and DRF a script runs on.
type Level struct {
	// Version is the DRF release's prefix, as rest_framework.VERSION
	// starts.
	Version string
	// Path is the PYTHONPATH that puts the level's packages first; empty
	// for Debian's own.
	Path string
}

// DRF314 is Debian 12's DRF 3.14 on Django 3.2; DRF318 is the DRF 3.18 on
// Django 5.2 that scripts/install-references lays out in
// conformance/reference/drf318.
var (
	DRF314 = Level{Version: "3.14."}
	DRF318 = Level{Version: "3.18.", Path: referencePath()}
)

// referencePath is conformance/reference/drf318 of this checkout.
func referencePath() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "..", "conformance", "reference", "drf318")
}

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

// Run runs script (a path from the test's package) with /usr/bin/python3
// on level's Django and DRF, with in as JSON on its stdin (none when in
// is nil), and decodes the JSON it prints into out. A script runs once
// per test binary for a level and input. A level whose DRF is missing
// skips the test, or fails it when CI_REQUIRE_DJANGO is set.
func Run(t *testing.T, level Level, script string, in, out any) {
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
func runScript(level Level, script string, stdin []byte) ([]byte, string, error) {
	env := append(os.Environ(), "PYTHONPATH="+level.Path, "PYTHONDONTWRITEBYTECODE=1")
	check := exec.Command("/usr/bin/python3", "-c", "import rest_framework; print(rest_framework.VERSION)")
	check.Env = env
	if got, err := check.CombinedOutput(); err != nil || !strings.HasPrefix(string(got), level.Version) {
		return nil, "no DRF " + level.Version + "x for /usr/bin/python3 (scripts/install-test-deps): " + strings.TrimSpace(string(got)), nil
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
