package drfsuite

import (
	"testing"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/internal/drfsuite/pyrun"
)

// RunDRF runs script (a path from the test's package) on the DRF of
// level, Debian's DRF 3.14 or the DRF 3.18 of conformance/reference/drf318,
// with in as JSON on its stdin, and decodes the JSON it prints into out,
// as pyrun.Run does: once per test binary, skipping the test (or failing
// it when CI_REQUIRE_DJANGO is set) when that DRF is missing.
func RunDRF(t *testing.T, level framework.Compatibility, script string, in, out any) {
	t.Helper()
	pyrun.Run(t, pyrun.At(level), script, in, out)
}
