// Package pyrun runs the repository's oracles, small Python scripts under
// testdata/ that print, as JSON, what real Django and DRF answer, on
// Debian's /usr/bin/python3. drfsuite.RunDRF runs them by compatibility
// level; a package that drfsuite's imports reach (internal/pycompat) runs
// its own here. Every script finds the oracles' shared module on its
// PYTHONPATH: python/djangodb.py, Django's DATABASES entry of a database
// URL.
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

	"github.com/go-drf/drf/framework/compat"
)

// Level is the Django and DRF a script runs on.
type Level struct {
	// Version is the DRF release's prefix, as rest_framework.VERSION
	// starts.
	Version string
	// Django is the Django release's prefix, as django.get_version()
	// starts.
	Django string
	// Compat is the compatibility level the framework answers at to
	// match it.
	Compat compat.Level
	// Path is the PYTHONPATH that puts the level's packages first; empty
	// for Debian's own.
	Path string
}

// DRF314 is Debian 12's DRF 3.14 on Django 3.2; DRF318 is the DRF 3.18 on
// Django 5.2 that scripts/install-references lays out in
// conformance/reference/drf318.
var (
	DRF314 = Level{Version: "3.14.", Django: "3.2.", Compat: compat.DRF314}
	DRF318 = Level{Version: "3.18.", Django: "5.2.", Compat: compat.Current, Path: filepath.Join(here(), "..", "..", "..", "conformance", "reference", "drf318")}
)

// At is the level of a compatibility level: DRF314 for compat.DRF314,
// else DRF318.
func At(level compat.Level) Level {
	if level == compat.DRF314 {
		return DRF314
	}
	return DRF318
}

// here is this package's directory.
func here() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Dir(file)
}

// env is the environment of a script at level: the level's packages
// first on PYTHONPATH, then the oracles' shared module.
func env(level Level) []string {
	path := filepath.Join(here(), "python")
	if level.Path != "" {
		path = level.Path + string(os.PathListSeparator) + path
	}
	return append(os.Environ(), "PYTHONPATH="+path, "PYTHONDONTWRITEBYTECODE=1")
}

// Levels runs fn once per Django the repository is checked against, each
// as a subtest after Need: "django32", Debian's Django 3.2 and DRF 3.14
// (DRF314), and "django52", Django 5.2 and DRF 3.18 under
// conformance/reference/drf318 (DRF318).
func Levels(t *testing.T, modules string, fn func(t *testing.T, level Level)) {
	t.Helper()
	for _, l := range []struct {
		name  string
		level Level
	}{{"django32", DRF314}, {"django52", DRF318}} {
		t.Run(l.name, func(t *testing.T) {
			Need(t, l.level, modules)
			fn(t, l.level)
		})
	}
}

// Need skips t, or fails it when CI_REQUIRE_DJANGO is set (as CI sets
// it), unless /usr/bin/python3 imports level's Django and each of modules
// ("psycopg2, django_filters").
func Need(t testing.TB, level Level, modules string) {
	t.Helper()
	imports := "django"
	if modules != "" {
		imports += ", " + modules
	}
	if why := missing(level, imports, "django.get_version()", level.Django); why != "" {
		skip(t, why)
	}
}

// missing is why level lacks what imports import, "" when it has it: the
// check fails, or prints (expr) a version without the prefix.
func missing(level Level, imports, expr, prefix string) string {
	got, err := python(level, nil, "-c", "import "+imports+"; print("+expr+")")
	if err != nil || !strings.HasPrefix(string(got), prefix) {
		return "no " + imports + " at " + prefix + "x for /usr/bin/python3 (scripts/install-test-deps): " + strings.TrimSpace(string(got))
	}
	return ""
}

// skip skips t for why, or fails it when CI_REQUIRE_DJANGO is set.
func skip(t testing.TB, why string) {
	t.Helper()
	if os.Getenv("CI_REQUIRE_DJANGO") != "" {
		t.Fatal(why)
	}
	t.Skip(why)
}

// Command is the command that runs /usr/bin/python3 with args at level:
// its environment is the level's, for the caller to add to (its
// directory, its stdin, more variables) and run.
func Command(level Level, args ...string) *exec.Cmd {
	c := exec.Command("/usr/bin/python3", args...)
	c.Env = env(level)
	return c
}

// python runs /usr/bin/python3 with args at level and stdin (none when
// nil), and returns what it printed, or its failure with what it wrote to
// stderr.
func python(level Level, stdin []byte, args ...string) ([]byte, error) {
	c := Command(level, args...)
	if stdin != nil {
		c.Stdin = bytes.NewReader(stdin)
	}
	var stderr bytes.Buffer
	c.Stderr = &stderr
	out, err := c.Output()
	if err != nil {
		return out, fmt.Errorf("python3 %s: %v\n%s", strings.Join(args, " "), err, stderr.Bytes())
	}
	return out, nil
}

// Exec runs /usr/bin/python3 with args (a script of testdata/ and its
// arguments) at level, with in as JSON on its stdin (none when in is
// nil), and returns what it prints; a failure ends the test with what the
// script wrote to stderr. Unlike Run, it runs at every call and checks
// nothing first: call Need, or run under Levels.
func Exec(t testing.TB, level Level, in any, args ...string) []byte {
	t.Helper()
	out, err := python(level, stdinOf(t, in), args...)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// stdinOf is in as JSON, nil when in is nil.
func stdinOf(t testing.TB, in any) []byte {
	t.Helper()
	if in == nil {
		return nil
	}
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	return b
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

// Run runs script (a path from the test's package) with args and
// /usr/bin/python3 on level's Django and DRF, with in as JSON on its stdin
// (none when in is nil), and decodes the JSON it prints into out. A
// script runs once per test binary for a level, input and args. A level
// whose DRF is missing skips the test, or fails it when CI_REQUIRE_DJANGO
// is set.
func Run(t *testing.T, level Level, script string, in, out any, args ...string) {
	t.Helper()
	stdin := stdinOf(t, in)
	abs, err := filepath.Abs(script)
	if err != nil {
		t.Fatal(err)
	}
	v, _ := runs.LoadOrStore(fmt.Sprint(level, "\x00", abs, "\x00", string(stdin), "\x00", args), &run{})
	r := v.(*run)
	r.once.Do(func() { r.out, r.skip, r.err = runScript(level, stdin, append([]string{script}, args...)) })
	switch {
	case r.err != nil:
		t.Fatal(r.err)
	case r.skip != "":
		skip(t, r.skip)
	}
	if err := json.Unmarshal(r.out, out); err != nil {
		t.Fatalf("%s printed %.500q: %v", script, r.out, err)
	}
}

// runScript runs args (a script and its arguments) on level's DRF with
// stdin, and returns what it printed, or why level's DRF is missing, or
// the script's failure.
func runScript(level Level, stdin []byte, args []string) ([]byte, string, error) {
	if why := missing(level, "rest_framework", "rest_framework.VERSION", level.Version); why != "" {
		return nil, why, nil
	}
	out, err := python(level, stdin, args...)
	return out, "", err
}
