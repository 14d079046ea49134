package pagination

import "github.com/go-drf/drf/framework/queryset"

// KeysetCursor is the cursor p signs for the forward page after
// positions, the values of p's ordering (key included), for benchmarks
// that start deep in a list.
func KeysetCursor(p *KeysetPagination, positions ...string) string {
	return p.encode(keysetCursor{positions: positions}, p.ordering([]queryset.Order(nil)))
}
