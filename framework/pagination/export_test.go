package pagination

import "github.com/go-drf/drf/framework"

// KeysetCursor is the cursor p signs for the forward page after
// positions, the values of p's ordering (key included), for benchmarks
// that start deep in a list.
func KeysetCursor(p *KeysetPagination, positions ...string) string {
	c, err := p.Resolve(&framework.Settings{PageSize: 1})
	if err != nil {
		panic(err)
	}
	return c.encode(keysetCursor{positions: positions}, c.ordering)
}
