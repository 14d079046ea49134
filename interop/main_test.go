package interop_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// secondDjango marks the second run of the package's tests, against
// Django 5.2.
const secondDjango = "INTEROP_DJANGO52"

// TestMain runs the package's tests against the system's Django (Debian's
// 3.2), then again against Django 5.2 where conformance/reference/drf318
// holds it (scripts/install-references lays it out), so
// that one `go test` covers both Djangos a Go service may share a database
// with. Without that Django the second run is skipped with a message, or
// fails when CI_REQUIRE_DJANGO is set.
func TestMain(m *testing.M) {
	code := m.Run()
	if code != 0 || os.Getenv(secondDjango) != "" {
		os.Exit(code)
	}
	vendor, err := filepath.Abs(filepath.Join("..", "conformance", "reference", "drf318"))
	if err == nil {
		_, err = os.Stat(filepath.Join(vendor, "django"))
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "interop: no Django 5.2 at %s (scripts/install-references): tested against one Django only\n", vendor)
		if os.Getenv("CI_REQUIRE_DJANGO") != "" {
			os.Exit(1)
		}
		os.Exit(code)
	}
	cmd := exec.Command(os.Args[0], os.Args[1:]...)
	cmd.Env = append(os.Environ(), secondDjango+"=1", "DJANGO_PYTHON=/usr/bin/python3",
		"PYTHONPATH="+strings.TrimSuffix(vendor+string(os.PathListSeparator)+os.Getenv("PYTHONPATH"), string(os.PathListSeparator)))
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	if err := cmd.Run(); err != nil {
		fmt.Fprintf(os.Stderr, "interop: the tests against Django 5.2: %v\n", err)
		os.Exit(1)
	}
	os.Exit(0)
}
