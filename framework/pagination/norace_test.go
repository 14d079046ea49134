//go:build !race

package pagination_test

// raceSlowdown is 1 without the race detector.
const raceSlowdown = 1
