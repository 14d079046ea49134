package testservers

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// DjangoLevels runs fn once per Django the repository is checked against,
// each as a subtest: "django32", Debian's Django 3.2 and DRF 3.14
// (pythonPath ""), and "django52", Django 5.2 and DRF 3.18 under
// conformance/reference/drf318 (pythonPath, absolute, for PYTHONPATH).
// Debian's python3 must import each of modules ("django, psycopg2"), and
// drf318 be laid out (scripts/install-references); else the test is
// skipped, or fails when CI_REQUIRE_DJANGO is set, as CI sets it.
func DjangoLevels(t *testing.T, modules string, fn func(t *testing.T, pythonPath string)) {
	t.Helper()
	if out, err := exec.Command("/usr/bin/python3", "-c", "import "+modules).CombinedOutput(); err != nil {
		djangoMissing(t, "no Debian python3 with "+modules+": "+strings.TrimSpace(string(out)))
	}
	t.Run("django32", func(t *testing.T) { fn(t, "") })
	t.Run("django52", func(t *testing.T) {
		root, err := moduleRoot()
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(root, "conformance", "reference", "drf318")
		if _, err := os.Stat(filepath.Join(path, "django")); err != nil {
			djangoMissing(t, "no Django 5.2 under conformance/reference/drf318 (scripts/install-references)")
		}
		fn(t, path)
	})
}

// RunPython runs Debian's python3 with args (a script of testdata/ and
// its arguments) and PYTHONPATH pythonPath when not "", and returns what
// it prints; a failure ends the test with what it wrote to stderr.
func RunPython(t testing.TB, pythonPath string, args ...string) []byte {
	t.Helper()
	cmd := exec.Command("/usr/bin/python3", args...)
	if pythonPath != "" {
		cmd.Env = append(os.Environ(), "PYTHONPATH="+pythonPath)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("python3 %s: %v\n%s", strings.Join(args, " "), err, stderr.Bytes())
	}
	return out
}

// djangoMissing skips t for why, or fails it under CI_REQUIRE_DJANGO.
func djangoMissing(t *testing.T, why string) {
	t.Helper()
	if os.Getenv("CI_REQUIRE_DJANGO") != "" {
		t.Fatal(why)
	}
	t.Skip(why)
}

// moduleRoot is the directory of the module's go.mod, above the test's
// working directory.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", os.ErrNotExist
		}
		dir = parent
	}
}
