//go:build race

package pagination_test

// raceSlowdown is how much slower the race detector makes the pages of
// TestLinksWithManyParameters (about 20x for the browsable ones).
const raceSlowdown = 12
