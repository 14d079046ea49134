package framework_test

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestLayers: the core names no data package (queryset, serializers, the
// throttle caches) and no policy's built-ins, only the vocabulary they
// share (query), so that a request crosses few packages and the core
// stays small; and nothing under framework imports contrib.
func TestLayers(t *testing.T) {
	const module = "github.com/go-drf/drf/"
	banned := map[string]bool{}
	for _, p := range []string{"queryset", "serializers", "cache", "throttling", "pagination", "generics", "filters"} {
		banned[module+"framework/"+p] = true
	}
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") || strings.Contains(path, "testdata") {
			return err
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, src, parser.ImportsOnly)
		if err != nil {
			return err
		}
		core := filepath.Dir(path) == "."
		for _, imp := range f.Imports {
			name, _ := strconv.Unquote(imp.Path.Value)
			if strings.HasPrefix(name, module+"contrib/") {
				t.Errorf("%s imports %s: framework never imports contrib", path, name)
			}
			if core && banned[name] {
				t.Errorf("%s imports %s: the core imports no data package or built-in policy", path, name)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
