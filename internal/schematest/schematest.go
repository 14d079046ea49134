// Package schematest checks, for the module's tests, OpenAPI documents
// with an independent validator, @seriousme/openapi-schema-validator from
// the npm registry, which scripts/install-test-deps installs into
// tools/openapi/. Tests that use it skip when it is missing, unless
// CI_REQUIRE_OPENAPI_VALIDATOR=1.
package schematest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// RequireEnv makes a missing validator fail the test instead of skipping it.
const RequireEnv = "CI_REQUIRE_OPENAPI_VALIDATOR"

// tool returns the path of one of tools/openapi's commands, skipping (or
// failing, under RequireEnv) when it is not installed.
func tool(t testing.TB, name string) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("schematest: no go.mod above the test's directory")
		}
		dir = parent
	}
	path := filepath.Join(dir, "tools", "openapi", "node_modules", ".bin", name)
	_, statErr := os.Stat(path)
	_, nodeErr := exec.LookPath("node")
	if err := errors.Join(statErr, nodeErr); err != nil {
		msg := "the OpenAPI validator is not installed (run scripts/install-test-deps): " + err.Error()
		if os.Getenv(RequireEnv) == "1" {
			t.Fatal(RequireEnv + "=1 but " + msg)
		}
		t.Skip(msg + "; set " + RequireEnv + "=1 to fail instead of skipping")
	}
	return path
}

// Validate checks doc, an OpenAPI document in JSON or YAML, against the
// OpenAPI 3.1 specification's schema, failing t with the validator's
// report when it is not valid.
func Validate(t testing.TB, doc []byte) {
	t.Helper()
	if err := Check(t, doc); err != nil {
		t.Fatal(err)
	}
}

// Check is Validate that returns the validator's report as an error.
func Check(t testing.TB, doc []byte) error {
	t.Helper()
	validator := tool(t, "validate-api")
	f := filepath.Join(t.TempDir(), "openapi.yaml")
	if err := os.WriteFile(f, doc, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(validator, f).CombinedOutput()
	var report struct {
		Valid bool `json:"valid"`
	}
	if jsonErr := json.Unmarshal(out, &report); err != nil || jsonErr != nil || !report.Valid {
		return fmt.Errorf("the OpenAPI validator rejects the document (%v):\n%s", err, out)
	}
	return nil
}

// YAMLToJSON reads a YAML document with the yaml package's own reader (the
// one the validator uses) and returns it as JSON, to compare a YAML
// rendering with the JSON one.
func YAMLToJSON(t testing.TB, doc []byte) []byte {
	t.Helper()
	reader := tool(t, "yaml")
	cmd := exec.Command(reader, "--json", "--single")
	cmd.Stdin = bytes.NewReader(doc)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("the YAML reader rejects the document: %v\n%s", err, stderr.Bytes())
	}
	return out
}
