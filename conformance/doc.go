// Package conformance holds the test that sends one table of requests to the
// Go sample (sample/) and to the DRF reference of the same contract, and
// compares their answers: the sample with its defaults against DRF 3.18 on
// Django 5.2 (../shared/reference-latest), the sample at DRF 3.14 level
// against DRF 3.14 on Django 3.2 (../shared/reference); TestCompatibility
// pins the requests whose answers differ between the two. It has no code
// of its own: run it with `go test ./conformance`.
package conformance
