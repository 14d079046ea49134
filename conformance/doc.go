// Package conformance holds the test that sends one table of requests to the
// Go sample (sample/) and to the DRF reference of the same contract
// (../shared/reference), and compares their answers. It has no code of its
// own: run it with `go test ./conformance`.
package conformance
